// The GPU models of the Alibaba openb trace (its node list's `model` column) as the NVIDIA
// products this simulator builds Devices for: product name as NVML reports it, nominal VRAM per
// card, CUDA cores, architecture, compute capability. G2 and G3 are undisclosed Alibaba-internal
// models; they get documented stand-ins (`stand_in`). docs/traces.md justifies every row.
// Called by the openb importer (sim/trace/openb_trace.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/device_manager/device_inventory.h"

namespace chaintwin::sim {

struct OpenbGpuModel {
  std::string code;     // as the trace spells it: "V100M16"
  std::string product;  // NVIDIA product name: "Tesla V100-SXM2-16GB"
  int64_t memory_mib = 0;
  uint32_t cores = 0;
  std::string family;
  std::string compute_capability;
  bool stand_in = false;  // the trace does not say what it is; the product is our pick
};

// Every model the mapping knows, in code order.
const std::vector<OpenbGpuModel>& openb_gpu_models();
// The model with this code (exact, case-sensitive as in the trace) in `table` (default: the
// built-in one); nullptr when unknown.
const OpenbGpuModel* find_openb_gpu_model(const std::string& code);
const OpenbGpuModel* find_openb_gpu_model(const std::vector<OpenbGpuModel>& table, const std::string& code);
// The known codes, comma-separated, for messages.
std::string openb_gpu_model_codes();
std::string openb_gpu_model_codes(const std::vector<OpenbGpuModel>& table);
// The accelerator key (aKey) the chain derives for the model's cards — "nvidia-tesla-t4" — which a
// TraceWorkload's InstanceType selector names.
std::string openb_accelerator_key(const OpenbGpuModel& model);
// An accelerator inventory of `count` cards of `model` (manufacturer nvidia, every fact given,
// so make_devices needs nothing from its own product table).
model::AcceleratorInventory openb_inventory(const OpenbGpuModel& model, int32_t count);

}  // namespace chaintwin::sim
