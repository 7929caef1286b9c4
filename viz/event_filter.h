// Which event-log rows the Events panel lists: those whose kind, object or message contains the
// filter (case-insensitive); every row for an empty filter.
#pragma once

#include <string>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

std::vector<size_t> event_rows(const std::vector<EventRow>& events, const std::string& filter);

}  // namespace chaintwin::viz
