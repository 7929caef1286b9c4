#include "model/placement/typical_pods.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace chaintwin::model::placement {
namespace {

using ClassKey = std::tuple<int64_t, int32_t, int32_t, int32_t>;  // cpu, milli, gpus, spec

ClassKey key_of(const SharePod& p) { return {p.cpu, p.milli, p.gpus, p.spec}; }

}  // namespace

TargetWorkload typical_pods(const std::vector<SharePod>& pods, int32_t coverage_percent) {
  std::map<ClassKey, PodClass> by_key;
  for (const SharePod& p : pods) {
    PodClass& c = by_key[key_of(p)];
    if (c.count == 0) {
      c.shape = p;
      c.shape.memory = 0;
    }
    ++c.count;
  }
  std::vector<PodClass> sorted;
  sorted.reserve(by_key.size());
  for (auto& [key, c] : by_key) sorted.push_back(c);
  std::sort(sorted.begin(), sorted.end(), [](const PodClass& a, const PodClass& b) {
    if (a.count != b.count) return a.count > b.count;
    return key_of(a.shape) > key_of(b.shape);
  });
  TargetWorkload out;
  out.trace_classes = static_cast<int64_t>(sorted.size());
  const int64_t n = static_cast<int64_t>(pods.size());
  for (const PodClass& c : sorted) {
    if (out.total * 100 >= n * coverage_percent) break;
    out.classes.push_back(c);
    out.total += c.count;
  }
  return out;
}

}  // namespace chaintwin::model::placement
