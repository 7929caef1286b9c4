// Renders stage-3 results as the documents `chaintwin derive` prints: per Node, the keys, the
// worker's NodeFeature, the capacity keys, the fit labels and the three merge patches.
#pragma once

#include <nlohmann/json.hpp>

#include "model/stage3/stage3.h"

namespace chaintwin::sim {

nlohmann::ordered_json stage3_document(const model::NodeStage3& s);

}  // namespace chaintwin::sim
