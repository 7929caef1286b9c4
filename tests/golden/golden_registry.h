// The golden runner's handler registry. A handler answers one function, reconciler, codec or
// object of the operator (by the operator's name) for one area: it turns a case's `input` into
// the values our model computes, as JSON shaped like the case's `expected`; the runner compares
// the two key by key.
//
// A case is dispatched by its shape, never by where it was recorded from (`source`): the function
// it names (an explicit `function` field, else the prefix of its `name` before ':' when that is a
// function-like identifier), then the input and expected keys it carries — see
// tests/golden/own/README.md ("the shape rule").
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace chaintwin::golden {

using json = nlohmann::json;

// Computes `got` for one case. Throwing std::exception marks the case failed with its message.
using HandlerFn = std::function<json(const json& input, const json& expected)>;

using KeySet = std::set<std::string>;

// What a handler understands of a case.
struct Shape {
  KeySet required;     // input keys every case of this handler carries
  KeySet optional;     // input keys a case may carry
  KeySet answers;      // expected keys the handler computes
  KeySet must_answer;  // expected keys a case must ask (tells apart handlers with the same inputs)
  KeySet prose;        // keys of `expected` that are documentation, not assertions: never compared
};

struct Handler {
  std::string area;                  // golden file area, e.g. "capacity-labels"
  std::string function;              // the operator's name, e.g. "desiredAcceleratorCapacity"
  std::vector<std::string> aliases;  // other names a case may use for the same function
  std::string setup;                 // for a reconciler run from one recorded fixture: which one
  Shape shape;
  HandlerFn fn;
  // Name used in reports: "function" or "function [setup]".
  std::string label() const { return setup.empty() ? function : function + " [" + setup + "]"; }
  bool answers_to(const std::string& name) const;  // function or alias, case-insensitively
};

std::vector<Handler>& registry();

// A function of an area the operator exposes that no handler answers, because the model does not
// have it (or has it only inside another function); the per-area report lists them.
struct NotCovered {
  std::string area;
  std::string function;
  std::string why;
};
std::vector<NotCovered>& not_covered();

// Fluent description of a handler: Spec(area, "function").in({...}).out({...}) ...
class Spec {
 public:
  Spec(std::string area, std::string function) {
    h_.area = std::move(area);
    h_.function = std::move(function);
  }
  Spec& alias(std::string name) { h_.aliases.push_back(std::move(name)); return *this; }
  Spec& setup(std::string text) { h_.setup = std::move(text); return *this; }
  Spec& in(KeySet keys) { h_.shape.required = std::move(keys); return *this; }
  Spec& opt(KeySet keys) { h_.shape.optional = std::move(keys); return *this; }
  Spec& out(KeySet keys) { h_.shape.answers = std::move(keys); return *this; }
  Spec& must(KeySet keys) { h_.shape.must_answer = std::move(keys); return *this; }
  Spec& prose(KeySet keys) { h_.shape.prose = std::move(keys); return *this; }
  Handler build(HandlerFn fn) && {
    h_.fn = std::move(fn);
    return std::move(h_);
  }

 private:
  Handler h_;
};

struct Registrar {
  Registrar(Spec spec, HandlerFn fn) { registry().push_back(std::move(spec).build(std::move(fn))); }
};

struct NotCoveredRegistrar {
  NotCoveredRegistrar(std::string area, std::string function, std::string why) {
    not_covered().push_back({std::move(area), std::move(function), std::move(why)});
  }
};

}  // namespace chaintwin::golden

#define GOLDEN_CONCAT_INNER(a, b) a##b
#define GOLDEN_CONCAT(a, b) GOLDEN_CONCAT_INNER(a, b)
// GOLDEN_HANDLER(Spec("area", "function").in({...}).out({...}), [](const json& in, const json& want) { ... });
#define GOLDEN_HANDLER(...) \
  static const ::chaintwin::golden::Registrar GOLDEN_CONCAT(golden_registrar_, __LINE__){__VA_ARGS__};
// GOLDEN_NOT_COVERED("area", "function", "why the model cannot answer it");
#define GOLDEN_NOT_COVERED(...) \
  static const ::chaintwin::golden::NotCoveredRegistrar GOLDEN_CONCAT(golden_not_covered_, __LINE__){__VA_ARGS__};
