#include "model/kueue/scheduler/tas_assigner.h"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <set>
#include <span>
#include <string_view>
#include <unordered_set>

#include "model/kueue/scheduler/node_match.h"

namespace chaintwin::model {
namespace {

struct Leaf {
  const std::vector<std::string>* values = nullptr;  // one per level (owned by the Node's verdict)
  int32_t pods = 0;                                  // how many Pods of the PodSet fit
};

// Kueue's list of exclusions, in name order: "nodeSelector: 2, resource \"cpu\": 1".
std::string format_exclusions(const TasExclusions& ex) {
  std::vector<std::string> r;
  if (ex.node_selector > 0) r.push_back("nodeSelector: " + std::to_string(ex.node_selector));
  if (ex.affinity > 0) r.push_back("affinity: " + std::to_string(ex.affinity));
  for (const auto& [name, n] : ex.resources) r.push_back("resource \"" + name + "\": " + std::to_string(n));
  std::sort(r.begin(), r.end());
  std::string out;
  for (std::size_t i = 0; i < r.size(); ++i) out += (i == 0 ? "" : ", ") + r[i];
  return out;
}

bool any_excluded(const TasExclusions& ex) { return ex.node_selector > 0 || ex.affinity > 0 || !ex.resources.empty(); }

// How many Pods fit in `free` (free[i] of per_pod[i]; a resource not `known` has none); the first
// resource (by name) short of one Pod when none does.
int32_t count_in(const std::vector<std::pair<std::string, int64_t>>& per_pod, std::span<const int64_t> free,
                 std::span<const uint8_t> known, std::string* short_of) {
  int64_t n = std::numeric_limits<int32_t>::max();
  for (std::size_t i = 0; i < per_pod.size(); ++i) {
    const int64_t v = per_pod[i].second;
    if (v <= 0) continue;
    const int64_t have = known[i] ? std::max<int64_t>(0, free[i]) : 0;
    const int64_t fit = have / v;
    if (fit == 0 && short_of != nullptr && short_of->empty()) *short_of = per_pod[i].first;
    n = std::min(n, fit);
  }
  return static_cast<int32_t>(n);
}

struct Domain {
  std::vector<std::string> values;  // prefix of the level values
  int32_t pods = 0;
};

// Orders candidate domains for filling: least free first (LeastFreeCapacity) or most free first
// (BestFit), ties by values.
void order_domains(std::vector<Domain>& ds, TasPlacement placement) {
  std::sort(ds.begin(), ds.end(), [&](const Domain& a, const Domain& b) {
    if (a.pods != b.pods) return placement == TasPlacement::kLeastFreeCapacity ? a.pods < b.pods : a.pods > b.pods;
    return a.values < b.values;
  });
}

bool has_prefix(const std::vector<std::string>& v, const std::vector<std::string>& prefix) {
  return v.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), v.begin());
}

// The domains of level `depth` (values prefix of length depth+1) under `parent`.
std::vector<Domain> domains_at(const std::vector<Leaf>& leaves, std::size_t depth, const std::vector<std::string>& parent) {
  std::map<std::vector<std::string>, int32_t> sums;
  for (const auto& l : leaves) {
    if (!has_prefix(*l.values, parent)) continue;
    sums[std::vector<std::string>(l.values->begin(), l.values->begin() + static_cast<std::ptrdiff_t>(depth + 1))] += l.pods;
  }
  std::vector<Domain> out;
  for (const auto& [v, n] : sums) out.push_back({v, n});
  return out;
}

