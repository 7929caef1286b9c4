#include "model/kueue/scheduler/quota_tree.h"

#include <algorithm>
#include <set>

#include "model/kueue/fair_sharing_codec.h"
#include "model/kueue/scheduler/kueue_config.h"

namespace chaintwin::model {
namespace {


template <typename Quotas>
void read_groups(const std::vector<ResourceGroup>& groups, Quotas& out) {
  for (const auto& g : groups)
    for (const auto& f : g.flavors)
      for (const auto& r : f.resources) {
        auto& l = out[{f.name, r.name}];
        l.nominal = resource_value(r.name, r.nominal_quota);
        if (r.borrowing_limit) l.borrowing_limit = resource_value(r.name, *r.borrowing_limit);
        if (r.lending_limit) l.lending_limit = resource_value(r.name, *r.lending_limit);
      }
}

}  // namespace

QuotaTree QuotaTree::build(const ClusterState& cluster) {
  QuotaTree t;
  // Cohorts: every Cohort object, and every name a ClusterQueue or a Cohort's parentName gives.
  std::set<std::string> cohort_names;
  for (const auto& [name, c] : cluster.cohorts) {
    cohort_names.insert(name);
    if (!c.spec.parent_name.empty()) cohort_names.insert(c.spec.parent_name);
  }
  for (const auto& [name, cq] : cluster.cluster_queues)
    if (!cq.spec.cohort_name.empty()) cohort_names.insert(cq.spec.cohort_name);
  for (const auto& name : cohort_names) {
    t.cohorts_[name] = static_cast<NodeId>(t.nodes_.size());
    Node n;
    n.name = name;
    if (const auto c = cluster.cohorts.find(name); c != cluster.cohorts.end()) {
      read_groups(c->second.spec.resource_groups, n.quotas);
      n.weight = fair_sharing_codec::weight_value(c->second.spec.fair_sharing_weight);
    }
    t.nodes_.push_back(std::move(n));
  }
  // Parents of cohorts, leaving out every cohort on or under a cycle.
  std::set<NodeId> cyclic;
  for (const auto& [name, id] : t.cohorts_) {
    std::set<NodeId> seen{id};
    for (std::string at = name;;) {
      const auto c = cluster.cohorts.find(at);
      if (c == cluster.cohorts.end() || c->second.spec.parent_name.empty()) break;
      const NodeId up = t.cohorts_.at(c->second.spec.parent_name);
      if (!seen.insert(up).second) {
        cyclic.insert(id);
        break;
      }
      at = c->second.spec.parent_name;
    }
  }
  for (const auto& [name, id] : t.cohorts_) {
    if (cyclic.count(id) != 0) continue;
    const auto c = cluster.cohorts.find(name);
    if (c == cluster.cohorts.end() || c->second.spec.parent_name.empty()) continue;
    const NodeId up = t.cohorts_.at(c->second.spec.parent_name);
    t.nodes_[id].parent = up;
    t.nodes_[up].children.push_back(id);
  }
  for (const auto& [name, cq] : cluster.cluster_queues) {
    const NodeId id = static_cast<NodeId>(t.nodes_.size());
    t.cluster_queues_[name] = id;
    Node n;
    n.name = name;
    n.is_cluster_queue = true;
    read_groups(cq.spec.resource_groups, n.quotas);
    n.weight = fair_sharing_codec::weight_value(cq.spec.fair_sharing_weight);
    if (!cq.spec.cohort_name.empty()) {
      t.has_cohorts_ = true;
      const NodeId up = t.cohorts_.at(cq.spec.cohort_name);
      if (cyclic.count(up) != 0) {
        t.in_cycle_.push_back(name);
      } else {
        n.parent = up;
        t.nodes_[up].children.push_back(id);
      }
    }
    t.nodes_.push_back(std::move(n));
  }
  for (NodeId id = 0; id < static_cast<NodeId>(t.nodes_.size()); ++id)
    if (t.nodes_[id].parent == kNone) t.accumulate(id);
  for (NodeId id = 0; id < static_cast<NodeId>(t.nodes_.size()); ++id) {
    Node& n = t.nodes_[id];
    for (const auto& [fr, q] : n.subtree_quota) {
      const FlavorResourceView view{fr.first, fr.second};
      Node::Cell c;
      if (const Limits* l = t.limits(id, view)) c.limits = *l;
      c.subtree_quota = q;
      c.local_quota = c.limits.lending_limit ? std::max<int64_t>(0, q - *c.limits.lending_limit) : 0;
      n.cells.emplace(fr, c);
    }
  }
  // Dense ids of the pairs, the never-lent quota by id, and an order with children first.
  for (const Node& n : t.nodes_)
    for (const auto& [fr, q] : n.subtree_quota) t.pair_ids_.emplace(fr, 0);
  int next = 0;
  for (auto& [fr, id] : t.pair_ids_) id = next++;
  const std::size_t pairs = t.pair_ids_.size();
  t.local_quota_by_id_.assign(t.nodes_.size() * pairs, 0);
  for (NodeId id = 0; id < static_cast<NodeId>(t.nodes_.size()); ++id)
    for (const auto& [fr, c] : t.nodes_[id].cells)
      t.local_quota_by_id_[static_cast<std::size_t>(id) * pairs + static_cast<std::size_t>(t.pair_ids_.at(fr))] = c.local_quota;
  std::vector<std::pair<NodeId, bool>> stack;
  for (NodeId id = 0; id < static_cast<NodeId>(t.nodes_.size()); ++id)
    if (t.nodes_[id].parent == kNone) stack.emplace_back(id, false);
  while (!stack.empty()) {
    const auto [id, expanded] = stack.back();
    stack.pop_back();
    if (expanded) {
      t.post_order_.push_back(id);
      continue;
    }
    stack.emplace_back(id, true);
    for (const NodeId c : t.nodes_[id].children) stack.emplace_back(c, false);
  }
  t.root_of_.resize(t.nodes_.size());
  for (NodeId id = 0; id < static_cast<NodeId>(t.nodes_.size()); ++id) t.root_of_[id] = t.root(id);
  return t;
}

void QuotaTree::accumulate(NodeId n) {
  Node& node = nodes_[n];
  node.subtree_quota.clear();
  for (const auto& [fr, l] : node.quotas) node.subtree_quota[fr] = l.nominal;
  for (const NodeId c : node.children) {
    accumulate(c);
    for (const auto& [fr, q] : nodes_[c].subtree_quota) nodes_[n].subtree_quota[fr] += q - local_quota(c, fr);
  }
}

QuotaTree::NodeId QuotaTree::cluster_queue(const std::string& name) const {
  const auto it = cluster_queues_.find(name);
  return it == cluster_queues_.end() ? kNone : it->second;
}

QuotaTree::NodeId QuotaTree::cohort(const std::string& name) const {
  const auto it = cohorts_.find(name);
  return it == cohorts_.end() ? kNone : it->second;
}

QuotaTree::NodeId QuotaTree::root(NodeId n) const {
  while (nodes_[n].parent != kNone) n = nodes_[n].parent;
  return n;
}

std::vector<std::string> QuotaTree::tree_members(const std::string& cluster_queue) const {
  const NodeId cq = this->cluster_queue(cluster_queue);
  if (cq == kNone || nodes_[cq].parent == kNone) return {cluster_queue};
  std::vector<std::string> out;
  std::vector<NodeId> stack{root(cq)};
  while (!stack.empty()) {
    const NodeId n = stack.back();
    stack.pop_back();
    if (nodes_[n].is_cluster_queue) out.push_back(nodes_[n].name);
    for (const NodeId c : nodes_[n].children) stack.push_back(c);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<FlavorResourceView> QuotaTree::subtree_flavor_resources(NodeId n) const {
  std::vector<FlavorResourceView> out;
  out.reserve(nodes_[n].subtree_quota.size());
  for (const auto& [fr, q] : nodes_[n].subtree_quota) out.emplace_back(fr.first, fr.second);
  return out;
}

const QuotaTree::Limits* QuotaTree::limits(NodeId n, FlavorResourceView fr) const {
  const auto it = nodes_[n].quotas.find(fr);
  return it == nodes_[n].quotas.end() ? nullptr : &it->second;
}

const QuotaTree::Node::Cell* QuotaTree::cell(NodeId n, FlavorResourceView fr) const {
  const auto it = nodes_[n].cells.find(fr);
  return it == nodes_[n].cells.end() ? nullptr : &it->second;
}

int64_t QuotaTree::nominal(NodeId n, FlavorResourceView fr) const {
  const Node::Cell* c = cell(n, fr);
  return c == nullptr ? 0 : c->limits.nominal;
}

int64_t QuotaTree::subtree_quota(NodeId n, FlavorResourceView fr) const {
  // Before the cells are made (accumulate), from the sums being built.
  if (nodes_[n].cells.empty()) {
    const auto it = nodes_[n].subtree_quota.find(fr);
    return it == nodes_[n].subtree_quota.end() ? 0 : it->second;
  }
  const Node::Cell* c = cell(n, fr);
  return c == nullptr ? 0 : c->subtree_quota;
}

int64_t QuotaTree::local_quota(NodeId n, FlavorResourceView fr) const {
  if (nodes_[n].cells.empty()) {  // while building: from the limits and the sums so far
    const Limits* l = limits(n, fr);
    if (l == nullptr || !l->lending_limit) return 0;
    return std::max<int64_t>(0, subtree_quota(n, fr) - *l->lending_limit);
  }
  const Node::Cell* c = cell(n, fr);
  return c == nullptr ? 0 : c->local_quota;
}

int64_t QuotaTree::usage(NodeId n, FlavorResourceView fr, const UsageSnapshot& snapshot) const {
  const Node& node = nodes_[n];
  if (node.is_cluster_queue) {
    const auto q = snapshot.quota.find(node.name);
    return q == snapshot.quota.end() ? 0 : amount_of(q->second, fr);
  }
  int64_t sum = 0;
  for (const NodeId c : node.children) {
    const Node::Cell* child = cell(c, fr);
    sum += std::max<int64_t>(0, usage(c, fr, snapshot) - (child == nullptr ? 0 : child->local_quota));
  }
  return sum;
}

int QuotaTree::pair_id(FlavorResourceView fr) const {
  const auto it = pair_ids_.find(fr);
  return it == pair_ids_.end() ? -1 : it->second;
}

template <typename Used>
int64_t QuotaTree::available_raw_t(NodeId n, FlavorResourceView fr, const Used& used_of) const {
  const int64_t used = used_of(n);
  static const Node::Cell kEmpty;
  const Node::Cell* c = cell(n, fr);
  if (c == nullptr) c = &kEmpty;
  if (nodes_[n].parent == kNone) return c->subtree_quota - used;
  int64_t from_parent = available_raw_t(nodes_[n].parent, fr, used_of);
  const int64_t local = c->local_quota;
  if (c->limits.borrowing_limit) {
    const int64_t stored_in_parent = c->subtree_quota - local;
    const int64_t used_in_parent = std::max<int64_t>(0, used - local);
    from_parent = std::min(from_parent, stored_in_parent - used_in_parent + *c->limits.borrowing_limit);
  }
  return std::max<int64_t>(0, local - used) + from_parent;
}

template <typename Used>
bool QuotaTree::borrowing_with_t(NodeId n, FlavorResourceView fr, int64_t v, const Used& used_of) const {
  const int64_t cap = nodes_[n].is_cluster_queue ? nominal(n, fr) : subtree_quota(n, fr);
  return used_of(n) + v > cap;
}

int64_t QuotaTree::local_available(NodeId n, FlavorResourceView fr, const UsageSnapshot& snapshot) const {
  return std::max<int64_t>(0, local_quota(n, fr) - usage(n, fr, snapshot));
}

int64_t QuotaTree::local_available(NodeId n, FlavorResourceView fr, const QuotaUsage& bound) const {
  return std::max<int64_t>(0, local_quota(n, fr) - bound.of(n, fr));
}

int64_t QuotaTree::available(NodeId n, FlavorResourceView fr, const UsageSnapshot& snapshot) const {
  return std::max<int64_t>(0, available_raw_t(n, fr, [&](NodeId m) { return usage(m, fr, snapshot); }));
}

int64_t QuotaTree::available(NodeId n, FlavorResourceView fr, const QuotaUsage& bound) const {
  return std::max<int64_t>(0, available_raw_t(n, fr, [&](NodeId m) { return bound.of(m, fr); }));
}

int64_t QuotaTree::potential_available(NodeId n, FlavorResourceView fr) const {
  const Node::Cell* c = cell(n, fr);
  if (nodes_[n].parent == kNone) return c == nullptr ? 0 : c->subtree_quota;
  int64_t out = (c == nullptr ? 0 : c->local_quota) + potential_available(nodes_[n].parent, fr);
  if (c != nullptr && c->limits.borrowing_limit) out = std::min(out, c->subtree_quota + *c->limits.borrowing_limit);
  return out;
}

bool QuotaTree::borrowing_with(NodeId n, FlavorResourceView fr, int64_t v, const UsageSnapshot& snapshot) const {
  return borrowing_with_t(n, fr, v, [&](NodeId m) { return usage(m, fr, snapshot); });
}

bool QuotaTree::borrowing_with(NodeId n, FlavorResourceView fr, int64_t v, const QuotaUsage& bound) const {
  return borrowing_with_t(n, fr, v, [&](NodeId m) { return bound.of(m, fr); });
}

bool QuotaTree::within_nominal(NodeId n, const std::vector<FlavorResourceView>& frs, const UsageSnapshot& snapshot) const {
  for (const auto& fr : frs)
    if (usage(n, fr, snapshot) > subtree_quota(n, fr)) return false;
  return true;
}

bool QuotaTree::within_nominal(NodeId n, const std::vector<FlavorResourceView>& frs, const QuotaUsage& bound) const {
  for (const auto& fr : frs)
    if (bound.of(n, fr) > subtree_quota(n, fr)) return false;
  return true;
}

int QuotaTree::height(NodeId cohort) const {
  int h = std::min<int>(static_cast<int>(nodes_[cohort].children.size()), 1);
  for (const NodeId c : nodes_[cohort].children)
    if (!nodes_[c].is_cluster_queue) h = std::max(h, height(c) + 1);
  return h;
}

template <typename Used>
QuotaTree::BorrowHeight QuotaTree::lowest_subtree_that_fits_t(NodeId cq, FlavorResourceView fr, int64_t val,
                                                              const Used& used_of) const {
  const bool parent = nodes_[cq].parent != kNone;
  const auto local_available_of = [&](NodeId n) { return std::max<int64_t>(0, local_quota(n, fr) - used_of(n)); };
  if (!parent || !borrowing_with_t(cq, fr, val, used_of)) return {0, parent};
  int64_t remaining = val - local_available_of(cq);
  for (NodeId at = nodes_[cq].parent; at != kNone; at = nodes_[at].parent) {
    if (!borrowing_with_t(at, fr, remaining, used_of)) return {height(at), nodes_[at].parent != kNone};
    remaining -= local_available_of(at);
  }
  return {height(root(cq)), false};
}

QuotaTree::BorrowHeight QuotaTree::lowest_subtree_that_fits(NodeId cq, FlavorResourceView fr, int64_t val,
                                                            const UsageSnapshot& snapshot) const {
  return lowest_subtree_that_fits_t(cq, fr, val, [&](NodeId m) { return usage(m, fr, snapshot); });
}

QuotaTree::BorrowHeight QuotaTree::lowest_subtree_that_fits(NodeId cq, FlavorResourceView fr, int64_t val,
                                                            const QuotaUsage& bound) const {
  return lowest_subtree_that_fits_t(cq, fr, val, [&](NodeId m) { return bound.of(m, fr); });
}

QuotaUsage QuotaTree::bind(const UsageSnapshot& snapshot, NodeId within) const {
  QuotaUsage out;
  out.tree_ = this;
  out.base_ = &snapshot;
  out.root_ = within == kNone ? -1 : root_of_[within];
  const std::size_t pairs = pair_ids_.size();
  out.used_.assign(nodes_.size() * pairs, 0);
  if (pairs == 0) return out;
  for (const NodeId id : post_order_) {
    if (out.root_ >= 0 && root_of_[id] != out.root_) continue;
    const Node& node = nodes_[id];
    int64_t* row = out.used_.data() + static_cast<std::size_t>(id) * pairs;
    if (node.is_cluster_queue) {
      const auto q = snapshot.quota.find(node.name);
      if (q == snapshot.quota.end()) continue;
      for (const auto& [fr, v] : q->second)
        if (const auto it = pair_ids_.find(fr); it != pair_ids_.end()) row[it->second] = v;
      continue;
    }
    for (const NodeId c : node.children) {
      const int64_t* child = out.used_.data() + static_cast<std::size_t>(c) * pairs;
      const int64_t* local = local_quota_by_id_.data() + static_cast<std::size_t>(c) * pairs;
      for (std::size_t f = 0; f < pairs; ++f) row[f] += std::max<int64_t>(0, child[f] - local[f]);
    }
  }
  return out;
}

int64_t QuotaUsage::of(NodeId n, FlavorResourceView fr) const {
  const int id = tree_->pair_id(fr);
  if (id >= 0 && (root_ < 0 || tree_->root_of_[n] == root_))
    return used_[static_cast<std::size_t>(n) * tree_->pair_ids_.size() + static_cast<std::size_t>(id)];
  // Not bound (another tree, or a pair no quota names, as when a reservation outlives its
  // ClusterQueue's flavor): read as the unbound tree reads it, with what was added since.
  const auto& node = tree_->nodes_[n];
  if (node.is_cluster_queue) {
    int64_t v = tree_->usage(n, fr, *base_);
    if (const auto it = other_added_.find({n, {std::string(fr.first), std::string(fr.second)}}); it != other_added_.end())
      v += it->second;
    return v;
  }
  int64_t sum = 0;
  for (const NodeId c : node.children) sum += std::max<int64_t>(0, of(c, fr) - tree_->local_quota(c, fr));
  return sum;
}

void QuotaUsage::add(NodeId cq, FlavorResourceView fr, int64_t v) {
  const int id = tree_->pair_id(fr);
  if (id < 0 || (root_ >= 0 && tree_->root_of_[cq] != root_)) {
    other_added_[{cq, {std::string(fr.first), std::string(fr.second)}}] += v;
    return;
  }
  const std::size_t pairs = tree_->pair_ids_.size();
  const auto at = [&](NodeId n) -> int64_t& { return used_[static_cast<std::size_t>(n) * pairs + static_cast<std::size_t>(id)]; };
  const auto local = [&](NodeId n) {
    return tree_->local_quota_by_id_[static_cast<std::size_t>(n) * pairs + static_cast<std::size_t>(id)];
  };
  // Each node's share in its parent is max(0, usage − localQuota): pass the change of that share up.
  int64_t before = at(cq);
  at(cq) += v;
  for (NodeId n = cq; tree_->nodes_[n].parent != QuotaTree::kNone; n = tree_->nodes_[n].parent) {
    const int64_t delta = std::max<int64_t>(0, at(n) - local(n)) - std::max<int64_t>(0, before - local(n));
    if (delta == 0) break;
    const NodeId p = tree_->nodes_[n].parent;
    before = at(p);
    at(p) += delta;
  }
}

void QuotaUsage::add(const WorkloadUsage& usage, int sign) {
  if (!usage.reserved) return;
  const NodeId cq = tree_->cluster_queue(usage.cluster_queue);
  if (cq == QuotaTree::kNone) return;
  for (const auto& [fr, v] : usage.quota) add(cq, FlavorResourceView{fr.first, fr.second}, sign * v);
}

}  // namespace chaintwin::model
