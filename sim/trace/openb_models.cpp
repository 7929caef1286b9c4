#include "sim/trace/openb_models.h"

#include "model/normalize_name.h"

namespace chaintwin::sim {

const std::vector<OpenbGpuModel>& openb_gpu_models() {
  // Nominal VRAM in MiB (GB × 1024), CUDA cores, architecture and compute capability from
  // NVIDIA's data sheets and CUDA GPU list; see docs/traces.md for the sources and the choices.
  static const std::vector<OpenbGpuModel> models{
      {"A10", "NVIDIA A10", 24576, 9216, "Ampere", "8.6", false},
      {"G2", "NVIDIA A100-SXM4-40GB", 40960, 6912, "Ampere", "8.0", true},
      {"G3", "NVIDIA A100-SXM4-80GB", 81920, 6912, "Ampere", "8.0", true},
      {"P100", "Tesla P100-PCIE-16GB", 16384, 3584, "Pascal", "6.0", false},
      {"T4", "Tesla T4", 16384, 2560, "Turing", "7.5", false},
      {"V100M16", "Tesla V100-SXM2-16GB", 16384, 5120, "Volta", "7.0", false},
      {"V100M32", "Tesla V100-SXM2-32GB", 32768, 5120, "Volta", "7.0", false},
  };
  return models;
}

const OpenbGpuModel* find_openb_gpu_model(const std::vector<OpenbGpuModel>& table, const std::string& code) {
  for (const auto& m : table)
    if (m.code == code) return &m;
  return nullptr;
}

const OpenbGpuModel* find_openb_gpu_model(const std::string& code) {
  return find_openb_gpu_model(openb_gpu_models(), code);
}

std::string openb_gpu_model_codes(const std::vector<OpenbGpuModel>& table) {
  std::string out;
  for (const auto& m : table) out += (out.empty() ? "" : ", ") + m.code;
  return out;
}

std::string openb_gpu_model_codes() { return openb_gpu_model_codes(openb_gpu_models()); }

std::string openb_accelerator_key(const OpenbGpuModel& model) {
  return model::accelerator_key("nvidia", model::construct_group_id("nvidia", model.product));
}

model::AcceleratorInventory openb_inventory(const OpenbGpuModel& model, int32_t count) {
  model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = model.product;
  inv.count = count;
  inv.memory_mib = model.memory_mib;
  inv.reported_memory_mib = model.memory_mib;
  inv.cores = model.cores;
  inv.family = model.family;
  inv.compute_capability = model.compute_capability;
  return inv;
}

}  // namespace chaintwin::sim
