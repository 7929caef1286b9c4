// The Pods an admitted Workload creates, one per PodSet replica, each already bound to the node
// its PodSet's topology assignment gives it (Kueue TAS writes the node; the scheduler only
// confirms it). Called by the simulator's runner when a Workload becomes Admitted.
#pragma once

#include <vector>

#include "model/workload/workload.h"

namespace chaintwin::model {

// Per PodSet, `count` Pods named "<workload>-<podset>-<i>" (i from 0), in the Workload's
// namespace, labelled kQueueNameLabel = the Workload's queue and kPodSetLabel = the PodSet,
// annotated kWorkloadAnnotation = the Workload's name (and, for a PodSet admitted with a topology
// assignment and no topology annotation, kueue.x-k8s.io/podset-unconstrained-topology: "true",
// as Kueue's PodSetInfo does), carrying the PodSet template. Node
// binding walks the topology assignment's domains in order, `count` Pods per domain, the node
// being the domain's last level value (kubernetes.io/hostname); Pods beyond the assignment, or
// of a PodSet without one, stay unbound (empty node_name). Phase Pending, no allocations.
std::vector<Pod> pods_for_admission(const Workload& wl);

}  // namespace chaintwin::model
