// The Workloads panel's "why it waits" view of the selected Workload: the explanation the source
// computed from the state shown (Snapshot::explanation, model/explain/explanation.h) — the gate
// holding it and Kueue's or the operator's words, its queue's quota per flavor beside its need, the
// Workloads holding that quota, and the Nodes its flavors select with who is on each card. The
// same value `chaintwin explain` prints; what would admit it is that command's (a simulation).
#include <imgui.h>

#include <string>

#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/units_text.h"

namespace chaintwin::viz {

namespace {

constexpr size_t kHoldersShown = 40;

void section_title(const std::string& title) {
  ImGui::Separator();
  ImGui::TextDisabled("%s", title.c_str());
}

void draw_quota(const model::Explanation& ex) {
  if (ex.quota.empty()) return;
  section_title("Quota of " + ex.cluster_queue);
  for (const auto& l : ex.quota) {
    const ImVec4 colour = l.short_of() ? ImVec4(0.95f, 0.45f, 0.35f, 1) : ImVec4(0.6f, 0.85f, 0.6f, 1);
    ImGui::TextColored(colour, "%s  %s", l.flavor.c_str(), l.resource.c_str());
    ImGui::Text("  nominal %s, reserved %s, free %s; needs %s%s", quantity_short(l.resource, l.nominal).c_str(),
                quantity_short(l.resource, l.reserved).c_str(), quantity_short(l.resource, l.free()).c_str(),
                quantity_short(l.resource, l.need).c_str(), l.short_of() ? "  (short)" : "");
  }
}

void draw_holders(const model::Explanation& ex) {
  if (ex.holders.empty()) return;
  section_title("Who holds the quota (" + std::to_string(ex.holders.size()) + ")");
  size_t shown = 0;
  for (const auto& h : ex.holders) {
    if (shown++ == kHoldersShown) {
      ImGui::TextDisabled("… and %zu more", ex.holders.size() - kHoldersShown);
      break;
    }
    std::string held;
    for (const auto& x : h.held) held += (held.empty() ? "" : ", ") + quantity_short(x.resource, x.amount);
    ImGui::Text("%s  %s, priority %d: %s", h.workload.c_str(), h.admitted ? "admitted" : "reserved", h.priority, held.c_str());
  }
}

void draw_nodes(const model::Explanation& ex) {
  if (ex.nodes.empty()) return;
  section_title(ex.pods_read ? "Nodes its flavors select, and who is on their cards"
                             : "Nodes its flavors select (Pods not read: no occupants)");
  for (const auto& n : ex.nodes) {
    const std::string title = n.node + (n.schedulable ? "" : " (cordoned)") + "##ex-" + n.node;
    if (!ImGui::TreeNode(title.c_str())) continue;
    if (!n.cards_verdict.empty())
      ImGui::TextColored(n.cards_take_it ? ImVec4(0.6f, 0.85f, 0.6f, 1) : ImVec4(0.95f, 0.45f, 0.35f, 1), "%s",
                         (std::string(n.cards_take_it ? "its cards take it: " : "its cards do not take it: ") + n.cards_verdict).c_str());
    if (ex.pods_read)
      ImGui::Text("cpu %s of %s requested", quantity_short("cpu", n.cpu_requested).c_str(),
                  quantity_short("cpu", n.cpu_allocatable).c_str());
    for (const auto& c : n.cards) {
      ImGui::Text("card %u %s%s, %s free%s", c.index, std::string(model::to_string(c.mode)).c_str(), c.partitioned ? " (MIG)" : "",
                  quantity_short("credits.gpustack.ai/", c.remaining).c_str(),
                  c.slots > 0 ? (", slots " + std::to_string(c.free_slots) + "/" + std::to_string(c.slots)).c_str() : "");
      for (const auto& ch : c.charges)
        ImGui::BulletText("%s %s%s %s", ch.workload.c_str(), std::string(model::to_string(ch.mode)).c_str(),
                          ch.profile.empty() ? "" : (" " + ch.profile).c_str(), grouped(ch.units).c_str());
    }
    ImGui::TreePop();
  }
}

}  // namespace

void draw_explanation(const Snapshot& s, const std::string& workload) {
  if (!s.explanation || s.explanation->workload != workload) {
    ImGui::TextWrapped("%s", s.explanation_note.empty() ? "Explaining…" : s.explanation_note.c_str());
    return;
  }
  const model::Explanation& ex = *s.explanation;
  const model::WaitingPlace& p = ex.place;
  switch (p.standing) {
    case model::WorkloadStanding::kWaiting:
      ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1), "Held at %s", std::string(model::gate_title(p.gate)).c_str());
      ImGui::TextWrapped("%s: %s", p.condition.c_str(), p.reason.c_str());
      tooltip(p.reason);
      if (ex.queue_position > 0)
        ImGui::Text("%d Workloads wait in its ClusterQueue; %d come before it", ex.queue_waiting, ex.queue_position - 1);
      break;
    case model::WorkloadStanding::kRunning: ImGui::Text("Running: %d of %d Pods", ex.pods_running, ex.pods_wanted); break;
    case model::WorkloadStanding::kAdmitted: ImGui::TextUnformatted("Admitted (its Pods were not read)"); break;
    case model::WorkloadStanding::kFinished: ImGui::TextUnformatted("Finished"); break;
    case model::WorkloadStanding::kAbsent: ImGui::TextUnformatted("Not in the cluster now (refused, or finished and gone)"); break;
  }
  if (p.standing != model::WorkloadStanding::kWaiting) return;
  for (const auto& note : ex.notes) ImGui::TextWrapped("Note: %s", note.c_str());
  draw_quota(ex);
  draw_holders(ex);
  draw_nodes(ex);
  if (!s.explanation_note.empty()) ImGui::TextDisabled("%s", s.explanation_note.c_str());
}

}  // namespace chaintwin::viz
