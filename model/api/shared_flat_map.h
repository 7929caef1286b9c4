// A sorted flat map whose copies share one block until one of them is written (copy on write).
//
// Labels, annotations and node selectors are copied far more often than they are changed: every
// Pod starts as a copy of its PodSet's template, a Node is copied whole for a label write, a
// Workload's template travels with each placement. As plain flat maps each copy allocated a
// block and every key and value longer than the short-string buffer; shared, a copy is a reference
// count. Reading never copies: every iterator handed out is a const one, and a write goes through a
// method below (or mut()), which first gives this map a block of its own if another map shares it.
// A write invalidates every iterator and reference into this map, as a flat map's insert does.
//
// Copies may live in different threads: the count is atomic, and a map is written only by the
// thread that owns it, so a block is never written while another map can still read it. (A map
// writes in place when its count reads 1, a relaxed read; model/ takes no fence. The planner's
// threads share blocks only through a scenario that holds them until the threads are joined, so
// none of those blocks is ever written in place.)
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>

#include <boost/container/flat_map.hpp>

namespace chaintwin::model {

template <class Key, class Value>
class SharedFlatMap {
 public:
  using map_type = boost::container::flat_map<Key, Value, std::less<>>;
  using key_type = Key;
  using mapped_type = Value;
  using value_type = typename map_type::value_type;
  using size_type = typename map_type::size_type;
  using difference_type = typename map_type::difference_type;
  using const_iterator = typename map_type::const_iterator;
  using iterator = const_iterator;  // reads never unshare; writes go through the methods
  using const_reverse_iterator = typename map_type::const_reverse_iterator;
  using reverse_iterator = const_reverse_iterator;

  SharedFlatMap() = default;
  SharedFlatMap(std::initializer_list<value_type> items) {
    if (items.size() != 0) rep_ = std::make_shared<map_type>(items);
  }
  template <class It>
  SharedFlatMap(It first, It last) {
    if (first != last) rep_ = std::make_shared<map_type>(first, last);
  }

  // Reads.
  const map_type& get() const { return rep_ ? *rep_ : none(); }
  const_iterator begin() const { return get().begin(); }
  const_iterator end() const { return get().end(); }
  const_iterator cbegin() const { return get().begin(); }
  const_iterator cend() const { return get().end(); }
  const_reverse_iterator rbegin() const { return get().rbegin(); }
  const_reverse_iterator rend() const { return get().rend(); }
  bool empty() const { return !rep_ || rep_->empty(); }
  size_type size() const { return rep_ ? rep_->size() : 0; }
  template <class K>
  const_iterator find(const K& key) const { return get().find(key); }
  template <class K>
  bool contains(const K& key) const { return get().contains(key); }
  template <class K>
  size_type count(const K& key) const { return get().count(key); }
  template <class K>
  const Value& at(const K& key) const { return get().at(key); }
  template <class K>
  const_iterator lower_bound(const K& key) const { return get().lower_bound(key); }
  template <class K>
  const_iterator upper_bound(const K& key) const { return get().upper_bound(key); }
  const_iterator nth(size_type i) const { return get().nth(i); }
  // Whether the two maps share one block (then they are equal without a look at the items).
  bool shares_with(const SharedFlatMap& other) const { return rep_ != nullptr && rep_ == other.rep_; }

  // Writes: each first makes the block this map's own.
  map_type& mut() {
    if (!rep_) rep_ = std::make_shared<map_type>();
    else if (rep_.use_count() > 1) rep_ = std::make_shared<map_type>(*rep_);
    return *rep_;
  }
  Value& operator[](const Key& key) { return mut()[key]; }
  Value& operator[](Key&& key) { return mut()[std::move(key)]; }
  template <class... Args>
  auto emplace(Args&&... args) { return mut().emplace(std::forward<Args>(args)...); }
  template <class K, class... Args>
  auto try_emplace(K&& key, Args&&... args) { return mut().try_emplace(std::forward<K>(key), std::forward<Args>(args)...); }
  template <class K, class V>
  auto insert_or_assign(K&& key, V&& value) { return mut().insert_or_assign(std::forward<K>(key), std::forward<V>(value)); }
  // `hint` is an iterator of this map (kept as a position across the unsharing).
  template <class... Args>
  auto emplace_hint(const_iterator hint, Args&&... args) {
    const difference_type i = hint - get().begin();
    map_type& m = mut();
    return m.emplace_hint(m.begin() + i, std::forward<Args>(args)...);
  }
  auto insert(const value_type& item) { return mut().insert(item); }
  auto insert(value_type&& item) { return mut().insert(std::move(item)); }
  template <class It>
  void insert(It first, It last) {
    if (first != last) mut().insert(first, last);
  }
  // The value at `at`, an iterator of this map, to write (kept as a position across the unsharing).
  Value& value_at(const_iterator at) {
    const difference_type i = at - get().begin();
    return (mut().begin() + i)->second;
  }
  // Erases by key; a map without the key stays shared.
  template <class K>
  size_type erase(const K& key) {
    const const_iterator at = find(key);
    if (at == end()) return 0;
    erase(at);
    return 1;
  }
  // Erases the item at `at`, an iterator of this map (kept as a position across the unsharing).
  const_iterator erase(const_iterator at) {
    const difference_type i = at - get().begin();
    map_type& m = mut();
    return m.erase(m.begin() + i);
  }
  void clear() { rep_.reset(); }
  void reserve(size_type n) { mut().reserve(n); }
  void swap(SharedFlatMap& other) noexcept { rep_.swap(other.rep_); }

  friend bool operator==(const SharedFlatMap& a, const SharedFlatMap& b) {
    return a.rep_ == b.rep_ || a.get() == b.get();
  }

 private:
  static const map_type& none() {
    static const map_type empty_map;
    return empty_map;
  }
  std::shared_ptr<map_type> rep_;
};

}  // namespace chaintwin::model
