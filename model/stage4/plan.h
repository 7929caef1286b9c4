// Plan: what a reconciler wants done — whole desired objects to create, update or delete, each
// with the controller that wants it and why, and the keys to look at again later. The simulator
// applies a Plan to its ClusterState (apply_plan); the live mode turns each write into a request
// against the real API server. A converged state yields an empty Plan.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "model/cluster_state.h"

namespace chaintwin::model {

// A kind too large to sit in every Write (a Write has room for any kind, and a fixpoint over
// thousands of Nodes plans tens of thousands of them): kept on the heap, compared and copied as
// the object itself. A moved-from box holds a default object.
template <typename T>
class Boxed {
 public:
  Boxed() : p_(std::make_unique<T>()) {}
  Boxed(T value) : p_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit, as the object
  Boxed(const Boxed& o) : p_(std::make_unique<T>(*o.p_)) {}
  Boxed(Boxed&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Boxed& operator=(const Boxed& o) {
    if (this != &o) p_ = std::make_unique<T>(*o.p_);
    return *this;
  }
  Boxed& operator=(Boxed&& o) noexcept {
    p_ = std::move(o.p_);  // `o` reads as a default object from now on
    return *this;
  }
  T& get() { return p_ ? *p_ : *(p_ = std::make_unique<T>()); }
  const T& get() const { return p_ ? *p_ : empty(); }
  bool operator==(const Boxed& o) const { return get() == o.get(); }

 private:
  static const T& empty() {
    static const T none{};
    return none;
  }
  std::unique_ptr<T> p_;  // null only after a move
};

using Object = std::variant<Node, Devices, Namespace, Topology, ResourceFlavor, Boxed<InstanceType>,
                            Boxed<ClusterQueue>, LocalQueue, AdmissionCheck, Instance, Boxed<TopologySource>,
                            NodeFeature>;

namespace object_detail {
template <typename T>
T& unbox(T& x) { return x; }
template <typename T>
const T& unbox(const T& x) { return x; }
template <typename T>
T& unbox(Boxed<T>& x) { return x.get(); }
template <typename T>
const T& unbox(const Boxed<T>& x) { return x.get(); }
}  // namespace object_detail

// std::visit on the object itself, boxed or not.
template <typename F>
decltype(auto) visit_object(F&& f, Object& o) {
  return std::visit([&](auto& x) -> decltype(auto) { return f(object_detail::unbox(x)); }, o);
}
template <typename F>
decltype(auto) visit_object(F&& f, const Object& o) {
  return std::visit([&](const auto& x) -> decltype(auto) { return f(object_detail::unbox(x)); }, o);
}

namespace object_detail {
template <typename T, typename V>
struct is_alternative;
template <typename T, typename... Ts>
struct is_alternative<T, std::variant<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};
}  // namespace object_detail

// The object when it is of kind T, else null.
template <typename T>
const T* object_if(const Object& o) {
  if constexpr (object_detail::is_alternative<T, Object>::value) {
    return std::get_if<T>(&o);
  } else {
    const auto* b = std::get_if<Boxed<T>>(&o);
    return b == nullptr ? nullptr : &b->get();
  }
}

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
// The same for one write (apply_plan_moving applies each in turn).
Status apply_write_moving(ClusterState& state, Write& write, const std::string& now);
// An UpdateStatus of the Node `node` (which must exist) whose caller wrote the new status into the
// Node in place: stamped as applying the write would stamp it (a new resourceVersion; a Node marked
// for deletion without finalizers leaves), and the write's receipt.
WriteReceipt node_status_written_in_place(ClusterState& state, const std::string& node, std::string controller,
                                          std::string reason);

}  // namespace chaintwin::model
