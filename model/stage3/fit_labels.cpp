// Fit label keys, values, patch and triggers.
#include "model/stage3/fit_labels.h"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <system_error>
#include <utility>

#include "model/normalize_name.h"
#include "model/stage3/card_ledger.h"
#include "model/api/k8s_validation.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

std::optional<std::string_view> label_of(const StringMap& labels, std::string_view key) {
  if (auto it = labels.find(key); it != labels.end()) return it->second;  // no string built per lookup
  return std::nullopt;
}

}  // namespace

std::string fit_sliced_max_free_units_label_key(std::string_view a_key) {
  return std::string(keys::kFitSlicedMaxFreeUnitsPrefix) + std::string(a_key);
}

std::string fit_shared_free_cards_label_key(std::string_view a_key) {
  return std::string(keys::kFitSharedFreeCardsPrefix) + std::string(a_key);
}

namespace {
constexpr FitLabelKeyFunction kFitLabelKeyFunctions[] = {
    {"FitSlicedMaxFreeUnitsLabelKey", keys::kFitSlicedMaxFreeUnitsPrefix, &fit_sliced_max_free_units_label_key},
    {"FitSharedFreeCardsLabelKey", keys::kFitSharedFreeCardsPrefix, &fit_shared_free_cards_label_key},
};
constexpr FitLabelPredicate kFitLabelPredicates[] = {
    {"IsFitLabelKey", &is_fit_label_key},
};
}  // namespace

std::span<const FitLabelKeyFunction> fit_label_key_functions() { return kFitLabelKeyFunctions; }

const FitLabelKeyFunction* find_fit_label_key_function(std::string_view operator_name) {
  for (const auto& f : kFitLabelKeyFunctions)
    if (f.operator_name == operator_name) return &f;
  return nullptr;
}

std::span<const FitLabelPredicate> fit_label_predicates() { return kFitLabelPredicates; }

const FitLabelPredicate* find_fit_label_predicate(std::string_view operator_name) {
  for (const auto& p : kFitLabelPredicates)
    if (p.operator_name == operator_name) return &p;
  return nullptr;
}

namespace {

bool has_fit_label_prefix(std::string_view key) {
  return key.starts_with(keys::kFitSlicedMaxFreeUnitsPrefix) || key.starts_with(keys::kFitSharedFreeCardsPrefix);
}

}  // namespace

bool is_fit_label_key(std::string_view key) {
  for (std::string_view prefix : {keys::kFitSlicedMaxFreeUnitsPrefix, keys::kFitSharedFreeCardsPrefix}) {
    if (key.starts_with(prefix) && key.size() > prefix.size()) return is_qualified_name(key);
  }
  return false;
}

StringMap filter_fit_labels(const StringMap& labels) {
  StringMap out;
  for (const auto& [k, v] : labels)
    if (is_fit_label_key(k)) out.emplace(k, v);
  return out;
}

bool equal_ignoring_fit_labels(const StringMap& a, const StringMap& b) {
  auto without = [](const StringMap& m) {
    StringMap out;
    for (const auto& [k, v] : m)
      if (!is_fit_label_key(k)) out.emplace(k, v);
    return out;
  };
  return without(a) == without(b);
}

bool is_fit_label_model_part(std::string_view a_key) {
  static const bool kPrefixesValid = is_fit_label_key(std::string(keys::kFitSlicedMaxFreeUnitsPrefix) + "x") &&
                                     is_fit_label_key(std::string(keys::kFitSharedFreeCardsPrefix) + "x");
  return kPrefixesValid && !a_key.empty() && a_key.find('/') == std::string_view::npos && is_label_value(a_key);
}

namespace {

// A fit label's key as its parts: the prefix and the accelerator key, the latter held inline (the
// accelerator key must be a label value, so a longer one is no fit label). Compared and looked up
// without building the key.
class FitLabelKeyParts {
 public:
  static constexpr std::size_t kMaxAcceleratorKey = kMaxLabelLength;
  // False when the accelerator key cannot be one (too long for a label value).
  bool assign(std::string_view prefix, std::string_view manufacturer, std::string_view group_id) {
    if (manufacturer.size() + 1 + group_id.size() > kMaxAcceleratorKey) return false;
    prefix_ = prefix;
    char* at = std::copy(manufacturer.begin(), manufacturer.end(), a_key_.data());
    *at++ = '-';
    at = std::copy(group_id.begin(), group_id.end(), at);
    size_ = static_cast<uint8_t>(at - a_key_.data());
    return true;
  }
  std::string_view prefix() const { return prefix_; }
  std::string_view a_key() const { return {a_key_.data(), size_}; }
  std::string key() const { return std::string(prefix_) + std::string(a_key()); }
  bool same_key(const FitLabelKeyParts& o) const { return prefix_ == o.prefix_ && a_key() == o.a_key(); }
  bool is(std::string_view other) const {
    return other.size() == prefix_.size() + size_ && std::memcmp(other.data(), prefix_.data(), prefix_.size()) == 0 &&
           std::memcmp(other.data() + prefix_.size(), a_key_.data(), size_) == 0;
  }

