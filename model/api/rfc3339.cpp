// RFC 3339 <-> seconds since the epoch.
#include "model/api/rfc3339.h"

#include <string>


namespace chaintwin::model {

int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

namespace {

// `v` in decimal, zero-padded to `width` digits (a negative year keeps its sign in front).
std::string padded(int64_t v, size_t width) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return (v < 0 ? "-" : "") + digits;
}

}  // namespace

std::string format_rfc3339(int64_t unix_seconds) {
  int64_t days = unix_seconds / 86400;
  int64_t rem = unix_seconds % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, y, m, d);
  if (y < 0 || y > 9999)  // a year of another width: the general form
    return padded(y, 4) + "-" + padded(m, 2) + "-" + padded(d, 2) + "T" + padded(rem / 3600, 2) + ":" +
           padded(rem / 60 % 60, 2) + ":" + padded(rem % 60, 2) + "Z";
  // The usual case, written in place (a write's timestamp is formatted for every write).
  char text[] = "YYYY-MM-DDThh:mm:ssZ";
  const auto put = [&](size_t at, int64_t v, size_t width) {
    for (size_t i = width; i-- > 0; v /= 10) text[at + i] = static_cast<char>('0' + v % 10);
  };
  put(0, y, 4);
  put(5, m, 2);
  put(8, d, 2);
  put(11, rem / 3600, 2);
  put(14, rem / 60 % 60, 2);
  put(17, rem % 60, 2);
  return std::string(text, sizeof(text) - 1);
}

namespace {

// `n` digits at `pos`, or -1.
int64_t digits_at(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return -1;
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

std::optional<int64_t> parse_rfc3339(std::string_view s) {
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':')
    return std::nullopt;
  const int64_t year = digits_at(s, 0, 4), month = digits_at(s, 5, 2), day = digits_at(s, 8, 2);
  const int64_t hour = digits_at(s, 11, 2), minute = digits_at(s, 14, 2), second = digits_at(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 60)
    return std::nullopt;
  size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    const size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return std::nullopt;
  }
  int64_t offset = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    const int64_t oh = digits_at(s, pos + 1, 2), om = digits_at(s, pos + 4, 2);
    if (oh < 0 || om < 0 || pos + 3 >= s.size() || s[pos + 3] != ':') return std::nullopt;
    offset = (oh * 60 + om) * 60 * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  const int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return days * 86400 + hour * 3600 + minute * 60 + second - offset;
}

}  // namespace chaintwin::model
