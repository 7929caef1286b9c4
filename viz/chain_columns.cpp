#include "viz/chain_columns.h"

#include <algorithm>
#include <set>

namespace chaintwin::viz {
namespace {

constexpr const char* kPrefix[4] = {"Node/", "ResourceFlavor/", "ClusterQueue/", "LocalQueue/"};

bool of_kind(const std::string& label, int column) { return label.rfind(kPrefix[column], 0) == 0; }
std::string name_of(const std::string& label, int column) { return label.substr(std::string(kPrefix[column]).size()); }

// The edges from column c to column c + 1 that the chain shows.
bool link_edge(const ChainEdgeView& e, int c) { return of_kind(e.from, c) && of_kind(e.to, c + 1); }

}  // namespace

ChainColumns chain_columns(const std::vector<ChainEdgeView>& edges, const std::string& queue, const std::string& node) {
  std::array<std::set<std::string>, 4> sets;
  std::string q = queue;
  if (q.empty() && node.empty())
    for (const auto& e : edges) {
      if (of_kind(e.to, 2)) { q = name_of(e.to, 2); break; }
      if (of_kind(e.from, 2)) { q = name_of(e.from, 2); break; }
    }
  if (!q.empty()) {
    sets[2].insert(q);
    for (const auto& e : edges)
      if (link_edge(e, 1) && name_of(e.to, 2) == q) sets[1].insert(name_of(e.from, 1));
    for (const auto& e : edges)
      if (link_edge(e, 0) && sets[1].count(name_of(e.to, 1))) sets[0].insert(name_of(e.from, 0));
  } else {
    sets[0].insert(node);
    for (const auto& e : edges)
      if (link_edge(e, 0) && name_of(e.from, 0) == node) sets[1].insert(name_of(e.to, 1));
    for (const auto& e : edges)
      if (link_edge(e, 1) && sets[1].count(name_of(e.from, 1))) sets[2].insert(name_of(e.to, 2));
  }
  for (const auto& e : edges)
    if (link_edge(e, 2) && sets[2].count(name_of(e.from, 2))) sets[3].insert(name_of(e.to, 3));
  ChainColumns out;
  for (int c = 0; c < 4; ++c) out.columns[static_cast<size_t>(c)].assign(sets[static_cast<size_t>(c)].begin(), sets[static_cast<size_t>(c)].end());
  auto row_of = [&](int c, const std::string& name) {
    const auto& col = out.columns[static_cast<size_t>(c)];
    const auto it = std::lower_bound(col.begin(), col.end(), name);
    return it != col.end() && *it == name ? static_cast<int>(it - col.begin()) : -1;
  };
  for (const auto& e : edges)
    for (int c = 0; c < 3; ++c) {
      if (!link_edge(e, c)) continue;
      const int a = row_of(c, name_of(e.from, c)), b = row_of(c + 1, name_of(e.to, c + 1));
      if (a >= 0 && b >= 0) out.links.push_back({{c, a}, {c + 1, b}});
    }
  std::sort(out.links.begin(), out.links.end());
  return out;
}

}  // namespace chaintwin::viz
