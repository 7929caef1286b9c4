#include "viz/text_match.h"

#include <algorithm>
#include <cctype>

namespace chaintwin::viz {

Needle::Needle(const std::string& text) : lowered_(text) {
  for (char& c : lowered_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool Needle::in(const std::string& hay) const {
  if (lowered_.empty()) return true;
  return std::search(hay.begin(), hay.end(), lowered_.begin(), lowered_.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != hay.end();
}

}  // namespace chaintwin::viz
