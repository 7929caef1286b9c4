// The runner's bucket indexes: the keys kept per bucket (Workloads per ClusterQueue or per Node), a
// bucket dropped once it is empty so that a walk over the index sees live ones only.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace chaintwin::sim {

using BucketIndex = std::map<std::string, std::set<std::string>>;

// The same, for buckets that are only looked up (never walked in bucket order).
using HashedBucketIndex = std::unordered_map<std::string, std::set<std::string>>;

// Takes `key` out of `index[bucket]`, dropping the bucket once it is empty.
template <typename Index>
void erase_from(Index& index, const std::string& bucket, const std::string& key) {
  const auto it = index.find(bucket);
  if (it == index.end()) return;
  it->second.erase(key);
  if (it->second.empty()) index.erase(it);
}

}  // namespace chaintwin::sim
