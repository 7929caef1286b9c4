#include "sim/trace/csv_row_reader.h"

#include <fstream>
#include <sstream>

namespace chaintwin::sim {

int64_t RowReader::integer(const std::string& column, int64_t min, int64_t max) const {
  const std::string t = text(column);
  const auto v = parse_csv_int(t);
  if (!v) fail(column, "'" + t + "' is not a whole number");
  if (*v < min || *v > max)
    fail(column, std::to_string(*v) + " is out of range (" + std::to_string(min) + ".." + std::to_string(max) + ")");
  return *v;
}

model::Status require_columns(const CsvTable& t, const std::vector<std::string>& names) {
  for (const auto& n : names) {
    if (t.column(n)) continue;
    std::string all;
    for (const auto& x : names) all += (all.empty() ? "" : ", ") + x;
    return model::err(t.file() + ":1: missing column '" + n + "' (an openb file has " + all + ")");
  }
  return model::Ok{};
}

model::Result<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace chaintwin::sim
