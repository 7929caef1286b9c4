// StateParts: which parts of a ClusterState a controller's plan can depend on, and which parts a
// write moves. Per object kind there are two parts: the object without its status (metadata,
// spec, labels) and its status. The settings and the Instances' Pods are one part each.
//
// A fixpoint uses the two to skip a controller whose last run planned nothing while nothing it
// reads has been written since (reconcile_loop.h): the controllers are pure functions of the
// state, so the same parts give the same empty plan and the same requeues.
//
// An UpdateStatus moves the status part only. It also bumps the object's resourceVersion, which
// no controller reads (a controller that did would have to declare the whole kind).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>

#include "model/stage4/plan.h"

namespace chaintwin::model {

class StateParts {
 public:
  constexpr StateParts() = default;
  static constexpr StateParts everything() { return StateParts(~uint32_t{0}); }

  // The whole of each kind T (its object and its status).
  template <class... T>
  static constexpr StateParts whole() {
    return StateParts(((object_bit<T>() | status_bit<T>()) | ... | 0u));
  }
  // Each kind T without its status: metadata, spec and labels.
  template <class... T>
  static constexpr StateParts without_status() {
    return StateParts((object_bit<T>() | ... | 0u));
  }
  static constexpr StateParts settings() { return StateParts(uint32_t{1} << kSettingsBit); }
  static constexpr StateParts instance_pods() { return StateParts(uint32_t{1} << kInstancePodsBit); }

  // What `w` moves when applied.
  static StateParts written_by(const Write& w);

  constexpr StateParts operator|(StateParts o) const { return StateParts(bits_ | o.bits_); }
  constexpr bool overlaps(StateParts o) const { return (bits_ & o.bits_) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint32_t bits() const { return bits_; }
  constexpr bool operator==(const StateParts&) const = default;

  static constexpr int kBits = 2 * static_cast<int>(std::variant_size_v<Object>) + 2;

 private:
  static constexpr int kSettingsBit = 2 * static_cast<int>(std::variant_size_v<Object>);
  static constexpr int kInstancePodsBit = kSettingsBit + 1;
  static_assert(kInstancePodsBit < 32, "one bit per part in a uint32_t");

  constexpr explicit StateParts(uint32_t bits) : bits_(bits) {}

  template <class T, std::size_t I = 0>
  static constexpr std::size_t kind_index() {
    static_assert(I < std::variant_size_v<Object>, "not a kind of Object");
    using Alternative = std::variant_alternative_t<I, Object>;
    if constexpr (std::is_same_v<T, Alternative> || std::is_same_v<Boxed<T>, Alternative>) return I;
    else return kind_index<T, I + 1>();
  }
  template <class T>
  static constexpr uint32_t object_bit() { return uint32_t{1} << (2 * kind_index<T>()); }
  template <class T>
  static constexpr uint32_t status_bit() { return uint32_t{1} << (2 * kind_index<T>() + 1); }

  uint32_t bits_ = 0;
};

inline StateParts StateParts::written_by(const Write& w) {
  const uint32_t object = uint32_t{1} << (2 * w.object.index());
  const uint32_t status = object << 1;
  return StateParts(w.verb == WriteVerb::kUpdateStatus ? status : (object | status));
}

}  // namespace chaintwin::model
