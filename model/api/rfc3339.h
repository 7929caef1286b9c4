// RFC 3339 timestamps as the API server writes them (metav1.Time: "2026-01-01T00:10:00Z", whole
// seconds, UTC) to and from seconds since the Unix epoch — pure calendar arithmetic (proleptic
// Gregorian), no clock. The simulator stamps its instants with format_rfc3339; the TopologySource
// controller reads its status.lastSuccessfulRefreshTime back with parse_rfc3339 to judge staleness.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace chaintwin::model {

// "YYYY-MM-DDTHH:MM:SSZ" for `unix_seconds`.
std::string format_rfc3339(int64_t unix_seconds);

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)" (a fraction is dropped);
// nullopt when the text is not such a timestamp.
std::optional<int64_t> parse_rfc3339(std::string_view text);

// Days from 1970-01-01 to a civil date, and back (Howard Hinnant's algorithms).
int64_t days_from_civil(int64_t year, unsigned month, unsigned day);
void civil_from_days(int64_t days, int64_t& year, unsigned& month, unsigned& day);

}  // namespace chaintwin::model
