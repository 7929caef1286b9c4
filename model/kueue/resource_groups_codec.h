// spec.resourceGroups as ClusterQueues and Cohorts both write it (kueue.x-k8s.io): coveredResources,
// flavors[{name, resources[{name, nominalQuota, borrowingLimit, lendingLimit}]}], and a quantity
// member that Kueue's webhooks refuse when negative. Shared by cluster_queue_codec and cohort_codec;
// the decoders throw codec::DecodeError with the member's path.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/kueue/kueue_objects.h"

namespace chaintwin::model::resource_groups_codec {

nlohmann::json encode_resource_groups(const std::vector<ResourceGroup>& groups);
// spec.resourceGroups of `spec` (absent: none).
std::vector<ResourceGroup> decode_resource_groups(const nlohmann::json& spec);
// A quantity member of `o` (absent: none); negative values are refused by path.
std::optional<Quantity> optional_quantity(const nlohmann::json& o, std::string_view key, const std::string& parent);

}  // namespace chaintwin::model::resource_groups_codec
