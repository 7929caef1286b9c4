// Classifying resource names (pkg/nodefeature/knowns.go, helper.go): which accelerator family
// a resource name belongs to, whether it is one of ours, whether it is a credits resource, and
// the device-plugin resource a manufacturer advertises for an allocation mode.
// Callers: the Pod webhook's one-family rules, Gate 3, capacity-key ownership, queue building.
#pragma once

#include <string>
#include <string_view>

#include "model/api/devices.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {

// ResourceFamilyOf: visibility for device.gpustack.ai/<known manufacturer>.visibility; partitioned
// for a per-profile key (known base, its kind, non-empty tail); otherwise the family of the fixed
// suffix (.shared, .sliced[.units|.cores-percentage|.memory-percentage|.memory-mib],
// .partitioned[.units]) behind a known base; exclusive for a bare known base; none otherwise.
ResourceFamily resource_family_of(std::string_view resource_name);
// What a name counts in a container's accelerator claim (model/admission/accelerator_claim.h):
// the family's token (the manufacturer's exclusive, shared, sliced or partitioned name), its units
// (the .sliced.units or .partitioned.units name), or neither.
enum class ClaimRole : uint8_t { kOther, kCount, kUnits };

// The family with, for the four accelerator families, the manufacturer whose resource base the
// name is a key of (null otherwise); the manufacturer table's own entry; and the name's role in a
// claim, read off the manufacturer's resource names (model/catalog/resource_names.h).
struct ResourceClass {
  ResourceFamily family = ResourceFamily::kNone;
  const ManufacturerInfo* manufacturer = nullptr;
  ClaimRole role = ClaimRole::kOther;
};
ResourceClass resource_class_of(std::string_view resource_name);
// The same rules applied one by one, without the table resource_family_of() answers from (its
// tests compare the two).
ResourceFamily resource_family_by_rules(std::string_view resource_name);

// One of the four accelerator families (exclusive, shared, sliced, partitioned); visibility
// and credits are not.
bool is_known_acceleratable_resource_name(std::string_view resource_name);

// credits.gpustack.ai/<known manufacturer>.
bool is_acceleratable_credits_resource_name(std::string_view resource_name);

// GetAcceleratableResourceName: the base for Exclusive (and None), <base>.shared, <base>.sliced,
// <base>.partitioned ("" when the manufacturer has no partition kind), and the visibility
// resource. An unknown manufacturer has an empty base, as in the operator.
std::string get_acceleratable_resource_name(std::string_view manufacturer, DeviceAllocationMode mode);

}  // namespace chaintwin::model
