// One pass of the Device Manager's detect loop on a node, for one manufacturer (operator-domain
// §10.3; docs/modules/devices/discovery.md; pkg/devicemanager/detector, DetectAccelerator and
// Start). Each manufacturer has its own Device Manager DaemonSet, asked for that one manufacturer:
//
//   - before any pass has found its cards it holds the round back and detects again, loudly, every
//     period: nothing is published (model/device_manager/first_detection.h) — unless it runs with
//     `--no-fast-failed`, which publishes that empty first result like any other;
//   - a pass that FAILED (the library errored) says nothing about the hardware: the manufacturer is
//     reported as last detected — the Devices keeps its group, the allocator keeps serving, the
//     node keeps that family's pools and capacity keys;
//   - a pass that ran and found NOTHING is the one claim that undetects it: its Devices groups go
//     and its allocator stops, so its device-plugin pools retire; what was held for it is dropped,
//     so a later failure cannot bring the cards back;
//   - a pass that FOUND the cards publishes them.
//
// The decision is a value (decide_detection_pass); the functions below it apply one to the Node
// and the Devices record. Called by the simulator's runner for `add-node` with `detectAfter`, the
// first detection, and the `detection-pass` timeline action (sim/runner/timeline_actions.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"

namespace chaintwin::model {

// What one pass of a manufacturer's detector answered.
enum class DetectionOutcome {
  kFailed,        // the library returned an error: the pass could not measure
  kNothingFound,  // the pass ran and its answer is that the node holds none of its cards
  kFound,         // the pass found the node's cards
};
std::string_view to_string(DetectionOutcome outcome);  // "Failed", "NothingFound", "Found"
std::optional<DetectionOutcome> parse_detection_outcome(std::string_view text);

// Where one manufacturer's Device Manager stands on a node between passes.
enum class DetectionStanding {
  kAwaitingFirst,   // no pass has found its cards and nothing is published yet (held back)
  kDetected,        // its cards, as last detected, are published and held for a failed pass
  kPublishedEmpty,  // a result without its cards is published and nothing is held: the empty first
                    // result under --no-fast-failed, or undetected by a pass that found nothing
};
std::string_view to_string(DetectionStanding standing);

// What a pass does to what the Device Manager publishes.
enum class DetectionEffect {
  kHoldBack,      // publish nothing, detect again next period ("expected but not detected")
  kPublishEmpty,  // publish the result without its cards: a Devices record, no group, no labels, no pools
  kKeep,          // what is published stays as it is
  kPublish,       // publish the cards found: Devices groups and ledger, accelerator labels, pools
  kUndetect,      // withdraw the manufacturer: its Devices groups go, its device plugin stops
};
std::string_view to_string(DetectionEffect effect);

struct DetectionDecision {
  DetectionEffect effect = DetectionEffect::kKeep;
  DetectionStanding next = DetectionStanding::kDetected;
  std::string reason;  // for the event log: what the Device Manager does and why
  bool operator==(const DetectionDecision&) const = default;
};

// The Device Manager's answer to one pass of `manufacturer`'s detector:
//
//   standing \ outcome      Failed                NothingFound          Found
//   AwaitingFirst           HoldBack              HoldBack              Publish → Detected
//     --no-fast-failed      PublishEmpty → Empty  PublishEmpty → Empty  Publish → Detected
//   Detected                Keep (last detected)  Undetect → Empty      Keep
//   PublishedEmpty          Keep                  Keep                  Publish → Detected
DetectionDecision decide_detection_pass(DetectionStanding standing, DetectionOutcome outcome, bool no_fast_failed,
                                        std::string_view manufacturer);

// The manufacturers whose cards `devices` lists (spec groups with at least one accelerator),
// sorted, each once.
std::vector<std::string> detected_manufacturers(const Devices& devices);

// The labels the Device Manager's NodeFeature carries for `manufacturer`'s cards, read off
// `detected` (the Node as published once they are detected): `feature.gpustack.ai/acceleratable`
// and every `acceleratable.feature.gpustack.ai/<manufacturer>` label (the manufacturer's own keys
// and its models' `<manufacturer>-<id>` keys).
StringMap device_manager_labels(const Node& detected, std::string_view manufacturer);

// kPublishEmpty on a node with no Devices record yet: the record an empty result creates —
// `detected`'s name and labels, its network inventory, no group and no ledger.
Devices empty_detection_result(const Devices& detected);

struct PublishedDetection {
  Node node;
  Devices devices;
};

// kPublish: the cards of `manufacturer` in `detected` (spec groups and their ledger rows, as given)
// replace that manufacturer's groups in `published` (or in a new record named as `detected` when
// there is none); other manufacturers' groups stay; groups ordered by their first card's index.
// The Node gets `labels` (the Device Manager's, device_manager_labels) and the pools the device
// plugin registers for that manufacturer's cards (device_plugin_capacity) in capacity and
// allocatable.
PublishedDetection publish_detected(Node node, std::optional<Devices> published, const Devices& detected,
                                    const StringMap& labels, std::string_view manufacturer);

struct Undetected {
  Node node;
  Devices devices;    // the record without the manufacturer's groups (it stays, perhaps with none)
  Devices withdrawn;  // the groups taken off (spec and ledger rows, charges included), same name
};

// kUndetect: `manufacturer`'s spec and status groups leave the record; its device plugin stops, so
// every pool it had registered (device_plugin_capacity of the withdrawn groups) reads 0 in the
// Node's capacity and allocatable, as kubelet reports a retired plugin's resources. The labels stay:
// the Device Manager only adds and overwrites accelerator keys on its NodeFeature, never removes
// them (docs/fidelity.md).
Undetected undetect_manufacturer(Node node, Devices devices, std::string_view manufacturer);

}  // namespace chaintwin::model
