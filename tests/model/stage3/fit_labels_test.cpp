#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "model/stage3/card_ledger.h"
#include "model/stage3/fit_labels.h"
#include "model/admission/fit_pin.h"
#include "model/catalog/label_keys.h"

namespace {

using namespace chaintwin::model;

constexpr int32_t kM = 1'600'000;

struct CardSpec {
  int32_t remaining = kM;
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;
  int32_t logical = 10;
  int32_t physical = 0;
  int32_t slices = 0;
};

// One model's cards on node "n": spec capability and status ledger joined by id.
void add_group(Devices& d, const std::string& id, const std::vector<CardSpec>& specs) {
  DevicesGroup spec;
  spec.id = id;
  spec.manufacturer = "nvidia";
  DevicesAllocationGroup status;
  status.id = id;
  status.manufacturer = "nvidia";
  uint32_t i = 0;
  for (const auto& s : specs) {
    Accelerator acc;
    acc.id = "n-" + id + "-" + std::to_string(i);
    acc.index = i;
    acc.status.logical_sliced.count = s.logical;
    acc.status.physical_sliced.count = s.physical;
    spec.accelerators.push_back(acc);
    AcceleratorAllocation row;
    row.id = acc.id;
    row.index = i++;
    row.mode = s.mode;
    row.remaining = s.remaining;
    row.allocated_slices = s.slices;
    status.accelerators.push_back(row);
  }
  d.spec.groups.push_back(spec);
  d.status.groups.push_back(status);
}

Devices ledger(const std::string& id, const std::vector<CardSpec>& specs) {
  Devices d;
  d.metadata.name = "n";
  d.metadata.labels[std::string(keys::kManaged)] = "true";
  add_group(d, id, specs);
  return d;
}

Node node(bool managed, StringMap labels = {}) {
  Node nd;
  nd.metadata.name = "n";
  nd.metadata.labels = std::move(labels);
  if (managed) nd.metadata.labels[std::string(keys::kManaged)] = "true";
  return nd;
}

const std::string kT4Sliced = "sliced-max-free-units.fit.gpustack.ai/nvidia-t4";
const std::string kT4Shared = "shared-free-cards.fit.gpustack.ai/nvidia-t4";

}  // namespace

TEST_CASE("the card view joins capability and ledger by accelerator id", "[fit]") {
  Devices d = ledger("t4", {{kM / 2, DeviceAllocationMode::kSliced, 10, 0, 3}});
  const auto cards = cards_of(d);
  REQUIRE(cards.size() == 1);
  CHECK(cards[0].accelerator_key() == "nvidia-t4");
  CHECK(cards[0].free_slots() == 7);
  CHECK(cards[0].free_slice_units() == kM / 2);
  CHECK(cards[0].free_shares() == 0);  // a sliced card grants no share
  d.spec.groups[0].accelerators[0].id = "other";  // no capability: zero value, no logical slicing
  CHECK(cards_of(d)[0].free_slice_units() == -1);
  CHECK(cards_of(d)[0].serves_family(ResourceFamily::kExclusive));
}

TEST_CASE("the published card view copies every ledger field but the holders' charges and the live instances",
          "[fit]") {
  Devices d = ledger("t4", {{kM / 2, DeviceAllocationMode::kSliced, 10, 0, 3}});
  AcceleratorAllocation& row = d.status.groups[0].accelerators[0];
  row.allocated = kM / 2;
  row.allocated_profiles = {{"1g.10gb", 1}};
  row.remaining_profiles = {{"1g.10gb", 6}, {"2g.20gb", 2}};
  row.instances = {{"1g.10gb", {0, 1}}};
  row.charges = {{"default/p/main", DeviceAllocationMode::kSliced, kM / 2, 1, "", 0}};
  const auto whole = cards_of(d);
  const auto published = cards_of(d, LedgerCopy::kPublished);
  REQUIRE(published.size() == whole.size());
  AcceleratorAllocation expected = whole[0].ledger;
  CHECK_FALSE(expected.instances.empty());
  CHECK_FALSE(expected.charges.empty());
  expected.instances.clear();
  expected.charges.clear();
  CHECK(published[0].ledger == expected);
  CHECK(published[0].capability == whole[0].capability);
  CHECK(published[0].node == whole[0].node);
  CHECK(published[0].accelerator_key() == whole[0].accelerator_key());
}

