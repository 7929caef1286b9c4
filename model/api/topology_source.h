// TopologySource (worker.gpustack.ai/v1, cluster-scoped): where a node's topology levels come
// from. NodeTopologyReconciler reads which Ready source selects a node and its ordered levels; the
// TopologySource controller (model/stage4/topology_source_reconciler.h) reads the arm — nodeLabels
// (read-only), configMap or webhook (writing: a snapshot published through NodeFeatures) — and
// writes the status: conditions Ready / Valid / OwnershipConflict, the last successful revision
// and refresh time, and the selected / mutated / conflicted Node counts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/kueue/kueue_objects.h"
#include "model/api/object_meta.h"
#include "model/result.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // In | NotIn | Exists | DoesNotExist
  std::vector<std::string> values;
  bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector {
  StringMap match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  bool operator==(const LabelSelector&) const = default;
};

// Whether `labels` satisfy the selector (an empty selector selects everything).
bool selector_matches(const LabelSelector& selector, const StringMap& labels);

// What metav1.LabelSelectorAsSelector refuses: an invalid label key or value, In/NotIn without
// values, Exists/DoesNotExist with values, an unknown operator.
Status validate_label_selector(const LabelSelector& selector);

// A namespaced ConfigMap or Secret a source reads (admission keeps them in the worker namespace).
struct TopologySourceObjectReference {
  std::string namespace_;
  std::string name;
  bool operator==(const TopologySourceObjectReference&) const = default;
};

// spec.configMap: the snapshot under `key` of one ConfigMap.
struct TopologySourceConfigMap {
  TopologySourceObjectReference config_map_ref;
  std::string key;
  int64_t max_staleness_us = 0;  // how long the last valid snapshot is kept after reads fail
  bool operator==(const TopologySourceConfigMap&) const = default;
};

// spec.webhook: the snapshot polled from an HTTPS endpoint.
struct TopologySourceWebhook {
  std::string url;
  int64_t poll_interval_us = 0;
  int64_t timeout_us = 0;
  int64_t max_staleness_us = 0;
  std::optional<TopologySourceObjectReference> ca_bundle_config_map_ref;
  std::optional<TopologySourceObjectReference> bearer_token_secret_ref;
  std::optional<TopologySourceObjectReference> tls_client_certificate_secret_ref;
  bool operator==(const TopologySourceWebhook&) const = default;
};

// status, besides the conditions (kept in TopologySource::conditions).
struct TopologySourceStatus {
  int64_t observed_generation = 0;
  std::string source_kind;                    // NodeLabels | ConfigMap | Webhook
  std::string last_successful_revision;       // the revision last published
  std::string last_successful_refresh_time;   // RFC 3339, empty before the first success
  int32_t selected_nodes = 0;
  int32_t mutated_nodes = 0;    // NodeFeatures created, updated or deleted by the latest reconcile
  int32_t conflicted_nodes = 0;
  bool operator==(const TopologySourceStatus&) const = default;
};

struct TopologySource {
  ObjectMeta metadata;
  LabelSelector node_selector;
  std::vector<std::string> levels;  // coarse to fine, 1..16, hostname excluded
  std::string additional_write_prefix;  // e.g. "topology.example.com/" (writing arms only)
  std::string arm;                  // "nodeLabels" | "configMap" | "webhook"
  std::optional<TopologySourceConfigMap> config_map;  // set when arm == "configMap"
  std::optional<TopologySourceWebhook> webhook;       // set when arm == "webhook"
  std::vector<Condition> conditions;  // Ready, Valid, OwnershipConflict
  TopologySourceStatus status;
  bool ready() const;
  // A configMap or webhook source: it publishes labels through NodeFeatures.
  bool writes() const { return arm == "configMap" || arm == "webhook"; }
  // The writing arm's maxStaleness (0 for nodeLabels).
  int64_t max_staleness_us() const;
  bool operator==(const TopologySource&) const = default;
};

}  // namespace chaintwin::model
