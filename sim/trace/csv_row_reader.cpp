#include "sim/trace/csv_row_reader.h"
#include "sim/input_file.h"

#include <fstream>
#include <sstream>
#include <utility>

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

model::Result<OpenbTables> parse_openb_tables(const std::string& nodes_csv, const std::string& nodes_file,
                                              const std::string& pods_csv, const std::string& pods_file) {
  auto nodes = parse_csv(nodes_csv, nodes_file);
  if (!nodes) return model::err(nodes.error());
  auto pods = parse_csv(pods_csv, pods_file);
  if (!pods) return model::err(pods.error());
  if (auto ok = require_columns(*nodes, {"sn", "cpu_milli", "memory_mib", "gpu", "model"}); !ok) return model::err(ok.error());
  if (auto ok = require_columns(*pods, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}); !ok)
    return model::err(ok.error());
  // pod_phase, when the list has it, is one of the trace's four phases at its end (README of
  // data/openb); the import does not read it, but a value outside them means a file of another kind.
  if (const auto phase = pods->column("pod_phase"))
    for (const CsvRow& r : pods->rows()) {
      const std::string& v = *phase < r.fields.size() ? r.fields[*phase] : std::string();
      if (v != "Running" && v != "Succeeded" && v != "Failed" && v != "Pending")
        return model::err(pods->where(r) + ": pod_phase: '" + v + "' is not a pod phase (expected Running, Succeeded, Failed or Pending)");
    }
  return OpenbTables{std::move(nodes).value(), std::move(pods).value()};
}

model::Result<std::string> read_text_file(const std::string& path) {
  if (const std::string why = input_file_problem(path); !why.empty()) return model::err(path + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace chaintwin::sim
