// Reading one CSV row of a trace by column name, for the trace readers (openb_trace.cpp,
// sim/fulldemand/share_trace.cpp): typed fields with their range, and a failure that carries the
// full `file:line: column: reason` message (thrown as RowError, caught at the reader's boundary
// and returned as a model::Error). Also the whole-file read the readers share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/result.h"
#include "sim/trace/csv_reader.h"

namespace chaintwin::sim {

// A failed row check: carries the full `file:line: column: reason` message.
struct RowError {
  std::string message;
};

class RowReader {
 public:
  RowReader(const CsvTable& table, const CsvRow& row) : table_(table), row_(row) {}

  std::string where() const { return table_.where(row_); }
  [[noreturn]] void fail(const std::string& column, const std::string& reason) const {
    throw RowError{where() + ": " + column + ": " + reason};
  }
  // The field, or "" when the file has no such column.
  std::string text(const std::string& column) const {
    const auto c = table_.column(column);
    return c ? row_.fields[*c] : std::string();
  }
  bool blank(const std::string& column) const { return text(column).empty(); }
  int64_t integer(const std::string& column, int64_t min, int64_t max) const;

 private:
  const CsvTable& table_;
  const CsvRow& row_;
};

// Refuses a table without one of `names`: `file:1: missing column 'x' (an openb file has a, b, …)`.
model::Status require_columns(const CsvTable& t, const std::vector<std::string>& names);

// An openb node list and pod list parsed, each with the columns every openb reader needs
// (sn, cpu_milli, memory_mib, gpu, model; name, cpu_milli, memory_mib, num_gpu, gpu_milli).
struct OpenbTables {
  CsvTable nodes;
  CsvTable pods;
};
model::Result<OpenbTables> parse_openb_tables(const std::string& nodes_csv, const std::string& nodes_file,
                                              const std::string& pods_csv, const std::string& pods_file);

// The file's bytes, or `path: cannot read the file`.
model::Result<std::string> read_text_file(const std::string& path);

}  // namespace chaintwin::sim
