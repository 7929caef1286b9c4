#include "viz/ui_state.h"

#include <array>
#include <utility>

namespace chaintwin::viz {
namespace {
constexpr std::array<std::pair<PanelId, const char*>, 12> kNames{{{PanelId::kPools, "pools"},
                                                                  {PanelId::kCredits, "credits"},
                                                                  {PanelId::kNodes, "nodes"},
                                                                  {PanelId::kCards, "cards"},
                                                                  {PanelId::kWorkloads, "workloads"},
                                                                  {PanelId::kPending, "pending"},
                                                                  {PanelId::kDrains, "drains"},
                                                                  {PanelId::kChain, "chain"},
                                                                  {PanelId::kEvents, "events"},
                                                                  {PanelId::kDrift, "drift"},
                                                                  {PanelId::kPlan, "plan"},
                                                                  {PanelId::kCompare, "compare"}}};
}  // namespace

const char* panel_name(PanelId id) {
  for (const auto& [p, name] : kNames)
    if (p == id) return name;
  return "?";
}

bool parse_panel(const std::string& name, PanelId* out) {
  for (const auto& [p, n] : kNames)
    if (name == n) {
      *out = p;
      return true;
    }
  return false;
}

}  // namespace chaintwin::viz