TEST_CASE("the card view finds each row's capability wherever the spec lists it", "[fit]") {
  struct Row {
    const char* layout;
    std::vector<std::string> spec_ids;  // spec accelerators in order; logical count = position + 1
    std::string row_id;
    int32_t expected_logical;  // 0: no capability found
  };
  const std::vector<Row> rows = {
      {"same position as the ledger row", {"a", "b", "c"}, "b", 2},
      {"spec in another order", {"c", "a", "b"}, "a", 2},
      {"an id the spec lists twice: the later entry", {"a", "x", "a"}, "a", 3},
      {"an id the spec does not list", {"a", "b"}, "z", 0},
      {"an empty spec", {}, "a", 0},
  };
  for (const auto& row : rows) {
    INFO(row.layout);
    Devices d;
    d.metadata.name = "n";
    DevicesGroup spec;
    spec.id = "t4";
    spec.manufacturer = "nvidia";
    for (std::size_t i = 0; i < row.spec_ids.size(); ++i) {
      Accelerator acc;
      acc.id = row.spec_ids[i];
      acc.status.logical_sliced.count = static_cast<int32_t>(i + 1);
      spec.accelerators.push_back(acc);
    }
    DevicesAllocationGroup status;
    status.id = "t4";
    status.manufacturer = "nvidia";
    AcceleratorAllocation ledger_row;
    ledger_row.id = row.row_id;
    status.accelerators.push_back(ledger_row);
    d.spec.groups.push_back(spec);
    d.status.groups.push_back(status);
    const auto cards = cards_of(d);
    REQUIRE(cards.size() == 1);
    CHECK(cards[0].capability.logical_sliced.count == row.expected_logical);
  }
}

TEST_CASE("per-card predicates follow mode, slots and population", "[fit]") {
  struct Row {
    const char* name;
    CardSpec card;
    int64_t shares;
    int64_t slice_units;
  };
  const std::vector<Row> rows = {
      {"a free card", {}, 10, kM},
      {"a shared card with three shares left", {480000, DeviceAllocationMode::kShared}, 3, -1},
      {"a card below one share", {159999}, 0, 159999},
      {"an exclusive card", {0, DeviceAllocationMode::kExclusive}, 0, -1},
      {"a sliced card at its slot count", {960000, DeviceAllocationMode::kSliced, 10, 0, 10}, 0, -1},
      {"a card without logical slicing", {kM, DeviceAllocationMode::kNone, 0}, 10, -1},
      {"a partitioned card", {kM, DeviceAllocationMode::kNone, 10, 1}, 0, -1},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    const auto card = cards_of(ledger("t4", {row.card}))[0];
    CHECK(card.free_shares() == row.shares);
    CHECK(card.free_slice_units() == row.slice_units);
  }
}

TEST_CASE("the sliced label is the largest single card, not the sum", "[fit]") {
  const auto labels = desired_fit_labels(node(true), nullptr);
  CHECK(labels.empty());
  const Devices d = ledger("t4", {{640000}, {640000}, {1600000}});
  CHECK(desired_fit_labels(node(true), &d) == StringMap{{kT4Sliced, "1600000"}, {kT4Shared, "3"}});
  CHECK(desired_fit_labels(node(false), &d).empty());
  const Devices fragmented = ledger("t4", {{640000}, {640000}});
  CHECK(fit_labels_of(fragmented).at(kT4Sliced) == "640000");
}

TEST_CASE("a full population reads 0 and a missing one has no label", "[fit]") {
  CHECK(fit_labels_of(ledger("t4", {{0, DeviceAllocationMode::kExclusive}})) ==
        StringMap{{kT4Sliced, "0"}, {kT4Shared, "0"}});
  CHECK(fit_labels_of(ledger("t4", {{kM, DeviceAllocationMode::kNone, 0}})) == StringMap{{kT4Shared, "1"}});
  CHECK(fit_labels_of(ledger("t4", {{kM, DeviceAllocationMode::kNone, 10, 1}})).empty());
}

TEST_CASE("a group id that is not label grammar gets no label and the others still do", "[fit]") {
  Devices d = ledger("Bad Group", {{}});
  add_group(d, "t4", {{640000}});
  CHECK(fit_labels_of(d) == StringMap{{kT4Sliced, "640000"}, {kT4Shared, "1"}});
}

