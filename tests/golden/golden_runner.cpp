#include "tests/golden/golden_runner.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace chaintwin::golden {

std::vector<Handler>& registry() {
  static std::vector<Handler> handlers;
  return handlers;
}

std::vector<NotCovered>& not_covered() {
  static std::vector<NotCovered> functions;
  return functions;
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string show(const json& v) {
  std::string s = v.dump();
  if (s.size() > 400) s = s.substr(0, 400) + "…";
  return s;
}

std::string list(const KeySet& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + ("'" + k + "'");
  return out;
}

KeySet keys_of(const json& j) {
  KeySet out;
  if (j.is_object())
    for (const auto& [k, v] : j.items()) out.insert(k);
  return out;
}

KeySet minus(const KeySet& a, const KeySet& b) {
  KeySet out;
  for (const auto& k : a)
    if (!b.count(k)) out.insert(k);
  return out;
}

KeySet join(std::initializer_list<const KeySet*> sets) {
  KeySet out;
  for (const auto* s : sets) out.insert(s->begin(), s->end());
  return out;
}

// What of a case one handler does not understand; empty when the handler fits the case.
struct Misfit {
  KeySet unknown_input, unknown_expected, missing_input, missing_expected;
  bool fits() const {
    return unknown_input.empty() && unknown_expected.empty() && missing_input.empty() && missing_expected.empty();
  }
  size_t size() const {
    return unknown_input.size() + unknown_expected.size() + missing_input.size() + missing_expected.size();
  }
  std::string describe() const {
    std::string out;
    const auto add = [&](const char* what, const KeySet& keys) {
      if (!keys.empty()) out += std::string(out.empty() ? "" : "; ") + what + " " + list(keys);
    };
    add("input fields it does not understand:", unknown_input);
    add("expected fields it does not understand:", unknown_expected);
    add("missing input fields:", missing_input);
    add("the case does not ask for:", missing_expected);
    return out;
  }
};

// A whole case (mig-cases.json) is both input and expected: each key must be known to the handler
// in either role.
Misfit misfit(const Shape& s, const json& input, const json& expected, bool whole_case) {
  Misfit m;
  const KeySet in = keys_of(input), want = keys_of(expected);
  const KeySet inputs = join({&s.required, &s.optional}), outputs = join({&s.answers, &s.prose});
  if (whole_case) {
    m.unknown_input = minus(in, join({&inputs, &outputs}));
  } else {
    m.unknown_input = minus(in, inputs);
    m.unknown_expected = minus(want, outputs);
  }
  m.missing_input = minus(s.required, in);
  m.missing_expected = minus(s.must_answer, want);
  return m;
}

struct Case {
  std::string name;
  json object;  // the case as written (its `function`, `name`, `reference`, ...)
  json input;
  json expected;
  bool whole = false;
};

// The fields a case of the {area, cases} layout may carry besides input and expected.
// `divergence` (operator-code-rules.md §4, §5 item 5) is the expectation under the other operator
// version, for a case whose answer differs between the two; like `note` it is never compared.
const KeySet kCaseFields = {"name", "source", "function", "reference", "input", "expected",
                            "note", "derived", "divergence", "supersededTestExpectation"};

// Normalises the three file layouts into (area, cases).
std::pair<std::string, std::vector<Case>> load_cases(const json& doc, const std::string& stem) {
  std::vector<Case> cases;
  if (doc.is_object() && doc.contains("cases")) {
    const std::string area = doc.value("area", stem);
    for (const auto& c : doc.at("cases"))
      cases.push_back({c.value("name", "(unnamed)"), c, c.value("input", json::object()),
                       c.value("expected", json::object()), false});
    return {area, cases};
  }
  if (doc.is_array()) {  // mig-cases.json: each element is a whole case, named by `id`
    for (const auto& c : doc) cases.push_back({c.value("id", "(unnamed)"), json::object(), c, c, true});
    return {stem, cases};
  }
  // A catalog keyed by name (mig-profiles.json): each entry is checked as a case.
  for (const auto& [key, value] : doc.items()) {
    json input = {{"key", key}, {"entry", value}};
    cases.push_back({key, json::object(), input, value, false});
  }
  return {stem, cases};
}

}  // namespace

