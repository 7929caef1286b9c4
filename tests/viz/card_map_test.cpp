#include <catch2/catch.hpp>

#include "viz/card_map.h"

using namespace chaintwin::viz;

namespace {

CardView card(uint32_t index, const std::string& product, const std::string& mode, int64_t remaining) {
  CardView c;
  c.id = "c" + std::to_string(index);
  c.index = index;
  c.product = product;
  c.accelerator_key = "key-" + product;
  c.mode = mode;
  c.remaining = remaining;
  return c;
}

NodeView node(const std::string& name, std::vector<CardView> cards) {
  NodeView n;
  n.name = name;
  n.cards = std::move(cards);
  return n;
}

// A chain where each Node's one flavor fills the named ClusterQueue.
std::vector<ChainEdgeView> chain(const std::vector<std::pair<std::string, std::string>>& node_queue) {
  std::vector<ChainEdgeView> out;
  for (const auto& [n, q] : node_queue) {
    out.push_back({"Node/" + n, "contributes", "ResourceFlavor/f-" + q});
    out.push_back({"ResourceFlavor/f-" + q, "fillsQuota", "ClusterQueue/" + q});
  }
  return out;
}

}  // namespace

TEST_CASE("the card map groups cards by GPU model and pool, Nodes in name order, and counts them", "[viz][cards]") {
  const std::vector<NodeView> nodes = {
      node("t4-b", {card(0, "T4", "None", 1'600'000), card(1, "T4", "Exclusive", 0)}),
      node("a100-a", {card(0, "A100", "Shared", 800'000)}),
      node("t4-a", {card(0, "T4", "Sliced", 1'600'000)}),
      node("t4-x", {card(0, "T4", "None", 1'600'000)}),  // feeds no pool
  };
  const auto groups = card_map_groups(nodes, chain({{"t4-b", "q-t4"}, {"t4-a", "q-t4"}, {"a100-a", "q-a100"}}), "");
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].gpu_model == "A100");
  CHECK(groups[0].pools == "q-a100");
  CHECK(groups[0].in_use == 1);
  CHECK(groups[1].gpu_model == "T4");
  CHECK(groups[1].pools == "no pool");
  CHECK(groups[2].pools == "q-t4");
  CHECK(groups[2].nodes == 2);
  CHECK(groups[2].in_use == 1);  // the Exclusive card; the idle Sliced one uses no credits
  // t4-a before t4-b, each Node's cards in ledger order.
  CHECK(groups[2].cards == std::vector<CardRef>{{2, 0}, {0, 0}, {0, 1}});
}

TEST_CASE("the card map's filter keeps cards by Node, model, pool or mode, ignoring case", "[viz][cards]") {
  const std::vector<NodeView> nodes = {
      node("gpu-1", {card(0, "T4", "Exclusive", 0), card(1, "T4", "None", 1'600'000)}),
      node("gpu-2", {card(0, "A100", "Partitioned", 400'000)}),
  };
  const auto edges = chain({{"gpu-1", "pool-t4"}, {"gpu-2", "pool-a100"}});
  struct Row {
    std::string filter;
    size_t cards;
  };
  for (const Row& r : std::vector<Row>{{"", 3}, {"GPU-1", 2}, {"a100", 1}, {"pool-t4", 2}, {"exclusive", 1},
                                        {"partitioned", 1}, {"nothing", 0}}) {
    INFO(r.filter);
    size_t n = 0;
    for (const auto& g : card_map_groups(nodes, edges, r.filter)) n += g.cards.size();
    CHECK(n == r.cards);
  }
}

TEST_CASE("a card's use is the share of its credits taken, and its mark the worst of its states", "[viz][cards]") {
  CHECK(card_use(card(0, "T4", "None", 1'600'000)) == 0.0f);
  CHECK(card_use(card(0, "T4", "Shared", 400'000)) == Approx(0.75f));
  CHECK(card_use(card(0, "T4", "Exclusive", 0)) == 1.0f);
  CHECK(card_use(card(0, "T4", "Exclusive", -5)) == 1.0f);
  NodeView n = node("n", {});
  CardView c = card(0, "T4", "None", 1'600'000);
  CHECK(card_mark(n, c) == CardMark::kNone);
  n.managed = false;
  CHECK(card_mark(n, c) == CardMark::kUnmanaged);
  n.ready = false;
  CHECK(card_mark(n, c) == CardMark::kCordoned);
  n.ready = true;
  n.terminating = true;
  CHECK(card_mark(n, c) == CardMark::kCordoned);
  c.unhealthy = true;
  CHECK(card_mark(n, c) == CardMark::kUnhealthy);
}

TEST_CASE("cells are laid out Node by Node in rows, a Node that does not fit starting the next row", "[viz][cards]") {
  // Three Nodes of 4 cards: 4 × (9 + 1) − 1 = 39 pixels each, 4 between Nodes.
  CardMapGroup g;
  for (uint32_t n = 0; n < 3; ++n)
    for (uint32_t c = 0; c < 4; ++c) g.cards.push_back({n, c});
  const CellGeometry geo{9, 1, 4};
  SECTION("two Nodes fit a row of 90 pixels, the third goes below") {
    const GroupLayout l = layout_cells(g, 90, geo);
    REQUIRE(l.cells.size() == 12);
    CHECK(l.cells[0] == CellPlace{{0, 0}, 0, 0});
    CHECK(l.cells[3] == CellPlace{{0, 3}, 30, 0});
    CHECK(l.cells[4] == CellPlace{{1, 0}, 43, 0});  // 39 + 4
    CHECK(l.cells[8] == CellPlace{{2, 0}, 0, 10});
    CHECK(l.height == 19);
    CardRef hit;
    REQUIRE(cell_at(l, geo, 44, 5, &hit));
    CHECK(hit == CardRef{1, 0});
    CHECK_FALSE(cell_at(l, geo, 40, 5, &hit));  // the gap between Nodes
    CHECK_FALSE(cell_at(l, geo, 5, 9.5f, &hit));  // the gap between rows
  }
  SECTION("a Node wider than the row wraps its own cards") {
    const GroupLayout l = layout_cells(g, 25, geo);
    CHECK(l.cells[1] == CellPlace{{0, 1}, 10, 0});
    CHECK(l.cells[2] == CellPlace{{0, 2}, 0, 10});
    CHECK(l.cells[4] == CellPlace{{1, 0}, 0, 20});
  }
  SECTION("an empty group takes no height") { CHECK(layout_cells(CardMapGroup{}, 90, geo).height == 0); }
}

TEST_CASE("the map takes the largest cell at which every group fits the panel, else the smallest", "[viz][cards]") {
  // One group of 100 Nodes of 8 cards.
  CardMapGroup g;
  for (uint32_t n = 0; n < 100; ++n)
    for (uint32_t c = 0; c < 8; ++c) g.cards.push_back({n, c});
  const std::vector<CardMapGroup> groups{g};
  struct Row {
    float width, height, cell;
  };
  for (const Row& r : std::vector<Row>{{1000, 2000, 14}, {1000, 200, 12}, {1000, 100, 8}, {1000, 10, 4}}) {
    INFO(r.width << "x" << r.height);
    const CellGeometry geo = fitting_geometry(groups, r.width, r.height, 20);
    CHECK(geo.cell == r.cell);
    if (r.cell > 4) CHECK(layout_cells(g, r.width, geo).height + 20 <= r.height);  // it fits
    if (r.cell < 14) CHECK(layout_cells(g, r.width, cell_geometry(r.cell + 1)).height + 20 > r.height);  // one more does not
  }
  CHECK(cell_geometry(9) == CellGeometry{9, 1, 3});
  CHECK(cell_geometry(4) == CellGeometry{4, 1, 2});
}
