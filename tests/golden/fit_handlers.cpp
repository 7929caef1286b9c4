// Golden handlers for fit-labels.json: the simplified card view (inputSchema) becomes a real
// model::Devices (spec capability + status ledger, joined by accelerator id) and model::Node;
// everything asserted is computed by model/fit_labels, model/fit_pin and model/gate3_feasibility.
#include <stdexcept>
#include <string>

#include "model/stage3/card_ledger.h"
#include "model/api/devices.h"
#include "model/stage3/fit_labels.h"
#include "model/admission/gate3/gate3_feasibility.h"
#include "model/api/k8s_validation.h"
#include "model/catalog/label_keys.h"
#include "model/api/node.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;

m::StringMap string_map(const json& j) {
  m::StringMap out;
  for (const auto& [k, v] : j.items()) out[k] = v.get<std::string>();
  return out;
}

json to_json(const m::StringMap& labels) {
  json out = json::object();
  for (const auto& [k, v] : labels) out[k] = v;
  return out;
}

// The card view of one node: groups[].accelerators[] {remaining, mode, logicalCount,
// physicalCount, allocatedSlices}; aKey = <manufacturer>-<group id>.
m::Devices devices_of(const json& view, const std::string& node_name = "n") {
  m::Devices d;
  d.metadata.name = node_name;
  const std::string manufacturer = view.value("manufacturer", "nvidia");
  const json groups = view.value("groups", json::array());
  for (const auto& g : groups) {
    const std::string gid = g.at("id").get<std::string>();
    m::DevicesGroup spec{};
    spec.id = gid;
    spec.manufacturer = manufacturer;
    m::DevicesAllocationGroup status{};
    status.id = gid;
    status.manufacturer = manufacturer;
    uint32_t index = 0;
    for (const auto& a : g.at("accelerators")) {
      const std::string id = node_name + "-" + gid + "-" + std::to_string(index);
      m::Accelerator acc{};
      acc.id = id;
      acc.index = index;
      acc.status.logical_sliced.count = a.value("logicalCount", 0);
      acc.status.physical_sliced.count = a.value("physicalCount", 0);
      spec.accelerators.push_back(acc);
      m::AcceleratorAllocation row{};
      row.id = id;
      row.index = index;
      const auto mode = m::parse_allocation_mode(a.value("mode", std::string("None")));
      if (!mode) throw std::runtime_error("unknown mode " + a.value("mode", std::string()));
      row.mode = *mode;
      row.remaining = a.value("remaining", 0);
      row.allocated_slices = a.value("allocatedSlices", 0);
      status.accelerators.push_back(row);
      ++index;
    }
    d.spec.groups.push_back(spec);
    d.status.groups.push_back(status);
  }
  return d;
}

m::Node node_of(bool managed, m::StringMap labels = {}) {
  m::Node node;
  node.metadata.name = "n";
  node.metadata.labels = std::move(labels);
  if (managed) node.metadata.labels[std::string(m::keys::kManaged)] = "true";
  return node;
}

json desired_labels(const json& in) {
  const m::Node node = node_of(in.value("nodeManaged", false));
  const m::Devices devices = devices_of(in);
  const bool present = in.value("devicesPresent", false);
  return to_json(m::desired_fit_labels(node, present ? &devices : nullptr));
}

// Whether a label map admits a request that needs the label's value above `threshold`.
bool label_admits(const m::StringMap& labels, const std::string& key, int64_t threshold) {
  const auto it = labels.find(key);
  if (it == labels.end()) return false;
  return std::stoll(it->second) > threshold;
}

GOLDEN_HANDLER(Spec("fit-labels", "desiredFitLabels").in({"nodeManaged", "devicesPresent", "groups"}).opt({"manufacturer"}).out({"labels"}),
               [](const json& in, const json&) -> json { return {{"labels", desired_labels(in)}}; });

