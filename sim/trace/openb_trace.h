// The importer of the Alibaba "openb" GPU cluster trace (scenarios/traces/openb/README.md): its
// node list becomes Nodes with Devices (model/device_manager/device_inventory.h, GPU models mapped by
// sim/trace/openb_models.h) and its pod list becomes TraceWorkloads (sim/scenario/scenario.h)
// with arrival, run time, request shape and the InstanceType selector (a gpu_spec naming several
// models: the first model's accelerator plus the others as alternatives). Called by the scenario
// loader for `workloads: - trace: {format: openb, ...}`; docs/traces.md states every mapping.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"
#include "model/result.h"
#include "sim/scenario/scenario.h"
#include "sim/sim_time.h"
#include "sim/trace/openb_models.h"

namespace chaintwin::sim {

// A pod the real cluster never scheduled (empty or negative scheduled_time).
enum class UnscheduledPods {
  kSkip,     // not imported (counted in TraceData::skipped_unscheduled)
  kInclude,  // imported; runs deletion_time − creation_time once admitted
};

struct OpenbTraceOptions {
  std::optional<int64_t> limit;  // keep only the first N imported pods (file order)
  UnscheduledPods unscheduled = UnscheduledPods::kSkip;
  std::string namespace_ = "default";
  // The openb model code pods without gpu_spec queue on; "" picks the most common model of the
  // node list (most nodes, then most cards, then the smaller code).
  std::string default_model;
  // The GPU model table in use (code → product, VRAM, ...); empty: openb_gpu_models().
  std::vector<OpenbGpuModel> models;
};

// A pod list without the three time columns (e.g. openb_pod_list_multigpu50.csv) is a plain
// arrival order: pod n arrives at n seconds and runs this long (past any horizon).
inline constexpr SimTime kOpenbUntimedDuration = SimTime::days(36500);

struct TraceNode {
  model::Node node;
  std::optional<model::Devices> devices;  // nullopt for a CPU-only row
  std::string model_code;                 // openb `model` ("" for CPU-only)
  SourceRef where;                        // the CSV row
};

struct TraceData {
  std::vector<TraceNode> nodes;
  std::vector<TraceWorkload> workloads;
  std::string default_model;               // the code pods without gpu_spec queue on ("" if none)
  std::vector<OpenbGpuModel> models;       // the GPU model table the import used
  std::map<std::string, int64_t> cards_by_model;  // openb code → cards in the node list
  std::map<std::string, int64_t> nodes_by_model;  // openb code → nodes ("" = CPU-only nodes)
  int64_t with_gpu_spec = 0;               // imported pods whose gpu_spec named models
  int64_t included_unscheduled = 0;        // imported pods never scheduled (UnscheduledPods::kInclude)
  int64_t pod_rows = 0;                    // data rows of the pod list
  int64_t skipped_unscheduled = 0;         // rows dropped under UnscheduledPods::kSkip
  bool timed = true;                       // false: the pod list had no time columns
  SimTime end;                             // latest arrival + run time of an imported pod
  SimTime last_arrival;                    // latest arrival of an imported pod
};

// The rule for pods without gpu_spec: the model with the most nodes, then the most cards, then
// the smaller code; "" when no node has a GPU.
std::string most_common_openb_model(const std::vector<TraceNode>& nodes);

// The import, from text (file names for messages). Refuses a malformed row with `file:line:
// column: reason`, an unknown GPU model, a node name given twice.
model::Result<TraceData> parse_openb_trace(const std::string& nodes_csv, const std::string& nodes_file,
                                           const std::string& pods_csv, const std::string& pods_file,
                                           const OpenbTraceOptions& options);

// The import, from files.
model::Result<TraceData> read_openb_trace(const std::string& nodes_csv_path, const std::string& pods_csv_path,
                                          const OpenbTraceOptions& options);

}  // namespace chaintwin::sim