TEST_CASE("fit label keys are the two prefixes with a valid model", "[fit]") {
  CHECK(fit_sliced_max_free_units_label_key("nvidia-t4") == kT4Sliced);
  CHECK(fit_shared_free_cards_label_key("nvidia-t4") == kT4Shared);
  CHECK(is_fit_label_key(kT4Sliced));
  CHECK(is_fit_label_key(fit_sliced_max_free_units_label_key(std::string(63, 'a'))));
  CHECK_FALSE(is_fit_label_key(fit_sliced_max_free_units_label_key(std::string(64, 'a'))));
  CHECK_FALSE(is_fit_label_key("sliced-max-free-units.fit.gpustack.ai/"));
  CHECK_FALSE(is_fit_label_key("shared-free-cards.fit.gpustack.ai/a/b"));
  CHECK_FALSE(is_fit_label_key("fit.gpustack.ai/x"));
  CHECK(filter_fit_labels({{kT4Sliced, "1"}, {"zone", "a"}}) == StringMap{{kT4Sliced, "1"}});
  CHECK(equal_ignoring_fit_labels({{"zone", "a"}}, {{"zone", "a"}, {kT4Shared, "4"}}));
  CHECK_FALSE(equal_ignoring_fit_labels({{kT4Sliced, "1"}}, {{kT4Sliced, "2"}, {"zone", "b"}}));
}

TEST_CASE("the patch sets changed values, nulls stale fit labels and leaves others alone", "[fit]") {
  CHECK_FALSE(build_fit_label_patch({{kT4Sliced, "640000"}}, {{kT4Sliced, "640000"}, {"zone", "a"}}).has_value());
  const auto patch = build_fit_label_patch({{kT4Shared, "4"}}, {{kT4Sliced, "640000"}, {"zone", "a"}});
  REQUIRE(patch.has_value());
  CHECK(*patch == LabelMergePatch{{kT4Sliced, std::nullopt}, {kT4Shared, "4"}});
  CHECK(apply_label_merge_patch({{kT4Sliced, "640000"}, {"zone", "a"}}, *patch) ==
        StringMap{{kT4Shared, "4"}, {"zone", "a"}});
}

TEST_CASE("reconcile writes the pair once and a second pass writes nothing", "[fit]") {
  Node nd = node(true, {{"zone", "a"}, {"sliced-max-free-units.fit.gpustack.ai/nvidia-l4", "1600000"}});
  const Devices d = ledger("t4", {{640000}, {1600000}});
  const auto first = reconcile_fit_labels(nd, &d);
  REQUIRE(first.patch.has_value());
  CHECK(first.labels_after == StringMap{{std::string(keys::kManaged), "true"},
                                        {"zone", "a"},
                                        {kT4Sliced, "1600000"},
                                        {kT4Shared, "2"}});
  nd.metadata.labels = first.labels_after;
  CHECK_FALSE(reconcile_fit_labels(nd, &d).patch.has_value());
  // Losing the ledger removes the labels.
  const auto gone = reconcile_fit_labels(nd, nullptr);
  CHECK(gone.labels_after == StringMap{{std::string(keys::kManaged), "true"}, {"zone", "a"}});
  nd.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  CHECK_FALSE(reconcile_fit_labels(nd, nullptr).patch.has_value());
}

TEST_CASE("watch triggers fire on a mark flip or a moved fit value only", "[fit]") {
  CHECK(node_fit_label_node_updated(node(false), node(true)));
  CHECK(node_fit_label_node_updated(node(true, {{kT4Sliced, "640000"}}), node(true, {{kT4Sliced, "1"}})));
  CHECK_FALSE(node_fit_label_node_updated(node(true, {{"zone", "a"}}), node(true, {{"zone", "b"}})));
  Node deleting = node(false);
  deleting.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  CHECK_FALSE(node_fit_label_node_updated(node(true), deleting));

  const Devices base = ledger("t4", {{kM}, {640000}});
  CHECK_FALSE(fit_signature_changed(base, ledger("t4", {{kM}, {480000}})));
  CHECK(fit_signature_changed(base, ledger("t4", {{960000}, {640000}})));
  CHECK(fit_signature_changed(base, ledger("t4", {{kM}, {100000}})));
  Devices unmarked = base;
  unmarked.metadata.labels.clear();
  CHECK(fit_devices_updated(unmarked, base));
  CHECK_FALSE(fit_devices_updated(base, ledger("t4", {{kM}, {480000}})));
}

