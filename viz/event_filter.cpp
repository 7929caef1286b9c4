#include "viz/event_filter.h"

#include <algorithm>
#include <cctype>

namespace chaintwin::viz {
namespace {

bool contains(const std::string& hay, const std::string& lowered_needle) {
  const auto it = std::search(hay.begin(), hay.end(), lowered_needle.begin(), lowered_needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == b;
  });
  return it != hay.end();
}

}  // namespace

std::vector<size_t> event_rows(const std::vector<EventRow>& events, const std::string& filter) {
  std::string needle = filter;
  for (char& c : needle) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<size_t> out;
  for (size_t i = 0; i < events.size(); ++i)
    if (needle.empty() || contains(events[i].kind, needle) || contains(events[i].object, needle) ||
        contains(events[i].message, needle))
      out.push_back(i);
  return out;
}

}  // namespace chaintwin::viz
