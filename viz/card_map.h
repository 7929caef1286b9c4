// The cluster card map: every card of every Node as one small cell, grouped by GPU model and then by
// the pools (ClusterQueues) its Node's ResourceFlavors fill. A cell is drawn in its ledger mode's
// colour, filled from the bottom by the share of its credits in use; an unhealthy card, a cordoned or
// terminating Node and an unmanaged Node are marked. The grouping, the filter, the layout of cells in
// rows and the hit test are pure and table-tested (tests/viz/card_map_test.cpp); the panel
// (panels/card_map_panel.cpp) only draws what they give.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/snapshot.h"
#include "viz/snapshot_stamp.h"

namespace chaintwin::viz {

struct CardRef {
  uint32_t node = 0, card = 0;  // indexes into Snapshot::nodes and that Node's cards
  bool operator==(const CardRef&) const = default;
};

struct CardMapGroup {
  std::string gpu_model;  // the cards' product ("NVIDIA-A100-SXM4-80GB"), else their accelerator key
  std::string pools;      // the ClusterQueues the Nodes' flavors fill, ", "-joined; "no pool" for none
  std::vector<CardRef> cards;  // Node by Node in name order, each Node's cards in ledger order
  int32_t nodes = 0;
  int32_t in_use = 0;     // cards with credits in use
  bool operator==(const CardMapGroup&) const = default;
};

// The groups, by GPU model then pools (name order). `filter` keeps the cards whose Node name, GPU
// model, accelerator key, pools or mode contain it (case-insensitive); "" keeps all.
std::vector<CardMapGroup> card_map_groups(const std::vector<NodeView>& nodes, const std::vector<ChainEdgeView>& chain,
                                          const std::string& filter);

// The share of a card's credits in use, 0..1 (1,600,000 credits = the whole card).
float card_use(const CardView& card);

// What a cell marks beside its mode and fill, worst first: an unhealthy card, a Node cordoned
// (unschedulable) or terminating, a Node the operator does not manage.
enum class CardMark { kNone, kUnhealthy, kCordoned, kUnmanaged };
CardMark card_mark(const NodeView& node, const CardView& card);

// Cells in rows: a Node's cards side by side, `gap` apart; Nodes `node_gap` apart; a Node that
// does not fit in the rest of the row starts the next one (a Node wider than the row wraps its
// cards). Positions are relative to the group's top left.
struct CellGeometry {
  float cell = 9, gap = 1, node_gap = 4;
  bool operator==(const CellGeometry&) const = default;
};
struct CellPlace {
  CardRef ref;
  float x = 0, y = 0;
  bool operator==(const CellPlace&) const = default;
};
struct GroupLayout {
  std::vector<CellPlace> cells;
  float height = 0;  // of the rows the cells take
};
GroupLayout layout_cells(const CardMapGroup& group, float width, const CellGeometry& g);

// The cell under (x, y), relative to the group's top left; false when none.
bool cell_at(const GroupLayout& layout, const CellGeometry& g, float x, float y, CardRef* out);

// The cell geometry for a cell of `cell` pixels: 1 pixel between cards, a third of a cell (at least
// 2 pixels) between Nodes.
CellGeometry cell_geometry(float cell);

// The largest cell, from `largest` down to `smallest` pixels, at which every group fits `height`
// when each group also takes `per_group` pixels (its header and the space after it); `smallest`
// when none does (the map then scrolls).
CellGeometry fitting_geometry(const std::vector<CardMapGroup>& groups, float width, float height, float per_group,
                              float largest = 14, float smallest = 4);

// The cell's pixels: `size` × `size` RGBA (rows top-down) into `out` at column `x0`, row `y0` of an
// image `stride` pixels wide. Its mode's colour, dimmed, with the rows of the share in use drawn at
// full colour from the bottom; an unhealthy card gets a red frame, a cordoned or terminating Node a
// black diagonal, an unmanaged Node a grey frame around a dark cell.
void paint_cell(const NodeView& node, const CardView& card, int size, int x0, int y0, int stride, uint8_t* out);

// A group's cells as one RGBA image `width` pixels wide and its layout's height tall; the pixels
// between cells are transparent.
struct CellImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
};
CellImage paint_group(const GroupLayout& layout, const CellGeometry& g, const std::vector<NodeView>& nodes, int width);

// The map as drawn for one snapshot, filter and panel size: the groups, the cell that fits, each
// group's layout and the totals. The panel keeps it between frames (UiState::card_map) and makes it
// again only when the snapshot, the filter or the size changes, so a frame only draws.
struct CardMapView {
  SnapshotStamp stamp;
  std::string filter;
  float width = 0, height = 0, per_group = 0;
  std::vector<CardMapGroup> groups;
  std::vector<GroupLayout> layouts;
  std::vector<CellImage> images;  // one per group (uploaded as textures by the window)
  CellGeometry geometry;
  int64_t cards = 0, in_use = 0, nodes = 0;
  uint64_t generation = 0;  // set by its owner: a new number for every view it makes (names its textures)
  bool shows(const Snapshot& s, const std::string& f, float w, float h, float pg) const;
};
CardMapView card_map_view(const Snapshot& s, const std::string& filter, float width, float height, float per_group);

}  // namespace chaintwin::viz
