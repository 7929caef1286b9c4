// The golden suite: every case of every file in the golden directory must pass.
// The directory is CHAINTWIN_GOLDEN_DIR (default: the project's own copy, tests/golden/cases);
// CHAINTWIN_GOLDEN_ONLY=<stem>[,<stem>...] limits the run to some files (ctest runs one file per test).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <catch2/catch.hpp>

#include "tests/golden/golden_runner.h"

namespace {

std::vector<std::string> wanted_stems() {
  std::vector<std::string> stems;
  if (const char* only = std::getenv("CHAINTWIN_GOLDEN_ONLY")) {
    std::stringstream ss(only);
    std::string item;
    while (std::getline(ss, item, ',')) if (!item.empty()) stems.push_back(item);
  }
  return stems;
}

}  // namespace

TEST_CASE("every recorded case of every golden file passes", "[golden]") {
  const char* env_dir = std::getenv("CHAINTWIN_GOLDEN_DIR");
  const std::filesystem::path dir = env_dir != nullptr ? env_dir : CHAINTWIN_DEFAULT_GOLDEN_DIR;
  REQUIRE(std::filesystem::is_directory(dir));
  const auto stems = wanted_stems();

  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (!stems.empty()) {
    for (const auto& stem : stems) {
      INFO("golden file " << stem << ".json is asked for but is not in " << dir);
      CHECK(std::filesystem::exists(dir / (stem + ".json")));
    }
    std::erase_if(files, [&](const auto& f) {
      return std::find(stems.begin(), stems.end(), f.stem().string()) == stems.end();
    });
  }
  REQUIRE_FALSE(files.empty());

  for (const auto& file : files) {
    const auto report = chaintwin::golden::run_golden_file(file.string());
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
  }
}
