#include "sim/results/interned_name.h"

#include <functional>
#include <mutex>
#include <ostream>
#include <unordered_set>

#include <nlohmann/json.hpp>

namespace chaintwin::sim {
namespace {

struct TextHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct Pool {
  std::mutex mutex;
  // Node-based: an element's address survives every later insert and rehash.
  std::unordered_set<std::string, TextHash, std::equal_to<>> texts;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: names may be read while other statics go away
  return *p;
}

}  // namespace

const std::string& InternedName::empty_text() {
  static const std::string* empty = new std::string;
  return *empty;
}

const std::string* InternedName::intern(std::string_view text) {
  if (text.empty()) return &empty_text();
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  auto it = p.texts.find(text);
  if (it == p.texts.end()) it = p.texts.emplace(text).first;
  return &*it;
}

size_t InternedName::pool_size() {
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  return p.texts.size();
}

std::ostream& operator<<(std::ostream& out, const InternedName& name) { return out << name.str(); }

void to_json(nlohmann::json& j, const InternedName& name) { j = name.str(); }

void from_json(const nlohmann::json& j, InternedName& name) { name = InternedName(j.get<std::string>()); }

}  // namespace chaintwin::sim