// fitLabelsOf: the labels of a Devices ledger alone (no Node, no managed gate).
GOLDEN_HANDLER(Spec("fit-labels", "fitLabelsOf").in({"groups"}).opt({"manufacturer"}).out({"labels"}),
               [](const json& in, const json&) -> json { return {{"labels", to_json(m::fit_labels_of(devices_of(in)))}}; });

GOLDEN_HANDLER(Spec("fit-labels", "buildFitLabelPatch").in({"desired", "currentLabels"}).out({"metadataLabelsMergePatch"}), [](const json& in, const json&) -> json {
  const auto patch = m::build_fit_label_patch(string_map(in.at("desired")), string_map(in.at("currentLabels")));
  if (!patch) return {{"metadataLabelsMergePatch", nullptr}};
  json out = json::object();
  for (const auto& [k, v] : *patch) out[k] = v ? json(*v) : json(nullptr);
  return {{"metadataLabelsMergePatch", out}};
});

GOLDEN_HANDLER(Spec("fit-labels", "fitSignatureChanged").in({"old", "new"}).out({"changed"}), [](const json& in, const json&) -> json {
  return {{"changed", m::fit_signature_changed(devices_of(in.at("old")), devices_of(in.at("new")))}};
});

GOLDEN_HANDLER(Spec("fit-labels", "nodeFitLabelNodeUpdated").in({"oldNodeLabels", "newNodeLabels"}).out({"reconcile"}), [](const json& in, const json&) -> json {
  const m::Node old_node = node_of(false, string_map(in.at("oldNodeLabels")));
  const m::Node new_node = node_of(false, string_map(in.at("newNodeLabels")));
  return {{"reconcile", m::node_fit_label_node_updated(old_node, new_node)}};
});

GOLDEN_HANDLER(Spec("fit-labels", "fitDevicesUpdated").in({"old", "new"}).opt({"oldDevicesManagedLabel", "newDevicesManagedLabel"}).out({"reconcile"}), [](const json& in, const json&) -> json {
  m::Devices old_devices = devices_of(in.at("old"));
  m::Devices new_devices = devices_of(in.at("new"));
  if (in.value("oldDevicesManagedLabel", false)) old_devices.metadata.labels[std::string(m::keys::kManaged)] = "true";
  if (in.value("newDevicesManagedLabel", false)) new_devices.metadata.labels[std::string(m::keys::kManaged)] = "true";
  return {{"reconcile", m::fit_devices_updated(old_devices, new_devices)}};
});

GOLDEN_HANDLER(Spec("fit-labels", "NodeFitLabelReconciler").alias("reconcile").alias("NodeFitLabelReconciler.Reconcile").in({"devices", "nodeLabels"}).out({"nodeLabelsAfter", "secondReconcileWrites"}), [](const json& in, const json&) -> json {
  const json& view = in.at("devices");
  m::Node node = node_of(false, string_map(in.at("nodeLabels")));
  const m::Devices devices = devices_of(view);
  const m::Devices* ledger = view.value("devicesPresent", true) ? &devices : nullptr;
  const auto first = m::reconcile_fit_labels(node, ledger);
  node.metadata.labels = first.labels_after;
  const auto second = m::reconcile_fit_labels(node, ledger);
  return {{"nodeLabelsAfter", to_json(first.labels_after)}, {"secondReconcileWrites", second.patch.has_value()}};
});

// One handler per label-key function: a case asks for the key of the function it names.
json label_key_case(const std::string& key) {
  return {{"key", key}, {"validQualifiedName", m::is_qualified_name(key)}};
}

GOLDEN_HANDLER(Spec("fit-labels", "FitSlicedMaxFreeUnitsLabelKey").in({"aKey"}).out({"key", "validQualifiedName"}),
               [](const json& in, const json&) -> json {
                 return label_key_case(m::fit_sliced_max_free_units_label_key(in.at("aKey").get<std::string>()));
               });

GOLDEN_HANDLER(Spec("fit-labels", "FitSharedFreeCardsLabelKey").in({"aKey"}).out({"key", "validQualifiedName"}),
               [](const json& in, const json&) -> json {
                 return label_key_case(m::fit_shared_free_cards_label_key(in.at("aKey").get<std::string>()));
               });

