// KeyedTable<T>: objects by key, walked in key order exactly as the std::map it wraps (the order
// the operator's and Kueue's semantics rely on where sorted names decide ties), with a hash index
// beside the tree (FlatStringIndex: one array probe) so that a lookup by key is one hash and one
// comparison instead of a walk down the tree comparing long keys that share their prefix
// ("<namespace>/<name>").
//
// The index holds views of the keys and iterators into the tree, whose nodes never move, so it
// stays valid through inserts and erases of other keys and through a move of the table; a copy
// builds its own. The index never decides an order: the hash only finds, so iteration and
// everything derived from it stay deterministic. Equality compares the objects only.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "model/flat_string_index.h"

namespace chaintwin::model {

template <class T>
class KeyedTable {
 public:
  using map_type = std::map<std::string, T>;
  using key_type = std::string;
  using mapped_type = T;
  using value_type = typename map_type::value_type;
  using size_type = typename map_type::size_type;
  using iterator = typename map_type::iterator;
  using const_iterator = typename map_type::const_iterator;

  KeyedTable() = default;
  KeyedTable(std::initializer_list<value_type> objects) : map_(objects) { reindex(); }
  KeyedTable(const KeyedTable& o) : map_(o.map_) { reindex(); }
  KeyedTable(KeyedTable&& o) noexcept : map_(std::move(o.map_)), index_(std::move(o.index_)) { o.clear(); }
  KeyedTable& operator=(const KeyedTable& o) {
    if (this != &o) {
      map_ = o.map_;
      reindex();
    }
    return *this;
  }
  KeyedTable& operator=(KeyedTable&& o) noexcept {
    if (this != &o) {
      map_ = std::move(o.map_);
      index_ = std::move(o.index_);
      o.clear();
    }
    return *this;
  }

  iterator begin() { return map_.begin(); }
  iterator end() { return map_.end(); }
  const_iterator begin() const { return map_.begin(); }
  const_iterator end() const { return map_.end(); }
  size_type size() const { return map_.size(); }
  bool empty() const { return map_.empty(); }
  void clear() {
    index_.clear();
    map_.clear();
  }

  iterator find(std::string_view key) {
    const iterator* at = index_.find(key);
    return at == nullptr ? map_.end() : *at;
  }
  const_iterator find(std::string_view key) const {
    const iterator* at = index_.find(key);
    return at == nullptr ? map_.end() : const_iterator(*at);
  }
  size_type count(std::string_view key) const { return index_.find(key) != nullptr ? 1 : 0; }
  bool contains(std::string_view key) const { return index_.find(key) != nullptr; }
  T& at(std::string_view key) {
    const iterator* at = index_.find(key);
    if (at == nullptr) throw std::out_of_range("KeyedTable::at: no " + std::string(key));
    return (*at)->second;
  }
  const T& at(std::string_view key) const {
    const iterator* at = index_.find(key);
    if (at == nullptr) throw std::out_of_range("KeyedTable::at: no " + std::string(key));
    return (*at)->second;
  }

  T& operator[](const std::string& key) { return try_emplace(key).first->second; }

  template <class... Args>
  std::pair<iterator, bool> try_emplace(const std::string& key, Args&&... args) {
    if (const iterator* found = index_.find(key); found != nullptr) return {*found, false};
    const auto [at, added] = map_.try_emplace(key, std::forward<Args>(args)...);
    index_.emplace(std::string_view(at->first), at);
    return {at, added};
  }
  template <class V>
  std::pair<iterator, bool> emplace(const std::string& key, V&& value) {
    return try_emplace(key, std::forward<V>(value));
  }
  template <class V>
  std::pair<iterator, bool> insert_or_assign(const std::string& key, V&& value) {
    auto [at, added] = try_emplace(key, std::forward<V>(value));
    if (!added) at->second = std::forward<V>(value);
    return {at, added};
  }

  iterator erase(iterator it) {
    index_.erase(std::string_view(it->first));
    return map_.erase(it);
  }
  iterator erase(const_iterator it) {
    index_.erase(std::string_view(it->first));
    return map_.erase(it);
  }
  size_type erase(std::string_view key) {
    const iterator* found = index_.find(key);
    if (found == nullptr) return 0;
    remove(*found);
    return 1;
  }
  // Erases the object at `it` without finding its successor, the walk up the tree that erase(it)
  // pays for the iterator it returns.
  void remove(const_iterator it) {
    index_.erase(std::string_view(it->first));  // (before the tree node that holds the key's text goes)
    map_.extract(it);
  }

  bool operator==(const KeyedTable& o) const { return map_ == o.map_; }

 private:
  void reindex() {
    index_.clear();
    index_.reserve(map_.size());
    for (auto it = map_.begin(); it != map_.end(); ++it) index_.emplace(std::string_view(it->first), it);
  }

  map_type map_;
  FlatStringIndex<iterator> index_;
};

}  // namespace chaintwin::model
