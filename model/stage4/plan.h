// Plan: what a reconciler wants done — whole desired objects to create, update or delete, each
// with the controller that wants it and why, and the keys to look at again later. The simulator
// applies a Plan to its ClusterState (apply_plan); the live mode turns each write into a request
// against the real API server. A converged state yields an empty Plan.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/cluster_state.h"

namespace chaintwin::model {

using Object = std::variant<Node, Devices, Namespace, Topology, ResourceFlavor, InstanceType, ClusterQueue,
                            LocalQueue, AdmissionCheck, Instance, TopologySource, NodeFeature>;

std::string_view kind_of(const Object& o);            // "Node", "ResourceFlavor", ...
const ObjectMeta& metadata_of(const Object& o);

enum class WriteVerb {
  kCreate,        // the object must not exist
  kUpdate,        // replaces metadata (labels, annotations, finalizers) and spec
  kUpdateStatus,  // replaces status only (Node: status.capacity; ClusterQueue / InstanceType / Instance /
                  // TopologySource: status); of the object only its key and status are read
  kDelete,        // deletes (finalizers keep it, marked terminating, until they are removed)
};
std::string_view to_string(WriteVerb v);

struct Write {
  WriteVerb verb = WriteVerb::kUpdate;
  Object object;
  std::string controller;  // e.g. "NodeFlavor", "InstanceType", "NodeQueue"
  std::string reason;      // one line: why
};

struct Requeue {
  std::string controller;
  std::string key;  // the object the controller will look at again
  int64_t after_seconds = 0;
  std::string reason;
  bool operator==(const Requeue&) const = default;
};

// What an applied write leaves for those who react to it (the runner logs it and tells Kueue):
// its verb, kind and key, who wrote it and why, and of an Instance its spec (the runner stops the
// Pod of a stopped Instance). A Write has room for any object (over a kilobyte: an InstanceType
// is the largest); a fixpoint over thousands of Nodes keeps tens of thousands of these.
struct WriteReceipt {
  WriteVerb verb = WriteVerb::kUpdate;
  std::string_view kind;  // kind_of's text, which lives as long as the program
  std::string namespace_, name;
  std::string controller, reason;
  std::optional<InstanceSpec> instance;  // an Instance's spec
};
// The receipt of `w` (its texts moved out).
WriteReceipt receipt_of(Write&& w);
WriteReceipt receipt_of(const Write& w);

// A write as --verify names it: "<verb> <Kind> <name> by <controller>: <reason>".
std::string write_summary(const Write& w);

struct Plan {
  std::vector<Write> writes;
  std::vector<Requeue> requeues;
  bool empty() const { return writes.empty(); }
  void append(Plan other);
};

// Applies `plan` in order. Creates stamp a resourceVersion (and uid when empty) and generation 1;
// updates bump the generation when the spec changes; deletes of objects with finalizers set the
// deletion timestamp `now` and keep them until an update removes the last finalizer. A write that
// cannot apply (create of an existing object, update of a missing one) is refused with the reason,
// as the API server would answer 409 / 404.
Result<ClusterState> apply_plan(ClusterState state, const Plan& plan, const std::string& now);

// apply_plan on `state` itself, moving each written object into it instead of copying it. Each
// write keeps its verb, controller and reason, and of its object a receipt: an object of the same
// kind with only its namespace and name (an Instance keeps its spec too, which the runner reads
// to stop its Pod). After a refusal `state` is unspecified and must not be used.
Status apply_plan_moving(ClusterState& state, Plan& plan, const std::string& now);

}  // namespace chaintwin::model