// Distributes `count` Pods over the leaves under `parent` (at level index depth-1), level by level.
void distribute(const std::vector<Leaf>& leaves, std::size_t depth, std::size_t levels, const std::vector<std::string>& parent,
                int32_t count, TasPlacement placement, std::map<std::vector<std::string>, int32_t>& out) {
  if (depth == levels) {
    out[parent] += count;
    return;
  }
  auto ds = domains_at(leaves, depth, parent);
  ds.erase(std::remove_if(ds.begin(), ds.end(), [](const Domain& d) { return d.pods <= 0; }), ds.end());
  if (placement == TasPlacement::kBestFit) {
    // BestFit: a single domain that holds everything, the tightest such; else greedy most-free.
    const Domain* best = nullptr;
    for (const auto& d : ds)
      if (d.pods >= count && (best == nullptr || d.pods < best->pods || (d.pods == best->pods && d.values < best->values)))
        best = &d;
    if (best != nullptr) {
      distribute(leaves, depth + 1, levels, best->values, count, placement, out);
      return;
    }
  }
  order_domains(ds, placement);
  int32_t remaining = count;
  for (const auto& d : ds) {
    if (remaining == 0) break;
    const int32_t take = std::min(remaining, d.pods);
    distribute(leaves, depth + 1, levels, d.values, take, placement, out);
    remaining -= take;
  }
}

// distribute() for a one-level Topology whose leaves have distinct values (each leaf its own
// domain): the domains taken in order_domains order, found by repeated selection instead of a sort.
// False (nothing placed) when two leaves share a value, for distribute() to group them.
bool distribute_one_level(const std::vector<Leaf>& leaves, int32_t count, TasPlacement placement,
                          std::map<std::vector<std::string>, int32_t>& out) {
  std::unordered_set<std::string_view> seen;
  for (const auto& l : leaves)
    if (!seen.insert(l.values->front()).second) return false;
  const auto before = [&](const Leaf& a, const Leaf& b) {  // order_domains
    if (a.pods != b.pods) return placement == TasPlacement::kLeastFreeCapacity ? a.pods < b.pods : a.pods > b.pods;
    return a.values->front() < b.values->front();
  };
  if (placement == TasPlacement::kBestFit) {
    const Leaf* best = nullptr;
    for (const auto& l : leaves)
      if (l.pods >= count && (best == nullptr || l.pods < best->pods ||
                              (l.pods == best->pods && l.values->front() < best->values->front())))
        best = &l;
    if (best != nullptr) {
      out[*best->values] += count;
      return true;
    }
  }
  std::vector<bool> taken(leaves.size(), false);
  int32_t remaining = count;
  while (remaining > 0) {
    std::size_t pick = leaves.size();
    for (std::size_t i = 0; i < leaves.size(); ++i)
      if (!taken[i] && (pick == leaves.size() || before(leaves[i], leaves[pick]))) pick = i;
    if (pick == leaves.size()) break;
    taken[pick] = true;
    const int32_t take = std::min(remaining, leaves[pick].pods);
    out[*leaves[pick].values] += take;
    remaining -= take;
  }
  return true;
}

// The tightest Node with room for `count` Pods (fewest Pods that fit, ties by value), from the kept
// order (most room first, ties by value); null when none has room for them all.
const std::pair<int32_t, uint32_t>* tightest(const TasShapeTotals& t, int32_t count) {
  // [begin, end_fit) have room for at least `count` Pods; the last of them has the least room.
  const auto end_fit = t.by_room.lower_bound({-count + 1, 0});
  if (end_fit == t.by_room.begin()) return nullptr;
  return &*t.by_room.lower_bound({std::prev(end_fit)->first, 0});
}

// The one-level search (every Node its own domain) on kept totals: what distribute_one_level, or
// the required-level choice, would place, into `placed`; returns the `fit` shown in the not-fit
// message (the most any domain holds when a level is required, else the sum). `values` names the
// ranks the totals hold.
int32_t one_level_from_totals(const TasShapeTotals& t, const FlavorValues& values, int32_t count, bool required,
                              TasPlacement placement, std::map<std::vector<std::string>, int32_t>& placed) {
  if (required) {
    const int32_t fit = t.by_room.empty() ? 0 : -t.by_room.begin()->first;
    if (const auto* chosen = tightest(t, count)) placed[{values.text(chosen->second)}] += count;
    return fit;
  }
  const auto fit = static_cast<int32_t>(std::min<int64_t>(t.pods, std::numeric_limits<int32_t>::max()));
  if (t.pods < count) return fit;
  if (placement == TasPlacement::kBestFit) {
    if (const auto* chosen = tightest(t, count)) {
      placed[{values.text(chosen->second)}] += count;
      return fit;
    }
  }
  int32_t remaining = count;
  const auto fill = [&](const std::pair<int32_t, uint32_t>& d) {
    const int32_t take = std::min(remaining, -d.first);
    placed[{values.text(d.second)}] += take;
    remaining -= take;
  };
  if (placement == TasPlacement::kLeastFreeCapacity) {
    // Least room first, ties by value: the groups of equal room from the back, each in value order.
    auto group_end = t.by_room.end();
    while (remaining > 0 && group_end != t.by_room.begin()) {
      const auto group_begin = t.by_room.lower_bound({std::prev(group_end)->first, 0});
      for (auto it = group_begin; it != group_end && remaining > 0; ++it) fill(*it);
      group_end = group_begin;
    }
  } else {
    for (auto it = t.by_room.begin(); it != t.by_room.end() && remaining > 0; ++it) fill(*it);
  }
  return fit;
}

