// The reconcile loop: runs a set of controllers over a ClusterState until nothing is left to
// write (the fixpoint), applying each pass's Plan like an API server would. The simulator drives
// the same controllers one event at a time; `chaintwin derive` and the tests use converge() to
// get the state the operator would settle in.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/stage4/plan.h"

namespace chaintwin::model {

struct Controller {
  std::string name;                                   // e.g. "NodeFlavor"
  std::function<Plan(const ClusterState&)> reconcile;  // pure
  std::vector<std::string> reads_from;                // controllers whose writes this one reads
};

struct ConvergeResult {
  ClusterState state;
  int passes = 0;                   // passes that wrote something
  std::vector<Write> writes;        // every write applied, in order
  std::vector<Requeue> requeues;    // the requeues of the last pass
  bool converged = false;           // false when max_passes ran out with writes still pending
};

// One pass: every controller sees the state left by the previous one, in `controllers` order.
Result<ClusterState> run_pass(const ClusterState& state, const std::vector<Controller>& controllers,
                              const std::string& now, std::vector<Write>* applied);

// run_pass on `state` itself, without a copy; also collects every controller's requeues (when a pass
// writes nothing they are the requeues of the state it leaves). After a refusal `state` is
// unspecified and must not be used.
Status run_pass_in_place(ClusterState& state, const std::vector<Controller>& controllers, const std::string& now,
                         std::vector<Write>* applied, std::vector<Requeue>* requeues = nullptr);

// Passes until a pass writes nothing, or `max_passes`.
Result<ConvergeResult> converge(ClusterState state, const std::vector<Controller>& controllers,
                                const std::string& now, int max_passes = 50);

}  // namespace chaintwin::model
