#include "sim/scenario/scenario_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace chaintwin::sim::scenario_detail {

using nlohmann::json;

SourceRef Val::ref() const {
  const std::string w = where();
  const size_t colon = w.rfind(':');
  if (colon == std::string::npos) return {w, 0};
  return {w.substr(0, colon), std::atoi(w.c_str() + colon + 1)};
}

Val Val::at(const std::string& key) const { return Val{doc, &(*json)[key], join_field(path, key)}; }
Val Val::at(size_t index) const { return Val{doc, &(*json)[index], join_index(path, index)}; }

void fail(const Val& v, const std::string& message) {
  throw ScenarioError{v.where() + ": " + (v.path.empty() ? std::string("(document)") : v.path) + ": " + message};
}

std::string type_name(const json& j) {
  if (j.is_null()) return "nothing (null)";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number_integer()) return "an integer";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "a list";
  return "a mapping";
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

void expect_keys(const Val& v, const std::vector<std::string>& allowed, const std::string& what) {
  if (!v.is_object()) fail(v, "expected " + what + " (a mapping), got " + type_name(*v.json));
  for (const auto& item : v.json->items())
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
      fail(v.at(item.key()), "unknown field (expected one of: " + join(allowed) + ")");
}

std::optional<Val> opt(const Val& v, const char* key) {
  if (!v.has(key)) return std::nullopt;
  return v.at(key);
}

Val req(const Val& v, const char* key, const std::string& expected) {
  if (!v.has(key)) fail(v, "missing field '" + std::string(key) + "' (" + expected + ")");
  return v.at(key);
}

std::string as_string(const Val& v, const std::string& expected) {
  if (!v.is_string()) fail(v, "expected " + expected + ", got " + type_name(*v.json));
  return v.json->get<std::string>();
}

bool as_bool(const Val& v) {
  if (!v.json->is_boolean()) fail(v, "expected true or false, got " + type_name(*v.json));
  return v.json->get<bool>();
}

int64_t as_int(const Val& v, int64_t min, int64_t max) {
  if (!v.json->is_number_integer()) fail(v, "expected an integer, got " + type_name(*v.json));
  const int64_t n = v.json->get<int64_t>();
  if (n < min || n > max) {
    std::string range = max == INT64_MAX ? ">= " + std::to_string(min)
                                         : "between " + std::to_string(min) + " and " + std::to_string(max);
    fail(v, std::to_string(n) + " is out of range (expected an integer " + range + ")");
  }
  return n;
}

SimTime as_duration(const Val& v) {
  if (!v.is_string()) fail(v, "expected a duration such as 250ms, 30s, 15m, 2h, 3d, got " + type_name(*v.json));
  auto t = SimTime::parse(v.json->get<std::string>());
  if (!t) fail(v, t.error());
  return *t;
}

model::Quantity as_quantity(const Val& v) {
  if (v.json->is_number_integer()) return model::Quantity::from_int(v.json->get<int64_t>());
  if (!v.is_string()) fail(v, "expected a quantity such as 4, 500m, 16Gi, got " + type_name(*v.json));
  auto q = model::Quantity::parse(v.json->get<std::string>());
  if (!q) fail(v, "'" + v.json->get<std::string>() + "' is not a quantity (" + q.error() + ")");
  if (q->sign() < 0) fail(v, "'" + v.json->get<std::string>() + "' is negative (expected a quantity >= 0)");
  return *q;
}

std::vector<Val> as_list(const Val& v, const std::string& expected) {
  if (!v.is_array()) fail(v, "expected a list of " + expected + ", got " + type_name(*v.json));
  std::vector<Val> out;
  for (size_t i = 0; i < v.json->size(); ++i) out.push_back(v.at(i));
  return out;
}

model::StringMap as_string_map(const Val& v) {
  if (!v.is_object()) fail(v, "expected a mapping of names to strings, got " + type_name(*v.json));
  model::StringMap out;
  for (const auto& item : v.json->items()) out[item.key()] = as_string(v.at(item.key()), "a string (quote numbers)");
  return out;
}

std::string as_choice(const Val& v, const std::vector<std::string>& choices) {
  const std::string s = as_string(v, "one of " + join(choices));
  if (std::find(choices.begin(), choices.end(), s) == choices.end())
    fail(v, "unknown value '" + s + "' (expected one of: " + join(choices) + ")");
  return s;
}

double as_rate(const Val& v) {
  const std::string expected =
      "a rate <count>/<unit> such as 12/h or 1.5/h: a positive decimal count (digits, optionally a point and "
      "digits) and a unit s, m, h or d";
  const std::string s = as_string(v, expected);
  const size_t slash = s.find('/');
  const std::string count_text = s.substr(0, slash == std::string::npos ? s.size() : slash);
  // Plain decimals only: no sign, no exponent, a digit on each side of the point ("0.5", not ".5").
  const size_t point = count_text.find('.');
  const auto digits = [](const std::string& t) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const bool decimal = point == std::string::npos
                           ? digits(count_text)
                           : digits(count_text.substr(0, point)) && digits(count_text.substr(point + 1));
  double count = 0;
  if (slash == std::string::npos || !decimal)
    fail(v, "'" + s + "' is not a rate (expected " + expected + ")");
  const auto [p, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  if (ec != std::errc{} || p != count_text.data() + count_text.size() || !std::isfinite(count))
    fail(v, "'" + s + "' is not a rate (expected " + expected + ")");
  if (count <= 0) fail(v, "'" + s + "': the count must be greater than 0 (expected " + expected + ")");
  const std::string unit = s.substr(slash + 1);
  double per = 0;
  if (unit == "s") per = 1;
  else if (unit == "m") per = 60;
  else if (unit == "h") per = 3600;
  else if (unit == "d") per = 86400;
  else fail(v, "'" + s + "': unknown rate unit '" + unit + "' (expected s, m, h or d)");
  const double rate = count / per;
  if (!rate_in_range(rate))
    fail(v, "'" + s + "' is out of range (expected a mean interval between 1us and 10000d, i.e. a rate between " +
                "1/10000d and 1000000/s)");
  return rate;
}

Comparison as_comparison(const Val& v) {
  if (v.json->is_number_integer()) return Comparison{"==", as_int(v, 0)};
  const std::string expected = "an integer or a comparison such as \">= 480\" (==, !=, >=, <=, >, <)";
  const std::string s = as_string(v, expected);
  Comparison c;
  size_t i = 0;
  for (const char* op : {"==", "!=", ">=", "<=", ">", "<"}) {
    const std::string o(op);
    if (s.compare(0, o.size(), o) == 0) {
      c.op = o;
      i = o.size();
      break;
    }
  }
  if (i == 0) fail(v, "'" + s + "' is not a comparison (expected " + expected + ")");
  while (i < s.size() && s[i] == ' ') ++i;
  const auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), c.value);
  if (i == s.size() || ec != std::errc{} || p != s.data() + s.size() || c.value < 0)
    fail(v, "'" + s + "' is not a comparison (expected " + expected + ")");
  return c;
}

}  // namespace chaintwin::sim::scenario_detail
