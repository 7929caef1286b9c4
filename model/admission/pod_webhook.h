// Gate 1 — the operator's Pod webhook (pkg/worker/webhooks/worker/pod.go), for Pods carrying
// kueue.x-k8s.io/queue-name (others pass untouched). Mutating first, as the API server runs it:
// a logical slice gets `.sliced.cores-percentage` defaulted to 100 and `.sliced.units` folded
// from its memory budget (percentage × M / 100, preferred; else MiB × M / card VRAM, floored);
// a partition gets `.partitioned.units` = profile VRAM × M / card VRAM (floored). `.units` are
// always recomputed, client values overwritten. Then the seven request rules
// (pod_request_rules.h). Then the shared card-count pin: a shared request of N ≥ 2 (largest
// container) ANDs `acceleratable.feature.gpustack.ai/<group>.count Gt N-1` into every required
// node-affinity term, <group> being the fronting InstanceType's accelerator group.
// The fronting InstanceType is the one whose queue-entrance label names the Pod's LocalQueue;
// the caller resolves it (nullptr when none) and passes it in. Called by the runner for every
// Pod a Workload creates, and by scenario validation for Pod templates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/api/instance_type.h"
#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

struct PodAdmission {
  bool allowed = true;
  std::string message;  // why not, in the operator's / API server's words
  PodTemplate pod;      // the mutated Pod (the input unchanged when refused)
};

// `pod_name` only names the Pod in the API server's "Pod \"…\" is invalid" message.
PodAdmission admit_pod(const PodTemplate& pod, const InstanceType* instance_type, std::string_view pod_name = "");

// The per-card VRAM (MiB) the fold divides by: the InstanceType's status.detail.memory, else
// spec.descriptors.memory; refuses, in the operator's words, when neither parses to > 0 MiB.
Result<int64_t> instance_type_card_vram_mib(const InstanceType& instance_type);

// floor(mib × M / card_mib); 0 when card_mib ≤ 0 (nodefeature.MemoryMibToUnits).
int64_t memory_mib_to_units(int64_t mib, int64_t card_mib);

// acceleratable.feature.gpustack.ai/<group>.count
std::string accelerator_count_label_key(std::string_view accelerator_group);

}  // namespace chaintwin::model
