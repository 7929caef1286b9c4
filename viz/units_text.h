// How the GUI writes numbers: every number with its unit, credits also as cards (1,600,000
// credits = 1 card), CPU in cores, simulated time as the event log writes it.
#pragma once

#include <cstdint>
#include <string>

namespace chaintwin::viz {

inline constexpr int64_t kCreditsPerCard = 1'600'000;

// "1,600,000" — thousands separated by commas.
std::string grouped(int64_t value);
// A pool quantity in its resource's units: "3,200,000 cr (2.00 cards)" for credits,
// "12.500 cores" for cpu (Kueue's millicores), "7 <resource>" otherwise.
std::string quantity_text(const std::string& resource, int64_t value);
// The short form for tight cells: "2.00 cards", "12.5 cores".
std::string quantity_short(const std::string& resource, int64_t value);
// Simulated time, "1d02:03:04" (sub-second digits only when present: "0d00:00:01.5").
std::string time_text(int64_t us);
// Parses "90s", "15m", "2h", "1d", "1d02:00:00" or plain seconds into µs; false when malformed.
bool parse_time(const std::string& text, int64_t* us);

}  // namespace chaintwin::viz
