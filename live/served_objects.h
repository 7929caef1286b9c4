// The objects `chaintwin serve` answers for, kept as the JSON an API server would return, each
// with the resourceVersion it last changed at. A new ClusterState is folded in by comparing every
// object with what was served before: a changed object gets a new resourceVersion and an event
// (ADDED, MODIFIED, DELETED) that watches from an older resourceVersion replay.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "live/field_selector.h"
#include "model/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::live {

struct WatchEvent {
  int64_t resource_version = 0;
  std::string type;  // ADDED | MODIFIED | DELETED
  std::string kind;
  nlohmann::json object;
  // What the object was selectable by before this event (unset for ADDED): a watch with a selector
  // sees an object that starts matching as ADDED and one that stops matching as DELETED.
  std::optional<Selectable> before;
};

// Every object of `kind` in `state`, encoded as the API serves it (apiVersion, kind, metadata,
// spec, status), in name order. Kinds the model does not hold as objects give none.
std::vector<nlohmann::json> encode_objects(const model::ClusterState& state, std::string_view kind,
                                           const model::WorkloadState* workloads = nullptr);
// The namespace `serve` puts the operator's Setting objects in (the operator keeps them in its
// system namespace, whose name the references do not give; docs/fidelity.md).
inline constexpr std::string_view kSettingsNamespace = "gpustack-system";

// Whether `serve` has the objects of `kind` (InstanceTypeFlavors not yet).
bool served_kind(std::string_view kind);

class ServedObjects {
 public:
  // Folds in `state` (and the Workloads, when given); returns how many objects changed.
  size_t update(const model::ClusterState& state, const model::WorkloadState* workloads = nullptr);

  int64_t resource_version() const { return resource_version_; }
  // The objects of `kind` (in namespace `ns` when given), in (namespace, name) order.
  std::vector<nlohmann::json> list(std::string_view kind, std::string_view ns) const;
  std::optional<nlohmann::json> get(std::string_view kind, std::string_view ns, std::string_view name) const;
  // The objects as they were at `resource_version` (what the continuation of a paged list reads);
  // nullopt when the kept history no longer reaches back that far (410 Expired).
  std::optional<std::vector<nlohmann::json>> list_at(std::string_view kind, std::string_view ns,
                                                     int64_t resource_version) const;
  // The events of `kind` after `since` (in order); nullopt when `since` is older than the kept
  // history (the watch must relist: 410 Gone).
  std::optional<std::vector<WatchEvent>> events_since(std::string_view kind, std::string_view ns, int64_t since) const;

  // Writes, as an API server takes them. `status` selects the status subresource: the main
  // resource's writes keep the stored status, the status subresource's keep everything else. A
  // body whose metadata.resourceVersion differs from the stored one is a conflict (409); one whose
  // name or namespace differs from the URL's is refused (400), and so is an object that fails
  // validation (object_validation.h: 422 Invalid with causes, or 400). With `dry_run` nothing is
  // stored. The reply is the object as stored, or the HTTP code and message.
  struct WriteResult {
    int code = 200;
    std::string reason;   // NotFound, AlreadyExists, Conflict, BadRequest, Invalid
    std::string message;
    nlohmann::json object;
    nlohmann::json status;  // the whole Status body, when the refusal carries details (422)
  };
  WriteResult create(std::string_view kind, std::string_view ns, nlohmann::json body, bool dry_run);
  WriteResult replace(std::string_view kind, std::string_view ns, std::string_view name, nlohmann::json body,
                      bool status, bool dry_run);
  WriteResult merge_patch(std::string_view kind, std::string_view ns, std::string_view name, const nlohmann::json& patch,
                          bool status, bool dry_run);
  WriteResult remove(std::string_view kind, std::string_view ns, std::string_view name, bool dry_run);

 private:
  struct Entry {
    nlohmann::json object;  // with metadata.resourceVersion set to the served one
    int64_t resource_version = 0;
  };
  using Key = std::pair<std::string, std::string>;  // (namespace, name)
  std::map<std::string, std::map<Key, Entry>, std::less<>> objects_;  // by kind
  // Records an event; `previous` is the object before it (null for ADDED).
  void record(const char* type, std::string_view kind, const Entry& e, const nlohmann::json* previous);
  std::deque<WatchEvent> history_;
  int64_t oldest_ = 0;  // events after this resourceVersion are all in history_
  int64_t resource_version_ = 0;
};

}  // namespace chaintwin::live
