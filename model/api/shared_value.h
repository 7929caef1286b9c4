// SharedValue<T>: an optional value whose copies share one immutable block (a reference count),
// compared by value. For parts of objects that are copied far more often than they are changed,
// as SharedFlatMap is for labels: an admission's topology assignment travels with every copy of
// the Workload's status and of the records kept of it, and is never changed after it is made (a
// new assignment is a new value). Reading never copies; there is no writing in place — assign a
// new value instead. Copies may live in different threads (the count is atomic; the block is never
// written).
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace chaintwin::model {

template <class T>
class SharedValue {
 public:
  SharedValue() = default;
  SharedValue(std::nullopt_t) {}  // NOLINT: as std::optional
  SharedValue(T value) : rep_(std::make_shared<const T>(std::move(value))) {}  // NOLINT: as std::optional
  SharedValue(std::optional<T> value) {  // NOLINT: as std::optional
    if (value) rep_ = std::make_shared<const T>(std::move(*value));
  }

  bool has_value() const { return rep_ != nullptr; }
  explicit operator bool() const { return rep_ != nullptr; }
  const T& operator*() const { return *rep_; }
  const T* operator->() const { return rep_.get(); }
  void reset() { rep_.reset(); }

  friend bool operator==(const SharedValue& a, const SharedValue& b) {
    return a.rep_ == b.rep_ || (a.rep_ != nullptr && b.rep_ != nullptr && *a.rep_ == *b.rep_);
  }
  friend bool operator==(const SharedValue& a, std::nullopt_t) { return a.rep_ == nullptr; }

 private:
  std::shared_ptr<const T> rep_;
};

}  // namespace chaintwin::model
