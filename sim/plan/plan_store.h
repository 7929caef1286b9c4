// The plan's SQLite file (`chaintwin plan --db FILE`): what the plan was (its text, its base
// scenario's text, its hash) and every completed run — configuration, seed, the round that asked
// for it, its SLO metrics, its summary and its pool series. One run is one INSERT, so a plan
// killed at any instant leaves a consistent file, and running the plan again on it redoes no
// completed run. Without a file the same store lives in memory. `merge` joins shard files of one
// plan (docs/planning.md, "Beyond one machine").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "sim/plan/run_metrics.h"
#include "sim/results/sqlite_handle.h"

namespace chaintwin::sim::plan {

struct StoredRun {
  std::string point;  // Configurations::key
  uint64_t seed = 0;
  int64_t round = 0;
  std::vector<MetricValue> metrics;
  nlohmann::json summary;
  nlohmann::json series;  // empty unless loaded with series
  int64_t wall_ms = 0;
};

// What identifies a plan in its file.
struct PlanIdentity {
  std::string name;
  std::string content_hash;
  std::string plan_file;
  std::string plan_text;
  std::string base_file;
  std::string base_text;
};

class PlanStore {
 public:
  // An in-memory store (no file).
  static PlanStore in_memory();
  // Opens or creates `path`. An existing file must hold the same plan (same hash): anything else
  // is refused, naming both.
  static model::Result<PlanStore> open(const std::string& path, const PlanIdentity& identity);
  // Opens an existing plan file to read it (`--report`, `merge`, the GUI).
  static model::Result<PlanStore> open_existing(const std::string& path);

  const PlanIdentity& identity() const { return identity_; }
  const std::string& path() const { return path_; }

  bool has(const std::string& point, uint64_t seed) const { return runs_.count({point, seed}) != 0; }
  const StoredRun* find(const std::string& point, uint64_t seed) const;
  size_t size() const { return runs_.size(); }
  const std::map<std::pair<std::string, uint64_t>, StoredRun>& runs() const { return runs_; }

  // Stores one completed run (written to the file at once when there is one).
  model::Status add(StoredRun run, const RunMetrics& full);
  // Every run's series (read from the file on demand; kept runs otherwise).
  model::Result<nlohmann::json> series(const std::string& point, uint64_t seed) const;

  // Joins the runs of `other` (a shard of the same plan) into this store. A run both hold must
  // agree exactly; otherwise the merge stops naming it.
  model::Status merge_from(const std::string& other_path);

 private:
  std::string path_;
  PlanIdentity identity_;
  std::optional<SqliteDb> db_;
  std::map<std::pair<std::string, uint64_t>, StoredRun> runs_;
  std::map<std::pair<std::string, uint64_t>, nlohmann::json> memory_series_;
  model::Status load_runs();
};

}  // namespace chaintwin::sim::plan
