// The runner's bucket indexes: keys kept per bucket (the Workloads holding quota per ClusterQueue),
// a bucket dropped once it is empty so that a walk over the index sees live ones only.
#pragma once

#include <string>

namespace chaintwin::sim {

// Takes `key` out of `index[bucket]`, dropping the bucket once it is empty.
template <typename Index>
void erase_from(Index& index, const std::string& bucket, const std::string& key) {
  const auto it = index.find(bucket);
  if (it == index.end()) return;
  it->second.erase(key);
  if (it->second.empty()) index.erase(it);
}

}  // namespace chaintwin::sim
