// Case-insensitive substring matching for the panels' filter boxes: a Needle is lowered once, then
// matched against many texts without copying them.
#pragma once

#include <string>
#include <string_view>

namespace chaintwin::viz {

// True when `text` contains `part` exactly (case counts): the panels' readers of messages.
inline bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

class Needle {
 public:
  explicit Needle(const std::string& text);
  bool empty() const { return lowered_.empty(); }
  // True when `hay` contains the needle, ignoring ASCII case; always true for an empty needle.
  bool in(const std::string& hay) const;

 private:
  std::string lowered_;
};

}  // namespace chaintwin::viz
