// The window's own state between frames: which panel is open, what is selected, the filters. It
// belongs to the window alone; snapshots never hold it and panels change only it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace chaintwin::viz {

class PlotTextures;
class ImageTextures;
struct CardMapView;
struct PoolReasons;

enum class PanelId { kPools, kCredits, kNodes, kCards, kWorkloads, kPending, kDrains, kChain, kEvents, kDrift, kPlan, kCompare };

// "pools", "credits", "nodes", "cards", "workloads", "pending", "drains", "chain", "events", "drift", "plan".
const char* panel_name(PanelId id);
// The panel of that name; false when there is none.
bool parse_panel(const std::string& name, PanelId* out);

struct UiState {
  PanelId panel = PanelId::kPools;
  bool panel_forced = false;       // select `panel` on the next frame (set by --panel and clicks)
  std::string pool_filter;         // substring of the ClusterQueue or display name
  std::string selected_queue;      // ClusterQueue name, "" for none
  std::string selected_node;
  std::string selected_card;       // card id on selected_node
  std::string selected_flavor;     // ResourceFlavor shown in detail under the chain graph
  std::string selected_workload;   // "<ns>/<name>"
  std::string explain_asked;       // the Workload the source was last asked to explain
  int workload_view = 0;           // 0 all, 1 pending, 2 admitted, 3 evicted/retried, 4 finished
  bool credits_whole_run = false;  // Credits over time: the whole run's axis, not start..now
  int credits_scale = 0;           // Credits over time: its value scale (viz::ValueScale)
  std::string card_filter;         // Cluster cards: substring of Node, GPU model, pool or mode
  std::shared_ptr<CardMapView> card_map;
  std::shared_ptr<PoolReasons> pool_reasons;  // the pools' why-pending counts of the snapshot shown  // the map as last laid out (viz/card_map.h), kept between frames
  // Pending work: the ClusterQueue shown ("" all; a selected pool sets it), a text filter, grouping
  // by reason, the sort column (viz::PendingSort) and direction.
  std::string pending_queue, pending_text;
  std::string pending_selection_seen;  // the selected pool the view last followed
  bool pending_grouped = true;
  int pending_sort = 4;  // PendingSort::kPosition
  bool pending_descending = false;
  std::string event_filter;        // substring of kind, object or message
  std::string seek_text;           // what the seek box holds
  int plan_plot = -1;
  bool compare_differences_only = false;  // Compare: hide the figures equal in both runs              // the plan's plot shown alone, -1 for all of them
  PlotTextures* plot_textures = nullptr;  // the window's textures for plan plots (none: placeholders)
  ImageTextures* image_textures = nullptr;  // the window's textures for panels' own images (none: rectangles)
  uint64_t card_map_generation = 0;         // the last CardMapView made (names its textures)
};

}  // namespace chaintwin::viz
