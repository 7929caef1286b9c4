#include "model/kueue/scheduler/tas_leaf_cache.h"

#include <algorithm>

namespace chaintwin::model {

bool TasExclusions::add(const TasNodeVerdict& v, int sign) {
  total += sign;
  if (v.offers_room()) return true;
  if (v.excluded == TasNodeVerdict::Excluded::kNodeSelector) {
    node_selector += sign;
  } else if (v.excluded == TasNodeVerdict::Excluded::kAffinity) {
    affinity += sign;
  } else {  // room for no Pod
    const auto it = resources.try_emplace(v.short_of, 0).first;
    if ((it->second += sign) == 0) resources.erase(it);
  }
  return false;
}

void FlavorValues::rerank() {
  std::vector<uint32_t> order(value.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return value[a] < value[b]; });
  rank.assign(value.size(), 0);
  first_with_rank.clear();
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || value[order[k]] != value[order[k - 1]]) first_with_rank.push_back(order[k]);
    rank[order[k]] = static_cast<uint32_t>(first_with_rank.size() - 1);
  }
}

void TasLeafCache::Shape::uncount(std::size_t i, const FlavorValues& values) {
  if (!counted[i]) return;
  counted[i] = 0;
  const TasNodeVerdict& v = verdicts[i];
  if (!totals.excluded.add(v, -1)) return;
  const uint32_t r = values.rank[i];
  totals.pods -= v.pods;
  totals.by_room.erase(totals.by_room.find({-v.pods, r}));
  if (--totals.value_uses[r] == 1) --totals.shared_values;
}

void TasLeafCache::Shape::count(std::size_t i, const FlavorValues& values) {
  counted[i] = 1;
  const TasNodeVerdict& v = verdicts[i];
  if (!totals.excluded.add(v, 1)) return;
  const uint32_t r = values.rank[i];
  totals.pods += v.pods;
  totals.by_room.insert({-v.pods, r});
  if (totals.value_uses.size() <= r) totals.value_uses.resize(values.first_with_rank.size(), 0);
  if (++totals.value_uses[r] == 2) ++totals.shared_values;
}

void TasLeafCache::Shape::recount(std::size_t i, TasNodeVerdict next, const FlavorValues& values) {
  const TasNodeVerdict& prev = verdicts[i];
  // A verdict with room counts towards the exclusions' total only (TasExclusions::add), and its
  // place in the order is its position's rank, so two of them differ in the Pods that fit and in
  // nothing else the totals hold.
  if (!counted[i] || !prev.offers_room() || !next.offers_room()) {
    uncount(i, values);
    verdicts[i] = std::move(next);
    count(i, values);
    return;
  }
  if (prev.pods != next.pods) {
    const uint32_t r = values.rank[i];
    totals.pods += next.pods - prev.pods;
    auto moved = totals.by_room.extract(totals.by_room.find({-prev.pods, r}));
    moved.value().first = -next.pods;
    totals.by_room.insert(std::move(moved));
  }
  verdicts[i] = std::move(next);
}

void TasLeafCache::Shape::recount_room(std::size_t i, int32_t pods, const FlavorValues& values) {
  TasNodeVerdict& v = verdicts[i];
  if (v.pods == pods) return;
  const uint32_t r = values.rank[i];
  totals.pods += pods - v.pods;
  auto moved = totals.by_room.extract(totals.by_room.find({-v.pods, r}));
  moved.value().first = -pods;
  totals.by_room.insert(std::move(moved));
  v.pods = pods;
}

void TasLeafCache::Shape::rekey(const FlavorValues& values) {
  if (ranked_at == values.epoch) return;
  ranked_at = values.epoch;
  totals.by_room.clear();
  totals.value_uses.assign(values.first_with_rank.size(), 0);
  totals.shared_values = 0;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (!counted[i] || !verdicts[i].offers_room()) continue;
    const uint32_t r = values.rank[i];
    totals.by_room.insert({-verdicts[i].pods, r});
    if (++totals.value_uses[r] == 2) ++totals.shared_values;
  }
}

void TasLeafCache::clear() {
  for (FlavorNodes& f : flavors_) f = FlavorNodes{};
}

uint32_t TasLeafCache::flavor_index(const std::string& flavor) {
  if (const uint32_t* known = flavor_ids_.find(flavor)) return *known;
  const auto index = static_cast<uint32_t>(flavors_.size());
  flavor_ids_.emplace(flavor, index);
  flavors_.emplace_back();
  return index;
}

void TasLeafCache::node_changed(const std::string& flavor, std::size_t position, NodeChange what) {
  if (const uint32_t* known = flavor_ids_.find(flavor)) node_changed(*known, position, what);
}

