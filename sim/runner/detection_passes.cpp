// The runner's Device Manager detect loop: a pass of one manufacturer's detector on a node — at
// add-node with `detectAfter` (the pass that found nothing yet), at the first detection, and at a
// `detection-pass` timeline action — decided by model::decide_detection_pass and applied to the
// simulated cluster. The runner keeps what the Device Manager keeps between passes: where each
// manufacturer stands, and the groups a pass that found nothing withdrew (their ledger rows follow
// the Pods still holding those cards, so a later detection gives back exactly what they hold).
#include <algorithm>
#include <set>

#include "sim/runner/simulation.h"

namespace chaintwin::sim {

const model::Node* Simulation::specified_node(const std::string& node) const {
  if (const auto j = joined_by_.find(node); j != joined_by_.end()) {
    const TimelineAction& a = scenario_.timeline[static_cast<size_t>(j->second)];
    return a.new_node ? &*a.new_node : nullptr;
  }
  const auto n = scenario_.cluster.nodes.find(node);
  return n == scenario_.cluster.nodes.end() ? nullptr : &n->second;
}

const model::Devices* Simulation::specified_devices(const std::string& node) const {
  if (const auto j = joined_by_.find(node); j != joined_by_.end()) {
    const TimelineAction& a = scenario_.timeline[static_cast<size_t>(j->second)];
    return a.new_devices ? &*a.new_devices : nullptr;
  }
  return scenario_.cluster.devices_of(node);
}

std::vector<std::string> Simulation::manufacturers_on(const std::string& node) const {
  std::set<std::string> out;
  for (const model::Devices* d : {specified_devices(node), cluster_.devices_of(node)})
    if (d != nullptr)
      for (const auto& m : model::detected_manufacturers(*d)) out.insert(m);
  if (const auto w = withdrawn_.find(node); w != withdrawn_.end())
    for (const auto& m : model::detected_manufacturers(w->second)) out.insert(m);
  return {out.begin(), out.end()};
}

void Simulation::forget_detection(const std::string& node) {
  detection_standing_.erase(node);
  withdrawn_.erase(node);
  joined_by_.erase(node);
}

model::DetectionDecision Simulation::detection_pass(const std::string& node, const std::string& manufacturer,
                                                    model::DetectionOutcome outcome) {
  using Effect = model::DetectionEffect;
  auto& standings = detection_standing_[node];
  const auto found = standings.find(manufacturer);
  const model::DetectionStanding standing =
      found == standings.end() ? model::DetectionStanding::kDetected : found->second;
  const model::DetectionDecision d =
      model::decide_detection_pass(standing, outcome, scenario_.device_manager.no_fast_failed, manufacturer);

  auto n = cluster_.nodes.find(node);
  auto published = cluster_.devices.find(node);
  switch (d.effect) {
    case Effect::kHoldBack:
    case Effect::kKeep:
      break;
    case Effect::kPublishEmpty:
      if (published == cluster_.devices.end())
        if (const model::Devices* spec = specified_devices(node))
          cluster_.devices[node] = model::empty_detection_result(*spec);
      break;
    case Effect::kUndetect: {
      if (n == cluster_.nodes.end() || published == cluster_.devices.end()) break;
      auto u = model::undetect_manufacturer(std::move(n->second), std::move(published->second), manufacturer);
      n->second = std::move(u.node);
      published->second = std::move(u.devices);
      auto [held, fresh] = withdrawn_.try_emplace(node, std::move(u.withdrawn));
      if (!fresh) {
        for (auto& g : u.withdrawn.spec.groups) held->second.spec.groups.push_back(std::move(g));
        for (auto& g : u.withdrawn.status.groups) held->second.status.groups.push_back(std::move(g));
      }
      break;
    }
    case Effect::kPublish: {
      if (n == cluster_.nodes.end()) break;
      // What was withdrawn comes back with its ledger as the Pods left it; otherwise the cards as
      // specified (the first detection), with a free ledger.
      const auto held = withdrawn_.find(node);
      const bool from_held =
          held != withdrawn_.end() && std::ranges::count(model::detected_manufacturers(held->second), manufacturer) > 0;
      const model::Devices* source = from_held ? &held->second : specified_devices(node);
      if (source == nullptr) break;
      const model::Node* spec_node = specified_node(node);
      const model::StringMap labels =
          spec_node ? model::device_manager_labels(*spec_node, manufacturer) : model::StringMap{};
      std::optional<model::Devices> current;
      if (published != cluster_.devices.end()) current = std::move(published->second);
      auto p = model::publish_detected(std::move(n->second), std::move(current), *source, labels, manufacturer);
      n->second = std::move(p.node);
      cluster_.devices[node] = std::move(p.devices);
      if (from_held) {
        std::erase_if(held->second.spec.groups, [&](const auto& g) { return g.manufacturer == manufacturer; });
        std::erase_if(held->second.status.groups, [&](const auto& g) { return g.manufacturer == manufacturer; });
        if (held->second.spec.groups.empty() && held->second.status.groups.empty()) withdrawn_.erase(held);
      }
      break;
    }
  }
  if (d.next == model::DetectionStanding::kDetected) standings.erase(manufacturer);
  else standings[manufacturer] = d.next;
  if (standings.empty()) detection_standing_.erase(node);
  return d;
}

}  // namespace chaintwin::sim
