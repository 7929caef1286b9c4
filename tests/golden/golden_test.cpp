// The golden suite: every case of every file in the golden directories must pass.
// The directories are tests/golden/cases (recorded cases; CHAINTWIN_GOLDEN_DIR replaces it, and then
// runs alone) and tests/golden/own (our own cases, each naming its reference section).
// CHAINTWIN_GOLDEN_ONLY=<stem>[,own/<stem>...] limits the run to some files (ctest runs one file per test).
// After the files, the per-area coverage: how many cases each handler ran, unknown shapes, and the
// functions no handler covers.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <catch2/catch.hpp>

#include "tests/golden/golden_runner.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> wanted_stems() {
  std::vector<std::string> stems;
  if (const char* only = std::getenv("CHAINTWIN_GOLDEN_ONLY")) {
    std::stringstream ss(only);
    std::string item;
    while (std::getline(ss, item, ',')) if (!item.empty()) stems.push_back(item);
  }
  return stems;
}

struct GoldenDir {
  fs::path dir;
  std::string prefix;  // "" for the recorded cases, "own/" for ours (as CHAINTWIN_GOLDEN_ONLY names them)
  bool require_reference = false;
};

std::vector<GoldenDir> golden_dirs() {
  if (const char* env_dir = std::getenv("CHAINTWIN_GOLDEN_DIR")) return {{env_dir, "", false}};
  return {{CHAINTWIN_DEFAULT_GOLDEN_DIR, "", false}, {CHAINTWIN_OWN_GOLDEN_DIR, "own/", true}};
}

}  // namespace

TEST_CASE("every recorded case of every golden file passes", "[golden]") {
  const auto stems = wanted_stems();
  std::vector<std::pair<fs::path, const GoldenDir*>> files;
  const auto dirs = golden_dirs();
  for (const auto& d : dirs) {
    if (!fs::is_directory(d.dir)) {
      INFO("golden directory " << d.dir << " is missing");
      CHECK(!d.prefix.empty());  // own/ may be absent in an external run; the recorded cases may not
      continue;
    }
    for (const auto& entry : fs::directory_iterator(d.dir))
      if (entry.path().extension() == ".json") files.emplace_back(entry.path(), &d);
  }
  std::sort(files.begin(), files.end());
  const auto id = [](const auto& f) { return f.second->prefix + f.first.stem().string(); };
  if (!stems.empty()) {
    for (const auto& stem : stems) {
      INFO("golden file " << stem << ".json is asked for but is not in the golden directories");
      CHECK(std::any_of(files.begin(), files.end(), [&](const auto& f) { return id(f) == stem; }));
    }
    std::erase_if(files, [&](const auto& f) { return std::find(stems.begin(), stems.end(), id(f)) == stems.end(); });
  }
  REQUIRE_FALSE(files.empty());

  std::vector<chaintwin::golden::FileReport> reports;
  for (const auto& [file, dir] : files) {
    auto report = chaintwin::golden::run_golden_file(file.string(), {dir->require_reference});
    report.file = dir->prefix + report.file;
    std::cout << report.summary() << "\n";
    std::ostringstream failures;
    for (const auto& f : report.failures) {
      std::cout << "  FAILED " << f.name << "\n" << f.detail;
      failures << f.name << "\n" << f.detail;
    }
    std::cout.flush();
    INFO(report.summary() << "\n" << failures.str());
    CHECK(report.failures.empty());
    CHECK(report.passed > 0);
    reports.push_back(std::move(report));
  }

  // The per-area report, for the areas these files belong to.
  auto coverage = chaintwin::golden::coverage_of(reports);
  std::erase_if(coverage, [&](const auto& area) {
    return std::none_of(reports.begin(), reports.end(), [&](const auto& r) { return r.area == area.first; });
  });
  std::cout << chaintwin::golden::format_coverage(coverage);
  std::cout.flush();
}
