// A small RFC 4180 CSV reader for trace importers (sim/trace/openb_trace.h): a header row names
// the columns, fields may be quoted ("a,b", "say ""hi""", line breaks inside quotes), rows end
// in LF or CRLF, blank lines are skipped. Every row remembers the line it starts on, so callers
// can say `file:line: column: reason` about a bad value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"

namespace chaintwin::sim {

struct CsvRow {
  int line = 0;  // 1-based line the row starts on
  std::vector<std::string> fields;
};

class CsvTable {
 public:
  CsvTable(std::string file, std::vector<std::string> header, std::vector<CsvRow> rows);

  const std::string& file() const { return file_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<CsvRow>& rows() const { return rows_; }
  // The index of a column by its header name; nullopt when the file has no such column.
  std::optional<size_t> column(const std::string& name) const;
  // "file:line" of a row, for messages.
  std::string where(const CsvRow& row) const { return file_ + ":" + std::to_string(row.line); }

 private:
  std::string file_;
  std::vector<std::string> header_;
  std::vector<CsvRow> rows_;
  std::map<std::string, size_t> index_;
};

// Parses `text` (named `file` in messages). Refuses an empty file, a duplicate or empty header
// name, an unterminated quote, text after a closing quote, and a row whose field count differs
// from the header's — each with file:line.
model::Result<CsvTable> parse_csv(std::string_view text, const std::string& file);

// Reads and parses the file at `path`.
model::Result<CsvTable> read_csv_file(const std::string& path);

// A whole decimal integer (optional leading '-'), refusing anything else ("1.5", "", "12a").
std::optional<int64_t> parse_csv_int(std::string_view text);

}  // namespace chaintwin::sim
