// InternedName: a name or message that the run record holds many times over, kept once per
// process. A run of a million Workloads keeps millions of outcomes and samples whose strings
// (ClusterQueues, resources, InstanceTypes, GPU models, families, pending messages) take a few
// hundred distinct values; each field is then one pointer instead of its own copy. Reads see a
// plain `const std::string&`; writing one interns it.
//
// The pool is process-wide, thread-safe (runs of `chaintwin plan` share it from several threads)
// and never shrinks: its size is the number of distinct strings, which the model's vocabulary
// bounds. Interning never decides an order: comparisons are on the text.
#pragma once

#include <compare>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace chaintwin::sim {

class InternedName {
 public:
  InternedName() : text_(&empty_text()) {}
  InternedName(std::string_view text) : text_(intern(text)) {}  // NOLINT: implicit, as a string is
  InternedName(const std::string& text) : text_(intern(text)) {}  // NOLINT
  InternedName(const char* text) : text_(intern(text)) {}  // NOLINT

  const std::string& str() const { return *text_; }
  operator const std::string&() const { return *text_; }  // NOLINT: reads as the string it holds
  bool empty() const { return text_->empty(); }
  size_t size() const { return text_->size(); }
  const char* c_str() const { return text_->c_str(); }

  // One pool per process, so equal texts are the same pointer.
  friend bool operator==(const InternedName& a, const InternedName& b) { return a.text_ == b.text_; }
  friend bool operator==(const InternedName& a, const std::string& b) { return *a.text_ == b; }
  friend bool operator==(const InternedName& a, std::string_view b) { return *a.text_ == b; }
  friend bool operator==(const InternedName& a, const char* b) { return *a.text_ == b; }
  friend std::strong_ordering operator<=>(const InternedName& a, const InternedName& b) {
    return a.text_ == b.text_ ? std::strong_ordering::equal : (*a.text_ <=> *b.text_);
  }
  friend std::strong_ordering operator<=>(const InternedName& a, const std::string& b) { return *a.text_ <=> b; }

  friend std::string operator+(const InternedName& a, const std::string& b) { return *a.text_ + b; }
  friend std::string operator+(const std::string& a, const InternedName& b) { return a + *b.text_; }
  friend std::string operator+(const InternedName& a, const char* b) { return *a.text_ + b; }
  friend std::string operator+(const char* a, const InternedName& b) { return a + *b.text_; }

  // Distinct strings interned so far in this process (for tests and the benchmark).
  static size_t pool_size();

 private:
  static const std::string* intern(std::string_view text);
  static const std::string& empty_text();
  const std::string* text_;
};

std::ostream& operator<<(std::ostream& out, const InternedName& name);
void to_json(nlohmann::json& j, const InternedName& name);
void from_json(const nlohmann::json& j, InternedName& name);

}  // namespace chaintwin::sim
