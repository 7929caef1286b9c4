#include <catch2/catch.hpp>

#include <fstream>
#include <sqlite3.h>
#include <sstream>

#include "sim/results/results_schema.h"

namespace {

std::string read_docs() {
  std::ifstream in(std::string(CHAINTWIN_SOURCE_DIR) + "/docs/results.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// (table, column) for every column of every table of the schema, as SQLite reports them.
std::vector<std::pair<std::string, std::string>> schema_columns() {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, std::string(chaintwin::sim::kResultsSchema).c_str(), nullptr, nullptr, nullptr) ==
          SQLITE_OK);
  std::vector<std::pair<std::string, std::string>> out;
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db,
                             "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                             "WHERE m.type = 'table' ORDER BY m.name, p.cid",
                             -1, &stmt, nullptr) == SQLITE_OK);
  while (sqlite3_step(stmt) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)),
                     reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

}  // namespace

TEST_CASE("docs/results.md describes every table and column of the results schema", "[results_store]") {
  const std::string docs = read_docs();
  REQUIRE_FALSE(docs.empty());
  const auto columns = schema_columns();
  REQUIRE(columns.size() > 40);
  for (const auto& [table, column] : columns) {
    INFO(table << "." << column);
    const size_t section = docs.find("### `" + table + "`");
    REQUIRE(section != std::string::npos);
    const size_t next = docs.find("\n### ", section + 1);
    const std::string body = docs.substr(section, next == std::string::npos ? std::string::npos : next - section);
    CHECK(body.find("| `" + column + "` |") != std::string::npos);
  }
}
