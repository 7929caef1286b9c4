// TasLeafCache: what each Node of a TAS flavor offers one PodSet shape (how many of its Pods fit,
// or why the Node is excluded), kept between nominations so that a topology search after one Node
// changed re-evaluates that Node, not the whole pool.
//
// A Node's verdict for a shape depends on the Node (labels, allocatable), its TAS usage and the
// shape (per-Pod requests, nodeSelector, required affinity). The owner numbers every change to a
// Node or its usage with node_changed(flavor, position in the TasNodeIndex list); a verdict is
// reused while its Node's number is the one it was computed at. clear() drops everything (the
// index, a flavor or a Topology changed). With `verify` on, assign_topology also searches without
// the cache and records the first disagreement in mismatch() (the simulator's --verify).
//
// Kept by the simulator between cycles and passed to schedule_cycle (KeptCycleState), which uses it
// only against the kept usage snapshot. A plain value, deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace chaintwin::model {

struct TasNodeVerdict {
  enum class Excluded : uint8_t { kNone, kNodeSelector, kAffinity };
  Excluded excluded = Excluded::kNone;
  int32_t pods = 0;       // Pods of the shape that fit (when not excluded)
  std::string short_of;   // the first resource short of one Pod, when none fits
  std::vector<std::string> values;  // the Node's value of each Topology level, when Pods fit
};

class TasLeafCache {
 public:
  struct Shape {
    std::vector<uint64_t> computed_at;  // the Node's generation when its verdict was computed
    std::vector<TasNodeVerdict> verdicts;
  };

  void clear();
  void node_changed(const std::string& flavor, std::size_t position);
  // The generations of a flavor's Nodes, in TasNodeIndex order (`nodes` long).
  const std::vector<uint64_t>& generations(const std::string& flavor, std::size_t nodes);
  // The verdicts of one shape on one flavor (`nodes` long; none computed yet when new).
  Shape& shape(const std::string& flavor, const std::string& key, std::size_t nodes);

  bool verify = false;
  const std::string& mismatch() const { return mismatch_; }
  void note_mismatch(std::string what) {
    if (mismatch_.empty()) mismatch_ = std::move(what);
  }

 private:
  uint64_t counter_ = 1;  // generation 0 is "never computed"
  std::map<std::string, std::vector<uint64_t>> generations_;
  std::map<std::pair<std::string, std::string>, Shape> shapes_;
  std::string mismatch_;
};

}  // namespace chaintwin::model
