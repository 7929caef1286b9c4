// The paper's best-fit and FGD scores (model/placement/node_scores.h) on hand-computed Nodes, the
// sigmoid's integer thresholds, and the scheduler's choice among Nodes (share_scheduler.h): highest
// score, ties to the lowest rank, nothing bound when nothing fits, the kept fragment current.
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

#include "model/placement/fragmentation.h"
#include "model/placement/node_scores.h"
#include "model/placement/share_scheduler.h"
#include "tests/model/placement/share_builders.h"

namespace {

using chaintwin::test::node;
using chaintwin::test::pod;

using namespace chaintwin::model::placement;



TargetWorkload one_class(SharePod shape) {
  TargetWorkload t;
  t.classes = {{shape, 1}};
  t.total = 1;
  return t;
}

}  // namespace

TEST_CASE("best-fit scores the CPU and GPU a Node would have left and picks the tightest card", "[placement][score]") {
  struct Case {
    const char* what;
    ShareNode n;
    SharePod p;
    int64_t score;
    std::vector<int32_t> cards;
  };
  const std::vector<Case> cases{
      // (1 − (½·60000/128000 + ½·2550/8000))·100 = 60.625
      {"a share goes to the card with the least room that holds it", node(64000, {1000, 1000, 500, 300}), pod(4000, 1, 250), 60,
       {3}},
      // (1 − (½·60000/128000 + ½·1500/8000))·100 = 67.19
      {"equal room goes to the lower card", node(64000, {400, 1000, 400}), pod(4000, 1, 300), 67, {0}},
      // (1 − (½·0 + ½·0))·100: nothing left at all
      {"a pod that fills the Node scores 100", node(8000, {1000, 1000}), pod(8000, 2, 1000), 100, {0, 1}},
      // (1 − (½·128000/128000 + ½·1500/8000))·100 = 40.63
      {"whole cards are the lowest free ones", node(128000, {500, 1000, 1000, 1000}), pod(0, 2, 1000), 40, {1, 2}},
      // (1 − (½·128000/128000 + ½·8000/8000))·100 = 0: an empty 8-card Node for a CPU-only pod taking nothing
      {"an empty largest Node scores 0 for a pod asking nothing of it", node(128000, std::vector<int32_t>(8, 1000)),
       pod(0, 0, 0), 0, {}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const NodeScore s = best_fit_score(c.n, c.p);
    CHECK(s.score == c.score);
    CHECK(s.cards == c.cards);
  }
}

TEST_CASE("the sigmoid score is the truncated percentage of the logistic of the fragment change", "[placement][score]") {
  const SigmoidScore one(1);  // Δ in milli-GPU
  struct Case {
    int64_t delta, score;
  };
  // ⌊100·σ(Δ/1000)⌋: σ(0) = ½; 1000·ln(51/49) = 40.005; 1000·ln(57/43) = 281.85, ln(58/42) → 322.77
  const std::vector<Case> cases{{0, 50},   {40, 50},    {41, 51},   {281, 56},   {282, 57},  {322, 57},
                                {323, 58}, {-300, 42},  {-1, 49},   {8000, 99},  {-8000, 0}, {1000000, 99}};
  for (const Case& c : cases) {
    INFO(c.delta);
    CHECK(one(c.delta) == c.score);
  }
  // A target of 7 classes-worth of pods scales Δ by 7: the same fragment change, the same score.
  const SigmoidScore seven(7);
  for (const Case& c : cases) CHECK(seven(c.delta * 7) == c.score);
}

TEST_CASE("FGD takes the share from the card that leaves the least fragment, best-fit from the tightest", "[placement][score]") {
  // Class: shares of 600. Cards 1000 and 700, a share of 400: from card 0 both cards still hold a
  // 600 share (no fragment, Δ 0, score 50); from card 1 the 300 left is fragment (Δ −300, score 42).
  const TargetWorkload target = one_class(pod(1000, 1, 600));
  const SigmoidScore sigmoid(target.total);
  const ShareNode n = node(32000, {1000, 700});
  const NodeScore fgd = fgd_score(n, pod(1000, 1, 400), target, sigmoid);
  CHECK(fgd.score == 50);
  CHECK(fgd.cards == std::vector<int32_t>{0});
  CHECK(best_fit_score(n, pod(1000, 1, 400)).cards == std::vector<int32_t>{1});

  // Class: shares of 500; cards 1000 and 300, a share of 300: card 1 empties the fragment (Δ 300, 57).
  const TargetWorkload t2 = one_class(pod(1000, 1, 500));
  const NodeScore s2 = fgd_score(node(32000, {1000, 300}), pod(1000, 1, 300), t2, SigmoidScore(1));
  CHECK(s2.score == 57);
  CHECK(s2.cards == std::vector<int32_t>{1});

  // A whole card: the lowest free one, scored by the fragment it leaves (class of whole cards:
  // the 500 left on card 0 was fragment before and is after; Δ 0).
  const TargetWorkload t3 = one_class(pod(1000, 1, 1000));
  const NodeScore s3 = fgd_score(node(32000, {500, 1000, 1000}), pod(1000, 1, 1000), t3, SigmoidScore(1));
  CHECK(s3.score == 50);
  CHECK(s3.cards == std::vector<int32_t>{1});
}

TEST_CASE("the scheduler takes the highest score, breaks ties by rank and binds nothing when nothing fits",
          "[placement][scheduler]") {
  const TargetWorkload target = one_class(pod(1000, 1, 500));
  std::vector<ShareNode> nodes{node(32000, {1000, 1000}), node(32000, {1000, 1000}), node(32000, {1000, 300})};
  SECTION("best-fit: the fullest Node wins; among equals the lowest rank") {
    ShareScheduler s(nodes, target, {2, 0, 1}, PlacementPolicy::kBestFit);
    const auto first = s.place(pod(1000, 1, 200));
    REQUIRE(first);
    CHECK(first->node == 2);  // least GPU left after
    CHECK(first->cards == std::vector<int32_t>{1});
    const auto whole = s.place(pod(1000, 2, 1000));
    REQUIRE(whole);
    CHECK(whole->node == 1);  // Nodes 0 and 1 tie; Node 1 has rank 0
  }
  SECTION("a pod no Node holds is refused and changes nothing") {
    ShareScheduler s(nodes, target, {0, 1, 2}, PlacementPolicy::kFgd);
    const int64_t idle = s.idle_milli(), fragment = s.fragment();
    CHECK_FALSE(s.place(pod(1000, 3, 1000)));
    CHECK_FALSE(s.place(pod(64000, 1, 100)));
    CHECK(s.idle_milli() == idle);
    CHECK(s.fragment() == fragment);
  }
  SECTION("the kept idle GPU and fragment follow every placement") {
    for (const PlacementPolicy policy : {PlacementPolicy::kBestFit, PlacementPolicy::kFgd}) {
      ShareScheduler s(nodes, target, {1, 2, 0}, policy);
      for (const SharePod& p : {pod(1000, 1, 300), pod(1000, 1, 300), pod(2000, 1, 1000), pod(500, 0, 0),
                                pod(1000, 1, 700), pod(1000, 1, 200)}) {
        s.place(p);
        int64_t idle = 0, fragment = 0;
        for (const ShareNode& n : s.nodes()) {
          idle += n.idle_milli();
          fragment += node_fragment(n, target);
        }
        CHECK(s.idle_milli() == idle);
        CHECK(s.fragment() == fragment);
      }
    }
  }
}

TEST_CASE("FGD's kept scores give the choices a fresh scoring gives", "[placement][scheduler]") {
  // Same pods through a scheduler that keeps its scores and through fresh ones rebuilt each time.
  TargetWorkload target;
  target.classes = {{pod(1000, 1, 500), 3}, {pod(4000, 1, 1000), 2}, {pod(2000, 0, 0), 1}, {pod(1000, 1, 250), 2}};
  target.total = 8;
  std::vector<ShareNode> nodes;
  for (int i = 0; i < 6; ++i) nodes.push_back(node(16000 + 4000 * i, std::vector<int32_t>(static_cast<size_t>(1 + i % 4), 1000)));
  std::vector<int32_t> rank(nodes.size());
  std::iota(rank.begin(), rank.end(), 0);
  ShareScheduler kept(nodes, target, rank, PlacementPolicy::kFgd);
  const std::vector<SharePod> pods{pod(1000, 1, 500), pod(1000, 1, 250), pod(4000, 1, 1000), pod(1000, 1, 500),
                                   pod(2000, 0, 0),   pod(1000, 1, 250), pod(1000, 1, 750),  pod(4000, 2, 1000),
                                   pod(1000, 1, 500), pod(1000, 1, 250), pod(1000, 1, 500),  pod(1000, 1, 100)};
  std::vector<ShareNode> state = nodes;
  for (const SharePod& p : pods) {
    ShareScheduler fresh(state, target, rank, PlacementPolicy::kFgd);
    const auto want = fresh.place(p);
    const auto got = kept.place(p);
    REQUIRE(want.has_value() == got.has_value());
    if (!got) continue;
    CHECK(got->node == want->node);
    CHECK(got->cards == want->cards);
    state = kept.nodes();
  }
}