GOLDEN_HANDLER(Spec("fit-labels", "IsFitLabelKey").in({"key"}).out({"isFitLabelKey"}), [](const json& in, const json&) -> json {
  return {{"isFitLabelKey", m::is_fit_label_key(in.at("key").get<std::string>())}};
});

GOLDEN_HANDLER(Spec("fit-labels", "EqualIgnoringFitLabels").in({"a", "b"}).out({"equal"}), [](const json& in, const json&) -> json {
  return {{"equal", m::equal_ignoring_fit_labels(string_map(in.at("a")), string_map(in.at("b")))}};
});

GOLDEN_HANDLER(Spec("fit-labels", "FilterFitLabels").in({"labels"}).out({"fitLabels"}), [](const json& in, const json&) -> json {
  return {{"fitLabels", to_json(m::filter_fit_labels(string_map(in.at("labels"))))}};
});

// The agreement matrix: for a single one-card Pod, the label verdict (value > U-1, or > N-1)
// and Gate 3's own verdict on the node's cards are computed independently; they must agree.
// The request sizes asked about are read from the keys of `want` (shaping only).
GOLDEN_HANDLER(
    Spec("fit-labels", "fit labels agree with nodeDevicesFeasibility")
        .in({"groups"}).opt({"manufacturer", "nodeManaged", "devicesPresent"})
        .out({"labels", "sliceOfUnitsAdmitted", "sharedOnNCardsAdmitted"})
        .must({"sliceOfUnitsAdmitted", "sharedOnNCardsAdmitted"})
        .prose({"rule"}),
    [](const json& in, const json& want) -> json {
      const m::Node node = node_of(in.value("nodeManaged", true));
      const m::Devices devices = devices_of(in);
      const m::Devices* ledger = in.value("devicesPresent", true) ? &devices : nullptr;
      const m::StringMap labels = m::desired_fit_labels(node, ledger);
      const std::string a_key = std::string(in.value("manufacturer", "nvidia")) + "-" +
                                in.at("groups").at(0).at("id").get<std::string>();
      const std::string sliced_key = m::fit_sliced_max_free_units_label_key(a_key);
      const std::string shared_key = m::fit_shared_free_cards_label_key(a_key);
      const auto cards = ledger ? m::cards_of(*ledger) : std::vector<m::CardLedger>{};

      auto agree = [](bool by_label, const m::Gate3Verdict& gate3, const std::string& what) {
        if (by_label != gate3.ready())
          throw std::runtime_error(what + ": label says " + (by_label ? "admit" : "skip") + ", Gate 3 says " +
                                   std::string(m::to_string(gate3.state)) + " (" + gate3.message + ")");
        return gate3.ready();
      };

      const json slice_sizes = want.value("sliceOfUnitsAdmitted", json::object());
      const json shared_sizes = want.value("sharedOnNCardsAdmitted", json::object());
      json slices = json::object();
      for (const auto& [units_text, _] : slice_sizes.items()) {
        const int64_t units = std::stoll(units_text);
        m::FamilyDemand demand;
        demand.family = m::ResourceFamily::kSliced;
        demand.accelerators = 1;
        demand.units_per_card = units;
        slices[units_text] = agree(label_admits(labels, sliced_key, units - 1),
                                   m::node_devices_feasibility(cards, {demand}), "slice of " + units_text);
      }
      json shared = json::object();
      for (const auto& [n_text, _] : shared_sizes.items()) {
        const int32_t n = std::stoi(n_text);
        m::FamilyDemand demand;
        demand.family = m::ResourceFamily::kShared;
        demand.accelerators = n;
        demand.shared_holders = {{n, 1}};
        shared[n_text] = agree(label_admits(labels, shared_key, n - 1), m::node_devices_feasibility(cards, {demand}),
                               "shared on " + n_text);
      }
      return {{"labels", to_json(labels)}, {"sliceOfUnitsAdmitted", slices}, {"sharedOnNCardsAdmitted", shared}};
    });

}  // namespace
