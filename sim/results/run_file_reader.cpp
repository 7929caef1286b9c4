#include "sim/results/run_file_reader.h"

#include <sqlite3.h>

#include <functional>
#include <memory>

#include "sim/results/results_schema.h"

namespace chaintwin::sim {
namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;

std::string text(sqlite3_stmt* s, int col) {
  const unsigned char* t = sqlite3_column_text(s, col);
  return t == nullptr ? "" : reinterpret_cast<const char*>(t);
}
std::optional<SimTime> optional_time(sqlite3_stmt* s, int col) {
  if (sqlite3_column_type(s, col) == SQLITE_NULL) return std::nullopt;
  return SimTime::micros(sqlite3_column_int64(s, col));
}

// Runs `sql` with ?1 = run id and calls `row` for every row.
model::Status each_row(sqlite3* db, const std::string& path, const char* sql, int64_t run_id,
                       const std::function<void(sqlite3_stmt*)>& row) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &raw, nullptr) != SQLITE_OK)
    return model::err(path + ": reading the results file: " + sqlite3_errmsg(db));
  std::unique_ptr<sqlite3_stmt, StmtFinalizer> stmt(raw);
  sqlite3_bind_int64(raw, 1, run_id);
  int rc = 0;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) row(raw);
  if (rc != SQLITE_DONE) return model::err(path + ": reading the results file: " + sqlite3_errmsg(db));
  return model::Ok{};
}

model::Result<int64_t> single_int(sqlite3* db, const std::string& path, const char* sql) {
  int64_t out = 0;
  bool found = false;
  if (auto s = each_row(db, path, sql, 0, [&](sqlite3_stmt* st) {
        out = sqlite3_column_int64(st, 0);
        found = true;
      });
      !s.ok())
    return model::err(s.error());
  if (!found) return model::err(path + ": no row for '" + std::string(sql) + "'");
  return out;
}

}  // namespace

