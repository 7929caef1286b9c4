// Node usage of the Pods Kueue's TAS did not place (pkg/controller/tas/non_tas_usage_controller.go
// and pkg/cache/scheduler/tas_non_tas_pod_cache.go, v0.14): Kueue watches every Pod and, for each
// one that is bound to a Node (spec.nodeName set), not terminated (phase neither Succeeded nor
// Failed) and not a TAS Pod, subtracts its requests (the kube-scheduler's PodRequests) and one
// `pods` from that Node's free capacity in every TAS snapshot. A TAS Pod is one carrying the
// podset-required/-preferred/-unconstrained-topology annotation or the deprecated
// kueue.x-k8s.io/tas label (pkg/util/tas IsTAS); Kueue puts the unconstrained annotation on every
// Pod of a PodSet admitted with a topology assignment and no explicit request, so the Pods of
// TAS-placed Workloads never count twice. Everything else counts: Pods outside Kueue (a scenario's
// `podsOutsideKueue`, daemons, an inference server started by hand) and Kueue's own Pods of a
// PodSet placed without topology. Called by build_usage_snapshot and by the simulator's runner
// as such Pods start, finish and go.
#pragma once

#include <string_view>

#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

inline constexpr std::string_view kPodSetPreferredTopologyAnnotation = "kueue.x-k8s.io/podset-preferred-topology";
inline constexpr std::string_view kPodSetUnconstrainedTopologyAnnotation =
    "kueue.x-k8s.io/podset-unconstrained-topology";
inline constexpr std::string_view kTasLabel = "kueue.x-k8s.io/tas";

// Kueue's IsTAS: a topology annotation or the TAS label on the Pod.
bool is_tas_pod(const Pod& pod);
// Whether the Pod's requests are non-TAS usage of its Node now: bound, not terminated, not TAS.
bool counts_as_non_tas_usage(const Pod& pod);
// Adds (sign +1) or removes (sign −1) the Pod's requests and one `pods` on its Node in
// snapshot.nodes when counts_as_non_tas_usage(pod); otherwise does nothing.
void add_non_tas_pod_usage(UsageSnapshot& snapshot, const Pod& pod, int sign = 1);

}  // namespace chaintwin::model
