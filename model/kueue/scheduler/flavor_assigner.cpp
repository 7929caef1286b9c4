#include "model/kueue/scheduler/flavor_assigner.h"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <set>

#include "model/kueue/scheduler/node_match.h"

namespace chaintwin::model {
namespace {

// Kueue's preemptionMode, worst first.
enum class Mode { kNoFit, kNoCandidates, kPreempt, kReclaim, kFit };

// Kueue's granularMode: the mode and the borrow height.
struct Granular {
  Mode mode = Mode::kFit;
  int borrow = 0;
};

// isPreferred (flavorassigner.go; v0.14 with FlavorFungibilityImplicitPreferenceDefault off, and
// the explicit preference of v0.17+ / v0.16.2+): NoFit never, mode first then the lower borrow
// height, or borrow height first under PreemptionOverBorrowing.
bool is_preferred(const Granular& a, const Granular& b, const FlavorFungibility& f) {
  if (a.mode == Mode::kNoFit) return false;
  if (b.mode == Mode::kNoFit) return true;
  if (f.preference == "PreemptionOverBorrowing") {
    if (a.borrow != b.borrow) return a.borrow < b.borrow;
    return a.mode > b.mode;
  }
  if (a.mode != b.mode) return a.mode > b.mode;
  return a.borrow < b.borrow;
}

// shouldTryNextFlavor: NoFit and no candidates always; Preempt/Reclaim under whenCanPreempt
// TryNextFlavor (the default when unset); a borrowing fit under whenCanBorrow TryNextFlavor.
bool should_try_next(const Granular& g, const FlavorFungibility& f) {
  if (g.mode == Mode::kNoFit || g.mode == Mode::kNoCandidates) return true;
  const bool stop_at_preempt = f.when_can_preempt == "Preempt" || f.when_can_preempt == "MayStopSearch";
  if ((g.mode == Mode::kPreempt || g.mode == Mode::kReclaim) && !stop_at_preempt) return true;
  return g.borrow > 0 && f.when_can_borrow == "TryNextFlavor";
}

Mode mode_of(PreemptionPossibility p) {
  switch (p) {
    case PreemptionPossibility::kPreempt: return Mode::kPreempt;
    case PreemptionPossibility::kReclaim: return Mode::kReclaim;
    case PreemptionPossibility::kNoCandidates: break;
  }
  return Mode::kNoCandidates;
}

// canPreemptWhileBorrowing: borrowWithinCohort's policy is set and not Never, or, under fair
// sharing, reclaimWithinCohort is not Never.
bool can_preempt_while_borrowing(const ClusterQueue& cq, bool fair_sharing) {
  const std::string& p = cq.spec.preemption.borrow_within_cohort_policy;
  const std::string& reclaim = cq.spec.preemption.reclaim_within_cohort;
  return (!p.empty() && p != "Never") || (fair_sharing && !reclaim.empty() && reclaim != "Never");
}

const ResourceGroup* group_covering(const ClusterQueue& cq, const std::string& resource) {
  for (const auto& g : cq.spec.resource_groups)
    if (std::find(g.covered_resources.begin(), g.covered_resources.end(), resource) != g.covered_resources.end())
      return &g;
  return nullptr;
}

std::set<std::string> group_label_keys(const ClusterState& cluster, const ResourceGroup& g) {
  std::set<std::string> keys;
  for (const auto& f : g.flavors) {
    const auto rf = cluster.resource_flavors.find(f.name);
    if (rf == cluster.resource_flavors.end()) continue;
    for (const auto& [k, v] : rf->second.spec.node_labels) keys.insert(k);
  }
  return keys;
}

int64_t nominal_of(const FlavorQuotas& fq, const std::string& resource) {
  for (const auto& r : fq.resources)
    if (r.name == resource) return resource_value(resource, r.nominal_quota);
  return 0;
}

std::string amount(const std::string& resource, int64_t v) { return resource_quantity(resource, v).to_string(); }

std::string join_sorted(std::vector<std::string> reasons) {
  std::sort(reasons.begin(), reasons.end());
  std::string out;
  for (std::size_t i = 0; i < reasons.size(); ++i) out += (i == 0 ? "" : ", ") + reasons[i];
  return out;
}

// A TAS mismatch between the PodSet and the flavor (checkPodSetAndFlavorMatchForTAS), or "".
std::string tas_mismatch(const ClusterState& cluster, const PodSet& ps, const ResourceFlavor& rf) {
  if (ps.required_topology_level.empty()) return "";
  if (rf.spec.topology_name.empty())
    return "Flavor \"" + rf.metadata.name + "\" does not support TopologyAwareScheduling";
  const auto t = cluster.topologies.find(rf.spec.topology_name);
  if (t == cluster.topologies.end())
    return "Flavor \"" + rf.metadata.name + "\" does not support TopologyAwareScheduling";
  const auto& levels = t->second.levels;
  if (std::find(levels.begin(), levels.end(), ps.required_topology_level) == levels.end())
    return "Flavor \"" + rf.metadata.name + "\" does not contain the requested level";
  return "";
}

}  // namespace


FlavorAssignment assign_flavors(const ClusterState& cluster, const ClusterQueue& cq, const Workload& wl,
                                const FlavorResourceAmounts& usage, const KueueConfig& config,
                                const PreemptionOracle* oracle, const WorkloadInfo* info, const CohortQuota& cohort,
                                const FlavorScan* resume) {
  FlavorAssignment out;
  const FlavorFungibility& fungibility = cq.spec.flavor_fungibility;
  // The queue's node when it is in a cohort: the tree's arithmetic then; the isolated one else.
  const QuotaTree::NodeId node = cohort.tree != nullptr && cohort.snapshot != nullptr
                                     ? cohort.tree->cluster_queue(cq.metadata.name)
                                     : QuotaTree::kNone;
  const bool in_cohort = node != QuotaTree::kNone && cohort.tree->has_parent(node);
  FlavorResourceAmounts assigned;  // usage of earlier PodSets in this assignment
  std::vector<std::string> messages;
  for (std::size_t index = 0; index < wl.pod_sets.size(); ++index) {
    const PodSet& ps = wl.pod_sets[index];
    // Kueue's amounts per Pod: as the Workload's info keeps them when it went through this
    // configuration's transformations, else derived here.
    ResourceAmounts derived;
    const ResourceAmounts& per_pod =
        info != nullptr && info->transformed_by == config.effective_requests
            ? info->pod_sets[index].kueue_amounts
            : (derived = resource_amounts(config.effective_requests(
                   info != nullptr ? info->pod_sets[index].requests : pod_effective_requests(ps.template_))));
    // The PodSet's total per covered resource, in name order (IgnoreUndeclared): views of the
    // per-Pod amounts' names, which outlive this call.
    boost::container::small_vector<std::pair<const std::string*, int64_t>, 4> total;
    for (const auto& [r, v] : per_pod)
      if (v != 0 && group_covering(cq, r) != nullptr) total.emplace_back(&r, v * ps.count);
    const auto total_of = [&](const std::string& r) -> const int64_t* {
      for (const auto& [name, v] : total)
        if (*name == r) return &v;
      return nullptr;
    };
    PodSetFlavors psf;
    psf.name = ps.name;
    psf.count = ps.count;
    std::vector<std::string> failure;
    std::vector<std::string> preempt_reasons;  // of the resource groups left in Preempt mode
    for (const auto& [resource_name, value] : total) {
      const std::string& resource = *resource_name;
      if (psf.flavors.count(resource) != 0) continue;
      const ResourceGroup& group = *group_covering(cq, resource);
      // The group's label keys narrow the PodSet's nodeSelector and required affinity; a PodSet
      // with neither matches every flavor whatever they are, so they are not gathered for it.
      const bool selects = !ps.template_.node_selector.empty() || !ps.template_.required_node_affinity.empty();
      const std::set<std::string> keys = selects ? group_label_keys(cluster, group) : std::set<std::string>{};
      std::vector<std::string> reasons;
      Granular best{Mode::kNoFit, 0};
      const std::string* best_flavor = nullptr;
      const std::string* chosen = nullptr;  // names in the ClusterQueue's spec
      Granular chosen_mode;
      std::set<FlavorResource> short_of;  // of the chosen flavor
      const std::size_t group_index = static_cast<std::size_t>(&group - cq.spec.resource_groups.data());
      const std::size_t first = resume != nullptr ? static_cast<std::size_t>(resume->next(index, group_index)) : 0;
      int32_t attempted = -1;  // Kueue's attemptedFlavorIdx
      for (std::size_t fi = first; fi < group.flavors.size(); ++fi) {
        const FlavorQuotas& fq = group.flavors[fi];
        attempted = static_cast<int32_t>(fi);
        const auto rf = cluster.resource_flavors.find(fq.name);
        if (rf == cluster.resource_flavors.end()) {
          reasons.push_back("flavor " + fq.name + " not found");
          continue;
        }
        if (const auto m = tas_mismatch(cluster, ps, rf->second); !m.empty()) {
          reasons.push_back(m);
          continue;
        }
        if (!rf->second.spec.node_taints.empty()) {  // no taint: nothing to tolerate
          auto tolerations = ps.template_.tolerations;
          tolerations.insert(tolerations.end(), rf->second.spec.tolerations.begin(), rf->second.spec.tolerations.end());
          if (const auto taint = first_untolerated_taint(rf->second.spec.node_taints, tolerations)) {
            reasons.push_back("untolerated taint " + taint_string(*taint) + " in flavor " + fq.name);
            continue;
          }
        }
        if (selects && !matches_flavor_labels(ps.template_.node_selector, ps.template_.required_node_affinity, keys,
                                              rf->second.spec.node_labels)) {
          reasons.push_back("flavor " + fq.name + " doesn't match node affinity");
          continue;
        }
        Granular representative;  // the worst of the covered resources' modes (isPreferred)
        std::set<FlavorResource> short_here;
        for (const auto& [r_name, v] : total) {
          const std::string& r = *r_name;
          if (std::find(group.covered_resources.begin(), group.covered_resources.end(), r) == group.covered_resources.end())
            continue;
          const FlavorResourceView fr{fq.name, r};
          const int64_t val = v + amount_of(assigned, fr);
          const int64_t nominal = nominal_of(fq, r);
          // fitsResourceQuota: the isolated arithmetic, or the cohort tree's.
          const int64_t capacity = in_cohort ? cohort.tree->potential_available(node, fr) : nominal;
          const int64_t available =
              in_cohort ? (cohort.bound != nullptr ? cohort.tree->available(node, fr, *cohort.bound)
                                                   : cohort.tree->available(node, fr, *cohort.snapshot))
                        : nominal - amount_of(usage, fr);
          Granular mode;
          if (val > capacity) {
            // Kueue's wording from v0.14.2 splits the earlier PodSets' requests from this one's.
            if (config.version >= KueueVersion{14, 2})
              reasons.push_back("insufficient quota for " + r + " in flavor " + fq.name +
                                ", previously considered podsets requests (" + amount(r, amount_of(assigned, fr)) +
                                ") + current podset request (" + amount(r, v) + ") > maximum capacity (" +
                                amount(r, capacity) + ")");
            else
              reasons.push_back("insufficient quota for " + r + " in flavor " + fq.name + ", request > maximum capacity (" +
                                amount(r, val) + " > " + amount(r, capacity) + ")");
            mode = {Mode::kNoFit, 0};
          } else {
            const QuotaTree::BorrowHeight height =
                !in_cohort                ? QuotaTree::BorrowHeight{}
                : cohort.bound != nullptr ? cohort.tree->lowest_subtree_that_fits(node, fr, val, *cohort.bound)
                                          : cohort.tree->lowest_subtree_that_fits(node, fr, val, *cohort.snapshot);
            if (val <= available) {
              mode = {Mode::kFit, height.height};
            } else {
              reasons.push_back("insufficient unused quota for " + r + " in flavor " + fq.name + ", " +
                                amount(r, val - available) + " more needed");
              const FlavorResource lacking{fq.name, r};
              if (val <= nominal || height.may_reclaim || can_preempt_while_borrowing(cq, config.fair_sharing)) {
                const OracleAnswer answer = oracle != nullptr ? (*oracle)(lacking, val) : OracleAnswer{};
                mode = {mode_of(answer.possibility), answer.borrow};
              } else {
                mode = {Mode::kNoFit, height.height};
              }
              short_here.insert(lacking);
            }
          }
          if (is_preferred(representative, mode, fungibility)) representative = mode;
          if (representative.mode == Mode::kNoFit) break;
        }
        if (!should_try_next(representative, fungibility)) {
          chosen = &fq.name;
          chosen_mode = representative;
          short_of = std::move(short_here);
          break;
        }
        if (is_preferred(representative, best, fungibility)) {  // the first of equals is kept
          best = representative;
          best_flavor = &fq.name;
          short_of = std::move(short_here);
        }
      }
      // What the next search resumes after: the attempted index, -1 once the last was attempted
      // (or when no flavor was assignable: Kueue records nothing then, which reads the same).
      if (out.scan.tried.size() <= index) out.scan.tried.resize(index + 1);
      auto& tried = out.scan.tried[index];
      if (tried.size() <= group_index) tried.resize(group_index + 1, -1);
      const bool assignable = chosen != nullptr || best.mode != Mode::kNoFit;
      tried[group_index] =
          !assignable || attempted == static_cast<int32_t>(group.flavors.size()) - 1 ? -1 : attempted;
      // Kueue returns the best flavor seen; a Fit, Preempt or Reclaim one is taken (no candidates
      // is taken as not fitting here: nothing can be preempted to admit it this cycle).
      if (chosen == nullptr && best.mode != Mode::kNoFit && best.mode != Mode::kNoCandidates) {
        chosen = best_flavor;
        chosen_mode = best;
      }
      if (chosen != nullptr) out.borrowing = std::max(out.borrowing, chosen_mode.borrow);
      if (chosen != nullptr && (chosen_mode.mode == Mode::kPreempt || chosen_mode.mode == Mode::kReclaim)) {
        preempt_reasons.insert(preempt_reasons.end(), reasons.begin(), reasons.end());
        out.contested.insert(short_of.begin(), short_of.end());
      }
      if (chosen == nullptr) {
        failure = reasons.empty() ? std::vector<std::string>{"no flavors in the resource group"} : reasons;
        if (group.flavors.empty()) failure = {"resource " + resource + " unavailable in ClusterQueue"};
        break;
      }
      for (const auto& r : group.covered_resources)
        if (const int64_t* v = total_of(r)) {
          psf.flavors[r] = *chosen;
          psf.usage[r] = *v;
        }
    }
    if (!failure.empty()) {
      messages.push_back("couldn't assign flavors to pod set " + ps.name + ": " + join_sorted(failure));
      out.preempt = false;
      break;
    }
    if (!preempt_reasons.empty()) {
      messages.push_back("couldn't assign flavors to pod set " + ps.name + ": " + join_sorted(preempt_reasons));
      out.preempt = true;
    }
    if (index + 1 < wl.pod_sets.size())  // what the later PodSets see of this one
      for (const auto& [r, f] : psf.flavors) add_amount(assigned, {f, r}, psf.usage.at(r));
    out.pod_sets.push_back(std::move(psf));
  }
  out.fits = messages.empty();
  for (std::size_t i = 0; i < messages.size(); ++i) out.message += (i == 0 ? "" : "; ") + messages[i];
  if (!out.fits && !out.preempt) {
    out.pod_sets.clear();
    out.contested.clear();
  }
  return out;
}

}  // namespace chaintwin::model
