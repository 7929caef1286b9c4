// The reconcile loop: runs a set of controllers over a ClusterState until nothing is left to
// write (the fixpoint), applying each pass's Plan like an API server would. The simulator drives
// the same controllers one event at a time; `chaintwin derive` and the tests use converge() to
// get the state the operator would settle in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/stage4/plan.h"
#include "model/stage4/state_parts.h"

namespace chaintwin::model {

struct Controller {
  std::string name;                                   // e.g. "NodeFlavor"
  std::function<Plan(const ClusterState&)> reconcile;  // pure
  std::vector<std::string> reads_from;                // controllers whose writes this one reads
  // Every part of the state `reconcile` can read, through any helper (state_parts.h). The
  // default, everything, never lets a fixpoint skip the controller.
  StateParts reads = StateParts::everything();
};

// Across the passes of one fixpoint: when each controller last ran and whether it planned a
// write, its requeues then, and when each part of the state was last written. A controller whose
// last run planned nothing, with nothing it reads written since, would plan nothing again: the
// pass skips it and keeps its requeues. With `cross_check` (--verify) a skipped controller runs
// anyway, and any write or different requeue it plans fails the pass.
class FixpointMemo {
 public:
  FixpointMemo(std::size_t controllers, bool cross_check);

  bool unchanged_for(std::size_t controller, StateParts reads) const;
  const std::vector<Requeue>& requeues_of(std::size_t controller) const { return runs_[controller].requeues; }
  bool cross_check() const { return cross_check_; }

  void ran(std::size_t controller, const Plan& plan);  // before its writes are applied
  void wrote(const Write& w);                          // one of its writes, applied
  std::size_t skipped() const { return skipped_; }
  void count_skip() { ++skipped_; }

 private:
  struct Run {
    bool seen = false;
    bool planned_writes = false;
    uint64_t at = 0;
    std::vector<Requeue> requeues;
  };
  std::vector<Run> runs_;
  uint64_t written_at_[StateParts::kBits] = {};
  uint64_t clock_ = 0;
  std::size_t skipped_ = 0;
  bool cross_check_ = false;
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
// unspecified and must not be used. With `memo`, a controller nothing it reads moved for is skipped
// (FixpointMemo).
Status run_pass_in_place(ClusterState& state, const std::vector<Controller>& controllers, const std::string& now,
                         std::vector<Write>* applied, std::vector<Requeue>* requeues = nullptr,
                         FixpointMemo* memo = nullptr);
// The same, the written objects moving into the state (apply_plan_moving) instead of being copied:
// `applied` gets each write's receipt.
Status run_pass_in_place(ClusterState& state, const std::vector<Controller>& controllers, const std::string& now,
                         std::vector<WriteReceipt>* applied, std::vector<Requeue>* requeues, FixpointMemo* memo);

// Passes until a pass writes nothing, or `max_passes`.
Result<ConvergeResult> converge(ClusterState state, const std::vector<Controller>& controllers,
                                const std::string& now, int max_passes = 50);

}  // namespace chaintwin::model
