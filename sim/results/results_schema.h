// The SQLite schema of a results file: the DDL, the application id that marks a file as ours and
// the schema version. Used by ResultsStore (sqlite_store.cpp) to create and recognise results
// files; docs/results.md describes every table and column and a test keeps the two in step.
#pragma once

#include <cstdint>
#include <string_view>

namespace chaintwin::sim {

// PRAGMA application_id of a chaintwin results file: "ctw1" as a big-endian 32-bit integer.
inline constexpr int32_t kResultsApplicationId = 0x63747731;
// PRAGMA user_version: bumped whenever a table or column changes meaning.
inline constexpr int32_t kResultsSchemaVersion = 2;  // 2: gpu_models, gpu_model_series

// Every table and index, in creation order. One run per row of `runs`; every other table keys on
// run_id, so one file holds any number of runs (a sweep appends its runs to one file).
inline constexpr std::string_view kResultsSchema = R"sql(
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY,
  scenario_name TEXT    NOT NULL,
  scenario_file TEXT    NOT NULL,
  scenario_hash TEXT    NOT NULL,
  seed          INTEGER NOT NULL,
  version       TEXT    NOT NULL,
  horizon_us    INTEGER NOT NULL,
  ended_at_us   INTEGER NOT NULL,
  events        INTEGER NOT NULL,
  started       TEXT    NOT NULL,
  complete      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
  run_id   INTEGER NOT NULL REFERENCES runs(id),
  line     INTEGER NOT NULL,
  at_us    INTEGER NOT NULL,
  seq      INTEGER NOT NULL,
  kind     TEXT    NOT NULL,
  object   TEXT    NOT NULL,
  message  TEXT    NOT NULL,
  PRIMARY KEY (run_id, line)
);
CREATE INDEX events_by_kind   ON events (run_id, kind, at_us);
CREATE INDEX events_by_object ON events (run_id, object, at_us);
CREATE TABLE workloads (
  run_id               INTEGER NOT NULL REFERENCES runs(id),
  key                  TEXT    NOT NULL,
  generator            TEXT    NOT NULL,
  cluster_queue        TEXT    NOT NULL,
  instance_type        TEXT    NOT NULL,
  family               TEXT    NOT NULL,
  created_us           INTEGER NOT NULL,
  first_reserved_us    INTEGER,
  first_admitted_us    INTEGER,
  finished_us          INTEGER,
  deleted_us           INTEGER,
  wait_us              INTEGER,
  evictions            INTEGER NOT NULL,
  retries              INTEGER NOT NULL,
  rejected             INTEGER NOT NULL,
  reject_message       TEXT    NOT NULL,
  last_pending_message TEXT    NOT NULL,
  last_pending_gate    TEXT    NOT NULL,
  admitted_at_end      INTEGER NOT NULL,
  gpu_model            TEXT    NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE INDEX workloads_by_generator     ON workloads (run_id, generator);
CREATE INDEX workloads_by_cluster_queue ON workloads (run_id, cluster_queue);
CREATE TABLE pool_series (
  run_id              INTEGER NOT NULL REFERENCES runs(id),
  sample              INTEGER NOT NULL,
  cluster_queue       TEXT    NOT NULL,
  resource            TEXT    NOT NULL,
  at_us               INTEGER NOT NULL,
  nominal             INTEGER NOT NULL,
  reserved            INTEGER NOT NULL,
  admitted            INTEGER NOT NULL,
  pending_workloads   INTEGER NOT NULL,
  reserving_workloads INTEGER NOT NULL,
  admitted_workloads  INTEGER NOT NULL,
  stop_policy         TEXT    NOT NULL,
  draining            INTEGER NOT NULL,
  PRIMARY KEY (run_id, sample)
);
CREATE INDEX pool_series_by_pool ON pool_series (run_id, cluster_queue, resource, at_us);
CREATE TABLE final_objects (
  run_id   INTEGER NOT NULL REFERENCES runs(id),
  ordinal  INTEGER NOT NULL,
  kind     TEXT    NOT NULL,
  name     TEXT    NOT NULL,
  json     TEXT    NOT NULL,
  PRIMARY KEY (run_id, ordinal)
);
CREATE INDEX final_objects_by_name ON final_objects (run_id, kind, name);
CREATE TABLE gpu_models (
  run_id                   INTEGER NOT NULL REFERENCES runs(id),
  gpu_model                TEXT    NOT NULL,
  product                  TEXT    NOT NULL,
  manufacturer             TEXT    NOT NULL,
  typical_credits_per_card INTEGER,
  typical_cards            INTEGER,
  span_us                  INTEGER NOT NULL,
  cards                    INTEGER NOT NULL,
  peak_cards               INTEGER NOT NULL,
  mean_allocated           REAL    NOT NULL,
  peak_allocated           INTEGER NOT NULL,
  final_allocated          INTEGER NOT NULL,
  mean_utilization         REAL,
  peak_utilization         REAL,
  final_allocation         REAL,
  final_free               INTEGER NOT NULL,
  final_fragmented         INTEGER NOT NULL,
  mean_fragmentation       REAL,
  final_fragmentation      REAL,
  PRIMARY KEY (run_id, gpu_model)
);
CREATE TABLE gpu_model_series (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  sample      INTEGER NOT NULL,
  gpu_model   TEXT    NOT NULL,
  at_us       INTEGER NOT NULL,
  cards       INTEGER NOT NULL,
  allocated   INTEGER NOT NULL,
  fragmented  INTEGER NOT NULL,
  PRIMARY KEY (run_id, sample)
);
CREATE INDEX gpu_model_series_by_model ON gpu_model_series (run_id, gpu_model, at_us);
)sql";

}  // namespace chaintwin::sim
