#include "tests/golden/golden_runner.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace chaintwin::golden {

std::vector<Handler>& registry() {
  static std::vector<Handler> handlers;
  return handlers;
}

std::string FileReport::summary() const {
  std::ostringstream out;
  out << "golden " << file << ": " << passed << " passed, " << failures.size() << " failed";
  return out.str();
}

namespace {

std::string show(const json& v) {
  std::string s = v.dump();
  if (s.size() > 400) s = s.substr(0, 400) + "…";
  return s;
}

const Handler* find_handler(const std::string& area, const std::string& source) {
  const Handler* best = nullptr;
  for (const auto& h : registry()) {
    if (h.area != area) continue;
    if (source.find(h.source_fragment) == std::string::npos) continue;
    if (best == nullptr || h.source_fragment.size() > best->source_fragment.size()) best = &h;
  }
  return best;
}

struct Case {
  std::string name;
  std::string source;
  json input;
  json expected;
};

// Normalises the three file layouts into (area, cases).
std::pair<std::string, std::vector<Case>> load_cases(const json& doc, const std::string& stem) {
  std::vector<Case> cases;
  if (doc.is_object() && doc.contains("cases")) {
    const std::string area = doc.value("area", stem);
    for (const auto& c : doc.at("cases")) {
      cases.push_back({c.value("name", "(unnamed)"), c.value("source", ""),
                       c.value("input", json::object()), c.value("expected", json::object())});
    }
    return {area, cases};
  }
  if (doc.is_array()) {  // mig-cases.json: each element is a whole case, named by `id`
    for (const auto& c : doc) cases.push_back({c.value("id", "(unnamed)"), c.value("source", ""), c, c});
    return {stem, cases};
  }
  // A catalog keyed by name (mig-profiles.json): each entry is checked as a case.
  for (const auto& [key, value] : doc.items()) {
    json input = {{"key", key}, {"entry", value}};
    cases.push_back({key, "catalog", input, value});
  }
  return {stem, cases};
}

}  // namespace

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

FileReport run_golden_file(const std::string& path) {
  FileReport report;
  const std::filesystem::path p(path);
  report.file = p.filename().string();
  std::ifstream in(path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const std::exception& e) {
    report.failures.push_back({"(file)", std::string("not JSON: ") + e.what()});
    return report;
  }
  auto [area, cases] = load_cases(doc, p.stem().string());
  for (const auto& c : cases) {
    const Handler* h = find_handler(area, c.source);
    if (h == nullptr) {
      report.failures.push_back({c.name, "  no handler for area '" + area + "' and source '" + c.source +
                                             "' — this case cannot run, which counts as a failure\n"});
      continue;
    }
    try {
      const json got = h->fn(c.input, c.expected);
      const std::string d = diff_json(c.expected, got, h->documentation_keys);
      if (d.empty()) {
        ++report.passed;
      } else {
        report.failures.push_back({c.name, d});
      }
    } catch (const std::exception& e) {
      report.failures.push_back({c.name, std::string("  threw: ") + e.what() + "\n"});
    }
  }
  return report;
}

}  // namespace chaintwin::golden
