#include "viz/card_map.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "viz/state_palette.h"
#include "viz/text_match.h"
#include "viz/units_text.h"

namespace chaintwin::viz {
namespace {

constexpr std::string_view kNodePrefix = "Node/", kFlavorPrefix = "ResourceFlavor/", kQueuePrefix = "ClusterQueue/";

std::string without(const std::string& label, std::string_view prefix) {
  return label.rfind(prefix, 0) == 0 ? label.substr(prefix.size()) : "";
}

// Node name → the ClusterQueues its flavors fill, in name order.
std::map<std::string, std::set<std::string>> pools_by_node(const std::vector<ChainEdgeView>& chain) {
  std::map<std::string, std::set<std::string>> queues_of_flavor;
  for (const auto& e : chain)
    if (const std::string flavor = without(e.from, kFlavorPrefix), queue = without(e.to, kQueuePrefix);
        !flavor.empty() && !queue.empty())
      queues_of_flavor[flavor].insert(queue);
  std::map<std::string, std::set<std::string>> out;
  for (const auto& e : chain)
    if (const std::string node = without(e.from, kNodePrefix), flavor = without(e.to, kFlavorPrefix);
        !node.empty() && !flavor.empty())
      if (const auto q = queues_of_flavor.find(flavor); q != queues_of_flavor.end())
        out[node].insert(q->second.begin(), q->second.end());
  return out;
}

constexpr Rgba kUnmanagedFill{0x2c, 0x30, 0x38, 0xff}, kUnmanagedFrame{0x9c, 0xa3, 0xaf, 0xff};
constexpr Rgba kUnhealthyFrame{0xef, 0x44, 0x44, 0xff}, kCordonedLine{0x00, 0x00, 0x00, 0xff};

std::string joined(const std::set<std::string>& names) {
  if (names.empty()) return "no pool";
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

float card_use(const CardView& card) {
  const double used = 1.0 - static_cast<double>(card.remaining) / static_cast<double>(kCreditsPerCard);
  return static_cast<float>(std::clamp(used, 0.0, 1.0));
}

CardMark card_mark(const NodeView& node, const CardView& card) {
  if (card.unhealthy) return CardMark::kUnhealthy;
  if (!node.ready || node.terminating) return CardMark::kCordoned;
  if (!node.managed) return CardMark::kUnmanaged;
  return CardMark::kNone;
}

std::vector<CardMapGroup> card_map_groups(const std::vector<NodeView>& nodes, const std::vector<ChainEdgeView>& chain,
                                          const std::string& filter) {
  const auto pools = pools_by_node(chain);
  const Needle needle(filter);
  std::map<std::pair<std::string, std::string>, CardMapGroup> groups;
  // Nodes in name order, so each group lists them so too.
  std::vector<uint32_t> order(nodes.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return nodes[a].name < nodes[b].name; });
  for (const uint32_t n : order) {
    const NodeView& node = nodes[n];
    const auto p = pools.find(node.name);
    const std::string pool_names = joined(p == pools.end() ? std::set<std::string>{} : p->second);
    std::set<std::string> counted;  // groups this Node was counted in
    for (uint32_t c = 0; c < node.cards.size(); ++c) {
      const CardView& card = node.cards[c];
      const std::string model = card.product.empty() ? card.accelerator_key : card.product;
      if (!needle.empty() && !needle.in(node.name) && !needle.in(model) && !needle.in(card.accelerator_key) &&
          !needle.in(pool_names) && !needle.in(card.mode))
        continue;
      CardMapGroup& g = groups[{model, pool_names}];
      g.gpu_model = model;
      g.pools = pool_names;
      g.cards.push_back({n, c});
      if (card.remaining < kCreditsPerCard) ++g.in_use;
      if (counted.insert(model).second) ++g.nodes;
    }
  }
  std::vector<CardMapGroup> out;
  out.reserve(groups.size());
  for (auto& [key, g] : groups) out.push_back(std::move(g));
  return out;
}

GroupLayout layout_cells(const CardMapGroup& group, float width, const CellGeometry& g) {
  GroupLayout out;
  out.cells.reserve(group.cards.size());
  const float step = g.cell + g.gap;
  float x = 0, y = 0;
  bool any = false;
  for (size_t i = 0; i < group.cards.size();) {
    // The run of this Node's cards in the group.
    size_t end = i;
    while (end < group.cards.size() && group.cards[end].node == group.cards[i].node) ++end;
    const float node_width = static_cast<float>(end - i) * step - g.gap;
    if (any) {
      x += g.node_gap;
      if (x + node_width > width && x > 0) {  // the Node starts the next row
        x = 0;
        y += step;
      }
    }
    for (size_t k = i; k < end; ++k) {
      if (x > 0 && x + g.cell > width) {  // a Node wider than the row wraps
        x = 0;
        y += step;
      }
      out.cells.push_back({group.cards[k], x, y});
      x += step;
    }
    x -= g.gap;
    any = true;
    i = end;
  }
  out.height = out.cells.empty() ? 0 : y + g.cell;
  return out;
}

bool cell_at(const GroupLayout& layout, const CellGeometry& g, float x, float y, CardRef* out) {
  for (const CellPlace& c : layout.cells)
    if (x >= c.x && x < c.x + g.cell && y >= c.y && y < c.y + g.cell) {
      *out = c.ref;
      return true;
    }
  return false;
}

void paint_cell(const NodeView& node, const CardView& card, int size, int x0, int y0, int stride, uint8_t* out) {
  const auto put = [&](int x, int y, Rgba c) {
    uint8_t* p = out + (static_cast<size_t>(y0 + y) * static_cast<size_t>(stride) + static_cast<size_t>(x0 + x)) * 4;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = c.a;
  };
  const CardMark mark = card_mark(node, card);
  const int frame = size >= 8 ? 2 : 1;
  const auto on_frame = [&](int x, int y, int width) {
    return x < width || y < width || x >= size - width || y >= size - width;
  };
  if (mark == CardMark::kUnmanaged) {
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) put(x, y, on_frame(x, y, 1) ? kUnmanagedFrame : kUnmanagedFill);
    return;
  }
  const Rgba colour = card_mode_colour(card.mode), dim = card_mode_dim_colour(card.mode);
  const int used = static_cast<int>(std::lround(card_use(card) * static_cast<float>(size)));
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      Rgba c = y >= size - used ? colour : dim;
      if (mark == CardMark::kUnhealthy && on_frame(x, y, frame)) c = kUnhealthyFrame;
      if (mark == CardMark::kCordoned && std::abs(x - y) < frame) c = kCordonedLine;
      put(x, y, c);
    }
}

