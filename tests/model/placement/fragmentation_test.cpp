// The openb paper's fragmentation measure and target workload (model/placement/fragmentation.h,
// typical_pods.h) on hand-computed Nodes, and the per-card shortcut the FGD score uses against the
// full computation.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "model/placement/fragmentation.h"
#include "model/placement/typical_pods.h"
#include "tests/model/placement/share_builders.h"

namespace {

using chaintwin::test::node;
using chaintwin::test::pod;

using namespace chaintwin::model::placement;



}  // namespace

TEST_CASE("a class's fragment is the idle GPU unless it fits, and then the cards too small for it", "[placement][frag]") {
  const ShareNode n = node(10000, {1000, 600, 200});  // 1,800 milli-GPU idle
  struct Case {
    const char* what;
    SharePod shape;
    int64_t fragment;
  };
  const std::vector<Case> cases{
      {"a CPU-only class counts all idle GPU, though it fits", pod(2000, 0, 0), 1800},
      {"a share that fits leaves only the card smaller than it", pod(4000, 1, 500), 200},
      {"a share larger than every partly used card leaves both", pod(4000, 1, 700), 800},
      {"a whole card that fits leaves every partly used card", pod(4000, 1, 1000), 800},
      {"a class short of CPU counts all idle GPU", pod(20000, 1, 1000), 1800},
      {"a class asking for more free cards than there are counts all idle GPU", pod(4000, 2, 1000), 1800},
      {"a class whose gpu_spec excludes the Node's model counts all idle GPU", pod(4000, 1, 500, uint64_t{1} << 3), 1800},
      {"a class whose gpu_spec names the Node's model is read as fitting", pod(4000, 1, 500, 1), 200},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(class_fragment(n, c.shape) == c.fragment);
  }
}

TEST_CASE("a Node's fragment weighs each class by its count", "[placement][frag]") {
  TargetWorkload target;
  target.classes = {{pod(2000, 0, 0), 2}, {pod(4000, 1, 500), 3}, {pod(20000, 1, 1000), 1}, {pod(4000, 2, 1000), 1}};
  target.total = 7;
  // 2 × 1800 + 3 × 200 + 1800 + 1800
  CHECK(node_fragment(node(10000, {1000, 600, 200}), target) == 7800);
  // A Node without idle GPU has no fragment, whatever fits.
  CHECK(node_fragment(node(10000, {0, 0}), target) == 0);
}

TEST_CASE("the fragment after taking one card's share is what the full measure gives", "[placement][frag]") {
  TargetWorkload target;
  target.classes = {{pod(2000, 0, 0), 5}, {pod(8000, 1, 250), 4}, {pod(4000, 1, 500), 3},
                    {pod(12000, 1, 1000), 2}, {pod(6000, 2, 1000), 1}, {pod(3000, 1, 700, 2), 1}};
  target.total = 16;
  const std::vector<int32_t> lefts{0, 100, 250, 300, 499, 500, 700, 1000};
  int checked = 0;
  for (const int64_t cpu : {3000, 9000, 30000})
    for (const int32_t model : {0, 1})
      for (size_t a = 0; a < lefts.size(); ++a)
        for (size_t b = 0; b < lefts.size(); b += 3) {
          const ShareNode n = node(cpu, {lefts[a], lefts[b], 1000, 400}, model);
          const NodeFragmentParts parts(n, target);
          REQUIRE(parts.total() == node_fragment(n, target));
          for (int32_t card = 0; card < 4; ++card)
            for (const int32_t milli : {100, 250, 500}) {
              if (n.gpu_left[static_cast<size_t>(card)] < milli) continue;
              ShareNode after = n;
              after.cpu_left -= 2000;
              after.gpu_left[static_cast<size_t>(card)] -= milli;
              CHECK(parts.after_taking(2000, card, milli) == node_fragment(after, target));
              ++checked;
            }
        }
  CHECK(checked > 300);
}

TEST_CASE("the target workload keeps the most common classes until they cover the share asked", "[placement][frag]") {
  std::vector<SharePod> pods;
  const auto add = [&](SharePod p, int n, int64_t memory) {
    for (int i = 0; i < n; ++i) {
      p.memory = memory + i;  // memory is not part of a class
      pods.push_back(p);
    }
  };
  add(pod(1000, 1, 500), 5, 100);
  add(pod(2000, 0, 0), 3, 200);    // ties with the next on count; the larger CPU goes first
  add(pod(1000, 1, 1000), 3, 300);
  add(pod(9000, 8, 1000), 1, 400);
  struct Case {
    int32_t coverage;
    std::vector<int64_t> counts;  // of the kept classes, in order
    int64_t first_cpu_after_top;
  };
  const std::vector<Case> cases{
      {60, {5, 3}, 2000},       // 5 < 7.2, 8 ≥ 7.2
      {80, {5, 3, 3}, 2000},    // 8 < 9.6, 11 ≥ 9.6
      {95, {5, 3, 3, 1}, 2000}, // 11 < 11.4
      {40, {5}, 0},             // 5 ≥ 4.8
  };
  for (const Case& c : cases) {
    INFO(c.coverage);
    const TargetWorkload t = typical_pods(pods, c.coverage);
    std::vector<int64_t> counts;
    int64_t total = 0;
    for (const PodClass& k : t.classes) {
      counts.push_back(k.count);
      total += k.count;
      CHECK(k.shape.memory == 0);
    }
    CHECK(counts == c.counts);
    CHECK(t.total == total);
    CHECK(t.trace_classes == 4);
    if (t.classes.size() > 1) CHECK(t.classes[1].shape.cpu == c.first_cpu_after_top);
  }
}
