#include "model/stage4/plan.h"

#include <type_traits>
#include <utility>

namespace chaintwin::model {
namespace {

template <class... Ts>
struct overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

// The kind's name, for one object (without building an Object) or through the variant.
constexpr auto kKindName = overloaded{
    [](const Node&) { return std::string_view("Node"); },
    [](const Devices&) { return std::string_view("Devices"); },
    [](const Namespace&) { return std::string_view("Namespace"); },
    [](const Topology&) { return std::string_view("Topology"); },
    [](const ResourceFlavor&) { return std::string_view("ResourceFlavor"); },
    [](const InstanceType&) { return std::string_view("InstanceType"); },
    [](const ClusterQueue&) { return std::string_view("ClusterQueue"); },
    [](const LocalQueue&) { return std::string_view("LocalQueue"); },
    [](const AdmissionCheck&) { return std::string_view("AdmissionCheck"); },
    [](const Instance&) { return std::string_view("Instance"); },
    [](const TopologySource&) { return std::string_view("TopologySource"); },
    [](const NodeFeature&) { return std::string_view("NodeFeature"); },
};

// Per-kind knowledge: where the kind lives in the state, what its spec and status are.
NodeTable& store(ClusterState& s, const Node&) { return s.nodes; }
DevicesTable& store(ClusterState& s, const Devices&) { return s.devices; }
std::map<std::string, Namespace>& store(ClusterState& s, const Namespace&) { return s.namespaces; }
std::map<std::string, Topology>& store(ClusterState& s, const Topology&) { return s.topologies; }
std::map<std::string, ResourceFlavor>& store(ClusterState& s, const ResourceFlavor&) { return s.resource_flavors; }
std::map<std::string, InstanceType>& store(ClusterState& s, const InstanceType&) { return s.instance_types; }
std::map<std::string, ClusterQueue>& store(ClusterState& s, const ClusterQueue&) { return s.cluster_queues; }
std::map<std::string, LocalQueue>& store(ClusterState& s, const LocalQueue&) { return s.local_queues; }
std::map<std::string, AdmissionCheck>& store(ClusterState& s, const AdmissionCheck&) { return s.admission_checks; }
std::map<std::string, Instance>& store(ClusterState& s, const Instance&) { return s.instances; }
std::map<std::string, TopologySource>& store(ClusterState& s, const TopologySource&) { return s.topology_sources; }
std::map<std::string, NodeFeature>& store(ClusterState& s, const NodeFeature&) { return s.node_features; }

template <typename T>
std::string key_of(const T& o) {
  if constexpr (std::is_same_v<T, LocalQueue>) return local_queue_key(o.metadata.namespace_, o.metadata.name);
  if constexpr (std::is_same_v<T, Instance>) return instance_key(o.metadata.namespace_, o.metadata.name);
  if constexpr (std::is_same_v<T, NodeFeature>) return node_feature_key(o.metadata.namespace_, o.metadata.name);
  return o.metadata.name;
}

template <typename T>
bool same_spec(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, Node>) return a.unschedulable == b.unschedulable;
  else if constexpr (std::is_same_v<T, Devices>) return a.spec == b.spec;
  else if constexpr (std::is_same_v<T, Namespace>) return true;
  else if constexpr (std::is_same_v<T, Topology>) return a.levels == b.levels;
  else if constexpr (std::is_same_v<T, LocalQueue>) return a.cluster_queue == b.cluster_queue;
  else if constexpr (std::is_same_v<T, AdmissionCheck>)
    return a.controller_name == b.controller_name && a.retry_delay_minutes == b.retry_delay_minutes;
  else if constexpr (std::is_same_v<T, TopologySource>)
    return a.node_selector == b.node_selector && a.levels == b.levels &&
           a.additional_write_prefix == b.additional_write_prefix && a.arm == b.arm && a.config_map == b.config_map &&
           a.webhook == b.webhook;
  else if constexpr (std::is_same_v<T, NodeFeature>) return a.labels == b.labels;
  else return a.spec == b.spec;
}

// Copies the status part of `from` into `to` (moves it when `from` is an rvalue).
template <typename T, typename From>
void copy_status(T& to, From&& from) {
  if constexpr (std::is_same_v<T, Node> || std::is_same_v<T, Devices> || std::is_same_v<T, ClusterQueue> ||
                std::is_same_v<T, InstanceType> || std::is_same_v<T, Instance>)
    to.status = std::forward<From>(from).status;
  else if constexpr (std::is_same_v<T, AdmissionCheck>)
    to.conditions = std::forward<From>(from).conditions;
  else if constexpr (std::is_same_v<T, TopologySource>) {
    to.conditions = from.conditions;
    to.status = std::forward<From>(from).status;
  }
}

// One write applied: `desired` is copied into the state, or moved when passed as an rvalue (what
// it holds afterwards is then unspecified; the key is read before).
// What the API server does after an update is stored: a new resourceVersion, and an object marked
// for deletion whose last finalizer is gone leaves.
template <class Objects, class It>
void stamp_update(ClusterState& state, Objects& objects, It it) {
  auto& current = it->second;
  current.metadata.resource_version = std::to_string(++state.resource_version);
  if (current.metadata.deletion_timestamp && current.metadata.finalizers.empty()) objects.erase(it);
}

template <typename T, typename Desired>
Status apply_one(ClusterState& state, WriteVerb verb, Desired&& desired, const std::string& now) {
  auto& objects = store(state, desired);
  const std::string key = key_of(desired);
  const auto what = [&] { return std::string(kKindName(desired)) + " " + key; };  // for an error only
  auto it = objects.find(key);
  switch (verb) {
    case WriteVerb::kCreate: {
      if (it != objects.end()) return err(what() + " already exists");
      T created = std::forward<Desired>(desired);
      created.metadata.generation = 1;
      created.metadata.resource_version = std::to_string(++state.resource_version);
      if (created.metadata.uid.empty()) created.metadata.uid = "uid-" + created.metadata.resource_version;
      if (created.metadata.creation_timestamp.empty()) created.metadata.creation_timestamp = now;
      created.metadata.deletion_timestamp.reset();
      objects.emplace(key, std::move(created));
      return Ok{};
    }
    case WriteVerb::kUpdate:
    case WriteVerb::kUpdateStatus: {
      if (it == objects.end()) return err(what() + " not found");
      T& current = it->second;
      if (verb == WriteVerb::kUpdateStatus) {
        copy_status(current, std::forward<Desired>(desired));
      } else {
        const bool spec_changed = !same_spec(current, desired);
        T next = std::forward<Desired>(desired);
        next.metadata.uid = current.metadata.uid;
        next.metadata.creation_timestamp = current.metadata.creation_timestamp;
        next.metadata.deletion_timestamp = current.metadata.deletion_timestamp;
        next.metadata.generation = current.metadata.generation + (spec_changed ? 1 : 0);
        copy_status(next, std::move(current));  // `current` is replaced next: its status moves over
        current = std::move(next);
      }
      stamp_update(state, objects, it);
      return Ok{};
    }
    case WriteVerb::kDelete: {
      if (it == objects.end()) return err(what() + " not found");
      if (it->second.metadata.finalizers.empty()) {
        objects.erase(it);
      } else if (!it->second.metadata.deletion_timestamp) {
        it->second.metadata.deletion_timestamp = now;
        it->second.metadata.resource_version = std::to_string(++state.resource_version);
      }
      return Ok{};
    }
  }
  return Ok{};
}

}  // namespace

