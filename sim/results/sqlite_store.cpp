#include "sim/results/sqlite_store.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sys/stat.h>

#include "sim/results/results_schema.h"

namespace chaintwin::sim {

struct ResultsStore::Statements {
  SqliteStatement insert_run, progress, finish_run, insert_event, insert_workload, insert_sample, insert_object,
      insert_gpu_model, insert_gpu_sample;
};

namespace {

constexpr std::array<char, 16> kSqliteHeader{'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                             'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};

// Refuses a path that exists and is not a SQLite database (an empty file counts as a new one).
model::Status check_existing_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return model::Ok{};  // absent: created by SQLite
  if (!S_ISREG(st.st_mode)) return model::err(path + ": not a regular file, cannot hold results");
  if (st.st_size == 0) return model::Ok{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the existing file: " + std::strerror(errno));
  std::array<char, 16> header{};
  in.read(header.data(), header.size());
  if (in.gcount() != static_cast<std::streamsize>(header.size()) || header != kSqliteHeader)
    return model::err(path + ": exists and is not a SQLite database; refusing to write results into it");
  return model::Ok{};
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text.data();
}

std::optional<int64_t> micros(const std::optional<SimTime>& t) {
  if (!t) return std::nullopt;
  return t->us();
}

void collect_objects(const nlohmann::json& j, const std::string& default_kind, std::vector<FinalObject>& out) {
  if (j.is_array()) {
    for (const auto& item : j) collect_objects(item, default_kind, out);
    return;
  }
  if (!j.is_object()) return;
  if (const auto items = j.find("items"); items != j.end() && items->is_array()) {
    for (const auto& item : *items) collect_objects(item, default_kind, out);
    return;
  }
  const auto kind = j.find("kind");
  const auto meta = j.find("metadata");
  if ((kind != j.end() && kind->is_string()) || (meta != j.end() && meta->is_object())) {
    FinalObject o;
    o.kind = kind != j.end() && kind->is_string() ? kind->get<std::string>() : default_kind;
    if (meta != j.end() && meta->is_object()) {
      const std::string ns = meta->value("namespace", "");
      const std::string name = meta->value("name", "");
      o.name = ns.empty() ? name : ns + "/" + name;
    }
    o.object = j;
    out.push_back(std::move(o));
    return;
  }
  for (const auto& [key, value] : j.items()) collect_objects(value, key, out);
}

}  // namespace

std::vector<FinalObject> split_final_objects(const nlohmann::json& objects) {
  std::vector<FinalObject> out;
  collect_objects(objects, "", out);
  return out;
}

ResultsStore::ResultsStore(SqliteDb db, StoreOptions options) : db_(std::move(db)), options_(std::move(options)) {}
ResultsStore::ResultsStore(ResultsStore&&) noexcept = default;
ResultsStore& ResultsStore::operator=(ResultsStore&&) noexcept = default;

ResultsStore::~ResultsStore() {
  if (statements_ && !finished_) (void)commit_batch();
}

model::Result<ResultsStore> ResultsStore::create(const std::string& path, StoreOptions options) {
  if (options.batch_events < 1) return model::err(path + ": batch_events must be at least 1");
  if (auto ok = check_existing_file(path); !ok.ok()) return model::err(ok.error());
  auto db = SqliteDb::open(path);
  if (!db.ok()) return model::err(db.error());
  SqliteDb& d = db.value();

  const auto app_id = d.query_int("PRAGMA application_id");
  if (!app_id.ok()) return model::err(app_id.error());
  const auto version = d.query_int("PRAGMA user_version");
  if (!version.ok()) return model::err(version.error());
  const auto tables = d.query_int("SELECT count(*) FROM sqlite_master");
  if (!tables.ok()) return model::err(tables.error());

  if (*app_id == 0 && *tables == 0) {
    const std::string ddl = "BEGIN;" + std::string(kResultsSchema) +
                            "PRAGMA application_id = " + std::to_string(kResultsApplicationId) + ";" +
                            "PRAGMA user_version = " + std::to_string(kResultsSchemaVersion) + ";COMMIT;";
    if (auto ok = d.exec(ddl, "creating the results schema"); !ok.ok()) {
      (void)d.exec("ROLLBACK", "rolling back");
      return model::err(ok.error());
    }
  } else if (*app_id != kResultsApplicationId) {
    return model::err(path + ": a SQLite database of another application (application_id " +
                      std::to_string(*app_id) + "), not a chaintwin results file; refusing to write into it");
  } else if (*version != kResultsSchemaVersion) {
    return model::err(path + ": chaintwin results schema version " + std::to_string(*version) +
                      "; this chaintwin writes version " + std::to_string(kResultsSchemaVersion));
  }

  const char* sql[] = {
      "INSERT INTO runs (scenario_name, scenario_file, scenario_hash, seed, version, horizon_us, ended_at_us, "
      "events, started, complete) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)",
      "UPDATE runs SET events = ?2, ended_at_us = ?3 WHERE id = ?1",
      "UPDATE runs SET scenario_name = ?2, scenario_file = ?3, scenario_hash = ?4, seed = ?5, version = ?6, "
      "horizon_us = ?7, ended_at_us = ?8, events = ?9, complete = 1 WHERE id = ?1",
      "INSERT INTO events (run_id, line, at_us, seq, kind, object, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
      "INSERT INTO workloads (run_id, key, generator, cluster_queue, instance_type, family, created_us, "
      "first_reserved_us, first_admitted_us, finished_us, deleted_us, wait_us, evictions, retries, rejected, "
      "reject_message, last_pending_message, last_pending_gate, admitted_at_end, gpu_model) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
      "INSERT INTO pool_series (run_id, sample, cluster_queue, resource, at_us, nominal, reserved, admitted, "
      "pending_workloads, reserving_workloads, admitted_workloads, stop_policy, draining) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
      "INSERT INTO final_objects (run_id, ordinal, kind, name, json) VALUES (?1, ?2, ?3, ?4, ?5)",
      "INSERT INTO gpu_models (run_id, gpu_model, product, manufacturer, typical_credits_per_card, typical_cards, "
      "span_us, cards, peak_cards, mean_allocated, peak_allocated, final_allocated, mean_utilization, "
      "peak_utilization, final_allocation, final_free, final_fragmented, mean_fragmentation, final_fragmentation) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
      "INSERT INTO gpu_model_series (run_id, sample, gpu_model, at_us, cards, allocated, fragmented) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  };
  std::vector<SqliteStatement> prepared;
  for (const char* s : sql) {
    auto stmt = d.prepare(s);
    if (!stmt.ok()) return model::err(stmt.error());
    prepared.push_back(std::move(stmt).value());
  }
  ResultsStore store(std::move(d), std::move(options));
  store.statements_ = std::make_unique<Statements>(Statements{std::move(prepared[0]), std::move(prepared[1]),
                                                              std::move(prepared[2]), std::move(prepared[3]),
                                                              std::move(prepared[4]), std::move(prepared[5]),
                                                              std::move(prepared[6]), std::move(prepared[7]),
                                                              std::move(prepared[8])});
  return store;
}

model::Status ResultsStore::write_run(const std::string& path, const RunRecord& record, StoreOptions options) {
  auto store = create(path, std::move(options));
  if (!store.ok()) return model::err(store.error());
  return store.value().finish(record);
}

model::Status ResultsStore::begin_run(const RunInfo& info) {
  if (run_id_ != 0) return model::err(path() + ": run " + std::to_string(run_id_) + " already begun");
  auto& s = statements_->insert_run;
  s.bind(1, info.scenario_name).bind(2, info.scenario_file).bind(3, info.scenario_hash);
  s.bind(4, static_cast<int64_t>(info.seed)).bind(5, info.version).bind(6, info.horizon.us());
  s.bind(7, int64_t{0}).bind(8, int64_t{0}).bind(9, options_.started.empty() ? utc_now() : options_.started);
  if (auto ok = s.run("adding the run"); !ok.ok()) return ok;
  run_id_ = db_.last_insert_rowid();
  return model::Ok{};
}

model::Status ResultsStore::append(const EventRecord& event) {
  if (run_id_ == 0) return model::err(path() + ": an event appended before begin_run()");
  if (finished_) return model::err(path() + ": an event appended after finish()");
  pending_.push_back(event);
  ++lines_;
  if (pending_.size() >= static_cast<size_t>(options_.batch_events)) return commit_batch();
  return model::Ok{};
}

model::Status ResultsStore::flush() {
  if (run_id_ == 0 || finished_) return model::Ok{};
  return commit_batch();
}

model::Status ResultsStore::write_events(const std::vector<EventRecord>& events, size_t from) {
  auto& s = statements_->insert_event;
  const int64_t first_line = lines_ - static_cast<int64_t>(events.size() - from);
  for (size_t i = from; i < events.size(); ++i) {
    const auto& e = events[i];
    const int64_t line = first_line + static_cast<int64_t>(i - from);
    s.bind(1, run_id_).bind(2, line).bind(3, e.at.us()).bind(4, e.seq).bind(5, e.kind).bind(6, e.object);
    s.bind(7, e.message);
    if (auto ok = s.run("storing event line " + std::to_string(line)); !ok.ok()) return ok;
  }
  return model::Ok{};
}

model::Status ResultsStore::commit_batch() {
  if (pending_.empty()) return model::Ok{};
  if (auto ok = db_.exec("BEGIN IMMEDIATE", "starting a transaction"); !ok.ok()) return ok;
  auto status = write_events(pending_, 0);
  if (status.ok()) {
    auto& p = statements_->progress;
    p.bind(1, run_id_).bind(2, lines_).bind(3, pending_.back().at.us());
    status = p.run("recording the run's progress");
  }
  if (status.ok()) status = db_.exec("COMMIT", "committing events");
  if (!status.ok()) {
    (void)db_.exec("ROLLBACK", "rolling back");
    return status;
  }
  pending_.clear();
  return model::Ok{};
}

model::Status ResultsStore::finish(const RunRecord& record) {
  if (finished_) return model::err(path() + ": run " + std::to_string(run_id_) + " already finished");
  if (run_id_ == 0)
    if (auto ok = begin_run(record.info); !ok.ok()) return ok;
  for (size_t i = static_cast<size_t>(lines_); i < record.events.size(); ++i) {
    pending_.push_back(record.events[i]);
    ++lines_;
  }
  if (auto ok = db_.exec("BEGIN IMMEDIATE", "starting a transaction"); !ok.ok()) return ok;
  auto status = write_events(pending_, 0);

  auto& w = statements_->insert_workload;
  for (size_t i = 0; status.ok() && i < record.workloads.size(); ++i) {
    const auto& o = record.workloads[i];
    std::optional<int64_t> wait;
    if (o.first_admitted) wait = (*o.first_admitted - o.created).us();
    w.bind(1, run_id_).bind(2, o.key).bind(3, o.generator.str()).bind(4, o.cluster_queue.str()).bind(5, o.instance_type.str());
    w.bind(6, o.family.str()).bind(7, o.created.us()).bind(8, micros(o.first_reserved)).bind(9, micros(o.first_admitted));
    w.bind(10, micros(o.finished)).bind(11, micros(o.deleted)).bind(12, wait).bind(13, int64_t{o.evictions});
    w.bind(14, int64_t{o.retries}).bind(15, int64_t{o.rejected}).bind(16, o.reject_message.str());
    w.bind(17, o.last_pending_message.str()).bind(18, o.last_pending_gate.str()).bind(19, int64_t{o.admitted_at_end});
    w.bind(20, o.gpu_model.str());
    status = w.run("storing workload " + o.key);
  }
  auto& p = statements_->insert_sample;
  for (size_t i = 0; status.ok() && i < record.pool_series.size(); ++i) {
    const auto& s = record.pool_series[i];
    p.bind(1, run_id_).bind(2, static_cast<int64_t>(i)).bind(3, s.cluster_queue.str()).bind(4, s.resource.str());
    p.bind(5, s.at.us()).bind(6, s.nominal).bind(7, s.reserved).bind(8, s.admitted);
    p.bind(9, int64_t{s.pending_workloads}).bind(10, int64_t{s.reserving_workloads});
    p.bind(11, int64_t{s.admitted_workloads}).bind(12, std::string(model::to_string(s.stop_policy))).bind(13, int64_t{s.draining});
    status = p.run("storing pool sample " + std::to_string(i));
  }
  const auto objects = split_final_objects(record.final_objects);
  auto& f = statements_->insert_object;
  for (size_t i = 0; status.ok() && i < objects.size(); ++i) {
    f.bind(1, run_id_).bind(2, static_cast<int64_t>(i)).bind(3, objects[i].kind).bind(4, objects[i].name);
    f.bind(5, objects[i].object.dump());
    status = f.run("storing " + objects[i].kind + " " + objects[i].name);
  }
  auto& g = statements_->insert_gpu_model;
  for (size_t i = 0; status.ok() && i < record.gpu_models.size(); ++i) {
    const auto& m = record.gpu_models[i];
    std::optional<int64_t> typical_credits, typical_cards;
    if (m.typical_cards > 0) {
      typical_credits = m.typical_credits_per_card;
      typical_cards = m.typical_cards;
    }
    g.bind(1, run_id_).bind(2, m.gpu_model).bind(3, m.product).bind(4, m.manufacturer).bind(5, typical_credits);
    g.bind(6, typical_cards).bind(7, m.span_us).bind(8, m.cards).bind(9, m.peak_cards).bind(10, m.mean_allocated);
    g.bind(11, m.peak_allocated).bind(12, m.final_allocated).bind(13, m.mean_utilization);
    g.bind(14, m.peak_utilization).bind(15, m.final_allocation).bind(16, m.final_free);
    g.bind(17, m.final_fragmented).bind(18, m.mean_fragmentation).bind(19, m.final_fragmentation);
    status = g.run("storing GPU model " + m.gpu_model);
  }
  auto& gs = statements_->insert_gpu_sample;
  for (size_t i = 0; status.ok() && i < record.gpu_model_series.size(); ++i) {
    const auto& s = record.gpu_model_series[i];
    gs.bind(1, run_id_).bind(2, static_cast<int64_t>(i)).bind(3, s.gpu_model.str()).bind(4, s.at.us());
    gs.bind(5, s.cards).bind(6, s.allocated).bind(7, s.fragmented);
    status = gs.run("storing GPU model sample " + std::to_string(i));
  }
  if (status.ok()) {
    const auto& info = record.info;
    auto& r = statements_->finish_run;
    r.bind(1, run_id_).bind(2, info.scenario_name).bind(3, info.scenario_file).bind(4, info.scenario_hash);
    r.bind(5, static_cast<int64_t>(info.seed)).bind(6, info.version).bind(7, info.horizon.us());
    r.bind(8, info.ended_at.us()).bind(9, info.events);
    status = r.run("marking the run complete");
  }
  if (status.ok()) status = db_.exec("COMMIT", "committing the run");
  if (!status.ok()) {
    (void)db_.exec("ROLLBACK", "rolling back");
    return status;
  }
  pending_.clear();
  finished_ = true;
  return model::Ok{};
}

}  // namespace chaintwin::sim
