// An openb node list and pod list read as the openb paper's simulator reads them for its
// full-demand experiment (docs/research/openb-paper-procedure.md §6): Nodes as free CPU, memory,
// GPU model and cards; pods as CPU, memory, cards × milli-GPU and gpu_spec. Every row of the pod
// list is a pod — the time and phase columns are not read, so pods the real cluster never
// scheduled are pods here too. GPU model codes and gpu_spec texts are interned in text order
// (model ids, spec ranks); pods are kept sorted by name, the order the paper's resampling draws
// from. Read by `chaintwin full-demand` (sim/cli/full_demand_command.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/placement/share_node.h"
#include "model/result.h"

namespace chaintwin::sim {

struct ShareTrace {
  std::vector<std::string> node_names;                // by Node index, as in the node list
  std::vector<model::placement::ShareNode> nodes;
  std::vector<std::string> models;                    // model id → openb model code, sorted
  std::vector<std::string> pod_names;                 // by pod index, sorted by name
  std::vector<model::placement::SharePod> pods;       // same order
  int64_t capacity_milli() const;                     // Σ cards × 1000
  int64_t demand_milli() const;                       // Σ pods' cards × milli
};

// From text (file names for messages). Refuses a malformed row with `file:line: column: reason`:
// a missing column, a value that is not a whole number or out of range, a share of several cards,
// a GPU model on a row without cards, more than 64 GPU model codes, a name given twice.
model::Result<ShareTrace> parse_share_trace(const std::string& nodes_csv, const std::string& nodes_file,
                                            const std::string& pods_csv, const std::string& pods_file);

model::Result<ShareTrace> read_share_trace(const std::string& nodes_path, const std::string& pods_path);

}  // namespace chaintwin::sim
