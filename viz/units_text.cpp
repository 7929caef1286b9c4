#include "viz/units_text.h"

#include <cstdio>
#include <cstdlib>

namespace chaintwin::viz {

std::string grouped(int64_t value) {
  const bool negative = value < 0;
  std::string digits = std::to_string(negative ? -value : value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

namespace {
bool is_credits(const std::string& resource) { return resource.rfind("credits.gpustack.ai/", 0) == 0; }

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
}  // namespace

std::string quantity_text(const std::string& resource, int64_t value) {
  if (is_credits(resource))
    return grouped(value) + " cr (" + fixed(static_cast<double>(value) / kCreditsPerCard, 2) + " cards)";
  if (resource == "cpu") return fixed(static_cast<double>(value) / 1000.0, 3) + " cores";
  return grouped(value) + " " + resource;
}

std::string quantity_short(const std::string& resource, int64_t value) {
  if (is_credits(resource)) return fixed(static_cast<double>(value) / kCreditsPerCard, 2) + " cards";
  if (resource == "cpu") return fixed(static_cast<double>(value) / 1000.0, 1) + " cores";
  return grouped(value);
}

std::string time_text(int64_t us) {
  const bool negative = us < 0;
  if (negative) us = -us;
  const int64_t s = us / 1'000'000, frac = us % 1'000'000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%lldd%02lld:%02lld:%02lld", negative ? "-" : "", static_cast<long long>(s / 86400),
                static_cast<long long>(s / 3600 % 24), static_cast<long long>(s / 60 % 60),
                static_cast<long long>(s % 60));
  std::string out = buf;
  if (frac != 0) {
    std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out;
}

bool parse_time(const std::string& text, int64_t* us) {
  if (text.empty()) return false;
  long long d = 0, h = 0, m = 0, s = 0;
  int used = 0;
  if (std::sscanf(text.c_str(), "%lldd%lld:%lld:%lld%n", &d, &h, &m, &s, &used) == 4 &&
      static_cast<size_t>(used) == text.size()) {
    *us = (((d * 24 + h) * 60 + m) * 60 + s) * 1'000'000;
    return d >= 0 && h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60;
  }
  char* rest = nullptr;
  const double value = std::strtod(text.c_str(), &rest);
  if (rest == text.c_str() || value < 0) return false;
  const std::string suffix(rest);
  if (suffix.size() > 1) return false;
  const char unit = suffix.empty() ? 's' : suffix[0];
  double scale = 0;
  switch (unit) {
    case 's': scale = 1; break;
    case 'm': scale = 60; break;
    case 'h': scale = 3600; break;
    case 'd': scale = 86400; break;
    default: return false;
  }
  *us = static_cast<int64_t>(value * scale * 1'000'000 + 0.5);
  return true;
}

}  // namespace chaintwin::viz
