// InstanceTypeFlavor: the read-only catalog of pools an admin can author InstanceTypes for
// (pkg/worker/extensionapis/worker/instance_type_flavor.go). It is an aggregated API with no
// stored object: every list is computed from the operator's ResourceFlavors' notes, grouped the
// way derived InstanceTypes are (instance-type-aware-cpu-manufacturer). No os/arch, no labels.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/api/instance_type_flavor_object.h"
#include "model/kueue/kueue_objects.h"

namespace chaintwin::model {

// One catalog row from a flavor's note.gpustack.ai/* annotations: a CPU flavor becomes the
// per-CPU row (aware: generalGroup, manufacturer, product, family) or the single collapsed row
// (unaware: generalGroup and manufacturer "generic"); an accelerated flavor keeps its device
// descriptors and carries its gKey only when aware.
InstanceTypeFlavorSpec instance_type_flavor_spec(const StringMap& notes, bool aware);

// OnList: the operator ResourceFlavors (resource.gpustack.ai/type=nodes) that are not being
// deleted and carry a group identity, one row per distinct spec (the first flavor by name
// wins), sorted by manufacturer, product, memory (as quantities when both parse, else as
// text), generalGroup, acceleratorGroup.
std::vector<InstanceTypeFlavor> instance_type_flavor_catalog(const std::map<std::string, ResourceFlavor>& flavors,
                                                             bool aware);

}  // namespace chaintwin::model
