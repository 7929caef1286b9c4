#include "model/stage4/reconcile_loop.h"

namespace chaintwin::model {

Result<ClusterState> run_pass(const ClusterState& state, const std::vector<Controller>& controllers,
                              const std::string& now, std::vector<Write>* applied) {
  ClusterState current = state;
  for (const auto& c : controllers) {
    Plan plan = c.reconcile(current);
    if (plan.writes.empty()) continue;
    auto next = apply_plan(std::move(current), plan, now);
    if (!next.ok()) return err(c.name + ": " + next.error());
    current = std::move(next).value();
    if (applied != nullptr)
      for (auto& w : plan.writes) applied->push_back(std::move(w));
  }
  return current;
}

Result<ConvergeResult> converge(ClusterState state, const std::vector<Controller>& controllers,
                                const std::string& now, int max_passes) {
  ConvergeResult out;
  out.state = std::move(state);
  for (int pass = 0; pass < max_passes; ++pass) {
    std::vector<Write> applied;
    auto next = run_pass(out.state, controllers, now, &applied);
    if (!next.ok()) return err("pass " + std::to_string(pass + 1) + ": " + next.error());
    out.state = std::move(next).value();
    if (applied.empty()) {
      out.converged = true;
      for (const auto& c : controllers) {
        Plan p = c.reconcile(out.state);
        for (auto& r : p.requeues) out.requeues.push_back(std::move(r));
      }
      return out;
    }
    ++out.passes;
    for (auto& w : applied) out.writes.push_back(std::move(w));
  }
  return out;
}

}  // namespace chaintwin::model
