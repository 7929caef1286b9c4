// How the simulated Kueue is configured, and the request arithmetic every part of the scheduler
// shares: the resources.transformations hook (injectable; by default the operator's mapping,
// model/admission/credit_transform.h), the TAS placement profile, Kueue's int64 resource values
// (cpu in milli, everything else rounded up) and a PodSet's effective per-pod requests.
// Callers: schedule_cycle (flavor assignment, TAS), the lifecycle functions and the usage report.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/admission/accelerator_claim.h"
#include "model/admission/credit_transform.h"
#include "model/kueue/scheduler/kueue_version.h"
#include "model/api/object_meta.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Kueue's resource amounts: resource name → int64 (pkg/resources/requests.go).
using ResourceAmounts = std::map<std::string, int64_t>;

// TAS domain order at the levels below the chosen domain (and across leaves when no level is
// required). The operator deploys least-free-capacity-first (operator-domain §3.4, citing Kueue
// v0.18.9); upstream v0.14 uses BestFit for everything.
enum class TasPlacement { kLeastFreeCapacity, kBestFit };

// Kueue's resources.transformations as a function of one Pod's requests. A plain function, so
// that what was derived with one (WorkloadInfo) can tell whether a cycle configured with another.
using EffectiveRequestsFn = ResourceList (*)(const ResourceList& pod_requests);

// Kueue's fair-sharing preemption strategies (config.PreemptionStrategy): S2-a, LessThanOrEqualToFinalShare
// (the preemptor's share after admission ≤ the target's share after the preemption) and S2-b,
// LessThanInitialShare (the preemptor's share after admission < the target's share before it).
enum class FairSharingStrategy : uint8_t { kLessThanOrEqualToFinalShare, kLessThanInitialShare };

// Kueue's configuration admissionFairSharing (admission_fair_sharing.h): how fast a LocalQueue's
// consumed resources decay, how often they are sampled, and each resource's weight in its usage.
struct AdmissionFairSharingConfig {
  TimeUs usage_half_life_time = 0;                          // 0: consumed is reset at each sample
  TimeUs usage_sampling_interval = 5LL * 60 * 1'000'000;    // Kueue's default, 5m
  std::map<std::string, double> resource_weights;            // absent: 1
  bool operator==(const AdmissionFairSharingConfig&) const = default;
};

struct KueueConfig {
  EffectiveRequestsFn effective_requests = kueue_effective_requests;  // model/admission/credit_transform.h
  TasPlacement tas_placement = TasPlacement::kLeastFreeCapacity;
  // The release (what its messages say) and the gates that change a decision (kueue_version.h);
  // by default v0.14.8's.
  KueueVersion version = kDefaultKueueVersion;
  KueueFeatureGates gates = default_feature_gates(kDefaultKueueVersion);
  // Kueue's configuration fairSharing.enable: the heads of a cohort tree are taken in the order of
  // its dominant-resource-share tournament (fair_sharing.h) instead of the entry order.
  bool fair_sharing = false;
  // fairSharing.preemptionStrategies: the rules a preemption under fair sharing applies, in order
  // (fair_preemption.h); Kueue's default is both, S2-a then S2-b.
  std::vector<FairSharingStrategy> fair_preemption_strategies = {FairSharingStrategy::kLessThanOrEqualToFinalShare,
                                                                 FairSharingStrategy::kLessThanInitialShare};
  // The configuration's admissionFairSharing block; it takes effect only with the gate on
  // (admission_fair_sharing_enabled).
  std::optional<AdmissionFairSharingConfig> admission_fair_sharing;
};

// Kueue's ResourceValue: MilliValue() for cpu, Value() (rounded up) for every other resource.
int64_t resource_value(std::string_view name, const Quantity& q);
// Kueue's ResourceQuantity: the inverse (cpu milli, memory binary SI, others decimal SI).
Quantity resource_quantity(std::string_view name, int64_t value);
ResourceAmounts resource_amounts(const ResourceList& list);
ResourceList resource_list(const ResourceAmounts& amounts);

// One Pod's requests before transformation: pod_effective_requests() of model/admission/accelerator_claim.h
// (the kube-scheduler's rule, native sidecars included), shared with Gate 4.

}  // namespace chaintwin::model
