// CompareView: two finished runs side by side, as the GUI's Compare panel shows them (`chaintwin
// gui --db A --db B`): per pool (ClusterQueue × resource) and per GPU model, each figure in run A,
// in run B and B − A, in the words `chaintwin compare` writes them. Plain values, built outside
// viz/ (sim/cli/gui/compare_source.h), so the window never reads the run files.
#pragma once

#include <string>
#include <vector>

namespace chaintwin::viz {

struct CompareFigure {
  std::string name;  // "utilization", "wait p95", ...
  std::string a, b, difference;
  bool differs = false;
  bool operator==(const CompareFigure&) const = default;
};

struct CompareRow {
  std::string key;  // "gpustack--nvidia-tesla-t4-linux-amd64 credits.gpustack.ai/nvidia", "nvidia-tesla-t4"
  bool in_a = true, in_b = true;
  std::vector<CompareFigure> figures;
  bool operator==(const CompareRow&) const = default;
};

struct CompareView {
  std::string a, b;  // each run: its file, scenario, seed and horizon
  std::vector<CompareRow> pools, gpu_models;
  bool operator==(const CompareView&) const = default;
};

}  // namespace chaintwin::viz
