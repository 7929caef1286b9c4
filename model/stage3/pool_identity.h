// Pool identity (pkg/nodefeature/helper.go, the InstanceTypeFlavor API, node_queue_entrance.go):
// how a NodeFlavor groups into an InstanceType / ClusterQueue under the
// instance-type-aware-cpu-manufacturer setting, the schedule labels stamped on both, the
// selector that finds a pool's ResourceFlavors, the InstanceTypeFlavor catalog name and the
// LocalQueue name. Callers: flavor authoring, the InstanceType reconciler, the queue reconciler.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/stage3/node_keys.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

// The name and groups of a pool's derived InstanceType (and its ClusterQueue, same name).
struct InstanceTypeIdentity {
  std::string name;               // see derived_instance_type_identity
  std::string general_group;      // spec.generalGroup: "generic" unless aware, then the gKey
  std::string accelerator_group;  // spec.acceleratorGroup: the aKey, "" for a CPU pool
  bool operator==(const InstanceTypeIdentity&) const = default;
};

// DerivedInstanceTypeIdentity: unaware CPU "gpustack--generic-<os>-<arch>", unaware accelerated
// "gpustack--<aKey>-<os>-<arch>"; aware CPU "gpustack--<gKey>-<os>-<arch>", aware accelerated
// "gpustack--<gKey>--<aKey>-<os>-<arch>".
InstanceTypeIdentity derived_instance_type_identity(const NodeFlavor& flavor, bool aware);

// PoolScheduleLabels: feature.gpustack.ai/acceleratable=<bool> always; kubernetes.io/os|arch when
// non-empty; acceleratable.feature.gpustack.ai/<acceleratorGroup>=true when accelerated with a
// group; general.feature.gpustack.ai/<generalGroup>=true only when aware and the group is a real
// CPU (not empty, not "generic").
StringMap pool_schedule_labels(bool acceleratable, bool aware, std::string_view general_group,
                               std::string_view accelerator_group, std::string_view os, std::string_view arch);

// PoolFlavorSelector: keeps os/arch, the acceleratable boolean and every general./acceleratable.
// feature key whose value is "true"; nullopt (Go's nil) when neither of the latter two is present,
// so a caller never selects everything.
std::optional<StringMap> pool_flavor_selector(const StringMap& labels);

// mapx.Contain: every entry of `subset` is in `superset` with the same value.
bool map_contains(const StringMap& superset, const StringMap& subset);

// A ResourceFlavor feeds a ClusterQueue iff both have a selector and the queue's is a subset of
// the flavor's.
bool flavor_feeds_queue(const StringMap& flavor_labels, const StringMap& queue_labels);

// InstanceTypeFlavor catalog name (no os/arch): "gpustack--<aKey>" / "gpustack--<gKey>--<aKey>"
// for an accelerated flavor (unaware / aware), "gpustack--generic" / "gpustack--<gKey>" for a
// CPU flavor.
std::string instance_type_flavor_name(const NodeFlavor& flavor, bool aware);

// FormatLocalQueueName: "gpustack-fnv64-<fnv64a(ClusterQueue name)>", always 31 characters.
std::string format_local_queue_name(std::string_view cluster_queue_name);

}  // namespace chaintwin::model
