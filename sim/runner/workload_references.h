// Whether every workload generator of a scenario names things the run can hold: its `instanceType`
// an InstanceType that exists or that the operator derives at some point of the run, its
// `accelerator` (and alternatives) an accelerator some such InstanceType serves, its
// `requiredTopologyLevel` a level of some Topology or TopologySource. A name that matches nothing
// anywhere is a typo, not a scenario: in a cluster the Workload would wait (or be refused) forever,
// and a plan built on it answers nothing. Refused before the run with the generator's file:line.
//
// "At some point of the run": the settled initial cluster first; when a name is missing there, a
// copy with every Node the timeline adds (add-node) and, in timeline order, every Setting it sets,
// settled again after each — the derived names depend on both (awareness folds the CPU into the
// general key). What a later `delete` or `set-inactive` removes still counts: it existed.
#pragma once

#include "model/cluster_state.h"
#include "model/result.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

// `settled`: the cluster after the operator's initial fixpoint (Simulation::start). The error reads
// "<file:line>: workloads[i].<field>: …" and lists what the run does hold.
model::Status check_workload_references(const Scenario& scenario, const model::ClusterState& settled);

}  // namespace chaintwin::sim