using PerPod = TasPerPod;

// Whether the Node's labels (and name) keep the PodSet off it: by its nodeSelector or its required
// affinity (hostname level only).
TasNodeVerdict::Excluded label_exclusion(const std::string& name, const Node& node, const PodSet& pod_set,
                                         bool hostname_leaf) {
  if (!hostname_leaf) return TasNodeVerdict::Excluded::kNone;
  const auto& labels = node.metadata.labels;
  if (!matches_node_selector(pod_set.template_.node_selector, labels)) return TasNodeVerdict::Excluded::kNodeSelector;
  if (!matches_required_affinity(pod_set.template_.required_node_affinity, labels, name))
    return TasNodeVerdict::Excluded::kAffinity;
  return TasNodeVerdict::Excluded::kNone;
}

// How many Pods fit in allocatable less the TAS usage (a resource the Node lacks is 0 free; pods
// unbounded when the Node does not report it); `short_of` as count_in sets it.
int32_t room_on(const Node& node, const PerPod& per_pod, const ResourceAmounts* usage, std::string* short_of) {
  // A Pod asks for a few resources: both lists fit inline (no allocation per Node evaluated).
  boost::container::small_vector<int64_t, 8> free(per_pod.size());
  boost::container::small_vector<uint8_t, 8> known(per_pod.size());
  for (std::size_t i = 0; i < per_pod.size(); ++i) {
    const std::string& r = per_pod[i].first;
    const auto a = node.status.allocatable.find(r);
    known[i] = true;
    if (a != node.status.allocatable.end()) free[i] = resource_value(r, a->second);
    else if (r == "pods") free[i] = std::numeric_limits<int32_t>::max();  // not modelled: unbounded
    else {
      known[i] = false;
      continue;
    }
    if (usage != nullptr)
      if (const auto u = usage->find(r); u != usage->end()) free[i] -= u->second;
  }
  return count_in(per_pod, {free.data(), free.size()}, {known.data(), known.size()}, short_of);
}

// The Node's value of each Topology level.
std::vector<std::string> level_values(const Node& node, const std::vector<std::string>& levels) {
  std::vector<std::string> out;
  out.reserve(levels.size());
  for (const auto& l : levels) out.push_back(node.metadata.labels.at(l));
  return out;
}

// What one Node offers the PodSet: excluded by its labels, else how many Pods fit and, when some
// do, the Node's level values.
TasNodeVerdict evaluate_node(const std::string& name, const Node& node, const PodSet& pod_set, const PerPod& per_pod,
                             const ResourceAmounts* usage, bool hostname_leaf, const std::vector<std::string>& levels) {
  TasNodeVerdict v;
  v.excluded = label_exclusion(name, node, pod_set, hostname_leaf);
  if (v.excluded != TasNodeVerdict::Excluded::kNone) return v;
  v.pods = room_on(node, per_pod, usage, &v.short_of);
  if (v.pods > 0) v.values = level_values(node, levels);
  return v;
}

