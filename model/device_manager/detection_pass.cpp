#include "model/device_manager/detection_pass.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "model/device_manager/device_inventory.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

using Effect = DetectionEffect;
using Standing = DetectionStanding;

// The groups of `devices` that belong to `manufacturer` (spec and status), in a record of its own.
Devices groups_of(const Devices& devices, std::string_view manufacturer) {
  Devices out;
  out.metadata = devices.metadata;
  for (const auto& g : devices.spec.groups)
    if (g.manufacturer == manufacturer) out.spec.groups.push_back(g);
  for (const auto& g : devices.status.groups)
    if (g.manufacturer == manufacturer) out.status.groups.push_back(g);
  return out;
}

void drop_groups(Devices& devices, std::string_view manufacturer) {
  std::erase_if(devices.spec.groups, [&](const DevicesGroup& g) { return g.manufacturer == manufacturer; });
  std::erase_if(devices.status.groups, [&](const DevicesAllocationGroup& g) { return g.manufacturer == manufacturer; });
}

template <typename Group, typename Rows>
uint32_t first_index(const Group& g, Rows Group::*rows) {
  uint32_t lowest = std::numeric_limits<uint32_t>::max();
  for (const auto& card : g.*rows) lowest = std::min(lowest, card.index);
  return lowest;
}

// Groups by their first card's index (a group with no card last); equal ones keep their order.
void order_groups(Devices& devices) {
  std::stable_sort(devices.spec.groups.begin(), devices.spec.groups.end(), [](const auto& a, const auto& b) {
    return first_index(a, &DevicesGroup::accelerators) < first_index(b, &DevicesGroup::accelerators);
  });
  std::stable_sort(devices.status.groups.begin(), devices.status.groups.end(), [](const auto& a, const auto& b) {
    return first_index(a, &DevicesAllocationGroup::accelerators) < first_index(b, &DevicesAllocationGroup::accelerators);
  });
}

bool is_manufacturer_label(const std::string& key, std::string_view manufacturer) {
  const std::string own = std::string(keys::kAcceleratablePrefix) + std::string(manufacturer);
  if (key.rfind(own, 0) != 0) return false;
  // The manufacturer's own keys ("nvidia", "nvidia.driver-version") and its models' ("nvidia-…"),
  // not another manufacturer whose name merely starts the same way.
  return key.size() == own.size() || key[own.size()] == '.' || key[own.size()] == '-';
}

}  // namespace

std::string_view to_string(DetectionOutcome outcome) {
  switch (outcome) {
    case DetectionOutcome::kFailed: return "Failed";
    case DetectionOutcome::kNothingFound: return "NothingFound";
    case DetectionOutcome::kFound: return "Found";
  }
  return "?";
}

std::optional<DetectionOutcome> parse_detection_outcome(std::string_view text) {
  for (const auto o : {DetectionOutcome::kFailed, DetectionOutcome::kNothingFound, DetectionOutcome::kFound})
    if (text == to_string(o)) return o;
  return std::nullopt;
}

std::string_view to_string(DetectionStanding standing) {
  switch (standing) {
    case Standing::kAwaitingFirst: return "AwaitingFirst";
    case Standing::kDetected: return "Detected";
    case Standing::kPublishedEmpty: return "PublishedEmpty";
  }
  return "?";
}

std::string_view to_string(DetectionEffect effect) {
  switch (effect) {
    case Effect::kHoldBack: return "HoldBack";
    case Effect::kPublishEmpty: return "PublishEmpty";
    case Effect::kKeep: return "Keep";
    case Effect::kPublish: return "Publish";
    case Effect::kUndetect: return "Undetect";
  }
  return "?";
}