std::string_view kind_of(const Object& o) { return visit_object(kKindName, o); }

const ObjectMeta& metadata_of(const Object& o) {
  return visit_object([](const auto& x) -> const ObjectMeta& { return x.metadata; }, o);
}

std::string_view to_string(WriteVerb v) {
  switch (v) {
    case WriteVerb::kCreate: return "create";
    case WriteVerb::kUpdate: return "update";
    case WriteVerb::kUpdateStatus: return "update-status";
    case WriteVerb::kDelete: return "delete";
  }
  return "?";
}

std::string write_summary(const Write& w) {
  return std::string(to_string(w.verb)) + " " + std::string(kind_of(w.object)) + " " + metadata_of(w.object).name +
         " by " + w.controller + ": " + w.reason;
}

void Plan::append(Plan other) {
  for (auto& w : other.writes) writes.push_back(std::move(w));
  for (auto& r : other.requeues) requeues.push_back(std::move(r));
}

Result<ClusterState> apply_plan(ClusterState state, const Plan& plan, const std::string& now) {
  for (const auto& w : plan.writes) {
    const Status s = visit_object(
        [&](const auto& obj) { return apply_one<std::decay_t<decltype(obj)>>(state, w.verb, obj, now); }, w.object);
    if (!s.ok()) return err(std::string(to_string(w.verb)) + " by " + w.controller + ": " + s.error());
  }
  return state;
}

Status apply_write_moving(ClusterState& state, Write& w, const std::string& now) {
  const Status s = visit_object(
      [&](auto& obj) {
        using T = std::decay_t<decltype(obj)>;
        T receipt;
        receipt.metadata.name = obj.metadata.name;
        receipt.metadata.namespace_ = obj.metadata.namespace_;
        if constexpr (std::is_same_v<T, Instance>) receipt.spec = obj.spec;
        Status applied = apply_one<T>(state, w.verb, std::move(obj), now);
        obj = std::move(receipt);
        return applied;
      },
      w.object);
  if (!s.ok()) return err(std::string(to_string(w.verb)) + " by " + w.controller + ": " + s.error());
  return Ok{};
}

WriteReceipt node_status_written_in_place(ClusterState& state, const std::string& node, std::string controller,
                                          std::string reason) {
  WriteReceipt r;
  r.verb = WriteVerb::kUpdateStatus;
  r.kind = kKindName(Node{});
  const auto it = state.nodes.find(node);
  r.namespace_ = it->second.metadata.namespace_;
  r.name = it->second.metadata.name;
  r.controller = std::move(controller);
  r.reason = std::move(reason);
  stamp_update(state, state.nodes, it);
  return r;
}

Status apply_plan_moving(ClusterState& state, Plan& plan, const std::string& now) {
  for (auto& w : plan.writes)
    if (Status s = apply_write_moving(state, w, now); !s.ok()) return s;
  return Ok{};
}

WriteReceipt receipt_of(Write&& w) {
  WriteReceipt r;
  r.verb = w.verb;
  r.kind = kind_of(w.object);
  visit_object(
      [&](auto& object) {
        r.namespace_ = std::move(object.metadata.namespace_);
        r.name = std::move(object.metadata.name);
      },
      w.object);
  if (auto* inst = std::get_if<Instance>(&w.object)) r.instance = std::move(inst->spec);
  r.controller = std::move(w.controller);
  r.reason = std::move(w.reason);
  return r;
}

WriteReceipt receipt_of(const Write& w) {
  WriteReceipt r;
  r.verb = w.verb;
  r.kind = kind_of(w.object);
  const ObjectMeta& meta = metadata_of(w.object);
  r.namespace_ = meta.namespace_;
  r.name = meta.name;
  if (const auto* inst = std::get_if<Instance>(&w.object)) r.instance = inst->spec;
  r.controller = w.controller;
  r.reason = w.reason;
  return r;
}

}  // namespace chaintwin::model
