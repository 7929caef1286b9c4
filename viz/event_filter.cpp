#include "viz/event_filter.h"

#include "viz/text_match.h"

namespace chaintwin::viz {

std::vector<size_t> event_rows(const std::vector<EventRow>& events, const std::string& filter) {
  const Needle needle(filter);
  std::vector<size_t> out;
  for (size_t i = 0; i < events.size(); ++i)
    if (needle.empty() || needle.in(events[i].kind) || needle.in(events[i].object) || needle.in(events[i].message))
      out.push_back(i);
  return out;
}

}  // namespace chaintwin::viz
