// Reads the operator's Setting objects (gpustack.ai/v1, kind Setting): metadata.name is the
// setting's name, spec.value the value written, status.value the value the API reports. A Setting
// in an input file overrides the default of that setting for the whole derivation.
#pragma once

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "model/api/settings.h"

namespace chaintwin::model {

// Applies one Setting object. Errors name the field (`spec.value: ...`).
Status apply_setting_object(Settings& settings, const nlohmann::json& object);

}  // namespace chaintwin::model
