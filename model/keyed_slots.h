// KeyedSlots<T>: objects by key in numbered slots (SlotTable), found by hash, for a kind of which
// tens of thousands live at once and come and go all the time (the Workloads): an insert takes a
// free slot and an erase gives it back, with no tree to rebalance and no key compared with
// another, which is what a sorted table (KeyedTable) costs on every insert and erase.
//
// Key order is part of Kueue's and the operator's semantics wherever a walk decides something in
// turn (transitions written in order, budgets spent in order): such a walk asks for it by name,
// in_key_order(), which sorts the live keys when it is called. A walk whose result no order can
// change (a sum, a set) takes each_unordered(), in slot order. There is no begin()/end(), so no
// walk takes an order by accident. Equality is as sets of (key, object).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/slot_table.h"

namespace chaintwin::model {

template <class T>
class KeyedSlots {
  using Table = SlotTable<T>;

 public:
  using iterator = typename Table::iterator;
  using const_iterator = typename Table::const_iterator;
  using value_type = typename Table::value_type;

  std::size_t size() const { return table_.size(); }
  bool empty() const { return table_.empty(); }
  void clear() { table_.clear(); }

  iterator find(std::string_view key) { return table_.find(key); }
  const_iterator find(std::string_view key) const { return table_.find(key); }
  // What find() returns for a key that is not there (not the end of a walk: there is none).
  iterator end() { return table_.end(); }
  const_iterator end() const { return table_.end(); }
  std::size_t count(std::string_view key) const { return table_.count(key); }
  bool contains(std::string_view key) const { return table_.contains(key); }
  T& at(std::string_view key) { return table_.at(key); }
  const T& at(std::string_view key) const { return table_.at(key); }

  T& operator[](const std::string& key) { return table_[key]; }
  template <class... Args>
  std::pair<iterator, bool> try_emplace(const std::string& key, Args&&... args) {
    return table_.try_emplace(key, std::forward<Args>(args)...);
  }
  template <class V>
  std::pair<iterator, bool> emplace(const std::string& key, V&& value) {
    return table_.try_emplace(key, std::forward<V>(value));
  }
  template <class V>
  std::pair<iterator, bool> insert_or_assign(const std::string& key, V&& value) {
    return table_.insert_or_assign(key, std::forward<V>(value));
  }
  std::size_t erase(std::string_view key) { return table_.erase(key); }
  void remove(const_iterator it) { table_.remove(it); }

  // The live objects sorted by key: the order of a walk whose steps depend on one another.
  std::vector<value_type*> in_key_order() { return sorted<value_type>(table_); }
  std::vector<const value_type*> in_key_order() const { return sorted<const value_type>(table_); }
  // f(key, object) for every live object in slot order: only for a walk whose result does not
  // depend on the order (a sum, a count, a set).
  template <class F>
  void each_unordered(F&& f) {
    for (auto& [key, object] : table_) f(key, object);
  }
  template <class F>
  void each_unordered(F&& f) const {
    for (const auto& [key, object] : table_) f(key, object);
  }

  bool operator==(const KeyedSlots& o) const { return table_ == o.table_; }

 private:
  template <class V, class Tb>
  static std::vector<V*> sorted(Tb& table) {
    std::vector<V*> out;
    out.reserve(table.size());
    for (auto& kv : table) out.push_back(&kv);
    std::sort(out.begin(), out.end(), [](const V* a, const V* b) { return a->first < b->first; });
    return out;
  }

  Table table_;
};

}  // namespace chaintwin::model
