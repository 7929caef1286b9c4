#include "model/kueue/scheduler/tas_leaf_cache.h"

namespace chaintwin::model {

void TasLeafCache::clear() {
  generations_.clear();
  shapes_.clear();
}

void TasLeafCache::node_changed(const std::string& flavor, std::size_t position) {
  auto it = generations_.find(flavor);
  if (it == generations_.end() || position >= it->second.size()) return;  // nothing cached for it yet
  it->second[position] = ++counter_;
}

const std::vector<uint64_t>& TasLeafCache::generations(const std::string& flavor, std::size_t nodes) {
  auto& g = generations_[flavor];
  if (g.size() != nodes) {
    // A list of another length is another index: start over for this flavor.
    g.assign(nodes, ++counter_);
    for (auto it = shapes_.begin(); it != shapes_.end();) {
      if (it->first.first == flavor) it = shapes_.erase(it);
      else ++it;
    }
  }
  return g;
}

TasLeafCache::Shape& TasLeafCache::shape(const std::string& flavor, const std::string& key, std::size_t nodes) {
  Shape& s = shapes_[{flavor, key}];
  if (s.verdicts.size() != nodes) {
    s.computed_at.assign(nodes, 0);
    s.verdicts.assign(nodes, {});
  }
  return s;
}

}  // namespace chaintwin::model
