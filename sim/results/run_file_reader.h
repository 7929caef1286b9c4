// Reads one run back from a chaintwin results file (the SQLite file `chaintwin run --db` writes):
// its RunInfo, event log, Workload outcomes, pool series and final objects, as a RunRecord. Opens
// the file read-only; refuses a file that is not a chaintwin results file, has another schema
// version, or holds no complete run, saying which. Used by `chaintwin gui --db`.
#pragma once

#include <optional>
#include <string>

#include "model/result.h"
#include "sim/results/run_record.h"

namespace chaintwin::sim {

struct StoredRun {
  int64_t id = 0;
  RunRecord record;
};

// The run `run_id`, or the newest complete run when none is given.
model::Result<StoredRun> read_run_file(const std::string& path, std::optional<int64_t> run_id);

}  // namespace chaintwin::sim