 private:
  std::string_view prefix_;
  std::array<char, kMaxAcceleratorKey> a_key_{};
  uint8_t size_ = 0;
};

// Calls `emit(key, value)` for each fit label a Devices ledger yields, in status-group order; a
// later group of the same key overrides an earlier one (fit_labels_of keeps the last).
template <typename F>
void each_fit_label(const Devices& devices, F emit) {
  const CardJoin join(devices);  // the card view of card_groups_of, read in place
  for (const auto& group : devices.status.groups) {
    bool sliceable = false, shareable = false;
    int64_t max_free_units = 0;
    int64_t free_share_cards = 0;
    for (const auto& row : group.accelerators) {
      const AcceleratorStatus& capability = join.capability_of(row.id);
      if (card_serves_family(capability, ResourceFamily::kSliced)) {
        sliceable = true;
        max_free_units = std::max(max_free_units, card_free_slice_units(capability, row));
      }
      if (card_serves_family(capability, ResourceFamily::kShared)) {
        shareable = true;
        if (card_free_shares(capability, row) > 0) ++free_share_cards;
      }
    }
    if (!sliceable && !shareable) continue;
    FitLabelKeyParts sliced, shared;
    if (!sliced.assign(keys::kFitSlicedMaxFreeUnitsPrefix, group.manufacturer, group.id)) continue;
    if (!is_fit_label_model_part(sliced.a_key())) continue;
    if (sliceable) emit(sliced, max_free_units);
    if (shareable) {
      shared.assign(keys::kFitSharedFreeCardsPrefix, group.manufacturer, group.id);
      emit(shared, free_share_cards);
    }
  }
}

}  // namespace

StringMap fit_labels_of(const Devices& devices) {
  StringMap out;
  each_fit_label(devices, [&](const FitLabelKeyParts& key, int64_t value) { out[key.key()] = std::to_string(value); });
  return out;
}

