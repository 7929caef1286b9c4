#include "model/stage4/reconcile_loop.h"

namespace chaintwin::model {

Status run_pass_in_place(ClusterState& state, const std::vector<Controller>& controllers, const std::string& now,
                         std::vector<Write>* applied, std::vector<Requeue>* requeues) {
  for (const auto& c : controllers) {
    Plan plan = c.reconcile(state);
    if (requeues != nullptr)
      for (auto& r : plan.requeues) requeues->push_back(std::move(r));
    if (plan.writes.empty()) continue;
    auto next = apply_plan(std::move(state), plan, now);
    if (!next.ok()) return err(c.name + ": " + next.error());
    state = std::move(next).value();
    if (applied != nullptr)
      for (auto& w : plan.writes) applied->push_back(std::move(w));
  }
  return Ok{};
}

Result<ClusterState> run_pass(const ClusterState& state, const std::vector<Controller>& controllers,
                              const std::string& now, std::vector<Write>* applied) {
  ClusterState current = state;
  if (auto s = run_pass_in_place(current, controllers, now, applied); !s.ok()) return err(s.error());
  return current;
}

Result<ConvergeResult> converge(ClusterState state, const std::vector<Controller>& controllers,
                                const std::string& now, int max_passes) {
  ConvergeResult out;
  out.state = std::move(state);
  for (int pass = 0; pass < max_passes; ++pass) {
    std::vector<Write> applied;
    std::vector<Requeue> requeues;
    if (auto s = run_pass_in_place(out.state, controllers, now, &applied, &requeues); !s.ok())
      return err("pass " + std::to_string(pass + 1) + ": " + s.error());
    if (applied.empty()) {
      // Nothing was written: every controller saw the final state, so these are its requeues.
      out.converged = true;
      out.requeues = std::move(requeues);
      return out;
    }
    ++out.passes;
    for (auto& w : applied) out.writes.push_back(std::move(w));
  }
  return out;
}

}  // namespace chaintwin::model
