#include "sim/plan/plan_store.h"

#include <sqlite3.h>

namespace chaintwin::sim::plan {
namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS plan_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan_runs(
  point TEXT NOT NULL,
  seed INTEGER NOT NULL,
  round INTEGER NOT NULL,
  metrics TEXT NOT NULL,
  summary TEXT NOT NULL,
  series TEXT NOT NULL,
  wall_ms INTEGER NOT NULL,
  PRIMARY KEY(point, seed));
)";

std::string column_text(sqlite3_stmt* s, int i) {
  const unsigned char* t = sqlite3_column_text(s, i);
  return t == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(t));
}

model::Result<std::map<std::string, std::string>> read_meta(SqliteDb& db) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db.raw(), "SELECT key, value FROM plan_meta", -1, &s, nullptr) != SQLITE_OK)
    return db.error("reading the plan (is this a plan file written by chaintwin plan?)");
  std::map<std::string, std::string> out;
  int rc = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) out[column_text(s, 0)] = column_text(s, 1);
  sqlite3_finalize(s);
  if (rc != SQLITE_DONE) return db.error("reading the plan");
  return out;
}

PlanIdentity identity_from(const std::map<std::string, std::string>& meta) {
  const auto get = [&](const char* k) {
    const auto it = meta.find(k);
    return it == meta.end() ? std::string() : it->second;
  };
  return {get("name"), get("content_hash"), get("plan_file"), get("plan_text"), get("base_file"), get("base_text")};
}

}  // namespace

PlanStore PlanStore::in_memory() { return PlanStore(); }

model::Result<PlanStore> PlanStore::open(const std::string& path, const PlanIdentity& identity) {
  auto db = SqliteDb::open(path);
  if (!db) return model::err(db.error());
  if (auto s = db.value().exec(kSchema, "creating the plan tables"); !s.ok()) return model::err(s.error());
  auto meta = read_meta(db.value());
  if (!meta) return model::err(meta.error());
  PlanStore store;
  store.path_ = path;
  if (meta->empty()) {
    auto ins = db.value().prepare("INSERT INTO plan_meta(key, value) VALUES(?1, ?2)");
    if (!ins) return model::err(ins.error());
    if (auto s = db.value().exec("BEGIN", "starting the plan file"); !s.ok()) return model::err(s.error());
    for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
             {"name", identity.name}, {"content_hash", identity.content_hash}, {"plan_file", identity.plan_file},
             {"plan_text", identity.plan_text}, {"base_file", identity.base_file}, {"base_text", identity.base_text}})
      if (auto s = ins.value().bind(1, k).bind(2, v).run("writing the plan"); !s.ok()) return model::err(s.error());
    if (auto s = db.value().exec("COMMIT", "starting the plan file"); !s.ok()) return model::err(s.error());
    store.identity_ = identity;
  } else {
    store.identity_ = identity_from(*meta);
    if (store.identity_.content_hash != identity.content_hash)
      return model::err(path + ": holds the runs of another plan (" + store.identity_.plan_file + ", hash " +
                        store.identity_.content_hash + "); this plan (" + identity.plan_file + ") has hash " +
                        identity.content_hash + " — use another --db file");
    // The same runs, perhaps another objective or search: the file now reports as this plan.
    if (store.identity_.plan_text != identity.plan_text || store.identity_.plan_file != identity.plan_file ||
        store.identity_.name != identity.name) {
      auto up = db.value().prepare("INSERT OR REPLACE INTO plan_meta(key, value) VALUES(?1, ?2)");
      if (!up) return model::err(up.error());
      if (auto s = db.value().exec("BEGIN", "updating the plan"); !s.ok()) return model::err(s.error());
      for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
               {"name", identity.name}, {"plan_file", identity.plan_file}, {"plan_text", identity.plan_text}})
        if (auto s = up.value().bind(1, k).bind(2, v).run("updating the plan"); !s.ok()) return model::err(s.error());
      if (auto s = db.value().exec("COMMIT", "updating the plan"); !s.ok()) return model::err(s.error());
      store.identity_.name = identity.name;
      store.identity_.plan_file = identity.plan_file;
      store.identity_.plan_text = identity.plan_text;
    }
  }
  store.db_.emplace(std::move(db.value()));
  if (auto s = store.load_runs(); !s.ok()) return model::err(s.error());
  return store;
}

