// The manufacturer table (pkg/nodefeature/knowns.go defaults, no environment overrides).
#include "model/catalog/manufacturer.h"

#include <array>

namespace chaintwin::model {
namespace {

// Slices per card and overcommit: docs/modules/devices/scheduling.md (NVIDIA 128, Ascend 63,
// Cambricon 16, Hygon 4, MThreads 16, MetaX 16). AMD, Iluvatar and T-Head have no logical-slice
// count in the table. Partition kinds: nvidia and thead map to "mig" in the code version we follow
// (docs/fidelity.md records that newer docs also show Hygon keys).
constexpr std::array<ManufacturerInfo, 9> kManufacturers{{
    {"amd", "1002", "amd.com/gpu", "", 0, false, false},
    {"ascend", "19e5", "huawei.com/npu", "", 63, true, false},
    {"cambricon", "cabc", "cambricon.com/mlu", "", 16, false, false},
    {"hygon", "1d94", "hygon.com/dcu", "", 4, false, false},
    {"iluvatar", "1e3e", "iluvatar.com/gpu", "", 0, false, false},
    {"metax", "9999", "metax-tech.com/gpu", "", 16, false, false},
    {"mthreads", "1ed5", "mthreads.com/gpu", "", 16, false, false},
    {"nvidia", "10de", "nvidia.com/gpu", "mig", 128, true, false},
    {"thead", "1ded", "alibabacloud.com/ppu", "mig", 0, false, true},
}};

}  // namespace

std::span<const ManufacturerInfo> known_manufacturers() { return kManufacturers; }

std::optional<ManufacturerInfo> find_manufacturer(std::string_view name) {
  for (const auto& m : kManufacturers)
    if (m.name == name) return m;
  return std::nullopt;
}

std::optional<ManufacturerInfo> manufacturer_by_resource_base(std::string_view base) {
  for (const auto& m : kManufacturers)
    if (m.resource_base == base) return m;
  return std::nullopt;
}

}  // namespace chaintwin::model
