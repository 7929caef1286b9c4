// FlatStringIndex<V>: values found by a string key, in one array (open addressing, linear probing,
// deletion by backward shift, at most half full). A slot keeps the key's full hash beside the key,
// so a probe compares integers and reads the key's text only where the hashes agree; a lookup is
// one array probe instead of the bucket-then-node walk of std::unordered_map, and an insert
// allocates nothing but an occasional doubling.
//
// FlatStringIndex holds views: the caller keeps each key's text alive and in place while it is
// indexed (KeyedTable's keys live in its tree's nodes, which never move). FlatStringMap<V> owns
// its keys. Neither is ever walked, so no order of the slots can reach any output; and a value
// moves when the table grows or a key is erased, so no pointer to one is kept across an insert or
// an erase.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaintwin::model {

template <class V, class Key = std::string_view>
class FlatStringIndex {
 public:
  FlatStringIndex() = default;
  FlatStringIndex(const FlatStringIndex&) = default;
  FlatStringIndex& operator=(const FlatStringIndex&) = default;
  FlatStringIndex(FlatStringIndex&& o) noexcept : slots_(std::move(o.slots_)), size_(std::exchange(o.size_, 0)) {
    o.slots_.clear();
  }
  FlatStringIndex& operator=(FlatStringIndex&& o) noexcept {
    if (this != &o) {
      slots_ = std::move(o.slots_);
      size_ = std::exchange(o.size_, 0);
      o.slots_.clear();
    }
    return *this;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

  // Room for `n` keys without a doubling.
  void reserve(std::size_t n) {
    std::size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    if (capacity > slots_.size()) rehash(capacity);
  }

  V* find(std::string_view key) { return const_cast<V*>(std::as_const(*this).find(key)); }
  const V* find(std::string_view key) const {
    if (size_ == 0) return nullptr;
    const uint64_t h = hash_of(key);
    for (std::size_t i = h & mask(); slots_[i].hash != 0; i = (i + 1) & mask())
      if (slots_[i].hash == h && slots_[i].key == key) return &slots_[i].value;
    return nullptr;
  }

  // Adds `key` → `value` unless the key is there; true when added.
  bool emplace(std::string_view key, V value) { return try_emplace(key, std::move(value)).second; }

  // The value of `key`, added as `value` when the key is not there (then second is true).
  std::pair<V*, bool> try_emplace(std::string_view key, V value = V{}) {
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    const uint64_t h = hash_of(key);
    std::size_t i = h & mask();
    for (; slots_[i].hash != 0; i = (i + 1) & mask())
      if (slots_[i].hash == h && slots_[i].key == key) return {&slots_[i].value, false};
    slots_[i] = Slot{h, Key(key), std::move(value)};
    ++size_;
    return {&slots_[i].value, true};
  }

  // Removes `key`; true when it was there.
  bool erase(std::string_view key) {
    if (size_ == 0) return false;
    const uint64_t h = hash_of(key);
    std::size_t i = h & mask();
    for (; slots_[i].hash != 0; i = (i + 1) & mask())
      if (slots_[i].hash == h && slots_[i].key == key) break;
    if (slots_[i].hash == 0) return false;
    // Backward shift: each later slot of the run moves into the hole when its home position does
    // not lie in the cyclic stretch (hole, slot], so every key stays reachable from its home.
    for (std::size_t j = (i + 1) & mask(); slots_[j].hash != 0; j = (j + 1) & mask()) {
      const std::size_t home = slots_[j].hash & mask();
      const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (stays) continue;
      slots_[i] = std::move(slots_[j]);
      i = j;
    }
    slots_[i] = Slot{};
    --size_;
    return true;
  }

 private:
  struct Slot {
    uint64_t hash = 0;  // 0: empty (a key's hash is never 0)
    Key key;
    V value{};
  };

  static uint64_t hash_of(std::string_view key) {
    const uint64_t h = std::hash<std::string_view>{}(key);
    return h == 0 ? 1 : h;
  }
  std::size_t mask() const { return slots_.size() - 1; }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    for (auto& s : old) {
      if (s.hash == 0) continue;
      std::size_t i = s.hash & mask();
      while (slots_[i].hash != 0) i = (i + 1) & mask();
      slots_[i] = std::move(s);
    }
  }

  std::vector<Slot> slots_;  // a power of two in size, or empty
  std::size_t size_ = 0;
};

// The same table owning its keys.
template <class V>
using FlatStringMap = FlatStringIndex<V, std::string>;

}  // namespace chaintwin::model
