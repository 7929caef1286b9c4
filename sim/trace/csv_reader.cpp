#include "sim/trace/csv_reader.h"
#include "model/api/k8s_validation.h"
#include "sim/input_file.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace chaintwin::sim {

CsvTable::CsvTable(std::string file, std::vector<std::string> header, std::vector<CsvRow> rows)
    : file_(std::move(file)), header_(std::move(header)), rows_(std::move(rows)) {
  for (size_t i = 0; i < header_.size(); ++i) index_.emplace(header_[i], i);
}

std::optional<size_t> CsvTable::column(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

namespace {

// Splits the text into records; each record is its fields and its first line.
model::Result<std::vector<CsvRow>> split_records(std::string_view text, const std::string& file) {
  std::vector<CsvRow> out;
  size_t i = 0;
  int line = 1;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // a UTF-8 byte order mark
  while (i < text.size()) {
    // Blank line (LF or CRLF): skip.
    if (text[i] == '\n' || (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      i += text[i] == '\r' ? 2 : 1;
      ++line;
      continue;
    }
    CsvRow row;
    row.line = line;
    std::string field;
    bool end_of_record = false;
    while (!end_of_record) {
      field.clear();
      if (i < text.size() && text[i] == '"') {
        const int quote_line = line;
        ++i;
        bool closed = false;
        while (i < text.size()) {
          const char c = text[i];
          if (c == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
              field.push_back('"');
              i += 2;
              continue;
            }
            ++i;
            closed = true;
            break;
          }
          if (c == '\n') ++line;
          field.push_back(c);
          ++i;
        }
        if (!closed)
          return model::err(file + ":" + std::to_string(quote_line) + ": a quoted field is never closed (missing '\"')");
        if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
          return model::err(file + ":" + std::to_string(line) + ": unexpected '" + std::string(1, text[i]) +
                            "' after a closing quote (expected ',' or the end of the row)");
      } else {
        while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          if (text[i] == '"')
            return model::err(file + ":" + std::to_string(line) +
                              ": a '\"' inside an unquoted field (quote the whole field and double the quote)");
          field.push_back(text[i++]);
        }
      }
      row.fields.push_back(field);
      if (i >= text.size()) {
        end_of_record = true;
      } else if (text[i] == ',') {
        ++i;
      } else {
        if (text[i] == '\r') ++i;
        if (i < text.size() && text[i] == '\n') ++i;
        ++line;
        end_of_record = true;
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

model::Result<CsvTable> parse_csv(std::string_view text, const std::string& file) {
  auto records = split_records(text, file);
  if (!records) return model::err(records.error());
  if (records->empty()) return model::err(file + ":1: empty file (expected a header row naming the columns)");
  // Every field is text as the API keeps it: UTF-8, no NUL byte (a Node named from `sn` goes into
  // every output).
  for (const CsvRow& r : *records)
    for (size_t c = 0; c < r.fields.size(); ++c)
      if (const auto at = model::bad_text_byte(r.fields[c])) {
        const std::string column =
            c < records->front().fields.size() ? records->front().fields[c] : "field " + std::to_string(c + 1);
        return model::err(file + ":" + std::to_string(r.line) + ": " + column + ": not valid UTF-8 text (" +
                          model::bad_text_byte_text(r.fields[c], *at) + ")");
      }
  CsvRow header = std::move(records->front());
  std::map<std::string, int> seen;
  for (size_t c = 0; c < header.fields.size(); ++c) {
    const std::string& name = header.fields[c];
    const std::string at = file + ":" + std::to_string(header.line) + ": header column " + std::to_string(c + 1);
    if (name.empty()) return model::err(at + " has no name");
    if (!seen.emplace(name, 0).second) return model::err(at + ": column '" + name + "' is named twice");
  }
  std::vector<CsvRow> rows(std::make_move_iterator(records->begin() + 1), std::make_move_iterator(records->end()));
  for (const auto& r : rows)
    if (r.fields.size() != header.fields.size())
      return model::err(file + ":" + std::to_string(r.line) + ": " + std::to_string(r.fields.size()) +
                        " fields, but the header has " + std::to_string(header.fields.size()));
  return CsvTable(file, std::move(header.fields), std::move(rows));
}

model::Result<CsvTable> read_csv_file(const std::string& path) {
  if (const std::string why = input_file_problem(path); !why.empty()) return model::err(path + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_csv(ss.str(), path);
}

std::optional<int64_t> parse_csv_int(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

}  // namespace chaintwin::sim
