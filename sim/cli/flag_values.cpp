#include "sim/cli/flag_values.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace chaintwin::cli {
namespace {

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

template <typename T>
std::optional<T> digits_to(const std::string& s) {
  if (!all_digits(s)) return std::nullopt;
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;  // out of range, or not all read
  return v;
}

std::string joined(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

}  // namespace

std::string show_number(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

ValueKind<uint64_t> seed_value() { return whole_number<uint64_t>(0, std::numeric_limits<uint64_t>::max(), "N"); }

ValueKind<double> positive_number(double max, std::string type_name, std::string unit) {
  const std::string what = unit.empty() ? "a number" : "a number of " + unit;
  return {std::move(type_name), what + " greater than 0 and at most " + show_number(max),
          [max](const std::string& s) -> std::optional<double> {
            double v = 0;
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
            if (!std::isfinite(v) || !(v > 0) || v > max) return std::nullopt;
            return v;
          },
          [](const double& v) { return show_number(v); }};
}

ValueKind<sim::SimTime> duration(bool positive, std::string type_name) {
  return {std::move(type_name),
          std::string("a duration such as 30s, 15m, 6h or 2d (an integer with a unit: us, ms, s, m, h, d)") +
              (positive ? ", longer than 0s" : ""),
          [positive](const std::string& s) -> std::optional<sim::SimTime> {
            const auto t = sim::SimTime::parse(s);
            if (!t.ok() || (positive && t->us() <= 0)) return std::nullopt;
            return *t;
          },
          [](const sim::SimTime& t) { return t.to_string(); }};
}

ValueKind<std::string> one_of(std::vector<std::string> choices) {
  return {joined(choices, "|"), "one of " + joined(choices, ", "),
          [choices](const std::string& s) -> std::optional<std::string> {
            for (const auto& c : choices)
              if (s == c) return s;
            return std::nullopt;
          },
          [](const std::string& s) { return s; }};
}

ValueKind<std::string> text(std::string type_name, std::string expected) {
  return {std::move(type_name), std::move(expected),
          [](const std::string& s) -> std::optional<std::string> {
            if (s.empty()) return std::nullopt;
            return s;
          },
          [](const std::string& s) { return s; }};
}

ValueKind<HostPort> host_port() {
  return {"HOST:PORT", "HOST:PORT with PORT from 0 to 65535 (e.g. 127.0.0.1:8080)",
          [](const std::string& s) -> std::optional<HostPort> {
            const size_t colon = s.rfind(':');
            if (colon == std::string::npos || colon == 0) return std::nullopt;
            const auto port = digits_to<uint32_t>(s.substr(colon + 1));
            if (!port || *port > 65535) return std::nullopt;
            return HostPort{s.substr(0, colon), static_cast<int>(*port)};
          },
          [](const HostPort& h) { return h.host + ":" + std::to_string(h.port); }};
}

ValueKind<PixelSize> pixel_size() {
  return {"WxH", "WxH in pixels, from 320x240 to 8192x8192 (e.g. 1280x800)",
          [](const std::string& s) -> std::optional<PixelSize> {
            const size_t x = s.find('x');
            if (x == std::string::npos) return std::nullopt;
            const auto w = digits_to<int>(s.substr(0, x));
            const auto h = digits_to<int>(s.substr(x + 1));
            if (!w || !h || *w < 320 || *h < 240 || *w > 8192 || *h > 8192) return std::nullopt;
            return PixelSize{*w, *h};
          },
          [](const PixelSize& p) { return std::to_string(p.width) + "x" + std::to_string(p.height); }};
}

ValueKind<ShardSpec> shard_spec() {
  return {"I/N", "I/N with 0 <= I < N <= 999999999 (e.g. 0/4), or N alone with JOB_COMPLETION_INDEX set",
          [](const std::string& s) -> std::optional<ShardSpec> {
            constexpr int64_t kMax = 999'999'999;
            const size_t slash = s.find('/');
            ShardSpec spec;
            const auto count = digits_to<int64_t>(slash == std::string::npos ? s : s.substr(slash + 1));
            if (!count || *count < 1 || *count > kMax) return std::nullopt;
            spec.count = *count;
            if (slash != std::string::npos) {
              const auto index = digits_to<int64_t>(s.substr(0, slash));
              if (!index || *index >= *count) return std::nullopt;
              spec.index = *index;
            }
            return spec;
          },
          [](const ShardSpec& s) {
            return (s.index ? std::to_string(*s.index) + "/" : std::string()) + std::to_string(s.count);
          }};
}

ValueKind<std::pair<std::string, std::string>> name_value(std::string type_name) {
  return {type_name, type_name + " (both parts not empty)",
          [](const std::string& s) -> std::optional<std::pair<std::string, std::string>> {
            const size_t eq = s.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) return std::nullopt;
            return std::pair{s.substr(0, eq), s.substr(eq + 1)};
          },
          [](const std::pair<std::string, std::string>& p) { return p.first + "=" + p.second; }};
}

ValueKind<std::map<std::string, double>> probabilities(std::vector<std::string> names) {
  return {"NAME=P,...", "NAME=P[,NAME=P...] with NAME one of " + joined(names, ", ") + " and P from 0 to 1",
          [names](const std::string& s) -> std::optional<std::map<std::string, double>> {
            std::map<std::string, double> out;
            std::stringstream ss(s);
            std::string item;
            while (std::getline(ss, item, ',')) {
              const size_t eq = item.find('=');
              if (eq == std::string::npos) return std::nullopt;
              const std::string name = item.substr(0, eq), p = item.substr(eq + 1);
              bool known = false;
              for (const auto& n : names) known = known || n == name;
              double v = -1;
              const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
              if (!known || p.empty() || ec != std::errc() || end != p.data() + p.size() || !(v >= 0 && v <= 1))
                return std::nullopt;
              out[name] = v;
            }
            if (out.empty()) return std::nullopt;
            return out;
          },
          [](const std::map<std::string, double>& m) {
            std::string out;
            for (const auto& [n, p] : m) out += (out.empty() ? "" : ",") + n + "=" + show_number(p);
            return out;
          }};
}

}  // namespace chaintwin::cli