namespace {

// The fit labels a Node's Devices call for, as (key, value) pairs: the last of a repeated key kept
// (as fit_labels_of); none for an unmanaged Node or one without a ledger. A Node has a group or
// two, so a small list, not a map, and its keys are held as parts (no string is built).
using DesiredFitLabels = boost::container::small_vector<std::pair<FitLabelKeyParts, int64_t>, 4>;

DesiredFitLabels desired_pairs(const Node& node, const Devices* devices) {
  DesiredFitLabels desired;
  if (devices == nullptr || !is_managed(node.metadata)) return desired;
  each_fit_label(*devices, [&](const FitLabelKeyParts& key, int64_t value) {
    for (auto& [k, v] : desired)
      if (k.same_key(key)) {
        v = value;
        return;
      }
    desired.emplace_back(key, value);
  });
  return desired;
}

// Whether `text` is the decimal form of `value` (std::to_string's).
bool reads_as(std::string_view text, int64_t value) {
  std::array<char, 24> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return ec == std::errc{} && text == std::string_view(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

// Walks the carried labels once: `carried(desired entry, its value)` for each desired label the
// Node carries, `stale(key)` for each carried fit label no desired one holds.
// The labels are sorted by key, so the ones under each fit-label prefix sit together: only those
// two ranges are walked.
template <typename Carried, typename Stale>
void each_carried_fit_label(const StringMap& labels, const DesiredFitLabels& desired, Carried carried, Stale stale) {
  for (const std::string_view prefix : {keys::kFitSlicedMaxFreeUnitsPrefix, keys::kFitSharedFreeCardsPrefix}) {
    for (auto it = labels.lower_bound(prefix); it != labels.end() && std::string_view(it->first).starts_with(prefix); ++it) {
      const std::string& k = it->first;
      const auto d = std::find_if(desired.begin(), desired.end(), [&](const auto& e) { return e.first.is(k); });
      if (d != desired.end()) carried(*d, it->second);
      else if (is_fit_label_key(k)) stale(k);  // (a key equal to a desired one is known to be valid)
    }
  }
}

}  // namespace

bool fit_labels_current(const Node& node, const Devices* devices) {
  const DesiredFitLabels desired = desired_pairs(node, devices);
  // Every desired label carried with its value (keys are unique on both sides, so a count of the
  // matches says all were), and no other fit label carried.
  std::size_t matching = 0;
  bool stale = false;
  each_carried_fit_label(node.metadata.labels, desired,
                         [&](const auto& d, const std::string& value) { matching += reads_as(value, d.second) ? 1 : 0; },
                         [&](const std::string&) { stale = true; });
  return !stale && matching == desired.size();
}

bool sync_fit_labels(Node& node, const Devices* devices) {
  StringMap& labels = node.metadata.labels;
  const DesiredFitLabels desired = desired_pairs(node, devices);
  boost::container::small_vector<bool, 4> current(desired.size(), false);
  boost::container::small_vector<std::string, 4> stale;
  each_carried_fit_label(
      labels, desired,
      [&](const auto& d, const std::string& value) { current[&d - desired.data()] = reads_as(value, d.second); },
      [&](const std::string& key) { stale.push_back(key); });
  bool changed = !stale.empty();
  for (const auto& k : stale) labels.erase(k);
  for (std::size_t i = 0; i < desired.size(); ++i) {
    if (current[i]) continue;
    labels[desired[i].first.key()] = std::to_string(desired[i].second);
    changed = true;
  }
  return changed;
}

bool is_managed(const ObjectMeta& meta) { return label_of(meta.labels, keys::kManaged) == "true"; }

StringMap desired_fit_labels(const Node& node, const Devices* devices) {
  if (devices == nullptr || !is_managed(node.metadata)) return {};
  return fit_labels_of(*devices);
}

namespace {

// Calls `change(key, value)` for each label the fit-label patch sets (a value) or nulls (nullopt),
// until it returns false; returns whether it stopped early.
template <typename F>
bool walk_fit_label_changes(const StringMap& desired, const StringMap& current, F change) {
  for (const auto& [k, v] : desired)
    if (label_of(current, k) != v && !change(k, std::optional<std::string>(v))) return true;
  for (const auto& [k, v] : current)
    // The cheap tests first (the prefix, then the desired labels: a key they hold is passed over
    // either way); the full validation runs only for a carried fit label that is not desired.
    if (has_fit_label_prefix(k) && desired.count(k) == 0 && is_fit_label_key(k) &&
        !change(k, std::optional<std::string>()))
      return true;
  return false;
}

}  // namespace

std::optional<LabelMergePatch> build_fit_label_patch(const StringMap& desired, const StringMap& current) {
  LabelMergePatch patch;
  walk_fit_label_changes(desired, current, [&](const std::string& k, std::optional<std::string> v) {
    patch[k] = std::move(v);
    return true;
  });
  if (patch.empty()) return std::nullopt;
  return patch;
}

bool fit_label_patch_due(const StringMap& desired, const StringMap& current) {
  return walk_fit_label_changes(desired, current, [](const std::string&, const std::optional<std::string>&) { return false; });
}

void apply_label_merge_patch_in_place(StringMap& labels, const LabelMergePatch& patch) {
  for (const auto& [k, v] : patch) {
    if (v) {
      labels[k] = *v;
    } else {
      labels.erase(k);
    }
  }
}

StringMap apply_label_merge_patch(StringMap labels, const LabelMergePatch& patch) {
  apply_label_merge_patch_in_place(labels, patch);
  return labels;
}

bool fit_signature_changed(const Devices& old_devices, const Devices& new_devices) {
  return fit_labels_of(old_devices) != fit_labels_of(new_devices);
}

bool node_fit_label_node_updated(const Node& old_node, const Node& new_node) {
  if (new_node.metadata.deletion_timestamp.has_value()) return false;
  return label_of(old_node.metadata.labels, keys::kManaged) != label_of(new_node.metadata.labels, keys::kManaged) ||
         filter_fit_labels(old_node.metadata.labels) != filter_fit_labels(new_node.metadata.labels);
}

bool fit_devices_updated(const Devices& old_devices, const Devices& new_devices) {
  return is_managed(old_devices.metadata) != is_managed(new_devices.metadata) ||
         fit_signature_changed(old_devices, new_devices);
}

FitLabelDecision reconcile_fit_labels(const Node& node, const Devices* devices) {
  FitLabelDecision decision;
  decision.labels_after = node.metadata.labels;
  decision.desired = desired_fit_labels(node, devices);
  if (node.metadata.deletion_timestamp.has_value()) {
    decision.reason = "node is being deleted";
    return decision;
  }
  decision.patch = build_fit_label_patch(decision.desired, node.metadata.labels);
  if (!decision.patch) {
    decision.reason = "fit labels already current";
    return decision;
  }
  decision.labels_after = apply_label_merge_patch(decision.labels_after, *decision.patch);
  if (devices == nullptr) {
    decision.reason = "no Devices ledger: fit labels removed";
  } else if (!is_managed(node.metadata)) {
    decision.reason = "node not managed: fit labels removed";
  } else {
    decision.reason = "fit labels patched to the ledger's values";
  }
  return decision;
}

}  // namespace chaintwin::model
