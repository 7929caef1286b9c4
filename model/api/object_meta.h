// ObjectMeta and the small map types every Kubernetes-shaped object in the model shares.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/container/flat_map.hpp>

#include "model/api/quantity.h"
#include "model/api/shared_flat_map.h"

namespace chaintwin::model {

// Label and annotation maps are ordered so that every iteration that feeds output is stable. They
// are flat (a sorted vector): a Node's labels or a request's resources are one block, cheap to look
// up, copy and free. Unlike std::map, an insert or erase invalidates every reference into the map:
// take none across one (docs/performance.md). The comparator is transparent: a key given as a
// std::string_view or a literal is looked up as it is, without building a std::string for it (the
// order is std::string's either way). Copies share one block until one is written
// (shared_flat_map.h): labels and annotations are copied with every Pod and Node far more often
// than they change.
using StringMap = SharedFlatMap<std::string, std::string>;
// A ResourceList (Node status.capacity / allocatable, requests), shared the same way: a Pod's
// requests are its template's, and a Node's allocatable is its capacity until a card holds back.
using ResourceList = SharedFlatMap<std::string, Quantity>;

struct OwnerReference {
  std::string api_version, kind, name, uid;
  bool controller = false;
  bool operator==(const OwnerReference&) const = default;
};

struct ObjectMeta {
  std::string name;
  std::string namespace_;  // empty for cluster-scoped objects
  std::string uid;
  std::string resource_version;
  int64_t generation = 0;
  std::string creation_timestamp;                 // RFC 3339, empty when unknown
  std::optional<std::string> deletion_timestamp;  // set while the object is terminating
  StringMap labels;
  StringMap annotations;
  std::vector<std::string> finalizers;
  std::vector<OwnerReference> owner_references;
  bool operator==(const ObjectMeta&) const = default;
};

}  // namespace chaintwin::model
