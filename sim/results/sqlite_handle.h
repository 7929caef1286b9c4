// Thin RAII handles over the SQLite C API for the results store (sqlite_store.cpp): a database
// that closes itself, prepared statements that finalize themselves, and every failure returned as
// a Status naming the file, what was being done and SQLite's own message. Nothing else uses
// SQLite directly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace chaintwin::sim {

class SqliteStatement;

class SqliteDb {
 public:
  // Opens (creating when absent) a database file for reading and writing.
  static model::Result<SqliteDb> open(const std::string& path);

  // Runs one or more SQL statements that return no rows.
  model::Status exec(std::string_view sql, std::string_view doing);
  model::Result<SqliteStatement> prepare(std::string_view sql);
  // The single integer a query such as "PRAGMA user_version" returns.
  model::Result<int64_t> query_int(std::string_view sql);
  int64_t last_insert_rowid() const;

  // "<file>: <doing>: <SQLite's message>".
  model::Error error(std::string_view doing) const;
  const std::string& path() const { return path_; }
  sqlite3* raw() const { return db_.get(); }

 private:
  struct Close {
    void operator()(sqlite3* db) const;
  };
  SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  std::unique_ptr<sqlite3, Close> db_;
  std::string path_;
};

class SqliteStatement {
 public:
  // Parameters are 1-based, as in SQLite.
  SqliteStatement& bind(int index, int64_t value);
  SqliteStatement& bind(int index, std::string_view value);
  SqliteStatement& bind(int index, std::optional<int64_t> value);  // NULL when empty
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, std::optional<double> value);  // NULL when empty
  // Runs a statement that returns no rows, then resets it for the next use.
  model::Status run(std::string_view doing);

 private:
  friend class SqliteDb;
  struct Finalize {
    void operator()(sqlite3_stmt* stmt) const;
  };
  SqliteStatement(sqlite3_stmt* stmt, sqlite3* db, std::string path) : stmt_(stmt), db_(db), path_(std::move(path)) {}
  std::unique_ptr<sqlite3_stmt, Finalize> stmt_;
  sqlite3* db_;        // for error messages; the database outlives its statements
  std::string path_;
  int bind_rc_ = 0;     // first bind failure, reported by run()
};

}  // namespace chaintwin::sim