CellImage paint_group(const GroupLayout& layout, const CellGeometry& g, const std::vector<NodeView>& nodes, int width) {
  CellImage image;
  image.width = std::max(width, 1);
  image.height = std::max(static_cast<int>(std::ceil(layout.height)), 1);
  image.rgba.assign(static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 4, 0);
  const int size = static_cast<int>(g.cell);
  for (const CellPlace& c : layout.cells) {
    const int x = static_cast<int>(c.x), y = static_cast<int>(c.y);
    if (x < 0 || y < 0 || x + size > image.width || y + size > image.height) continue;
    const NodeView& node = nodes[c.ref.node];
    paint_cell(node, node.cards[c.ref.card], size, x, y, image.width, image.rgba.data());
  }
  return image;
}

CellGeometry cell_geometry(float cell) { return {cell, 1, std::max(2.0f, std::floor(cell / 3))}; }

CellGeometry fitting_geometry(const std::vector<CardMapGroup>& groups, float width, float height, float per_group,
                              float largest, float smallest) {
  for (float cell = largest; cell > smallest; cell -= 1) {
    const CellGeometry g = cell_geometry(cell);
    float total = 0;
    for (const auto& group : groups) {
      total += per_group + layout_cells(group, width, g).height;
      if (total > height) break;
    }
    if (total <= height) return g;
  }
  return cell_geometry(smallest);
}

bool CardMapView::shows(const Snapshot& s, const std::string& f, float w, float h, float pg) const {
  return stamp == SnapshotStamp::of(s) && filter == f && width == w && height == h && per_group == pg;
}

CardMapView card_map_view(const Snapshot& s, const std::string& filter, float width, float height, float per_group) {
  CardMapView v;
  v.stamp = SnapshotStamp::of(s);
  v.filter = filter;
  v.width = width;
  v.height = height;
  v.per_group = per_group;
  v.groups = card_map_groups(s.nodes, s.chain, filter);
  v.geometry = fitting_geometry(v.groups, width, height, per_group);
  for (const auto& g : v.groups) {
    v.layouts.push_back(layout_cells(g, width, v.geometry));
    v.images.push_back(paint_group(v.layouts.back(), v.geometry, s.nodes, static_cast<int>(width)));
    v.cards += static_cast<int64_t>(g.cards.size());
    v.in_use += g.in_use;
    v.nodes += g.nodes;
  }
  return v;
}

}  // namespace chaintwin::viz
