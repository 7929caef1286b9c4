// Runs every case of one golden file through the registered handlers, chosen by each case's shape,
// and reports `golden <file>: N passed, M failed` with a readable want/got diff per failing case,
// how many cases each handler ran and which cases had a shape no handler understands.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tests/golden/golden_registry.h"

namespace chaintwin::golden {

struct CaseFailure {
  std::string name;
  std::string detail;  // what differed, or why the case could not run
  bool unknown_shape = false;  // no handler, or no single handler, understands the case
};

struct FileReport {
  std::string file;
  std::string area;
  int passed = 0;
  std::vector<CaseFailure> failures;
  std::map<std::string, int> ran_by;  // handler label -> cases it ran (passed or failed)
  int unknown_shapes() const;
  std::string summary() const;
};

struct RunOptions {
  bool require_reference = false;  // every case must name the reference section it rests on (own/)
};

// Loads a golden file (any of the three layouts: {area, cases:[...]}, a top-level array of
// cases with `id`, or a catalog object keyed by name) and runs each case.
FileReport run_golden_file(const std::string& path, const RunOptions& options = {});

// The same for a document already in memory; `stem` stands for the file name (the area of the
// array and catalog layouts).
FileReport run_golden_document(const json& doc, const std::string& stem, const RunOptions& options = {});

// Which handler answers one case of `area`, or why none does (empty handler and the reason).
struct Dispatch {
  const Handler* handler = nullptr;
  std::string why;
};
Dispatch dispatch_case(const std::string& area, const json& case_object, const json& input, const json& expected,
                       bool whole_case);

// The function a case names: its `function` field, else the prefix of `name` before ':' when that
// is a function-like identifier (an optional trailing "(argument)" dropped); empty when it names none.
std::string named_function(const json& case_object);

// A readable diff of `want` against `got`, comparing every key of `want` except `ignored`.
// Empty when they agree.
std::string diff_json(const json& want, const json& got, const std::set<std::string>& ignored,
                      const std::string& path = "");

// Per area, over several files: cases per handler, the area's handlers that ran nothing, the
// functions not covered, unknown shapes.
struct AreaCoverage {
  std::map<std::string, int> ran_by;  // every handler of the area, 0 when it ran nothing
  int cases = 0;
  int unknown_shapes = 0;
  std::vector<std::string> not_covered;  // "function — why"
};
std::map<std::string, AreaCoverage> coverage_of(const std::vector<FileReport>& reports);
std::string format_coverage(const std::map<std::string, AreaCoverage>& coverage);

}  // namespace chaintwin::golden