bool Handler::answers_to(const std::string& name) const {
  const std::string n = lower(name);
  if (lower(function) == n) return true;
  for (const auto& a : aliases)
    if (lower(a) == n) return true;
  return false;
}

std::string named_function(const json& case_object) {
  if (!case_object.is_object()) return "";
  if (case_object.contains("function")) {
    const json& f = case_object.at("function");
    return f.is_string() ? f.get<std::string>() : f.dump();
  }
  const std::string name = case_object.value("name", "");
  const size_t colon = name.find(':');
  if (colon == std::string::npos) return "";
  std::string prefix = name.substr(0, colon);
  while (!prefix.empty() && std::isspace(static_cast<unsigned char>(prefix.back()))) prefix.pop_back();
  while (!prefix.empty() && std::isspace(static_cast<unsigned char>(prefix.front()))) prefix.erase(0, 1);
  static const std::regex identifier(R"(([A-Za-z_][A-Za-z0-9_.]*)(\([^()]*\))?)");
  std::smatch m;
  if (!std::regex_match(prefix, m, identifier)) return "";
  return m[1].str();
}

Dispatch dispatch_case(const std::string& area, const json& case_object, const json& input, const json& expected,
                       bool whole_case) {
  std::vector<const Handler*> candidates;
  for (const auto& h : registry())
    if (h.area == area) candidates.push_back(&h);
  if (candidates.empty()) return {nullptr, "no handler answers area '" + area + "'"};

  if (case_object.is_object()) {
    const KeySet unknown = minus(keys_of(case_object), kCaseFields);
    if (!unknown.empty()) return {nullptr, "case fields it does not understand: " + list(unknown)};
  }

  const std::string function = named_function(case_object);
  const bool explicit_function = case_object.is_object() && case_object.contains("function");
  if (!function.empty()) {
    std::vector<const Handler*> named;
    for (const auto* h : candidates)
      if (h->answers_to(function)) named.push_back(h);
    if (named.empty()) {
      KeySet known;
      for (const auto* h : candidates) known.insert(h->function);
      return {nullptr, "unknown function '" + function + "' (named by " +
                           (explicit_function ? std::string("its `function` field") : "the prefix of its name") +
                           ") in area '" + area + "'; the area's functions: " + list(known)};
    }
    candidates = named;
  }

  std::vector<const Handler*> fitting;
  for (const auto* h : candidates)
    if (misfit(h->shape, input, expected, whole_case).fits()) fitting.push_back(h);
  if (fitting.size() == 1) return {fitting.front(), ""};
  if (fitting.size() > 1) {
    std::string names;
    for (const auto* h : fitting) names += (names.empty() ? "'" : ", '") + h->label() + "'";
    return {nullptr, "ambiguous shape: " + names +
                         " all fit its fields; name the function (`function`, or the name's prefix before ':')"};
  }
  // None fits: name what the closest handlers did not understand.
  size_t best = SIZE_MAX;
  for (const auto* h : candidates) best = std::min(best, misfit(h->shape, input, expected, whole_case).size());
  std::string why = function.empty() ? "no handler of area '" + area + "' fits its fields"
                                     : "no handler of '" + function + "' fits its fields";
  for (const auto* h : candidates) {
    const Misfit m = misfit(h->shape, input, expected, whole_case);
    if (m.size() == best) why += "\n    closest, '" + h->label() + "': " + m.describe();
  }
  return {nullptr, why};
}

int FileReport::unknown_shapes() const {
  return static_cast<int>(std::count_if(failures.begin(), failures.end(), [](const auto& f) { return f.unknown_shape; }));
}

std::string FileReport::summary() const {
  std::ostringstream out;
  out << "golden " << file << ": " << passed << " passed, " << failures.size() << " failed";
  if (const int u = unknown_shapes(); u > 0) out << " (" << u << " of unknown shape)";
  return out.str();
}

