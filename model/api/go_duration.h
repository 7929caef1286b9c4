// Go's time.Duration as Kubernetes objects spell it (metav1.Duration: "10m", "1h30m", "500ms"),
// at microsecond resolution — the simulator's clock. Parsing follows time.ParseDuration (a sign,
// then one or more decimal numbers each with a unit ns, us, µs, ms, s, m, h; "0" alone); the
// nanosecond part of a value is dropped. Formatting follows Duration.String ("10m0s", "1.5s",
// "250ms"). Used by the TopologySource codec (maxStaleness, pollInterval, timeout).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/result.h"

namespace chaintwin::model {

// Microseconds, or the reason the text is not a Go duration (`time: invalid duration "10"`).
Result<int64_t> parse_go_duration(std::string_view text);

// Duration.String() of `us` microseconds: "0s", "250ms", "1.5s", "10m0s", "1h0m0s".
std::string format_go_duration(int64_t us);

}  // namespace chaintwin::model