TEST_CASE("a slice of U units pins Gt U-1 and a shared request of N ≥ 2 pins Gt N-1", "[fit]") {
  CHECK(fit_pin_requirements("nvidia-t4", {800000, 0}) ==
        std::vector<NodeSelectorRequirement>{{kT4Sliced, "Gt", {"799999"}}});
  CHECK(fit_pin_requirements("nvidia-t4", {0, 2}) == std::vector<NodeSelectorRequirement>{{kT4Shared, "Gt", {"1"}}});
  CHECK(fit_pin_requirements("nvidia-t4", {0, 1}).empty());
  CHECK(fit_pin_requirements("nvidia-t4", {0, 0}).empty());
  CHECK(fit_pin_requirements("Bad Group", {800000, 0}).empty());
  CHECK(combine_fit_demands({160000, 2}, {480000, 3}) == PodFitDemand{480000, 3});
}

TEST_CASE("the pin is ANDed into every required term once", "[fit]") {
  const auto reqs = fit_pin_requirements("nvidia-t4", {800000, 0});
  const auto only = pin_required_terms({}, reqs);
  REQUIRE(only.size() == 1);
  CHECK(only[0].match_expressions == reqs);
  std::vector<NodeSelectorTerm> terms(2);
  terms[0].match_expressions.push_back({"zone", "In", {"a"}});
  const auto once = pin_required_terms(terms, reqs);
  CHECK(pin_required_terms(once, reqs) == once);
  CHECK(once[0].match_expressions.size() == 2);
  CHECK(once[1].match_expressions == reqs);
}

