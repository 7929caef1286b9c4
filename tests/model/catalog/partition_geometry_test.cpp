#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/catalog/mig_catalog.h"
#include "model/catalog/partition_geometry.h"

using namespace chaintwin::model;

namespace {

PartitionGeometry geometry(const char* key) {
  const auto* model = find_catalog_model(key);
  REQUIRE(model != nullptr);
  return geometry_from_catalog(*model);
}

std::vector<LiveInstance> live(std::initializer_list<const char*> specs) {
  std::vector<LiveInstance> out;
  for (const char* s : specs) {
    const auto parsed = parse_live_instance(s);
    REQUIRE(parsed.ok());
    out.push_back(*parsed);
  }
  return out;
}

std::map<std::string, int32_t> remaining(const CardPartitionView& view) {
  std::map<std::string, int32_t> out;
  for (const auto& p : view.profiles)
    if (p.offered) out[p.published] = p.remaining;
  return out;
}

}  // namespace

TEST_CASE("a 3g.40gb at slot 0 leaves 7g.80gb at 0 and kills the only 4g slot", "[partition_geometry]") {
  const auto view = card_partition_view(geometry("H100-80GB"), live({"3g.40gb@0"}));
  REQUIRE(view.ok());
  const std::map<std::string, int32_t> want{{"1g.10gb", 3}, {"1g.20gb", 2}, {"2g.20gb", 1},
                                            {"3g.40gb", 1}, {"4g.40gb", 0}, {"7g.80gb", 0}};
  CHECK(remaining(*view) == want);
  CHECK(view->find("3g.40gb")->allocated_plus_remaining() == 2);
  CHECK(view->pool_contribution() == 4);
  CHECK(view->pt_remaining() == 3);
}

TEST_CASE("the same 3g at slot 4 keeps the 4g", "[partition_geometry]") {
  const auto view = card_partition_view(geometry("H100-80GB"), live({"3g.40gb@4"}));
  REQUIRE(view.ok());
  const std::map<std::string, int32_t> want{{"1g.10gb", 4}, {"1g.20gb", 2}, {"2g.20gb", 2},
                                            {"3g.40gb", 1}, {"4g.40gb", 1}, {"7g.80gb", 0}};
  CHECK(remaining(*view) == want);
}

TEST_CASE("3g+3g+1g does not fit on one 8-slice card", "[partition_geometry]") {
  const auto g = geometry("A100-SXM4-40GB");
  const auto two = live({"3g.20gb@0", "3g.20gb@4"});
  REQUIRE(validate_instances(g, two).ok());
  const auto start = choose_start(g, two, "1g.5gb");
  CHECK_FALSE(start.ok());
  CHECK(start.error().find("overlaps a live instance") != std::string::npos);
  for (int s = 0; s <= 6; ++s) {
    auto three = two;
    three.push_back({"1g.5gb", s});
    CHECK_FALSE(validate_instances(g, three).ok());
  }
}

TEST_CASE("fragmented free slices do not host a 3g even though five slices are free", "[partition_geometry]") {
  const auto view = card_partition_view(geometry("H100-80GB"), live({"1g.10gb@0", "1g.10gb@1", "1g.10gb@5"}));
  REQUIRE(view.ok());
  CHECK(view->find("3g.40gb")->remaining == 0);
  CHECK(view->find("1g.10gb")->remaining == 4);
}

TEST_CASE("illegal live sets are refused with the reason", "[partition_geometry]") {
  struct Row {
    const char* key;
    std::vector<LiveInstance> live;
    const char* reason;
  };
  const std::vector<Row> rows{
      {"H100-80GB", {{"3g.40gb", 2}}, "cannot start at memory slice 2 (legal starts: 0, 4)"},
      {"H100-80GB", {{"1g.10gb", 7}}, "cannot start at memory slice 7"},
      {"H100-80GB", {{"2g.20gb", 6}}, "cannot start at memory slice 6"},
      {"H100-80GB", {{"4g.40gb", 0}, {"1g.10gb", 3}}, "overlaps 4g.40gb@0"},
      {"H100-80GB", {{"3g.41gb", 0}}, "unknown partition profile '3g.41gb' (known: 1g.10gb"},
      {"H100-80GB", {{"1g.10gb+me", 0}, {"1g.10gb+me", 1}}, "exceed its limit of 1"},
      {"A30-24GB", {{"1g.6gb+me", 0}, {"2g.12gb+me", 2}}, "media engine"},
  };
  for (const auto& row : rows) {
    INFO(row.key << " " << row.reason);
    const auto st = validate_instances(geometry(row.key), row.live);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().find(row.reason) != std::string::npos);
  }
}

