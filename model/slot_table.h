// SlotTable<T>: objects by key for a kind that no semantics walks in key order (the Pods: every
// walk over them sums, tallies or filters). Each object lives in a numbered slot that never moves
// while the object lives, found by key through a FlatStringIndex (one hash, one probe) and by its
// slot number by indexing, which is what per-Node lists hold instead of copies of the key. An
// insert takes the most recently freed slot or a new one; nothing is rebalanced and no key is
// compared with another, which is what KeyedTable's tree costs on every insert and erase.
//
// Iteration runs over the live slots in slot order. That order is a function of the sequence of
// inserts and erases, so it is deterministic, but it is not key order: nothing whose result
// depends on the order of the walk may iterate a SlotTable. Equality is as sets of (key, object).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/flat_string_index.h"

namespace chaintwin::model {

template <class T>
class SlotTable {
 public:
  using key_type = std::string;
  using mapped_type = T;
  using value_type = std::pair<const std::string, T>;
  using size_type = std::size_t;
  using Slot = uint32_t;

 private:
  using Slots = std::deque<std::optional<value_type>>;

  template <bool Const>
  class Iter {
   public:
    using Table = std::conditional_t<Const, const Slots, Slots>;
    using reference = std::conditional_t<Const, const value_type&, value_type&>;
    using pointer = std::conditional_t<Const, const value_type*, value_type*>;
    Iter() = default;
    Iter(Table* slots, std::size_t at) : slots_(slots), at_(at) { skip(); }
    template <bool C = Const, class = std::enable_if_t<C>>
    Iter(const Iter<false>& o) : slots_(o.slots_), at_(o.at_) {}  // NOLINT: iterator → const_iterator
    reference operator*() const { return *(*slots_)[at_]; }
    pointer operator->() const { return &*(*slots_)[at_]; }
    Iter& operator++() {
      ++at_;
      skip();
      return *this;
    }
    bool operator==(const Iter& o) const { return at_ == o.at_; }
    Slot slot() const { return static_cast<Slot>(at_); }

   private:
    friend class SlotTable;
    friend class Iter<true>;
    void skip() {
      while (at_ < slots_->size() && !(*slots_)[at_]) ++at_;
    }
    Table* slots_ = nullptr;
    std::size_t at_ = 0;
  };

 public:
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  SlotTable() = default;
  SlotTable(const SlotTable& o) : slots_(o.slots_), free_(o.free_), size_(o.size_) { reindex(); }
  // A deque's move hands its blocks over, so the index's views stay on the keys they name.
  SlotTable(SlotTable&& o) noexcept
      : slots_(std::move(o.slots_)), free_(std::move(o.free_)), index_(std::move(o.index_)), size_(o.size_) {
    o.clear();
  }
  SlotTable& operator=(const SlotTable& o) {
    if (this != &o) {
      slots_ = o.slots_;
      free_ = o.free_;
      size_ = o.size_;
      reindex();
    }
    return *this;
  }
  SlotTable& operator=(SlotTable&& o) noexcept {
    if (this != &o) {
      slots_ = std::move(o.slots_);
      free_ = std::move(o.free_);
      index_ = std::move(o.index_);
      size_ = o.size_;
      o.clear();
    }
    return *this;
  }

  iterator begin() { return {&slots_, 0}; }
  iterator end() { return {&slots_, slots_.size()}; }
  const_iterator begin() const { return {&slots_, 0}; }
  const_iterator end() const { return {&slots_, slots_.size()}; }
  size_type size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    index_.clear();
    slots_.clear();
    free_.clear();
    size_ = 0;
  }

  iterator find(std::string_view key) {
    const Slot* at = index_.find(key);
    return at == nullptr ? end() : iterator(&slots_, *at);
  }
  const_iterator find(std::string_view key) const {
    const Slot* at = index_.find(key);
    return at == nullptr ? end() : const_iterator(&slots_, *at);
  }
  size_type count(std::string_view key) const { return index_.find(key) != nullptr ? 1 : 0; }
  bool contains(std::string_view key) const { return index_.find(key) != nullptr; }
  T& at(std::string_view key) { return const_cast<T&>(std::as_const(*this).at(key)); }
  const T& at(std::string_view key) const {
    const Slot* at = index_.find(key);
    if (at == nullptr) throw std::out_of_range("SlotTable::at: no " + std::string(key));
    return (*slots_[*at]).second;
  }
  // The object in `slot`, which must be live (a slot number from an iterator of this table whose
  // object has not been erased since).
  const value_type& in_slot(Slot slot) const { return *slots_[slot]; }
  iterator slot_iterator(Slot slot) { return iterator(&slots_, slot); }

  T& operator[](const std::string& key) { return try_emplace(key).first->second; }

  template <class... Args>
  std::pair<iterator, bool> try_emplace(const std::string& key, Args&&... args) {
    if (const Slot* found = index_.find(key); found != nullptr) return {iterator(&slots_, *found), false};
    Slot slot;
    if (free_.empty()) {
      slot = static_cast<Slot>(slots_.size());
      slots_.emplace_back();
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    auto& cell = slots_[slot];
    cell.emplace(std::piecewise_construct, std::forward_as_tuple(key), std::forward_as_tuple(std::forward<Args>(args)...));
    index_.emplace(std::string_view(cell->first), slot);
    ++size_;
    return {iterator(&slots_, slot), true};
  }
  template <class V>
  std::pair<iterator, bool> insert_or_assign(const std::string& key, V&& value) {
    auto [at, added] = try_emplace(key, std::forward<V>(value));
    if (!added) at->second = std::forward<V>(value);
    return {at, added};
  }

  // Erases the object at `it`, finding no next live slot.
  void remove(const_iterator it) { release(it.at_); }
  // The next live slot after `it`, as std::map's erase returns.
  iterator erase(const_iterator it) {
    release(it.at_);
    return iterator(&slots_, it.at_ + 1);
  }
  iterator erase(iterator it) { return erase(const_iterator(it)); }
  size_type erase(std::string_view key) {
    const Slot* found = index_.find(key);
    if (found == nullptr) return 0;
    release(*found);
    return 1;
  }

  bool operator==(const SlotTable& o) const {
    if (size_ != o.size_) return false;
    for (const auto& [key, object] : *this) {
      const auto it = o.find(key);
      if (it == o.end() || !(it->second == object)) return false;
    }
    return true;
  }

 private:
  void release(std::size_t slot) {
    auto& cell = slots_[slot];
    index_.erase(std::string_view(cell->first));  // (before the key's text goes)
    cell.reset();
    free_.push_back(static_cast<Slot>(slot));
    --size_;
  }
  void reindex() {
    index_.clear();
    index_.reserve(size_);
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i]) index_.emplace(std::string_view(slots_[i]->first), static_cast<Slot>(i));
  }

  Slots slots_;
  std::vector<Slot> free_;  // freed slots, the latest last
  FlatStringIndex<Slot> index_;
  size_type size_ = 0;
};

}  // namespace chaintwin::model
