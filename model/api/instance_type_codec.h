// InstanceType and InstanceTypeFlavor <-> Kubernetes JSON (apiVersion worker.gpustack.ai/v1;
// v1alpha1 accepted on decode), with the JSON names of api/worker/v1alpha1/instance_type.go and
// api/worker/v1/instance_type_flavor.go.
//
// InstanceType spec: displayName, description, inactive, acceleratorGroup, generalGroup,
// acceleratable, os, arch, unitResources {cpu, ram}, localStorage, and the hardware descriptors
// manufacturer / product / family / memory / cores (the seed-era spec carried them; newer API
// versions moved them to status.detail — they are written only when set). Status: phase,
// phaseMessage, entrance, the views accelerator / acceleratorShared / acceleratorSliced / cpu
// {capacity, onceMaxRequest, remaining} and acceleratorPartitioned (the same plus
// allocatedProfiles / remainingProfiles [{name, count}]), detail {manufacturer, product, family,
// memory, cores, computeCapability, slicedDetail, cpu}. View numbers are quantities on the wire
// ("1k"), integers in the model; a fractional one is refused. detail.cpu is the CPU descriptor
// object, kept in the model as its JSON text. status.conditions is a model extension (the API
// has none): written only when non-empty.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/api/instance_type.h"
#include "model/api/instance_type_flavor_object.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_instance_type(const InstanceType& instance_type);
Result<InstanceType> decode_instance_type(const nlohmann::json& document);

nlohmann::json encode_instance_type_flavor(const InstanceTypeFlavor& flavor);
Result<InstanceTypeFlavor> decode_instance_type_flavor(const nlohmann::json& document);

}  // namespace chaintwin::model