DetectionDecision decide_detection_pass(DetectionStanding standing, DetectionOutcome outcome, bool no_fast_failed,
                                        std::string_view manufacturer) {
  const std::string m(manufacturer);
  if (outcome == DetectionOutcome::kFound) {
    if (standing == Standing::kDetected)
      return {Effect::kKeep, Standing::kDetected, "the pass detected the " + m + " accelerators already published"};
    return {Effect::kPublish, Standing::kDetected,
            "the pass detected the " + m + " accelerators: the Devices groups, the accelerator labels and the "
            "device-plugin pools are published"};
  }
  const std::string why = outcome == DetectionOutcome::kFailed ? "the " + m + " detect pass failed"
                                                               : "the " + m + " detect pass found no accelerator";
  switch (standing) {
    case Standing::kAwaitingFirst:
      if (no_fast_failed)
        return {Effect::kPublishEmpty, Standing::kPublishedEmpty,
                why + " before any detection; with --no-fast-failed the empty result is published: a Devices "
                      "record with no accelerator, no accelerator labels, no device-plugin pools"};
      return {Effect::kHoldBack, Standing::kAwaitingFirst,
              why + ": manufacturer " + m + " is expected but not detected, not reporting a node with no "
                    "accelerators, detecting again"};
    case Standing::kDetected:
      if (outcome == DetectionOutcome::kFailed)
        return {Effect::kKeep, Standing::kDetected,
                why + ": reporting the accelerators last detected (the Devices group, the device-plugin pools "
                      "and the capacity keys stay)"};
      return {Effect::kUndetect, Standing::kPublishedEmpty,
              why + ": " + m + " is undetected — its Devices groups go and its device plugin stops (its pools "
                    "read 0); what was held for it is dropped"};
    case Standing::kPublishedEmpty:
      return {Effect::kKeep, Standing::kPublishedEmpty,
              why + ": nothing is held for " + m + ", so nothing is published for it"};
  }
  return {Effect::kKeep, standing, why};
}

std::vector<std::string> detected_manufacturers(const Devices& devices) {
  std::set<std::string> out;
  for (const auto& g : devices.spec.groups)
    if (!g.accelerators.empty()) out.insert(g.manufacturer);
  return {out.begin(), out.end()};
}

StringMap device_manager_labels(const Node& detected, std::string_view manufacturer) {
  StringMap out;
  for (const auto& [k, v] : detected.metadata.labels)
    if (k == keys::kAcceleratable || is_manufacturer_label(k, manufacturer)) out[k] = v;
  return out;
}

Devices empty_detection_result(const Devices& detected) {
  Devices out;
  out.metadata = detected.metadata;
  out.spec.interfaces_json = detected.spec.interfaces_json;
  return out;
}

PublishedDetection publish_detected(Node node, std::optional<Devices> published, const Devices& detected,
                                    const StringMap& labels, std::string_view manufacturer) {
  Devices devices = published ? std::move(*published) : empty_detection_result(detected);
  drop_groups(devices, manufacturer);
  const Devices found = groups_of(detected, manufacturer);
  for (const auto& g : found.spec.groups) devices.spec.groups.push_back(g);
  for (const auto& g : found.status.groups) devices.status.groups.push_back(g);
  order_groups(devices);
  for (const auto& [k, v] : labels) node.metadata.labels[k] = v;
  for (const auto& [k, q] : device_plugin_capacity(found)) {
    node.status.capacity[k] = q;
    node.status.allocatable[k] = q;
  }
  return {std::move(node), std::move(devices)};
}

Undetected undetect_manufacturer(Node node, Devices devices, std::string_view manufacturer) {
  Devices withdrawn = groups_of(devices, manufacturer);
  drop_groups(devices, manufacturer);
  for (const auto& [k, q] : device_plugin_capacity(withdrawn)) {
    if (auto c = node.status.capacity.find(k); c != node.status.capacity.end()) node.status.capacity.value_at(c) = Quantity::from_int(0);
    if (auto a = node.status.allocatable.find(k); a != node.status.allocatable.end())
      node.status.allocatable.value_at(a) = Quantity::from_int(0);
  }
  return {std::move(node), std::move(devices), std::move(withdrawn)};
}

}  // namespace chaintwin::model
