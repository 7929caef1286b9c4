// spec.fairSharing as ClusterQueues and Cohorts both write it (kueue.x-k8s.io): {weight}, a
// quantity that Kueue's webhook (pkg/webhooks/common.go: validateFairSharing) refuses when negative
// or when it lies in (0, 1n], where it would collapse. Absent, the weight is 1. Shared by
// cluster_queue_codec and cohort_codec; the decoder throws codec::DecodeError with the path.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>

#include "model/api/quantity.h"

namespace chaintwin::model::fair_sharing_codec {

// spec.fairSharing.weight of `spec` (absent: none).
std::optional<Quantity> decode_weight(const nlohmann::json& spec);
// Sets spec.fairSharing when `weight` is given.
void encode_weight(nlohmann::json& spec, const std::optional<Quantity>& weight);

// The weight as Kueue reads it (parseFairWeight: the quantity as a float), 1 when absent: mantissa
// × 10^exponent, the power taken exactly (|exponent| ≤ 22 for every quantity Kubernetes accepts as a
// weight) and applied once.
double weight_value(const std::optional<Quantity>& weight);

}  // namespace chaintwin::model::fair_sharing_codec