// Everything evaluate_node reads of the PodSet, as one string.
// Appended piece by piece: no temporary string per piece.
std::string shape_key(const PodSet& pod_set, const PerPod& per_pod) {
  std::string k;
  k.reserve(256);
  const auto put = [&](std::string_view a, char sep, std::string_view b) {
    k += a;
    k += sep;
    k += b;
  };
  for (const auto& [r, v] : per_pod) {
    put(r, '=', std::to_string(v));
    k += ';';
  }
  k += '|';
  for (const auto& [key, value] : pod_set.template_.node_selector) {
    put(key, '=', value);
    k += ';';
  }
  const auto requirement = [&](const NodeSelectorRequirement& r) {
    put(r.key, ' ', r.op);
    for (const auto& v : r.values) {
      k += ' ';
      k += v;
    }
    k += ';';
  };
  for (const auto& t : pod_set.template_.required_node_affinity) {
    k += "|term:";
    for (const auto& r : t.match_expressions) requirement(r);
    k += "fields:";
    for (const auto& r : t.match_fields) requirement(r);
  }
  return k;
}

// Whether a label key the verdicts read (the PodSet's nodeSelector and required affinity, the
// Topology's levels) is one the cache calls volatile.
bool reads_volatile_labels(const TasLeafCache& cache, const PodSet& pod_set, const std::vector<std::string>& levels) {
  const auto is = [&](std::string_view key) { return cache.volatile_label(key); };
  for (const auto& [key, value] : pod_set.template_.node_selector)
    if (is(key)) return true;
  for (const auto& t : pod_set.template_.required_node_affinity)
    for (const auto& r : t.match_expressions)
      if (is(r.key)) return true;
  return std::any_of(levels.begin(), levels.end(), is);
}

bool flavor_selects(const ResourceFlavor& flavor, const std::vector<std::string>& levels, const Node& node) {
  const auto& labels = node.metadata.labels;
  if (node.unschedulable || !matches_node_selector(flavor.spec.node_labels, labels)) return false;
  return std::all_of(levels.begin(), levels.end(), [&](const std::string& l) { return labels.count(l) != 0; });
}

}  // namespace

TasPerPod tas_per_pod(const ResourceList& requests) { return tas_per_pod(resource_amounts(requests)); }

TasPerPod tas_per_pod(ResourceAmounts amounts) {
  amounts["pods"] = 1;
  return TasPerPod(amounts.begin(), amounts.end());
}

std::string tas_shape_key(const PodSet& pod_set, const ResourceList& requests) {
  return shape_key(pod_set, tas_per_pod(requests));
}

std::string tas_shape_key(const PodSet& pod_set, const TasPerPod& per_pod) { return shape_key(pod_set, per_pod); }

TasNodeIndex build_tas_node_index(const ClusterState& cluster) {
  TasNodeIndex index;
  for (const auto& [fname, flavor] : cluster.resource_flavors) {
    if (flavor.spec.topology_name.empty()) continue;
    const auto topo = cluster.topologies.find(flavor.spec.topology_name);
    if (topo == cluster.topologies.end() || topo->second.levels.empty()) continue;
    auto& names = index[fname];
    for (const auto& [name, node] : cluster.nodes)
      if (flavor_selects(flavor, topo->second.levels, node)) names.push_back(name);
  }
  return index;
}

