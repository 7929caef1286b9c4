#include "sim/results/sqlite_handle.h"

#include <sqlite3.h>

namespace chaintwin::sim {

void SqliteDb::Close::operator()(sqlite3* db) const { sqlite3_close_v2(db); }
void SqliteStatement::Finalize::operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }

model::Result<SqliteDb> SqliteDb::open(const std::string& path) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  SqliteDb db(raw, path);
  if (rc != SQLITE_OK) {
    if (raw == nullptr) return model::err(path + ": opening the results database: " + sqlite3_errstr(rc));
    return db.error("opening the results database");
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 5000);
  return db;
}

model::Error SqliteDb::error(std::string_view doing) const {
  const char* message = db_ ? sqlite3_errmsg(db_.get()) : "no database";
  return model::err(path_ + ": " + std::string(doing) + ": " + message);
}

model::Status SqliteDb::exec(std::string_view sql, std::string_view doing) {
  char* message = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return model::Ok{};
  std::string why = message != nullptr ? message : sqlite3_errmsg(db_.get());
  sqlite3_free(message);
  return model::err(path_ + ": " + std::string(doing) + ": " + why);
}

model::Result<SqliteStatement> SqliteDb::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK)
    return error("preparing '" + std::string(sql.substr(0, 40)) + "…'");
  return SqliteStatement(stmt, db_.get(), path_);
}

model::Result<int64_t> SqliteDb::query_int(std::string_view sql) {
  auto stmt = prepare(sql);
  if (!stmt.ok()) return model::err(stmt.error());
  sqlite3_stmt* raw = stmt.value().stmt_.get();
  const int rc = sqlite3_step(raw);
  if (rc != SQLITE_ROW) return error("reading '" + std::string(sql) + "'");
  return static_cast<int64_t>(sqlite3_column_int64(raw, 0));
}

int64_t SqliteDb::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }

SqliteStatement& SqliteStatement::bind(int index, int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_.get(), index, value);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view value) {
  const int rc = sqlite3_bind_text64(stmt_.get(), index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::optional<int64_t> value) {
  const int rc = value ? sqlite3_bind_int64(stmt_.get(), index, *value) : sqlite3_bind_null(stmt_.get(), index);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_.get(), index, value);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::optional<double> value) {
  const int rc = value ? sqlite3_bind_double(stmt_.get(), index, *value) : sqlite3_bind_null(stmt_.get(), index);
  if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
  return *this;
}

model::Status SqliteStatement::run(std::string_view doing) {
  if (bind_rc_ != SQLITE_OK) {
    const int rc = bind_rc_;
    bind_rc_ = SQLITE_OK;
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
    return model::err(path_ + ": " + std::string(doing) + ": " + sqlite3_errstr(rc));
  }
  const int rc = sqlite3_step(stmt_.get());
  std::string why = (rc == SQLITE_DONE || rc == SQLITE_ROW) ? std::string() : std::string(sqlite3_errmsg(db_));
  sqlite3_reset(stmt_.get());
  sqlite3_clear_bindings(stmt_.get());
  if (why.empty()) return model::Ok{};
  return model::err(path_ + ": " + std::string(doing) + ": " + why);
}

}  // namespace chaintwin::sim
