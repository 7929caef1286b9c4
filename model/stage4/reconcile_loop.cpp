#include "model/stage4/reconcile_loop.h"

namespace chaintwin::model {

FixpointMemo::FixpointMemo(std::size_t controllers, bool cross_check)
    : runs_(controllers), cross_check_(cross_check) {}

bool FixpointMemo::unchanged_for(std::size_t controller, StateParts reads) const {
  const Run& run = runs_[controller];
  if (!run.seen || run.planned_writes) return false;
  for (int bit = 0; bit < StateParts::kBits; ++bit)
    if ((reads.bits() >> bit & 1u) != 0 && written_at_[bit] > run.at) return false;
  return true;
}

void FixpointMemo::ran(std::size_t controller, const Plan& plan) {
  Run& run = runs_[controller];
  run.seen = true;
  run.planned_writes = !plan.writes.empty();
  run.at = ++clock_;
  run.requeues = plan.requeues;
}

void FixpointMemo::wrote(const Write& w) {
  const uint32_t bits = StateParts::written_by(w).bits();
  for (int bit = 0; bit < StateParts::kBits; ++bit)
    if ((bits >> bit & 1u) != 0) written_at_[bit] = clock_;
}

namespace {

// --verify: what a skipped controller planned when run anyway ("" when nothing, as the skip assumed).
std::string skip_disproved(const Plan& plan, const std::vector<Requeue>& kept) {
  if (!plan.writes.empty()) return "\"" + write_summary(plan.writes.front()) + "\"";
  if (plan.requeues != kept) return "requeues that differ from its last run's";
  return "";
}

}  // namespace

namespace {

// One pass; `apply` applies a controller's plan to `state` and hands its writes on.
template <typename Apply>
Status run_pass_with(ClusterState& state, const std::vector<Controller>& controllers, std::vector<Requeue>* requeues,
                     FixpointMemo* memo, Apply apply) {
  for (std::size_t i = 0; i < controllers.size(); ++i) {
    const Controller& c = controllers[i];
    if (memo != nullptr && memo->unchanged_for(i, c.reads)) {
      memo->count_skip();
      if (memo->cross_check()) {
        const Plan check = c.reconcile(state);
        if (const std::string why = skip_disproved(check, memo->requeues_of(i)); !why.empty())
          return err("--verify: " + c.name + " was skipped as nothing it reads was written since its last run, "
                     "but run anyway it plans " + why);
      }
      if (requeues != nullptr)
        for (const auto& r : memo->requeues_of(i)) requeues->push_back(r);
      continue;
    }
    Plan plan = c.reconcile(state);
    if (memo != nullptr) memo->ran(i, plan);
    if (requeues != nullptr)
      for (auto& r : plan.requeues) requeues->push_back(std::move(r));
    if (plan.writes.empty()) continue;
    if (auto s = apply(plan); !s.ok()) return err(c.name + ": " + s.error());
  }
  return Ok{};
}

}  // namespace

Status run_pass_in_place(ClusterState& state, const std::vector<Controller>& controllers, const std::string& now,
                         std::vector<Write>* applied, std::vector<Requeue>* requeues, FixpointMemo* memo) {
  return run_pass_with(state, controllers, requeues, memo, [&](Plan& plan) -> Status {
    auto next = apply_plan(std::move(state), plan, now);
    if (!next.ok()) return err(next.error());
    state = std::move(next).value();
    if (memo != nullptr)
      for (const auto& w : plan.writes) memo->wrote(w);
    if (applied != nullptr)
      for (auto& w : plan.writes) applied->push_back(std::move(w));
    return Ok{};
  });
}

Status run_pass_in_place(ClusterState& state, const std::vector<Controller>& controllers, const std::string& now,
                         std::vector<WriteReceipt>* applied, std::vector<Requeue>* requeues, FixpointMemo* memo) {
  return run_pass_with(state, controllers, requeues, memo, [&](Plan& plan) -> Status {
    if (auto s = apply_plan_moving(state, plan, now); !s.ok()) return s;
    if (memo != nullptr)
      for (const auto& w : plan.writes) memo->wrote(w);
    if (applied != nullptr)
      for (auto& w : plan.writes) applied->push_back(receipt_of(std::move(w)));
    return Ok{};
  });
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
