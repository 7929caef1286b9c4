// ResultsStore: writes runs into a SQLite results file (schema in results_schema.h and
// docs/results.md). The runner opens one per run (or one per sweep, adding a run per point),
// streams the event log into it in batched transactions while it simulates, and calls finish()
// with the RunRecord at the end. A run that dies on the way leaves a valid file whose `runs` row
// says complete = 0 and whose `events` hold every batch committed so far.
//
// A results file is never replaced: a new run is added to an existing chaintwin results file, so
// earlier runs stay readable. A file that exists but is not a SQLite database, or is another
// application's database, is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/result.h"
#include "sim/results/run_record.h"
#include "sim/results/sqlite_handle.h"

namespace chaintwin::sim {

struct StoreOptions {
  int32_t batch_events = 1000;  // events per transaction while the run goes (>= 1)
  std::string started;          // runs.started; empty = the wall clock now, UTC, "2025-01-31T12:00:00Z"
};

class ResultsStore {
 public:
  // Opens `path` as a results file, creating it and its schema when it does not exist (or is
  // empty). Refuses, naming the file: a non-SQLite file, another application's database, a
  // chaintwin results file of another schema version, and every SQLite failure.
  static model::Result<ResultsStore> create(const std::string& path, StoreOptions options = {});
  // create() + begin_run() + finish(): the whole record in one go.
  static model::Status write_run(const std::string& path, const RunRecord& record, StoreOptions options = {});

  ResultsStore(ResultsStore&&) noexcept;
  ResultsStore& operator=(ResultsStore&&) noexcept;
  // Commits the buffered events; a run not finished stays complete = 0.
  ~ResultsStore();

  // Adds the run's row (complete = 0); run_id() is then its runs.id.
  model::Status begin_run(const RunInfo& info);
  // Buffers one event-log line; every batch_events lines are committed in one transaction,
  // together with the run row's progress (events so far, time of the last one).
  model::Status append(const EventRecord& event);
  // Commits the buffered lines now.
  model::Status flush();
  // In one transaction: the events of record.events not yet appended (the appended lines must be
  // its prefix; a runner that never appended gets them all here), the workloads, the pool series,
  // the final objects, the GPU model summaries and series, and the run row's final figures with
  // complete = 1. Calls begin_run() when it was not called. A second finish() is refused.
  model::Status finish(const RunRecord& record);

  int64_t run_id() const { return run_id_; }
  const std::string& path() const { return db_.path(); }

 private:
  struct Statements;
  ResultsStore(SqliteDb db, StoreOptions options);
  model::Status write_events(const std::vector<EventRecord>& events, size_t from);
  model::Status commit_batch();

  SqliteDb db_;
  StoreOptions options_;
  std::unique_ptr<Statements> statements_;
  int64_t run_id_ = 0;
  int64_t lines_ = 0;  // event lines stored or buffered so far (the next line number)
  std::vector<EventRecord> pending_;
  bool finished_ = false;
};

// Kubernetes objects as (kind, "<ns>/<name>" or name, object) rows, in the order given, from an
// array of objects, a List ({"items": [...]}) or a map of kind → array; nested the same way.
std::vector<FinalObject> split_final_objects(const nlohmann::json& objects);

}  // namespace chaintwin::sim