model::Result<StoredRun> read_run_file(const std::string& path, std::optional<int64_t> run_id) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  Db db(raw);
  if (rc != SQLITE_OK)
    return model::err(path + ": cannot open the results file: " + (raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  const auto app_id = single_int(raw, path, "PRAGMA application_id");
  if (!app_id.ok()) return model::err(path + ": not a SQLite database (" + app_id.error() + ")");
  if (*app_id != kResultsApplicationId)
    return model::err(path + ": not a chaintwin results file (application_id " + std::to_string(*app_id) +
                      "; `chaintwin run --db FILE` writes one)");
  const auto version = single_int(raw, path, "PRAGMA user_version");
  if (!version.ok()) return model::err(version.error());
  if (*version != kResultsSchemaVersion)
    return model::err(path + ": chaintwin results schema version " + std::to_string(*version) +
                      "; this chaintwin reads version " + std::to_string(kResultsSchemaVersion));
  StoredRun out;
  bool found = false;
  const char* pick = run_id ? "SELECT id, scenario_name, scenario_file, scenario_hash, seed, version, horizon_us, "
                              "ended_at_us, events, complete FROM runs WHERE id = ?1"
                            : "SELECT id, scenario_name, scenario_file, scenario_hash, seed, version, horizon_us, "
                              "ended_at_us, events, complete FROM runs WHERE complete = 1 ORDER BY id DESC LIMIT 1";
  bool complete = false;
  if (auto s = each_row(raw, path, pick, run_id.value_or(0), [&](sqlite3_stmt* st) {
        found = true;
        out.id = sqlite3_column_int64(st, 0);
        RunInfo& info = out.record.info;
        info.scenario_name = text(st, 1);
        info.scenario_file = text(st, 2);
        info.scenario_hash = text(st, 3);
        info.seed = static_cast<uint64_t>(sqlite3_column_int64(st, 4));
        info.version = text(st, 5);
        info.horizon = SimTime::micros(sqlite3_column_int64(st, 6));
        info.ended_at = SimTime::micros(sqlite3_column_int64(st, 7));
        info.events = sqlite3_column_int64(st, 8);
        complete = sqlite3_column_int64(st, 9) != 0;
      });
      !s.ok())
    return model::err(s.error());
  if (!found)
    return model::err(run_id ? path + ": no run with id " + std::to_string(*run_id)
                             : path + ": holds no complete run (a run is complete once `chaintwin run` finished it)");
  if (!complete) return model::err(path + ": run " + std::to_string(out.id) + " did not complete; its results are partial");
  RunRecord& r = out.record;
  if (auto s = each_row(raw, path, "SELECT at_us, seq, kind, object, message FROM events WHERE run_id = ?1 ORDER BY line",
                        out.id, [&](sqlite3_stmt* st) {
                          r.events.push_back({SimTime::micros(sqlite3_column_int64(st, 0)), sqlite3_column_int64(st, 1),
                                              text(st, 2), text(st, 3), text(st, 4)});
                        });
      !s.ok())
    return model::err(s.error());
  if (auto s = each_row(raw, path,
                        "SELECT key, generator, cluster_queue, instance_type, family, gpu_model, created_us, first_reserved_us, "
                        "first_admitted_us, finished_us, deleted_us, evictions, retries, rejected, reject_message, "
                        "last_pending_message, last_pending_gate, admitted_at_end FROM workloads WHERE run_id = ?1 ORDER BY rowid",
                        out.id, [&](sqlite3_stmt* st) {
                          WorkloadOutcome o;
                          o.key = text(st, 0);
                          o.generator = text(st, 1);
                          o.cluster_queue = text(st, 2);
                          o.instance_type = text(st, 3);
                          o.family = text(st, 4);
                          o.gpu_model = text(st, 5);
                          o.created = SimTime::micros(sqlite3_column_int64(st, 6));
                          o.first_reserved = optional_time(st, 7);
                          o.first_admitted = optional_time(st, 8);
                          o.finished = optional_time(st, 9);
                          o.deleted = optional_time(st, 10);
                          o.evictions = sqlite3_column_int(st, 11);
                          o.retries = sqlite3_column_int(st, 12);
                          o.rejected = sqlite3_column_int(st, 13) != 0;
                          o.reject_message = text(st, 14);
                          o.last_pending_message = text(st, 15);
                          o.last_pending_gate = text(st, 16);
                          o.admitted_at_end = sqlite3_column_int(st, 17) != 0;
                          r.workloads.push_back(std::move(o));
                        });
      !s.ok())
    return model::err(s.error());
  std::string bad_policy;  // the first stop_policy text that is none of Kueue's
  if (auto s = each_row(raw, path,
                        "SELECT at_us, cluster_queue, resource, nominal, reserved, admitted, pending_workloads, "
                        "reserving_workloads, admitted_workloads, stop_policy, draining FROM pool_series WHERE run_id = ?1 "
                        "ORDER BY sample",
                        out.id, [&](sqlite3_stmt* st) {
                          PoolSample p;
                          p.at = SimTime::micros(sqlite3_column_int64(st, 0));
                          p.cluster_queue = text(st, 1);
                          p.resource = text(st, 2);
                          p.nominal = sqlite3_column_int64(st, 3);
                          p.reserved = sqlite3_column_int64(st, 4);
                          p.admitted = sqlite3_column_int64(st, 5);
                          p.pending_workloads = sqlite3_column_int(st, 6);
                          p.reserving_workloads = sqlite3_column_int(st, 7);
                          p.admitted_workloads = sqlite3_column_int(st, 8);
                          const std::string policy = text(st, 9);
                          if (auto parsed = model::parse_stop_policy(policy)) p.stop_policy = *parsed;
                          else if (bad_policy.empty()) bad_policy = policy;
                          p.draining = sqlite3_column_int(st, 10) != 0;
                          r.pool_series.push_back(std::move(p));
                        });
      !s.ok())
    return model::err(s.error());
  // The GPU models' summaries and samples (files written before they were recorded lack the tables:
  // then the run has none, as the report of such a run had none).
  bool has_gpu_tables = false;
  if (auto s = each_row(raw, path, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'gpu_models'", 0,
                        [&](sqlite3_stmt* st) { has_gpu_tables = sqlite3_column_int64(st, 0) > 0; });
      !s.ok())
    return model::err(s.error());
  const auto optional_double = [](sqlite3_stmt* st, int col) {
    return sqlite3_column_type(st, col) == SQLITE_NULL ? std::optional<double>() : sqlite3_column_double(st, col);
  };
  if (has_gpu_tables) {
    if (auto s = each_row(raw, path,
                          "SELECT gpu_model, product, manufacturer, typical_credits_per_card, typical_cards, span_us, cards, "
                          "peak_cards, mean_allocated, peak_allocated, final_allocated, mean_utilization, peak_utilization, "
                          "final_allocation, final_free, final_fragmented, mean_fragmentation, final_fragmentation "
                          "FROM gpu_models WHERE run_id = ?1 ORDER BY gpu_model",
                          out.id, [&](sqlite3_stmt* st) {
                            GpuModelSummary m;
                            m.gpu_model = text(st, 0);
                            m.product = text(st, 1);
                            m.manufacturer = text(st, 2);
                            m.typical_credits_per_card = sqlite3_column_int64(st, 3);
                            m.typical_cards = sqlite3_column_int(st, 4);
                            m.span_us = sqlite3_column_int64(st, 5);
                            m.cards = sqlite3_column_int64(st, 6);
                            m.peak_cards = sqlite3_column_int64(st, 7);
                            m.mean_allocated = sqlite3_column_double(st, 8);
                            m.peak_allocated = sqlite3_column_int64(st, 9);
                            m.final_allocated = sqlite3_column_int64(st, 10);
                            m.mean_utilization = optional_double(st, 11);
                            m.peak_utilization = optional_double(st, 12);
                            m.final_allocation = optional_double(st, 13);
                            m.final_free = sqlite3_column_int64(st, 14);
                            m.final_fragmented = sqlite3_column_int64(st, 15);
                            m.mean_fragmentation = optional_double(st, 16);
                            m.final_fragmentation = optional_double(st, 17);
                            r.gpu_models.push_back(std::move(m));
                          });
        !s.ok())
      return model::err(s.error());
    if (auto s = each_row(raw, path,
                          "SELECT at_us, gpu_model, cards, allocated, fragmented FROM gpu_model_series WHERE run_id = ?1 "
                          "ORDER BY sample",
                          out.id, [&](sqlite3_stmt* st) {
                            GpuModelSample g;
                            g.at = SimTime::micros(sqlite3_column_int64(st, 0));
                            g.gpu_model = text(st, 1);
                            g.cards = sqlite3_column_int64(st, 2);
                            g.allocated = sqlite3_column_int64(st, 3);
                            g.fragmented = sqlite3_column_int64(st, 4);
                            r.gpu_model_series.push_back(std::move(g));
                          });
        !s.ok())
      return model::err(s.error());
  }
  r.final_objects = nlohmann::json::array();
  std::string bad;
  if (auto s = each_row(raw, path, "SELECT json, kind, name FROM final_objects WHERE run_id = ?1 ORDER BY ordinal", out.id,
                        [&](sqlite3_stmt* st) {
                          auto j = nlohmann::json::parse(text(st, 0), nullptr, /*allow_exceptions=*/false);
                          if (j.is_discarded()) bad = text(st, 1) + "/" + text(st, 2);
                          else r.final_objects.push_back(std::move(j));
                        });
      !s.ok())
    return model::err(s.error());
  if (!bad.empty()) return model::err(path + ": final_objects: " + bad + ": not valid JSON");
  if (!bad_policy.empty())
    return model::err(path + ": pool_series.stop_policy: \"" + bad_policy + "\": expected None, Hold or HoldAndDrain");
  return out;
}

}  // namespace chaintwin::sim