TopologyResult assign_topology(const ClusterState& cluster, const ResourceFlavor& flavor, const PodSet& pod_set,
                               const NodeUsage& node_usage, TasPlacement placement,
                               const TasNodeIndex* index, TasLeafCache* cache, const PodSetInfo* info) {
  if (cache != nullptr && cache->verify) {
    cache->verify = false;
    const TopologyResult cached =
        assign_topology(cluster, flavor, pod_set, node_usage, placement, index, cache, info);
    cache->verify = true;
    TopologyResult plain = assign_topology(cluster, flavor, pod_set, node_usage, placement, index, nullptr);
    if (!(cached == plain))
      cache->note_mismatch("flavor " + flavor.metadata.name + ", pod set " + pod_set.name + ": cached \"" +
                           cached.message + "\" against \"" + plain.message + "\"");
    return plain;
  }
  TopologyResult out;
  const std::string& topology_name = flavor.spec.topology_name;
  const auto topo = cluster.topologies.find(topology_name);
  if (topo == cluster.topologies.end() || topo->second.levels.empty()) {
    out.message = "topology \"" + topology_name + "\" not found";
    return out;
  }
  const auto& levels = topo->second.levels;
  const bool hostname_leaf = levels.back() == kHostnameLabel;
  std::size_t required_depth = levels.size() - 1;
  const bool required = !pod_set.required_topology_level.empty();
  if (required) {
    const auto it = std::find(levels.begin(), levels.end(), pod_set.required_topology_level);
    if (it == levels.end()) {
      out.message = "no requested topology level: " + pod_set.required_topology_level;
      return out;
    }
    required_depth = static_cast<std::size_t>(it - levels.begin());
  }

  // The request as a list in name order; free[i] below is what a Node has of per_pod[i].
  PerPod derived;  // only without `info`
  const PerPod& per_pod =
      info != nullptr ? info->tas_per_pod : (derived = tas_per_pod(pod_effective_requests(pod_set.template_)));
  TasExclusions ex;
  std::vector<Leaf> leaves;
  const std::vector<std::string>* listed = nullptr;
  if (index != nullptr)
    if (const auto it = index->find(flavor.metadata.name); it != index->end()) listed = &it->second;
  std::vector<TasNodeVerdict> local;  // the verdicts of a search without the cache
  // Each verdict counts into the exclusions or adds a leaf; a Node with room for no Pod adds
  // nothing to any domain.
  const auto take = [&](const TasNodeVerdict& v) {
    if (ex.add(v, 1)) leaves.push_back(Leaf{&v.values, v.pods});
  };
  const TasShapeTotals* totals = nullptr;  // set when the kept totals answer the search
  const FlavorValues* ranks = nullptr;       // what the kept totals' ranks stand for
  if (cache != nullptr && listed != nullptr) {
    // Kept verdicts: only the Nodes changed since are looked up and evaluated again.
    const uint32_t fi = cache->flavor_index(flavor.metadata.name);
    cache->generations(fi, listed->size());
    std::string own_key;  // only without `info`
    const std::string& key = info != nullptr ? info->tas_shape : (own_key = shape_key(pod_set, per_pod));
    TasLeafCache::Shape& kept = cache->shape(fi, key, listed->size());
    // The key holds the selector and affinity, the flavor its levels: read once per shape.
    if (!kept.scanned) kept.reads_volatile_labels = reads_volatile_labels(*cache, pod_set, levels);
    // The stale positions' verdicts first (a Node no longer in the cluster: none), then their
    // first level values into the flavor's ranks, then the totals.
    const std::vector<StalePosition> stale = cache->stale_positions(fi, kept);
    std::vector<std::pair<std::size_t, TasNodeVerdict>> fresh;
    fresh.reserve(stale.size());  // one block, not one per doubling
    std::vector<std::size_t> gone;
    std::vector<std::pair<std::size_t, int32_t>> room_moved;  // verdicts whose Pods alone moved
    for (const auto& [i, labels_kept] : stale) {
      const std::string& name = (*listed)[i];
      const auto node = cluster.nodes.find(name);
      if (node == cluster.nodes.end()) {  // not in the cluster: not a candidate
        gone.push_back(i);
        continue;
      }
      const auto used = node_usage.find(name);
      const ResourceAmounts* usage = used == node_usage.end() ? nullptr : &used->second;
      // Labels unmoved since the counted verdict: its exclusion stands, and so do its level values
      // while it has room; only the room is counted again.
      const TasNodeVerdict* prev = labels_kept && kept.counted[i] ? &kept.verdicts[i] : nullptr;
      if (prev == nullptr) {
        fresh.emplace_back(i, evaluate_node(name, node->second, pod_set, per_pod, usage, hostname_leaf, levels));
        continue;
      }
      if (prev->excluded != TasNodeVerdict::Excluded::kNone) continue;
      TasNodeVerdict v;
      v.pods = room_on(node->second, per_pod, usage, &v.short_of);
      if (v.pods > 0 && prev->pods > 0) {
        room_moved.emplace_back(i, v.pods);
        continue;
      }
      if (v.pods > 0) v.values = level_values(node->second, levels);
      fresh.emplace_back(i, std::move(v));
    }
    ranks = &cache->note_values(fi, fresh);
    kept.rekey(*ranks);
    for (const std::size_t i : gone) kept.uncount(i, *ranks);
    for (auto& [i, v] : fresh) kept.recount(i, std::move(v), *ranks);
    for (const auto& [i, pods] : room_moved) kept.recount_room(i, pods, *ranks);
    if (levels.size() == 1 && kept.totals.shared_values == 0) {
      totals = &kept.totals;  // every Node its own domain: the totals are the domains
    } else {
      for (std::size_t i = 0; i < listed->size(); ++i)
        if (kept.counted[i]) take(kept.verdicts[i]);
    }
  } else {
    std::vector<std::pair<const std::string*, const Node*>> candidates;
    if (listed != nullptr) {
      // Both the list and the Nodes are in name order: one walk instead of a lookup per Node.
      auto it = cluster.nodes.begin();
      for (const auto& name : *listed) {
        while (it != cluster.nodes.end() && it->first < name) ++it;
        if (it != cluster.nodes.end() && it->first == name) candidates.emplace_back(&it->first, &it->second);
      }
    } else {
      for (const auto& [name, node] : cluster.nodes)
        if (flavor_selects(flavor, levels, node)) candidates.emplace_back(&name, &node);
    }
    auto used = node_usage.begin();  // candidates are in name order, and so is the usage
    local.reserve(candidates.size());  // the leaves point into it: no reallocation
    for (const auto& [name, node] : candidates) {
      while (used != node_usage.end() && used->first < *name) ++used;
      const ResourceAmounts* usage = used != node_usage.end() && used->first == *name ? &used->second : nullptr;
      local.push_back(evaluate_node(*name, *node, pod_set, per_pod, usage, hostname_leaf, levels));
      take(local.back());
    }
  }

  std::map<std::vector<std::string>, int32_t> placed;
  int32_t fit = 0;
  if (totals != nullptr) {
    ex = totals->excluded;
    fit = one_level_from_totals(*totals, *ranks, pod_set.count, required, placement, placed);
  } else if (required) {
    auto ds = domains_at(leaves, required_depth, {});
    const Domain* chosen = nullptr;
    for (const auto& d : ds) {
      fit = std::max(fit, d.pods);
      if (d.pods >= pod_set.count &&
          (chosen == nullptr || d.pods < chosen->pods || (d.pods == chosen->pods && d.values < chosen->values)))
        chosen = &d;
    }
    if (chosen != nullptr) distribute(leaves, required_depth + 1, levels.size(), chosen->values, pod_set.count, placement, placed);
  } else {
    for (const auto& l : leaves) fit += l.pods;
    if (fit >= pod_set.count &&
        !(levels.size() == 1 && distribute_one_level(leaves, pod_set.count, placement, placed)))
      distribute(leaves, 0, levels.size(), {}, pod_set.count, placement, placed);
  }
  if (placed.empty() && pod_set.count > 0) {
    const int32_t shown = std::min(fit, pod_set.count);
    out.message = "topology \"" + topology_name + "\" " +
                  (shown == 0 ? "doesn't allow to fit any of " + std::to_string(pod_set.count) + " pod(s)"
                              : "allows to fit only " + std::to_string(shown) + " out of " +
                                    std::to_string(pod_set.count) + " pod(s)");
    if (any_excluded(ex))
      out.message += ". Total nodes: " + std::to_string(ex.total) + "; excluded: " + format_exclusions(ex);
    return out;
  }
  TopologyAssignment ta;
  // Kueue keeps only the hostname level when the lowest level is kubernetes.io/hostname.
  const std::size_t first = hostname_leaf ? levels.size() - 1 : 0;
  ta.levels.assign(levels.begin() + static_cast<std::ptrdiff_t>(first), levels.end());
  for (const auto& [values, n] : placed) {
    if (n == 0) continue;
    ta.domains.push_back({std::vector<std::string>(values.begin() + static_cast<std::ptrdiff_t>(first), values.end()), n});
  }
  out.assignment = std::move(ta);
  return out;
}

}  // namespace chaintwin::model
