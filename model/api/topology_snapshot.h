// The inventory snapshot a writing TopologySource reads (a ConfigMap key or a webhook's answer):
// `apiVersion: topology.gpustack.ai/v1alpha1`, an opaque non-empty `revision` and
// `nodes: {<node>: {<level key>: <value>}}`. What the arm read at one reconcile is a TopologyRead:
// a decoded snapshot, or the failure the operator reports (reason and error message).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/api/object_meta.h"

namespace chaintwin::model {

inline constexpr std::string_view kTopologySnapshotApiVersion = "topology.gpustack.ai/v1alpha1";

struct TopologySnapshot {
  std::string api_version = std::string(kTopologySnapshotApiVersion);
  std::string revision;
  std::map<std::string, StringMap> nodes;  // node → level key → value
  bool operator==(const TopologySnapshot&) const = default;
};

// The reasons a read can fail, as the operator's Valid condition carries them.
inline constexpr std::string_view kConfigMapReadFailed = "ConfigMapReadFailed";  // the ConfigMap cannot be read
inline constexpr std::string_view kSnapshotKeyMissing = "SnapshotKeyMissing";    // the key is not in it
inline constexpr std::string_view kSnapshotInvalid = "SnapshotInvalid";          // undecodable, or rejected
inline constexpr std::string_view kWebhookReadFailed = "WebhookReadFailed";      // the endpoint failed (any cause)

struct TopologyRead {
  std::optional<TopologySnapshot> snapshot;  // what was read, when the read succeeded
  std::string failure_reason;                // otherwise one of the reasons above
  std::string failure_message;               // and the error, e.g. `configmaps "inventory" not found`
  bool operator==(const TopologyRead&) const = default;
};

}  // namespace chaintwin::model