std::string diff_json(const json& want, const json& got, const std::set<std::string>& ignored,
                      const std::string& path) {
  std::ostringstream out;
  if (want.is_object() && got.is_object()) {
    for (const auto& [key, value] : want.items()) {
      if (path.empty() && ignored.count(key)) continue;
      const std::string sub = path.empty() ? key : path + "." + key;
      if (!got.contains(key)) {
        out << "  " << sub << ": want " << show(value) << ", got nothing\n";
        continue;
      }
      out << diff_json(value, got.at(key), {}, sub);
    }
    if (!path.empty()) {
      for (const auto& [key, value] : got.items())
        if (!want.contains(key)) out << "  " << path << "." << key << ": want nothing, got " << show(value) << "\n";
    }
    return out.str();
  }
  if (want != got) out << "  " << (path.empty() ? "(value)" : path) << ": want " << show(want) << ", got " << show(got) << "\n";
  return out.str();
}

FileReport run_golden_document(const json& doc, const std::string& stem, const RunOptions& options) {
  FileReport report;
  report.file = stem + ".json";
  auto [area, cases] = load_cases(doc, stem);
  report.area = area;
  for (const auto& c : cases) {
    if (options.require_reference) {
      const json ref = c.object.value("reference", json());
      if (!ref.is_string() || ref.get<std::string>().empty()) {
        report.failures.push_back({c.name, "  has no `reference` (the reference section it rests on)\n", false});
        continue;
      }
    }
    const Dispatch d = dispatch_case(area, c.object, c.input, c.expected, c.whole);
    if (d.handler == nullptr) {
      report.failures.push_back({c.name, "  unknown shape: " + d.why + "\n", true});
      continue;
    }
    ++report.ran_by[d.handler->label()];
    try {
      const json got = d.handler->fn(c.input, c.expected);
      const std::string diff = diff_json(c.expected, got, d.handler->shape.prose);
      if (diff.empty()) {
        ++report.passed;
      } else {
        report.failures.push_back({c.name, "  (" + d.handler->label() + ")\n" + diff, false});
      }
    } catch (const std::exception& e) {
      report.failures.push_back({c.name, "  (" + d.handler->label() + ") threw: " + e.what() + "\n", false});
    }
  }
  return report;
}

FileReport run_golden_file(const std::string& path, const RunOptions& options) {
  const std::filesystem::path p(path);
  std::ifstream in(path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const std::exception& e) {
    FileReport report;
    report.file = p.filename().string();
    report.failures.push_back({"(file)", std::string("not JSON: ") + e.what(), false});
    return report;
  }
  FileReport report = run_golden_document(doc, p.stem().string(), options);
  report.file = p.filename().string();
  return report;
}

std::map<std::string, AreaCoverage> coverage_of(const std::vector<FileReport>& reports) {
  std::map<std::string, AreaCoverage> out;
  for (const auto& h : registry()) out[h.area].ran_by[h.label()] += 0;
  for (const auto& n : not_covered()) out[n.area].not_covered.push_back(n.function + " — " + n.why);
  for (const auto& r : reports) {
    if (r.area.empty()) continue;
    auto& area = out[r.area];
    area.cases += r.passed + static_cast<int>(r.failures.size());
    area.unknown_shapes += r.unknown_shapes();
    for (const auto& [label, n] : r.ran_by) area.ran_by[label] += n;
  }
  return out;
}

std::string format_coverage(const std::map<std::string, AreaCoverage>& coverage) {
  std::ostringstream out;
  for (const auto& [area, c] : coverage) {
    int handled = 0;
    for (const auto& [label, n] : c.ran_by) handled += n;
    out << "golden area " << area << ": " << c.cases << " cases, " << handled << " run by " << c.ran_by.size()
        << " handlers, " << c.unknown_shapes << " of unknown shape\n";
    for (const auto& [label, n] : c.ran_by) out << "    " << n << "\t" << label << "\n";
    for (const auto& n : c.not_covered) out << "    not covered: " << n << "\n";
  }
  return out.str();
}

}  // namespace chaintwin::golden