void TasLeafCache::node_changed(uint32_t flavor_index, std::size_t position, NodeChange what) {
  if (flavor_index >= flavors_.size() || position >= flavors_[flavor_index].generations.size())
    return;  // nothing cached for it yet
  FlavorNodes& f = flavors_[flavor_index];
  f.generations[position] = ++counter_;
  if (what == NodeChange::kAny || (what == NodeChange::kVolatileLabels && is_volatile_ == nullptr))
    f.label_generations[position] = counter_;
  else if (what == NodeChange::kVolatileLabels)
    f.volatile_generations[position] = counter_;
  f.log.push_back(position);
  // Trimmed once it outgrows the pool: a shape behind the trim scans every position again.
  if (f.log.size() > 2 * f.generations.size() + 256) {
    f.log_base += f.log.size();
    f.log.clear();
  }
}

const std::vector<uint64_t>& TasLeafCache::generations(const std::string& flavor, std::size_t nodes) {
  return generations(flavor_index(flavor), nodes);
}

const std::vector<uint64_t>& TasLeafCache::generations(uint32_t flavor, std::size_t nodes) {
  FlavorNodes& f = flavors_[flavor];
  if (f.generations.size() != nodes) {
    // A list of another length is another index: start over for this flavor.
    f.generations.assign(nodes, ++counter_);
    f.label_generations.assign(nodes, counter_);
    f.volatile_generations.assign(nodes, counter_);
    f.values.value.assign(nodes, std::string());
    f.values.rerank();
    f.values.epoch = ++value_epochs_;
    f.log_base += f.log.size() + 1;  // every shape of the flavor scans again
    f.log.clear();
    f.shapes.clear();
  }
  return f.generations;
}

TasLeafCache::Shape& TasLeafCache::shape(const std::string& flavor, const std::string& key, std::size_t nodes) {
  return shape(flavor_index(flavor), key, nodes);
}

TasLeafCache::Shape& TasLeafCache::shape(uint32_t flavor, const std::string& key, std::size_t nodes) {
  FlavorNodes& f = flavors_[flavor];
  Shape& s = *f.shapes.try_emplace(key).first;
  if (s.verdicts.size() != nodes) {
    s = Shape{};
    s.computed_at.assign(nodes, 0);
    s.verdicts.assign(nodes, {});
    s.counted.assign(nodes, 0);
    s.ranked_at = f.values.epoch;  // nothing counted: keyed by any ranks
  }
  return s;
}

std::vector<StalePosition> TasLeafCache::stale_positions(const std::string& flavor, Shape& shape) {
  return stale_positions(flavor_index(flavor), shape);
}

std::vector<StalePosition> TasLeafCache::stale_positions(uint32_t flavor, Shape& shape) {
  std::vector<StalePosition> out;
  const FlavorNodes& f = flavors_[flavor];
  const auto take = [&](std::size_t i) {
    if (i >= f.generations.size() || shape.computed_at[i] == f.generations[i]) return;
    // Generations only grow: a label change at or before the verdict's computation is one it read.
    const uint64_t computed = shape.computed_at[i];
    out.push_back({i, computed != 0 && f.label_generations[i] <= computed &&
                          (!shape.reads_volatile_labels || f.volatile_generations[i] <= computed)});
    shape.computed_at[i] = f.generations[i];  // once per position, however often it changed
  };
  const uint64_t end = f.log_base + f.log.size();
  if (!shape.scanned || shape.log_seen < f.log_base) {
    for (std::size_t i = 0; i < shape.computed_at.size(); ++i) take(i);
    shape.scanned = true;
  } else {
    for (uint64_t at = shape.log_seen; at < end; ++at) take(f.log[static_cast<std::size_t>(at - f.log_base)]);
  }
  shape.log_seen = end;
  return out;
}

const FlavorValues& TasLeafCache::values(const std::string& flavor) {
  return flavors_[flavor_index(flavor)].values;
}

const FlavorValues& TasLeafCache::note_values(uint32_t flavor,
                                              const std::vector<std::pair<std::size_t, TasNodeVerdict>>& fresh) {
  FlavorValues& values = flavors_[flavor].values;
  bool moved = false;
  for (const auto& [i, v] : fresh) {
    if (!v.offers_room() || v.values.empty() || i >= values.value.size() || values.value[i] == v.values.front())
      continue;
    values.value[i] = v.values.front();
    moved = true;
  }
  if (moved) {
    values.rerank();
    values.epoch = ++value_epochs_;
  }
  return values;
}

void TasLeafCache::index_nodes(const std::map<std::string, std::vector<std::string>>& index) {
  node_positions_.clear();
  for (const auto& [flavor, names] : index) {
    const uint32_t f = flavor_index(flavor);
    for (std::size_t i = 0; i < names.size(); ++i)
      node_positions_.try_emplace(names[i]).first->emplace_back(f, static_cast<uint32_t>(i));
  }
  indexed_ = &index;
}

void TasLeafCache::node_changed(std::string_view node, NodeChange what) {
  if (const auto* at = node_positions_.find(node))
    for (const auto& [f, i] : *at) node_changed(f, i, what);
}

}  // namespace chaintwin::model