TEST_CASE("a live +me instance takes every media-engine profile to zero but still occupies its slice",
          "[partition_geometry]") {
  const auto view = card_partition_view(geometry("A30-24GB"), live({"1g.6gb+me@0"}));
  REQUIRE(view.ok());
  CHECK(view->find("1g.6gb+me")->remaining == 0);
  CHECK(view->find("2g.12gb+me")->remaining == 0);
  CHECK(view->find("1g.6gb")->remaining == 3);
  CHECK(view->find("2g.12gb")->remaining == 1);
  CHECK(view->allocated_total == 0);  // +me is not offered, so not in the pool's allocated term
}

TEST_CASE("a card whose ledger is not ready advertises its static ceiling", "[partition_geometry]") {
  const auto g = geometry("H100-80GB");
  const auto ceiling = card_view_from_ledger(g, nullptr);
  REQUIRE(ceiling.ok());
  CHECK_FALSE(ceiling->from_ledger);
  CHECK(ceiling->find("1g.10gb")->remaining == 7);
  CHECK(ceiling->find("4g.40gb")->remaining == 1);
  CHECK(ceiling->pt_remaining() == 7);

  AcceleratorAllocation row;
  row.id = "GPU-0";
  row.allocated_profiles = {{"3g.40gb", 1}};
  row.instances = {{"3g.40gb", {0, 4}}};
  const auto ledger = card_view_from_ledger(g, &row);
  REQUIRE(ledger.ok());
  CHECK(ledger->from_ledger);
  CHECK(ledger->find("4g.40gb")->remaining == 0);

  row.instances = {{"3g.40gb", {0, 3}}};
  const auto wrong = card_view_from_ledger(g, &row);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().find("spans 3 memory slices") != std::string::npos);
}

TEST_CASE("eight H100s with one 3g publish 53 pool tokens and 52 PT remaining", "[partition_geometry]") {
  const auto g = geometry("H100-80GB");
  std::vector<CardPartitionView> cards;
  for (int i = 0; i < 8; ++i) {
    const auto v = card_partition_view(g, i == 0 ? live({"3g.40gb@0"}) : std::vector<LiveInstance>{});
    REQUIRE(v.ok());
    cards.push_back(*v);
  }
  const auto s = summarize_partitioned_cards(cards);
  const std::map<std::string, int32_t> keys{{"1g.10gb", 52}, {"1g.20gb", 30}, {"2g.20gb", 22},
                                            {"3g.40gb", 16}, {"4g.40gb", 7},  {"7g.80gb", 7}};
  CHECK(s.per_profile == keys);
  CHECK(s.pool == 53);
  CHECK(s.pt_remaining == 52);
  CHECK(s.pt_capacity == 56);
  CHECK(s.once_max_request == 1);
}

TEST_CASE("a new instance takes the lowest free legal start", "[partition_geometry]") {
  const auto g = geometry("H100-80GB");
  struct Row {
    std::vector<LiveInstance> live;
    const char* profile;
    int32_t start;
  };
  const std::vector<Row> rows{
      {{}, "1g.10gb", 0},
      {{{"1g.10gb", 0}}, "2g.20gb", 2},
      {{{"3g.40gb", 0}}, "3g.40gb", 4},
      {{{"2g.20gb", 0}, {"2g.20gb", 2}, {"2g.20gb", 4}}, "1g.20gb", 6},
  };
  for (const auto& row : rows) {
    const auto start = choose_start(g, row.live, row.profile);
    INFO(row.profile);
    REQUIRE(start.ok());
    CHECK(*start == row.start);
  }
  CHECK_FALSE(choose_start(g, {{"3g.40gb", 4}, {"1g.10gb", 0}}, "4g.40gb").ok());
}