TEST_CASE("a fit-label patch is due exactly when build_fit_label_patch would build one", "[fit]") {
  struct Row {
    const char* what;
    StringMap desired, current;
    bool due;
  };
  const std::vector<Row> rows = {
      {"the same value", {{kT4Sliced, "640000"}}, {{kT4Sliced, "640000"}, {"zone", "a"}}, false},
      {"a changed value", {{kT4Sliced, "1600000"}}, {{kT4Sliced, "640000"}}, true},
      {"a missing label", {{kT4Shared, "4"}}, {{"zone", "a"}}, true},
      {"a stale fit label", {}, {{kT4Sliced, "640000"}}, true},
      {"only other labels", {}, {{"zone", "a"}}, false},
      {"nothing at all", {}, {}, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(fit_label_patch_due(r.desired, r.current) == r.due);
    CHECK(build_fit_label_patch(r.desired, r.current).has_value() == r.due);
    StringMap in_place = r.current;
    if (const auto patch = build_fit_label_patch(r.desired, r.current)) {
      apply_label_merge_patch_in_place(in_place, *patch);
      CHECK(in_place == apply_label_merge_patch(r.current, *patch));
    }
  }
}

TEST_CASE("the card join finds each status row's capability by id, whatever the spec's order", "[fit]") {
  // Spec rows as (id, logical slices), listed in spec order; the later of two equal ids wins and a
  // missing id has no capability. `split`: the rows alternate between two spec groups, so that
  // the search crosses groups as the operator's does.
  struct Row {
    std::string what;
    std::vector<std::pair<std::string, int32_t>> spec;
    bool split;
    std::vector<std::pair<std::string, int32_t>> expected;  // status id → logical slices found
  };
  const std::vector<Row> rows{
      {"the spec in id order", {{"a", 1}, {"b", 2}, {"c", 3}}, false, {{"c", 3}, {"a", 1}, {"b", 2}}},
      {"the spec out of order", {{"c", 3}, {"a", 1}, {"b", 2}}, false, {{"a", 1}, {"b", 2}, {"c", 3}}},
      {"the spec out of order over two groups", {{"c", 3}, {"a", 1}, {"b", 2}}, true, {{"a", 1}, {"b", 2}, {"c", 3}}},
      {"an id listed twice, in order", {{"a", 1}, {"a", 4}, {"b", 2}}, false, {{"a", 4}, {"b", 2}}},
      {"an id listed twice, out of order", {{"b", 2}, {"a", 1}, {"b", 5}}, false, {{"a", 1}, {"b", 5}}},
      // b and a7 go to the first group, a1 to the second: the second group's row is the later one.
      {"an id listed in both groups", {{"b", 2}, {"a", 1}, {"a", 7}}, true, {{"a", 1}, {"b", 2}}},
      {"a row the spec does not list", {{"a", 1}}, false, {{"z", 0}, {"a", 1}}},
      {"no spec at all", {}, false, {{"a", 0}}},
      // Ids of one length and the same last bytes are not the same id; the same long id twice is.
      {"ids alike in length and tail", {{"GPU-0-000000000", 1}, {"GPU-1-000000000", 2}}, false,
       {{"GPU-0-000000000", 1}, {"GPU-1-000000000", 2}}},
      {"a long id listed twice", {{"GPU-5b3c1e2a-77f0-4d1e-9a55-0c3e1b2a6f10", 1}, {"GPU-x", 2},
                                  {"GPU-5b3c1e2a-77f0-4d1e-9a55-0c3e1b2a6f10", 6}}, false,
       {{"GPU-5b3c1e2a-77f0-4d1e-9a55-0c3e1b2a6f10", 6}, {"GPU-x", 2}}},
      {"ids with one tail, one longer", {{"b", 1}, {"ab", 2}}, false, {{"ab", 2}, {"b", 1}}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    Devices d;
    DevicesGroup first, second;
    for (std::size_t i = 0; i < r.spec.size(); ++i) {
      Accelerator acc;
      acc.id = r.spec[i].first;
      acc.status.logical_sliced.count = r.spec[i].second;
      (r.split && i % 2 == 1 ? second : first).accelerators.push_back(acc);
    }
    d.spec.groups = {first, second};
    // The join guesses each lookup is the next spec entry: asked in the rows' order, in reverse
    // and each id twice in a row, it must answer the same.
    const CardJoin join(d);
    for (const auto& [id, count] : r.expected) {
      INFO(id);
      CHECK(join.capability_of(id).logical_sliced.count == count);
    }
    const CardJoin again(d);
    for (auto it = r.expected.rbegin(); it != r.expected.rend(); ++it) {
      INFO("reverse " << it->first);
      CHECK(again.capability_of(it->first).logical_sliced.count == it->second);
      CHECK(again.capability_of(it->first).logical_sliced.count == it->second);
    }
    // In spec order, as a status group listing the spec's own rows would ask.
    const CardJoin in_spec_order(d);
    for (const auto& group : d.spec.groups)
      for (const auto& acc : group.accelerators) {
        INFO("spec order " << acc.id);
        const auto want = std::find_if(r.expected.begin(), r.expected.end(), [&](const auto& e) { return e.first == acc.id; });
        REQUIRE(want != r.expected.end());
        CHECK(in_spec_order.capability_of(acc.id).logical_sliced.count == want->second);
      }
  }
}

TEST_CASE("the fit labels are current exactly when no fit-label patch is due, and a sync in place writes the patch's labels", "[fit]") {
  // A T4 group with one free shareable, sliceable card and one sliced card holding 3 slices.
  const Devices devices = ledger("t4", {{kM, DeviceAllocationMode::kNone, 10, 0, 0},
                                        {kM / 2, DeviceAllocationMode::kSliced, 10, 0, 3}});
  const StringMap desired = fit_labels_of(devices);
  REQUIRE(desired.size() == 2);
  const std::string sliced = desired.at(kT4Sliced), shared = desired.at(kT4Shared);
  // The same model's group listed twice: the later group's values are the desired ones.
  Devices twice = devices;
  add_group(twice, "t4", {{kM / 4, DeviceAllocationMode::kSliced, 10, 0, 1}});
  REQUIRE(fit_labels_of(twice).at(kT4Sliced) != sliced);
  struct Row {
    std::string what;
    bool managed;
    const Devices* devices;
    StringMap labels;
    bool current;
  };
  const std::vector<Row> rows{
      {"both labels with their values", true, &devices, {{kT4Sliced, sliced}, {kT4Shared, shared}, {"zone", "a"}}, true},
      {"one label missing", true, &devices, {{kT4Sliced, sliced}}, false},
      {"a changed value", true, &devices, {{kT4Sliced, sliced}, {kT4Shared, "0"}}, false},
      {"a stale fit label of another model",
       true,
       &devices,
       {{kT4Sliced, sliced}, {kT4Shared, shared}, {"shared-free-cards.fit.gpustack.ai/nvidia-a100", "1"}},
       false},
      {"the earlier group's value of a repeated model", true, &twice, {{kT4Sliced, sliced}, {kT4Shared, shared}}, false},
      {"the later group's value of a repeated model",
       true,
       &twice,
       {{kT4Sliced, fit_labels_of(twice).at(kT4Sliced)}, {kT4Shared, fit_labels_of(twice).at(kT4Shared)}},
       true},
      {"an unmanaged Node without fit labels", false, &devices, {{"zone", "a"}}, true},
      {"an unmanaged Node with a fit label", false, &devices, {{kT4Sliced, sliced}}, false},
      {"no ledger and no fit labels", true, nullptr, {}, true},
      {"no ledger and a fit label", true, nullptr, {{kT4Shared, shared}}, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const Node n = node(r.managed, r.labels);
    CHECK(fit_labels_current(n, r.devices) == r.current);
    CHECK(fit_labels_current(n, r.devices) == !fit_label_patch_due(desired_fit_labels(n, r.devices), n.metadata.labels));
    // Synced in place: the labels the patch gives, a move exactly when they were not current,
    // and current afterwards.
    StringMap patched = n.metadata.labels;
    if (const auto patch = build_fit_label_patch(desired_fit_labels(n, r.devices), n.metadata.labels))
      apply_label_merge_patch_in_place(patched, *patch);
    Node synced = n;
    CHECK(sync_fit_labels(synced, r.devices) == !r.current);
    CHECK(synced.metadata.labels == patched);
    CHECK(fit_labels_current(synced, r.devices));
    CHECK_FALSE(sync_fit_labels(synced, r.devices));
  }
}

TEST_CASE("whether a fit label key is valid depends on its model alone, the same for both prefixes", "[fit]") {
  // fit_labels_of asks once per group and uses the answer for both keys.
  const std::vector<std::string> models{"nvidia-t4",          "nvidia-tesla-v100-sxm2-32gb", "nvidia-Bad Group",
                                        "nvidia-a/b",         "",                            "nvidia-",
                                        std::string(63, 'a'), std::string(64, 'a'),          "-nvidia",
                                        "nvidia.t4_x",        "NVIDIA-T4"};
  for (const auto& m : models) {
    INFO(m);
    CHECK(is_fit_label_key(fit_sliced_max_free_units_label_key(m)) ==
          is_fit_label_key(fit_shared_free_cards_label_key(m)));
  }
  CHECK(is_fit_label_key(fit_shared_free_cards_label_key("nvidia-t4")));
  CHECK_FALSE(is_fit_label_key(fit_shared_free_cards_label_key("nvidia-a/b")));
  CHECK_FALSE(is_fit_label_key(fit_shared_free_cards_label_key(std::string(64, 'a'))));
}

TEST_CASE("the flat card view is every group's cards in status order, copied alike", "[fit]") {
  Devices d = ledger("t4", {{kM, DeviceAllocationMode::kNone, 10, 0, 0}, {kM / 2, DeviceAllocationMode::kSliced, 10, 0, 3}});
  add_group(d, "a100", {{kM / 4, DeviceAllocationMode::kShared, 7, 7, 0}});
  d.status.groups[0].accelerators[1].charges = {{"default/p/main", DeviceAllocationMode::kSliced, kM / 2, 1, "", 0}};
  for (const LedgerCopy copy : {LedgerCopy::kWhole, LedgerCopy::kPublished}) {
    INFO((copy == LedgerCopy::kWhole ? "whole" : "published"));
    const auto flat = cards_of(d, copy);
    std::vector<const CardLedger*> grouped;
    const auto groups = card_groups_of(d, copy);
    for (const auto& g : groups)
      for (const auto& c : g.cards) grouped.push_back(&c);
    REQUIRE(flat.size() == 3);
    REQUIRE(grouped.size() == flat.size());
    for (std::size_t i = 0; i < flat.size(); ++i) {
      INFO(i);
      CHECK(flat[i].node == grouped[i]->node);
      CHECK(flat[i].manufacturer == grouped[i]->manufacturer);
      CHECK(flat[i].group_id == grouped[i]->group_id);
      CHECK(flat[i].capability == grouped[i]->capability);
      CHECK(flat[i].ledger == grouped[i]->ledger);
    }
    CHECK(flat[2].accelerator_key() == "nvidia-a100");
    CHECK(flat[1].ledger.charges.empty() == (copy == LedgerCopy::kPublished));
  }
}
