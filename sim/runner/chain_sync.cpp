#include "sim/runner/chain_sync.h"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <utility>

#include "model/stage3/card_ledger.h"
#include "model/stage3/fit_labels.h"
#include "model/stage3/population.h"
#include "model/catalog/resource_names.h"
#include "model/api/rfc3339.h"
#include "model/credits.h"
#include "model/stage3/stage3.h"
#include "model/stage4/node_flavor_reconciler.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/runner/kept_flavor_index.h"
#include "sim/runner/node_profile_scope.h"

namespace chaintwin::sim {
namespace {

bool held_in(model::DeviceAllocationMode mode, model::DeviceAllocationMode own) {
  return mode != model::DeviceAllocationMode::kNone && mode != own;
}

// What kubelet holds back of each device-plugin resource: the tokens of the cards that a mode
// other than the resource's own holds, summed per resource name (first seen first). The names
// live as long as the process (model::resource_names_for).
using HeldBack = boost::container::small_vector<std::pair<const std::string*, int64_t>, 4>;

void hold_back(HeldBack& held, const std::string& name, int64_t tokens) {
  if (name.empty() || tokens <= 0) return;
  for (auto& [n, t] : held)
    if (*n == name) {
      t += tokens;
      return;
    }
  held.emplace_back(&name, tokens);
}

HeldBack held_back(const model::Devices& devices) {
  HeldBack held;
  const model::CardJoin join(devices);  // the cards in status order, read in place
  for (const auto& group : devices.status.groups) {
    const auto names = model::resource_names_for(group.manufacturer);
    if (!names) continue;
    // Summed over the group's cards, then held back once per resource (the sums are what counts:
    // each resource name appears once in the list, whatever the order).
    int64_t exclusive = 0, shared = 0, sliced = 0;
    for (const auto& row : group.accelerators) {
      const model::AcceleratorStatus& capability = join.capability_of(row.id);
      const model::DeviceAllocationMode mode = row.mode;
      if (model::card_serves_family(capability, model::ResourceFamily::kExclusive)) {
        if (held_in(mode, model::DeviceAllocationMode::kExclusive)) exclusive += 1;
        if (held_in(mode, model::DeviceAllocationMode::kShared)) shared += model::kSharesPerAccelerator;
      }
      if (model::card_serves_family(capability, model::ResourceFamily::kSliced) &&
          held_in(mode, model::DeviceAllocationMode::kSliced))
        sliced += std::max<int64_t>(0, capability.logical_sliced.count);
    }
    hold_back(held, names->exclusive, exclusive);
    hold_back(held, names->shared, shared);
    hold_back(held, names->sliced, sliced);
  }
  return held;
}

// The allocatable of a counted key: what the capacity leaves once `tokens` are held back (never
// below zero; an integer from then on).
model::Quantity left_after(const model::Quantity& capacity, int64_t tokens) {
  return model::Quantity::from_int(std::max<int64_t>(0, capacity.value_ceil() - tokens));
}

int64_t tokens_of(const HeldBack& held, const std::string& name) {
  for (const auto& [n, t] : held)
    if (*n == name) return t;
  return 0;
}

// Kubelet's allocatable: the capacity less what `held` keeps back.
model::ResourceList allocatable_with(const model::ResourceList& capacity, const HeldBack& held) {
  model::ResourceList allocatable = capacity;  // shared with the capacity until a key is held back
  for (const auto& [name, tokens] : held)
    if (const auto it = allocatable.find(*name); it != allocatable.end()) {
      const model::Quantity left = left_after(it->second, tokens);  // read before the write unshares
      allocatable.value_at(it) = left;
    }
  return allocatable;
}

// Whether the Node's allocatable is already the capacity less what `held` keeps back, compared in
// place (no list is built).
bool allocatable_current(const model::Node& node, const HeldBack& held) {
  const model::ResourceList& capacity = node.status.capacity;
  const model::ResourceList& allocatable = node.status.allocatable;
  if (allocatable.size() != capacity.size()) return false;
  auto a = allocatable.begin();
  for (auto c = capacity.begin(); c != capacity.end(); ++c, ++a) {
    if (a->first != c->first) return false;
    const int64_t tokens = tokens_of(held, c->first);
    if (tokens == 0 ? !(a->second == c->second) : !(a->second == left_after(c->second, tokens))) return false;
  }
  return true;
}

}  // namespace

std::string rfc3339(SimTime at) {
  static const int64_t kEpochSeconds = model::days_from_civil(2026, 1, 1) * 86400;
  const int64_t us = at.us();
  int64_t secs = us / 1'000'000;
  if (us < 0 && us % 1'000'000 != 0) --secs;
  return model::format_rfc3339(kEpochSeconds + secs);
}

model::ResourceList kubelet_allocatable(const model::Node& node, const model::Devices* devices) {
  if (devices == nullptr) return node.status.capacity;
  return allocatable_with(node.status.capacity, held_back(*devices));
}

namespace {

// Whether the Node's fit labels differ from the ones its Devices call for (a write is due).
bool fit_labels_due(const model::ClusterState& cluster, const std::string& name, const model::Node& node) {
  return !model::fit_labels_current(node, cluster.devices_of(name));
}

}  // namespace

bool write_fit_labels(model::ClusterState& cluster, const std::string& node_name) {
  const auto it = cluster.nodes.find(node_name);
  if (it == cluster.nodes.end()) return false;
  return model::sync_fit_labels(it->second, cluster.devices_of(node_name));
}

namespace {

constexpr const char* kCapacityController = "NodeCapacity";
constexpr const char* kCapacityReason = "capacity counting keys (kubelet mirrors them into allocatable)";

// Kubelet's status write after stage 3 moved the counting keys: an UpdateStatus reads only the
// object's key and status (model::WriteVerb), so the Node's labels are not copied into it.
model::Write capacity_write(const model::Node& node, model::NodeStatus status) {
  model::Node counted;
  counted.metadata.name = node.metadata.name;
  counted.metadata.namespace_ = node.metadata.namespace_;
  counted.status = std::move(status);
  return {model::WriteVerb::kUpdateStatus, std::move(counted), kCapacityController, kCapacityReason};
}

// A capacity write of the ledger-only path (node_ledger_one) that moves only kubelet's allocatable:
// kept aside while sync_nodes judges its plan, then applied to the Node in place.
struct AllocatableDue {
  const std::string* node;  // the Node's name (sync_nodes' argument holds it)
  HeldBack held;            // what the cards keep back
  std::size_t at;           // its place among the plan's writes (before the write at that index)
};

// The due write as the plan would have held it (for --verify's comparison).
model::Write due_write(const model::ClusterState& cluster, const AllocatableDue& due) {
  const model::Node& node = cluster.nodes.at(*due.node);
  return capacity_write(node, model::NodeStatus{node.status.capacity, allocatable_with(node.status.capacity, due.held)});
}

// The due write applied as applying the plan's write would apply it (the status it carries is the
// Node's capacity and the allocatable below), writing the allocatable's values into the Node's own
// list where it has one with the capacity's keys. Its receipt.
model::WriteReceipt apply_due(model::ClusterState& cluster, const AllocatableDue& due) {
  model::Node& node = cluster.nodes.at(*due.node);
  const model::ResourceList& capacity = node.status.capacity;
  model::ResourceList& allocatable = node.status.allocatable;
  const bool same_keys =
      !allocatable.shares_with(capacity) && allocatable.size() == capacity.size() &&
      std::equal(allocatable.begin(), allocatable.end(), capacity.begin(),
                 [](const auto& a, const auto& c) { return a.first == c.first; });
  if (same_keys) {
    auto c = capacity.begin();
    for (auto& [name, value] : allocatable.mut()) {  // the Node's own list: written in place
      const int64_t tokens = tokens_of(due.held, name);
      value = tokens == 0 ? c->second : left_after(c->second, tokens);
      ++c;
    }
  } else {
    allocatable = allocatable_with(capacity, due.held);
  }
  return model::node_status_written_in_place(cluster, *due.node, kCapacityController, kCapacityReason);
}

// Calls `on_due` and `on_write` for the due writes and the plan's writes in the plan's order (each
// due write before the plan's write at its index); stops at the first `on_write` that fails.
template <typename OnDue, typename OnWrite>
model::Status in_plan_order(model::Plan& plan, const std::vector<AllocatableDue>& dues, OnDue on_due, OnWrite on_write) {
  std::size_t d = 0;
  for (std::size_t i = 0; i <= plan.writes.size(); ++i) {
    for (; d < dues.size() && dues[d].at == i; ++d) on_due(dues[d]);
    if (i == plan.writes.size()) break;
    if (model::Status s = on_write(plan.writes[i]); !s.ok()) return s;
  }
  return model::Ok{};
}

// Stage 3's verdict on one Node (the writes it wants, appended to `plan`).
// `fit_due`: see simulated_node_profile.
void node_profile_one(const model::ClusterState& state, const std::string& name, const model::Node& node,
                      model::Plan& plan, std::set<std::string>* fit_due) {
  if (node.metadata.deletion_timestamp) {
    if (fit_due != nullptr && fit_labels_due(state, name, node)) fit_due->insert(name);
    return;
  }
  const model::Devices* devices = state.devices_of(name);
  model::NodeStage3 s3 = model::derive_node_stage3(node, devices, state.settings);
  // The fit labels desired read only the Devices and whether the Node is managed, and the patch
  // compares them with the fit labels the Node carries: what fit_labels_due would find.
  if (fit_due != nullptr && s3.fit_label_patch) fit_due->insert(name);
  model::Node after = std::move(s3.node_after);
  if (s3.fit_label_patch) {
    for (const auto& [key, value] : *s3.fit_label_patch) {
      const auto current = node.metadata.labels.find(key);
      if (current == node.metadata.labels.end()) after.metadata.labels.erase(key);
      else after.metadata.labels[key] = current->second;
    }
  }
  if (after.metadata.labels != node.metadata.labels) {
    model::Node labelled = node;
    labelled.metadata.labels = std::move(after.metadata.labels);  // not read below
    plan.writes.push_back(
        {model::WriteVerb::kUpdate, std::move(labelled), "NodeProfile", "presence labels from the worker's NodeFeature"});
  }
  after.status.allocatable = kubelet_allocatable(after, devices);
  if (after.status != node.status) plan.writes.push_back(capacity_write(node, std::move(after.status)));
}

// Stage 3 on a Node whose Devices ledger alone moved since it was settled (sync_nodes' contract).
// The presence labels read only the Node, and the capacity keys read the ledger only through a
// partitioned card (model::capacity_reads_ledger): without one, what can move is the fit labels due
// and kubelet's allocatable (the cross-mode rule reads each card's mode). Anything else takes the
// whole derivation, as does every Node under --verify's cross-check (sync_nodes).
// A capacity write that moves only the allocatable goes to `dues` instead of the plan.
void node_ledger_one(const model::ClusterState& state, const std::string& name, const model::Node& node,
                     model::Plan& plan, std::set<std::string>* fit_due, std::vector<AllocatableDue>& dues) {
  const model::Devices* devices = state.devices_of(name);
  if (node.metadata.deletion_timestamp || (devices != nullptr && model::capacity_reads_ledger(*devices)))
    return node_profile_one(state, name, node, plan, fit_due);
  if (fit_due != nullptr && fit_labels_due(state, name, node)) fit_due->insert(name);
  // What the cards keep back, found once: compared in place, and built into a list only when moved.
  const HeldBack held = devices == nullptr ? HeldBack{} : held_back(*devices);
  if (allocatable_current(node, held)) return;
  dues.push_back({&name, held, plan.writes.size()});
}

// Where the ledger-only derivation and the whole one disagree, for --verify ("" when they agree).
std::string ledger_path_differs(const model::Plan& fast, const std::set<std::string>& fast_due,
                                const model::Plan& full, const std::set<std::string>& full_due) {
  if (fast_due != full_due) return "the Nodes due a fit-label write differ";
  if (fast.writes.size() != full.writes.size())
    return std::to_string(fast.writes.size()) + " writes against the whole derivation's " +
           std::to_string(full.writes.size());
  for (std::size_t i = 0; i < fast.writes.size(); ++i) {
    const model::Write& a = fast.writes[i];
    const model::Write& b = full.writes[i];
    if (a.verb != b.verb || a.controller != b.controller || a.reason != b.reason || !(a.object == b.object))
      return "\"" + write_summary(a) + "\" against the whole derivation's \"" + write_summary(b) + "\"";
  }
  return "";
}

// The labels stage 4 reads: all but the fit labels.
bool same_outside_fit_labels(const model::StringMap& a, const model::StringMap& b) {
  auto ia = a.begin(), ib = b.begin();
  while (true) {
    while (ia != a.end() && model::is_fit_label_key(ia->first)) ++ia;
    while (ib != b.end() && model::is_fit_label_key(ib->first)) ++ib;
    if (ia == a.end() || ib == b.end()) return ia == a.end() && ib == b.end();
    if (ia->first != ib->first || ia->second != ib->second) return false;
    ++ia;
    ++ib;
  }
}

}  // namespace

// Stage 3 as the simulator runs it: the operator's NodeProfile, except that fit labels wait for the
// coalescing window (write_fit_labels), and kubelet's allocatable follows the capacity.
model::Plan simulated_node_profile(const model::ClusterState& state, const std::set<std::string>* nodes,
                                   std::set<std::string>* fit_due) {
  model::Plan plan;
  if (nodes == nullptr) {
    for (const auto& [name, node] : state.nodes) node_profile_one(state, name, node, plan, fit_due);
    return plan;
  }
  for (const auto& name : *nodes) {
    const auto it = state.nodes.find(name);
    if (it != state.nodes.end()) node_profile_one(state, name, it->second, plan, fit_due);
  }
  return plan;
}

const std::vector<model::Controller>& simulated_controllers() {
  static const std::vector<model::Controller> controllers = [] {
    std::vector<model::Controller> list = model::operator_controllers();
    for (auto& c : list)
      if (c.name == "NodeProfile")
        c.reconcile = [](const model::ClusterState& state) { return simulated_node_profile(state, nullptr); };
    return list;
  }();
  return controllers;
}

model::Result<ChainSync> sync_chain(model::ClusterState& cluster, const std::set<std::string>& nodes, SimTime now,
                                    bool stage3, bool cross_check) {
  ChainSync out;
  const std::string at = rfc3339(now);
  // Stage 3's scope grows with every Node or Devices record a pass writes.
  const bool every_node = stage3 && nodes.empty();
  std::set<std::string> scope = stage3 ? nodes : std::set<std::string>{};
  NodeProfileScope profile_scope;  // over every Node: each Node once, then what was written since
  std::vector<model::WriteReceipt> applied;  // this pass's writes so far (run_pass_in_place appends)
  std::string unsettled;  // --verify: a skip or a kept index that a look from scratch disproves
  KeptFlavorIndex flavor_index;
  std::size_t node_writes = 0;  // Node writes of the passes before the current one
  std::vector<model::Controller> controllers = model::operator_controllers();
  for (auto& c : controllers) {
    if (c.name == "NodeFlavor")
      c.reconcile = [&](const model::ClusterState& state) {
        const model::ScheduleFlavorIndex& index = flavor_index.of(state, node_writes + node_writes_in(applied));
        if (cross_check && unsettled.empty()) {
          if (const std::string d = flavor_index.differs_from_rebuild(state); !d.empty()) unsettled = "--verify: " + d;
        }
        return model::reconcile_node_flavor(state, index);
      };
    if (c.name == "NodeProfile")
      c.reconcile = [&](const model::ClusterState& state) {
        if (!every_node) return simulated_node_profile(state, &scope);
        const auto look_at = profile_scope.next(applied);
        if (cross_check && unsettled.empty() && !profile_scope.skipped().empty()) {
          const model::Plan again = simulated_node_profile(state, &profile_scope.skipped());
          if (!again.writes.empty())
            unsettled = "--verify: stage 3 skipped a Node that only writes it does not read touched since it last "
                        "looked, but looked at again it plans \"" + write_summary(again.writes.front()) + "\"";
        }
        return simulated_node_profile(state, look_at ? &*look_at : nullptr);
      };
  }
  model::FixpointMemo memo(controllers.size(), cross_check);
  constexpr int kMaxPasses = 50;  // as model::converge: the requeues of the last pass are kept either way
  bool settled = false;
  for (int pass = 0; pass < kMaxPasses && !settled; ++pass) {
    applied.clear();
    std::vector<model::Requeue> requeues;
    if (auto s = model::run_pass_in_place(cluster, controllers, at, &applied, &requeues, &memo); !s.ok())
      return model::err("pass " + std::to_string(pass + 1) + ": " + s.error());
    if (!unsettled.empty()) return model::err("pass " + std::to_string(pass + 1) + ": " + unsettled);
    if (applied.empty()) {
      // Every controller saw the state this pass leaves: its requeues are that state's.
      settled = true;
      out.requeues = std::move(requeues);
    }
    profile_scope.pass_done(applied);
    node_writes += node_writes_in(applied);
    for (auto& w : applied) {
      if (const std::string* name = NodeProfileScope::node_written(w)) scope.insert(*name);
      out.writes.push_back(std::move(w));
    }
    applied.clear();  // moved from
  }
  if (!settled) {
    for (const auto& c : controllers) {
      model::Plan p = c.reconcile(cluster);
      for (auto& r : p.requeues) out.requeues.push_back(std::move(r));
    }
  }
  if (stage3) {
    for (const auto& [name, node] : cluster.nodes) {
      if ((every_node || scope.count(name) != 0) && fit_labels_due(cluster, name, node)) out.fit_label_nodes.insert(name);
    }
  }
  return out;
}

model::Result<ChainSync> sync_nodes(model::ClusterState& cluster, const std::set<std::string>& nodes, SimTime now,
                                    bool cross_check) {
  ChainSync out;
  // The fit labels due are read off the same derivation: the writes applied below leave what they
  // read alone (a write of labels other than fit labels returns before, as stage4_needed).
  std::set<std::string> fit_due;
  model::Plan plan;
  std::vector<AllocatableDue> dues;
  for (const auto& name : nodes) {
    const auto it = cluster.nodes.find(name);
    if (it != cluster.nodes.end()) node_ledger_one(cluster, name, it->second, plan, &fit_due, dues);
  }
  if (cross_check) {
    model::Plan fast;  // the plan with the due writes in their places
    (void)in_plan_order(
        plan, dues, [&](const AllocatableDue& due) { fast.writes.push_back(due_write(cluster, due)); },
        [&](const model::Write& w) -> model::Status {
          fast.writes.push_back(w);
          return model::Ok{};
        });
    std::set<std::string> full_due;
    const model::Plan full = simulated_node_profile(cluster, &nodes, &full_due);
    if (const std::string differs = ledger_path_differs(fast, fit_due, full, full_due); !differs.empty())
      return model::err("--verify: stage 3 after a ledger change: " + differs);
  }
  for (const auto& name : nodes)
    if (cluster.nodes.count(name) == 0) out.stage4_needed = true;
  for (const auto& w : plan.writes) {
    const auto& written = std::get<model::Node>(w.object);
    const auto it = cluster.nodes.find(written.metadata.name);
    if (w.verb != model::WriteVerb::kUpdateStatus &&
        (it == cluster.nodes.end() || !same_outside_fit_labels(it->second.metadata.labels, written.metadata.labels)))
      out.stage4_needed = true;
  }
  if (out.stage4_needed) return out;
  // The statuses move into the Nodes, in the plan's order with the due writes in their places; the
  // writes handed back are receipts (kind, name, verb, controller, reason), which is all
  // after_chain_writes reads.
  const std::string at = plan.writes.empty() ? std::string() : rfc3339(now);
  out.writes.reserve(plan.writes.size() + dues.size());
  const model::Status applied = in_plan_order(
      plan, dues, [&](const AllocatableDue& due) { out.writes.push_back(apply_due(cluster, due)); },
      [&](model::Write& w) -> model::Status {
        if (model::Status s = model::apply_write_moving(cluster, w, at); !s.ok()) return s;
        out.writes.push_back(model::receipt_of(std::move(w)));
        return model::Ok{};
      });
  if (!applied.ok()) return model::err("NodeProfile: " + applied.error());
  out.fit_label_nodes = std::move(fit_due);
  return out;
}

std::optional<std::string> unsettled_write(const model::ClusterState& cluster, SimTime now) {
  auto converged = model::converge(cluster, simulated_controllers(), rfc3339(now));
  if (!converged.ok()) return "the controllers fail: " + converged.error();
  for (const auto& w : converged->writes) {
    const std::string_view kind = model::kind_of(w.object);
    if (kind == "InstanceType" && w.verb == model::WriteVerb::kUpdateStatus) continue;
    return write_summary(w);
  }
  return std::nullopt;
}

}  // namespace chaintwin::sim