TEST_CASE("the device plugin packs onto the most-occupied card that still fits", "[partition_geometry]") {
  const auto g = geometry("H100-80GB");
  const std::vector<PartitionCard> cards{
      {g, {}},
      {g, {{"1g.10gb", 0}}},
      {g, {{"3g.40gb", 0}, {"2g.20gb", 4}}},  // most occupied, but a 3g no longer fits there
      {g, {{"3g.40gb", 4}}},
  };
  const auto one = select_partition_placements(cards, "3g.40gb", 1);
  REQUIRE(one.ok());
  CHECK(one->at(0) == PartitionChoice{3, 0});  // card 2 covers more but cannot fit; card 3 beats card 1

  const auto small = select_partition_placements(cards, "1g.10gb", 2);
  REQUIRE(small.ok());
  CHECK(small->at(0) == PartitionChoice{2, 6});  // 6 slices covered
  CHECK(small->at(1) == PartitionChoice{3, 0});  // one per card; card 3 covers 4 slices

  const auto too_many = select_partition_placements(cards, "7g.80gb", 2);
  REQUIRE_FALSE(too_many.ok());
  CHECK(too_many.error().find("placed 1") != std::string::npos);
}

// Independent cross-check: from every reachable legal state of a card, the published remaining
// count of each profile equals how many instances of it can be added one by one.
TEST_CASE("remaining equals the instances that can actually be added, from every reachable state",
          "[partition_geometry]") {
  for (const char* key : {"H100-80GB", "A30-24GB", "T-Head-PPU-ZW810E-96GB-vendor-manual", "Hygon-DCU-C3000-BW-64GB"}) {
    const auto g = geometry(key);
    std::set<std::vector<std::pair<std::string, int32_t>>> seen;
    std::vector<std::vector<LiveInstance>> stack{{}};
    size_t states = 0;
    while (!stack.empty()) {
      auto state = stack.back();
      stack.pop_back();
      std::vector<std::pair<std::string, int32_t>> sig;
      for (const auto& i : state) sig.emplace_back(i.profile, i.start);
      std::sort(sig.begin(), sig.end());
      if (!seen.insert(sig).second) continue;
      ++states;
      const auto view = card_partition_view(g, state);
      REQUIRE(view.ok());
      for (const auto& p : g.profiles) {
        auto grown = state;
        int32_t added = 0;
        while (true) {
          const auto start = choose_start(g, grown, p.name);
          if (!start) break;
          grown.push_back({p.name, *start});
          REQUIRE(validate_instances(g, grown).ok());
          ++added;
        }
        INFO(key << " " << p.name << " from " << sig.size() << " instances");
        CHECK(view->find(p.name)->remaining == added);
        for (const int32_t s : p.starts) {
          auto next = state;
          next.push_back({p.name, s});
          if (validate_instances(g, next).ok()) stack.push_back(next);
        }
      }
    }
    INFO(key);
    CHECK(states > 10);
  }
}

TEST_CASE("a ledger row read from a cluster is taken at its published counts", "[partition_geometry]") {
  const auto g = geometry("H100-80GB");
  AcceleratorAllocation row;
  row.id = "GPU-0";
  row.allocated_profiles = {{"3g.40gb", 1}};
  row.remaining_profiles = {{"1g.10gb", 3}, {"1g.20gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}, {"4g.40gb", 0}, {"7g.80gb", 0}};
  const auto view = card_view_from_ledger(g, &row);
  REQUIRE(view.ok());
  CHECK(view->find("1g.10gb")->remaining == 3);
  CHECK(view->find("3g.40gb")->allocated == 1);
  CHECK(view->pool_contribution() == 4);
  CHECK(view->pt_remaining() == 3);
  row.remaining_profiles.push_back({"3g.41gb", 1});
  const auto bad = card_view_from_ledger(g, &row);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().find("profile '3g.41gb' is not offered by this card") != std::string::npos);
}
