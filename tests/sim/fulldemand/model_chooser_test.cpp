// The full-demand chain runs' model chooser (sim/fulldemand/model_chooser.h) on hand-built pools:
// a pool's room for a pod, and which pool each chooser picks.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sim/fulldemand/model_chooser.h"
#include "tests/model/placement/share_builders.h"

namespace {

using chaintwin::test::node;
using chaintwin::test::pod;

using namespace chaintwin;
using model::placement::ShareNode;
using model::placement::SharePod;



}  // namespace

TEST_CASE("a Node's room is the pods of the shape its cards and CPU still take", "[fulldemand][chooser]") {
  struct Case {
    const char* what;
    ShareNode n;
    SharePod p;
    int64_t room;
  };
  const std::vector<Case> cases{
      {"shares fill each card on its own", node(64000, {1000, 700, 250}, 0), pod(1000, 1, 300), 3 + 2 + 0},
      {"whole cards come in sets of the pod's count", node(64000, {1000, 1000, 1000, 500}, 0), pod(1000, 2, 1000), 1},
      {"the CPU caps the room", node(8000, {1000, 1000, 1000, 1000}, 0), pod(3000, 1, 1000), 2},
      {"a Node short of CPU for one pod has none", node(8000, {1000}, 0), pod(12000, 1, 1000), 0},
      {"a Node without cards has none", node(64000, {}, 0), pod(1000, 1, 500), 0},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(sim::room_for(c.n, c.p) == c.room);
  }
}

TEST_CASE("each chooser picks its pool among those of the models the pod allows", "[fulldemand][chooser]") {
  // Pool 0: model 0, room 6 for a 1-card pod; pool 1: model 1, room 1; pool 2: model 1, room 0;
  // pool 3: model 2, room 3 but not allowed when the pod names models 0 and 1.
  const std::vector<ShareNode> state{node(64000, {1000, 1000, 1000, 1000}, 0), node(64000, {1000, 1000}, 0),
                                     node(64000, {1000, 0}, 1), node(64000, {0, 0}, 1),
                                     node(64000, {1000, 1000, 1000}, 2)};
  const std::vector<sim::ChooserPool> pools{{"it-a", 0, {0, 1}, 6}, {"it-b", 1, {2}, 2}, {"it-c", 1, {3}, 2},
                                            {"it-d", 2, {4}, 3}};
  sim::RandomStream random(1, 0, "test");
  const SharePod any = pod(1000, 1, 1000);
  const SharePod named = pod(1000, 1, 1000, 0b011);
  CHECK(sim::choose_pool(state, any, pools, sim::ModelChooser::kMostFree, random) == 0);
  CHECK(sim::choose_pool(state, any, pools, sim::ModelChooser::kBestFit, random) == 1);  // room 1 beats 3 and 6
  CHECK(sim::choose_pool(state, named, pools, sim::ModelChooser::kBestFit, random) == 1);
  // Only models 2: pool 3.
  CHECK(sim::choose_pool(state, pod(1000, 1, 1000, 0b100), pools, sim::ModelChooser::kMostFree, random) == 3);
  // A model no pool has: none.
  CHECK(sim::choose_pool(state, pod(1000, 1, 1000, 0b1000), pools, sim::ModelChooser::kMostFree, random) == -1);
  // No pool takes it now (8 cards): best-fit falls back to the most room (all 0: the first allowed).
  CHECK(sim::choose_pool(state, pod(1000, 8, 1000), pools, sim::ModelChooser::kBestFit, random) == 0);

  // Proportional: by cards (6, 2, 2, 3 of 13), whatever the room; over many draws near those shares.
  std::map<int32_t, int> counts;
  for (int i = 0; i < 13000; ++i) ++counts[sim::choose_pool(state, any, pools, sim::ModelChooser::kProportional, random)];
  CHECK(counts[0] == Approx(6000).epsilon(0.05));
  CHECK(counts[1] == Approx(2000).epsilon(0.08));
  CHECK(counts[2] == Approx(2000).epsilon(0.08));
  CHECK(counts[3] == Approx(3000).epsilon(0.06));
  // Proportional over the allowed pools only.
  counts.clear();
  for (int i = 0; i < 1000; ++i) ++counts[sim::choose_pool(state, named, pools, sim::ModelChooser::kProportional, random)];
  CHECK(counts.count(3) == 0);
}

TEST_CASE("the chooser's names", "[fulldemand][chooser]") {
  CHECK(sim::model_chooser_named("most-free") == sim::ModelChooser::kMostFree);
  CHECK(sim::model_chooser_named("best-fit") == sim::ModelChooser::kBestFit);
  CHECK(sim::model_chooser_named("proportional") == sim::ModelChooser::kProportional);
  CHECK(sim::model_chooser_named("default-model") == sim::ModelChooser::kDefaultModel);
  CHECK_FALSE(sim::model_chooser_named("random").has_value());
}
