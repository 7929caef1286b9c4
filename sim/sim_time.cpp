#include "sim/sim_time.h"

#include <array>
#include <limits>

namespace chaintwin::sim {
namespace {

struct Unit {
  std::string_view name;
  int64_t us;
};
constexpr std::array<Unit, 6> kUnits{{{"d", 86'400'000'000}, {"h", 3'600'000'000}, {"m", 60'000'000},
                                      {"s", 1'000'000}, {"ms", 1'000}, {"us", 1}}};

}  // namespace

model::Result<SimTime> SimTime::parse(std::string_view text) {
  const std::string shown(text);
  size_t i = 0;
  int64_t n = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (n > (std::numeric_limits<int64_t>::max() - 9) / 10) return model::err("duration '" + shown + "' is too large");
    n = n * 10 + (text[i] - '0');
    ++i;
  }
  if (i == 0 || i == text.size())
    return model::err("duration '" + shown + "': expected an integer with a unit (us, ms, s, m, h, d), e.g. 30s");
  const std::string_view unit = text.substr(i);
  for (const auto& u : kUnits) {
    if (unit != u.name) continue;
    if (n > std::numeric_limits<int64_t>::max() / u.us) return model::err("duration '" + shown + "' is too large");
    return SimTime(n * u.us);
  }
  return model::err("duration '" + shown + "': unknown unit '" + std::string(unit) + "' (expected us, ms, s, m, h or d)");
}

std::string SimTime::to_string() const {
  if (us_ == 0) return "0s";
  for (const auto& u : kUnits)
    if (us_ % u.us == 0) return std::to_string(us_ / u.us) + std::string(u.name);
  return std::to_string(us_) + "us";
}

}  // namespace chaintwin::sim
