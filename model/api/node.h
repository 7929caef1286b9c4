// Node: the parts of a Kubernetes Node the scheduling chain reads and writes — labels,
// annotations, and status.capacity / status.allocatable.
#pragma once

#include "model/api/object_meta.h"

namespace chaintwin::model {

struct NodeStatus {
  ResourceList capacity;
  ResourceList allocatable;
  bool operator==(const NodeStatus&) const = default;
};

struct Node {
  ObjectMeta metadata;
  bool unschedulable = false;  // spec.unschedulable
  NodeStatus status;
  bool operator==(const Node&) const = default;
};

}  // namespace chaintwin::model
