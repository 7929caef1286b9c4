// The kinds of value a flag or argument of the chaintwin command line takes: for each, what it
// expects (as help and errors say it), its placeholder in usage lines, and how text becomes the
// value. Parsing never throws and refuses out-of-range numbers (a seed beyond 2^64 - 1, a port
// beyond 65535): the command line (command_line.cpp) turns a refusal into one line naming the flag,
// and exit code 2. Pure: no I/O, no environment.
#pragma once

#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/sim_time.h"

namespace chaintwin::cli {

template <typename T>
struct ValueKind {
  std::string type_name;  // the placeholder in usage and help: N, T, FILE, text|json
  std::string expected;   // what a value must be: "a whole number from 1 to 1024"
  std::function<std::optional<T>(const std::string&)> parse;
  std::function<std::string(const T&)> show;  // how help prints a default
};

// A whole number written in decimal digits only (no sign, no spaces), from `min` to `max`
// (min >= 0: the command line takes no negative numbers).
template <typename T>
ValueKind<T> whole_number(T min, T max, std::string type_name = "N") {
  return {std::move(type_name),
          "a whole number from " + std::to_string(min) + " to " + std::to_string(max),
          [min, max](const std::string& s) -> std::optional<T> {
            if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
            T v{};
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (ec != std::errc() || end != s.data() + s.size() || v < min || v > max) return std::nullopt;
            return v;
          },
          [](const T& v) { return std::to_string(v); }};
}
// A random seed: 0 to 18446744073709551615 (2^64 - 1).
ValueKind<uint64_t> seed_value();
// A decimal number greater than 0 and at most `max` (finite; "inf" and "nan" are refused).
ValueKind<double> positive_number(double max, std::string type_name, std::string unit);
// A duration in the scenario syntax (30s, 15m, 6h, 2d: an integer with a unit); with `positive`,
// longer than 0s.
ValueKind<sim::SimTime> duration(bool positive = false, std::string type_name = "T");
// One of `choices`, spelled exactly; its placeholder is "a|b|c".
ValueKind<std::string> one_of(std::vector<std::string> choices);
// Any text that is not empty, e.g. a file name ("FILE", "a file name").
ValueKind<std::string> text(std::string type_name, std::string expected);

// HOST:PORT, PORT from 0 to 65535 (0: any free port).
struct HostPort {
  std::string host;
  int port = 0;
  bool operator==(const HostPort&) const = default;
};
ValueKind<HostPort> host_port();

// WxH in pixels, from 320x240 to 8192x8192.
struct PixelSize {
  int width = 0, height = 0;
  bool operator==(const PixelSize&) const = default;
};
ValueKind<PixelSize> pixel_size();

// I/N (share I, 0-based, of N) or N alone (I then comes from the environment, e.g. a Kubernetes
// Indexed Job's JOB_COMPLETION_INDEX: the command reads it).
struct ShardSpec {
  std::optional<int64_t> index;
  int64_t count = 1;
  bool operator==(const ShardSpec&) const = default;
};
ValueKind<ShardSpec> shard_spec();

// NAME=VALUE, both not empty (`--set instance-type-mixed-on-node=false`, `--role TOKEN=FILE`).
ValueKind<std::pair<std::string, std::string>> name_value(std::string type_name);

// NAME=P[,NAME=P...] with every NAME one of `names` and P a probability from 0 to 1.
ValueKind<std::map<std::string, double>> probabilities(std::vector<std::string> names);

// A value with the text it was written as (a duration that goes into a scenario as typed).
template <typename T>
struct Written {
  T value{};
  std::string text;
};
template <typename T>
ValueKind<Written<T>> as_written(ValueKind<T> kind) {
  auto parse = kind.parse;
  auto show = kind.show;
  return {kind.type_name, kind.expected,
          [parse](const std::string& s) -> std::optional<Written<T>> {
            auto v = parse(s);
            if (!v) return std::nullopt;
            return Written<T>{std::move(*v), s};
          },
          [show](const Written<T>& w) { return w.text.empty() ? show(w.value) : w.text; }};
}

// The shortest decimal that reads back as `v` (600, 0.5, 1e-06).
std::string show_number(double v);

}  // namespace chaintwin::cli
