// The Device Manager before its first detection pass (operator-domain §10.3, §1.1): it publishes
// nothing — no Devices record, no NodeFeature with the accelerator labels, no device-plugin pools
// — and retries. NFD's own labels (CPU identity, PCI presence) are there; NFD's non-accelerated
// marker (`feature.gpustack.ai/acceleratable=false`) is not, because the node carries a known
// manufacturer's PCI device. Called by the simulator's add-node with `detectAfter`.
#pragma once

#include "model/api/devices.h"
#include "model/api/node.h"

namespace chaintwin::model {

// `detected` (the Node as kubelet, NFD and the Device Manager publish it once `devices` is
// detected) without what the Device Manager publishes: every `acceleratable.feature.gpustack.ai/`
// label, `feature.gpustack.ai/acceleratable`, and the pool tokens device_plugin_capacity(devices)
// names, from capacity and allocatable.
Node node_before_first_detection(Node detected, const Devices& devices);

}  // namespace chaintwin::model
