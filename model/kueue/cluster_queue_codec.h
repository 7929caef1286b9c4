// ClusterQueue <-> Kubernetes JSON (kueue.x-k8s.io/v1beta2), with the API's field names:
// spec.cohortName, resourceGroups[{coveredResources, flavors[{name, resources[{name,
// nominalQuota, borrowingLimit, lendingLimit}]}]}], stopPolicy, admissionChecksStrategy
// .admissionChecks[{name}], namespaceSelector, flavorFungibility, preemption
// {reclaimWithinCohort, borrowWithinCohort.policy, withinClusterQueue}, queueingStrategy; and
// the status Kueue reports: conditions, pendingWorkloads, reservingWorkloads, admittedWorkloads,
// flavorsReservation / flavorsUsage [{name, resources[{name, total, borrowed}]}].
// Quantities print canonically ("1600k") and read from strings or numbers. A v1beta1 document is
// accepted too: its spec.cohort and spec.admissionChecks[] stand in for the v1beta2 fields. An
// absent queueingStrategy reads as BestEffortFIFO (Kueue's default); an absent namespaceSelector
// reads as "no namespace" (nil matches none).
// Decoding refuses by path: an unknown stopPolicy, a malformed quantity, and a namespaceSelector
// with matchLabels / matchExpressions (the model keeps only "every namespace" vs "none").
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/kueue/kueue_objects.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_cluster_queue(const ClusterQueue& queue);
Result<ClusterQueue> decode_cluster_queue(const nlohmann::json& document);

}  // namespace chaintwin::model
