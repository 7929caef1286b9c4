// GpuModelUsage: what a capacity planner asks of a replay, per GPU model (an accelerator key,
// "<manufacturer>-<group id>", the pool an InstanceType names): cards, credits allocated over
// time, peak and mean utilization, and fragmentation — free credits left on cards that can no
// longer take the model's typical request (the FGD paper's measure, adapted to credits: see
// fragmented_credits and docs/gpu-model-report.md).
//
// The runner calls set_typical_request() before the run and on_node() whenever one Node's Devices
// ledger may have changed (a Pod allocated or released cards, a Node joined or left, a card was
// re-detected). The tracker keeps each node's last contribution and adjusts the per-model totals
// by the difference, so an update costs the cards of that one node, never the size of the
// cluster. At the end, series() and summaries(end) go into the RunRecord (gpu_model_series,
// gpu_models). Integers for every credit; floating point only in a summary's final divisions.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/api/instance_type.h"
#include "model/flat_string_index.h"
#include "sim/results/run_record.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

// The request most pods of a model ask for, in credits per card and cards per pod (a 46 % slice is
// {736000, 1}; two whole cards {1600000, 2}). Chosen by the caller from the scenario's demand.
struct TypicalRequest {
  int64_t credits_per_card = 0;  // 1..M
  int32_t cards = 1;             // >= 1
  bool operator==(const TypicalRequest&) const = default;
};

// One card of one node as the tracker sees it: free credits (remaining, clamped to 0..M) and
// whether it can take anything at all (an unhealthy card cannot).
struct CardFree {
  int64_t free = 0;
  bool healthy = true;
};

// FGD's F_n(m) for one node's cards of one model and the typical request m = (c credits × k
// cards), in credits. A card "fits" when it is healthy and free >= c. When at least k cards fit,
// the node can host m and the fragment is the free credits of the cards that do not fit; when
// fewer fit, nothing of the node's free credits can serve m and all of them are the fragment.
// So for a one-card slice a card with 0 < free < c is fragmented and a whole free card is not;
// for k >= 2 whole cards every partly used card is, and the whole free cards too when the node
// has fewer than k of them.
int64_t fragmented_credits(const std::vector<CardFree>& cards, const TypicalRequest& request);

// One node's figures for one model.
struct NodeModelFigures {
  std::string product, manufacturer;
  int64_t cards = 0, allocated = 0, fragmented = 0;
  std::vector<CardFree> card_free;  // kept to recompute fragmentation under a new typical request
};

// A node's Devices split per model (status groups joined by accelerator id with the spec group
// that names the product). Cost: the node's cards. `typical` gives each model's typical request.
std::map<std::string, NodeModelFigures> node_model_figures(const model::Devices& devices,
                                                           const std::map<std::string, TypicalRequest>& typical);

// The GPU model an InstanceType schedules onto: its accelerator group (aKey) when acceleratable,
// "" for CPU types. The runner stores it in WorkloadOutcome::gpu_model.
std::string gpu_model_of_instance_type(const model::InstanceType& instance_type);
// gpu_model for every outcome whose instance_type is in `instance_types` (by name) and whose
// gpu_model is still empty; the others are left as they are.
void fill_gpu_models(std::deque<WorkloadOutcome>& workloads,
                     const std::map<std::string, model::InstanceType>& instance_types);

// The summaries of a series (samples in time order; several at one instant: the last holds).
// `typical` records the typical request of each model; `names` its product and manufacturer.
struct GpuModelNames {
  std::string product, manufacturer;
};
std::vector<GpuModelSummary> summarize_gpu_models(const std::deque<GpuModelSample>& series, SimTime end,
                                                  const std::map<std::string, TypicalRequest>& typical,
                                                  const std::map<std::string, GpuModelNames>& names);

class GpuModelUsage {
 public:
  // The typical request of `gpu_model` (aKey). Before the run; a later call recomputes that
  // model's fragmentation on every node (cost: the model's cards) and samples it at `now`.
  void set_typical_request(const std::string& gpu_model, TypicalRequest request, SimTime now = SimTime());
  // One node's Devices as they stand now (nullptr: the node or its Devices are gone).
  void on_node(SimTime now, const std::string& node, const model::Devices* devices);

  // The totals of one model now (zero for a model never seen).
  GpuModelSample totals(const std::string& gpu_model) const;
  // Every change of a model's totals, in time order; at one instant only the last values stay.
  const std::deque<GpuModelSample>& series() const { return series_; }
  // The series, moved out (what the run record keeps at the end; series() is empty after).
  std::deque<GpuModelSample> take_series() { return std::move(series_); }
  // Closes every series at `end` and summarises it, by gpu_model.
  std::vector<GpuModelSummary> summaries(SimTime end) const;

 private:
  struct Totals {
    int64_t cards = 0, allocated = 0, fragmented = 0;
    bool operator==(const Totals&) const = default;
  };
  // A GPU model, numbered when first named (by a node's ledger or a typical request).
  struct Model {
    InternedName name;  // the aKey
    std::optional<TypicalRequest> typical;
    Totals totals;
    std::optional<std::size_t> last_sample;  // its last sample's index in series_
  };
  // One node's figures for one model; a node's list is in aKey order (the order its models'
  // totals move in, and so the order of their samples at one instant).
  struct NodeModel {
    uint32_t model = 0;
    NodeModelFigures figures;
  };
  using NodeModels = std::vector<NodeModel>;

  static Totals totals_of(const NodeModelFigures& f);
  // A node's entry for `model` (end() when it holds none).
  static NodeModels::const_iterator find_in(const NodeModels& list, uint32_t model);
  uint32_t model_id(std::string_view gpu_model);
  // A node's figures from its Devices, afresh.
  NodeModels figures_of(const model::Devices& devices);
  // Recomputes `figures` in place when the Devices hold the models they held, one status group
  // each (the steady case: a Pod started or finished); false, with nothing changed, otherwise.
  bool refresh(NodeModels& figures, const model::Devices& devices) const;
  // Moves a model's totals by one Node's figures before and after (zeros: the Node had none).
  void apply(SimTime now, uint32_t model, const Totals& before, const Totals& after);
  void sample(SimTime now, uint32_t model);

  std::vector<Model> models_;                  // by model id
  model::FlatStringMap<uint32_t> model_ids_;   // aKey → model id (never walked)
  std::vector<NodeModels> nodes_;              // by node slot; a node with no model holds none
  model::FlatStringMap<uint32_t> node_slots_;  // node name → slot (never walked)
  std::vector<uint32_t> free_slots_;
  std::map<std::string, GpuModelNames> names_;
  std::deque<GpuModelSample> series_;
};

}  // namespace chaintwin::sim
