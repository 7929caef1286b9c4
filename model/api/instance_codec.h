// Codec for Instance (worker.gpustack.ai/v1): the modelled fields (spec.type, spec.stop,
// status.phase, status.phaseMessage) to and from the Kubernetes JSON. Used by the live mode's
// writer and by whatever prints objects.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/api/instance.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_instance(const Instance& instance);
Result<Instance> decode_instance(const nlohmann::json& object);

}  // namespace chaintwin::model
