// Runs every recorded case of one golden file through the registered handlers and reports
// `golden <file>: N passed, M failed` with a readable want/got diff per failing case.
#pragma once

#include <string>
#include <vector>

#include "tests/golden/golden_registry.h"

namespace chaintwin::golden {

struct CaseFailure {
  std::string name;
  std::string detail;  // what differed, or why the case could not run
};

struct FileReport {
  std::string file;
  int passed = 0;
  std::vector<CaseFailure> failures;
  std::string summary() const;
};

// Loads a golden file (any of the three layouts: {area, cases:[...]}, a top-level array of
// cases with `id`, or a catalog object keyed by name) and runs each case.
FileReport run_golden_file(const std::string& path);

// A readable diff of `want` against `got`, comparing every key of `want` except `ignored`.
// Empty when they agree.
std::string diff_json(const json& want, const json& got, const std::set<std::string>& ignored,
                      const std::string& path = "");

}  // namespace chaintwin::golden