model::Result<PlanStore> PlanStore::open_existing(const std::string& path) {
  sqlite3* probe = nullptr;
  if (sqlite3_open_v2(path.c_str(), &probe, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close_v2(probe);
    return model::err(path + ": cannot open the plan file");
  }
  sqlite3_close_v2(probe);
  auto db = SqliteDb::open(path);
  if (!db) return model::err(db.error());
  auto meta = read_meta(db.value());
  if (!meta) return model::err(meta.error());
  if (meta->empty() || !meta->count("content_hash")) return model::err(path + ": not a plan file (no plan recorded)");
  PlanStore store;
  store.path_ = path;
  store.identity_ = identity_from(*meta);
  store.db_.emplace(std::move(db.value()));
  if (auto s = store.load_runs(); !s.ok()) return model::err(s.error());
  return store;
}

model::Status PlanStore::load_runs() {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_->raw(), "SELECT point, seed, round, metrics, summary, wall_ms FROM plan_runs", -1, &s,
                         nullptr) != SQLITE_OK)
    return db_->error("reading the runs");
  int rc = 0;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    StoredRun r;
    r.point = column_text(s, 0);
    r.seed = static_cast<uint64_t>(sqlite3_column_int64(s, 1));
    r.round = sqlite3_column_int64(s, 2);
    try {
      r.metrics = metrics_from_json(nlohmann::json::parse(column_text(s, 3)));
      r.summary = nlohmann::json::parse(column_text(s, 4));
    } catch (const std::exception& e) {
      sqlite3_finalize(s);
      return model::err(path_ + ": run " + r.point + " seed " + std::to_string(r.seed) + ": unreadable: " + e.what());
    }
    r.wall_ms = sqlite3_column_int64(s, 5);
    runs_[{r.point, r.seed}] = std::move(r);
  }
  sqlite3_finalize(s);
  if (rc != SQLITE_DONE) return db_->error("reading the runs");
  return model::Ok{};
}

const StoredRun* PlanStore::find(const std::string& point, uint64_t seed) const {
  const auto it = runs_.find({point, seed});
  return it == runs_.end() ? nullptr : &it->second;
}

model::Status PlanStore::add(StoredRun run, const RunMetrics& full) {
  const std::string metrics = metrics_json(run.metrics).dump();
  if (db_) {
    auto ins = db_->prepare(
        "INSERT INTO plan_runs(point, seed, round, metrics, summary, series, wall_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!ins) return model::err(ins.error());
    if (auto s = ins.value().bind(1, run.point)
                     .bind(2, static_cast<int64_t>(run.seed))
                     .bind(3, run.round)
                     .bind(4, metrics)
                     .bind(5, full.summary.dump())
                     .bind(6, full.series.dump())
                     .bind(7, run.wall_ms)
                     .run("writing a run");
        !s.ok())
      return s;
  } else {
    memory_series_[{run.point, run.seed}] = full.series;
  }
  run.summary = full.summary;
  runs_[{run.point, run.seed}] = std::move(run);
  return model::Ok{};
}

model::Result<nlohmann::json> PlanStore::series(const std::string& point, uint64_t seed) const {
  if (!db_) {
    const auto it = memory_series_.find({point, seed});
    if (it == memory_series_.end()) return model::err("no run " + point + " seed " + std::to_string(seed));
    return it->second;
  }
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_->raw(), "SELECT series FROM plan_runs WHERE point = ?1 AND seed = ?2", -1, &s, nullptr) !=
      SQLITE_OK)
    return db_->error("reading a run's series");
  sqlite3_bind_text(s, 1, point.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 2, static_cast<sqlite3_int64>(seed));
  nlohmann::json out;
  const int rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) out = nlohmann::json::parse(column_text(s, 0), nullptr, false);
  sqlite3_finalize(s);
  if (rc != SQLITE_ROW) return model::err(path_ + ": no run " + point + " seed " + std::to_string(seed));
  return out;
}

model::Status PlanStore::merge_from(const std::string& other_path) {
  if (!db_) return model::err("merge needs a plan file");
  auto other = open_existing(other_path);
  if (!other) return model::err(other.error());
  if (other->identity_.content_hash != identity_.content_hash)
    return model::err(other_path + ": a shard of another plan (" + other->identity_.plan_file + ", hash " +
                      other->identity_.content_hash + "; expected hash " + identity_.content_hash + ")");
  // Check every shared run first: nothing is written when the shards disagree.
  for (const auto& [key, run] : other->runs_)
    if (const StoredRun* mine = find(key.first, key.second))
      if (metrics_json(mine->metrics).dump() != metrics_json(run.metrics).dump() || mine->summary != run.summary)
        return model::err(other_path + ": run " + key.first + " seed " + std::to_string(key.second) +
                          " differs from the same run in " + path_ + " (different builds?)");
  if (auto s = db_->exec("ATTACH DATABASE '" + [&] {
                           std::string q;
                           for (char c : other_path) q += c == '\'' ? std::string("''") : std::string(1, c);
                           return q;
                         }() + "' AS shard",
                         "attaching the shard");
      !s.ok())
    return s;
  auto s = db_->exec(
      "INSERT OR IGNORE INTO plan_runs SELECT point, seed, round, metrics, summary, series, wall_ms FROM shard.plan_runs",
      "copying the shard's runs");
  (void)db_->exec("DETACH DATABASE shard", "detaching the shard");
  if (!s.ok()) return s;
  runs_.clear();
  return load_runs();
}

}  // namespace chaintwin::sim::plan
