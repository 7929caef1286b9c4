// expect: slo: — service levels of one workload class, pool (ClusterQueue) or GPU model, judged at
// the end of the run on its report (slo_check.cpp). Here: reading and checking the entry's shape.
#include <algorithm>
#include <charconv>
#include <set>

#include "sim/scenario/scenario_fields.h"
#include "sim/scenario/scenario_sections.h"

namespace chaintwin::sim::scenario_detail {
namespace {

const std::vector<std::string> kOperators{"==", "!=", ">=", "<=", ">", "<"};

// Splits "<op> <rest>" (spaces after the operator optional); "" op when none leads.
std::pair<std::string, std::string> split_operator(const std::string& s) {
  for (const auto& op : kOperators)
    if (s.compare(0, op.size(), op) == 0) {
      size_t i = op.size();
      while (i < s.size() && s[i] == ' ') ++i;
      return {op, s.substr(i)};
    }
  return {"", s};
}

// A plain non-negative decimal ("0.9", "1", "0.875"): digits, optionally a point and digits, at
// most 18 digits in all.
bool parse_decimal(const std::string& t, int64_t& mantissa, int32_t& scale) {
  const size_t point = t.find('.');
  const std::string whole = t.substr(0, point);
  const std::string frac = point == std::string::npos ? "" : t.substr(point + 1);
  const auto digits = [](const std::string& d) {
    return std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (whole.empty() || !digits(whole) || !digits(frac) || (point != std::string::npos && frac.empty())) return false;
  if (whole.size() + frac.size() > 18) return false;
  const std::string all = whole + frac;
  const auto [p, ec] = std::from_chars(all.data(), all.data() + all.size(), mantissa);
  scale = static_cast<int32_t>(frac.size());
  return ec == std::errc{} && p == all.data() + all.size();
}

DecimalComparison as_decimal_comparison(const Val& v) {
  const std::string expected =
      "a number or a comparison and a number such as \">= 0.9\" (==, !=, >=, <=, >, <; a plain decimal)";
  DecimalComparison c;
  std::string text;
  if (v.json->is_number_integer()) {
    text = std::to_string(v.json->get<int64_t>());
  } else if (v.json->is_number_float()) {
    // A bare 0.9: its shortest decimal spelling.
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v.json->get<double>(), std::chars_format::fixed);
    text = ec == std::errc{} ? std::string(buf, end) : "?";
  } else {
    const auto [op, rest] = split_operator(as_string(v, expected));
    if (!op.empty()) c.op = op;
    text = rest;
  }
  if (!parse_decimal(text, c.mantissa, c.scale))
    fail(v, "'" + (v.is_string() ? v.json->get<std::string>() : text) + "' is not a comparison (expected " +
                expected + ")");
  c.text = text;
  return c;
}

WaitBound as_wait_bound(const Val& v) {
  const std::string expected = "a comparison and a duration such as \"<= 15m\" (==, !=, >=, <=, >, <)";
  const std::string s = as_string(v, expected);
  const auto [op, rest] = split_operator(s);
  const auto d = SimTime::parse(rest);
  if (op.empty() || !d.ok()) fail(v, "'" + s + "' is not a wait bound (expected " + expected + ")");
  return WaitBound{op, *d};
}

}  // namespace

SloExpectation read_slo(const Val& v, const Scenario& scenario) {
  expect_keys(v, scenario_fields_at("Slo"), "an SLO {class | pool | gpuModel, wait, admittedFraction, ...}");
  SloExpectation slo;
  const std::vector<std::pair<std::string, SloExpectation::Subject>> subjects{
      {"class", SloExpectation::Subject::kClass},
      {"pool", SloExpectation::Subject::kPool},
      {"gpuModel", SloExpectation::Subject::kGpuModel}};
  std::string subject;
  for (const auto& [key, kind] : subjects)
    if (v.has(key.c_str())) {
      if (!subject.empty()) fail(v.at(key), "an SLO has exactly one subject (also given: " + subject + ")");
      subject = key;
      slo.subject = kind;
      slo.name = as_string(v.at(key), "the " + key + "'s name");
    }
  if (subject.empty()) fail(v, "missing subject (expected one of class, pool, gpuModel)");
  if (slo.subject == SloExpectation::Subject::kClass) {
    std::set<std::string> known;
    for (const auto& w : scenario.workloads) known.insert(w.name);
    if (!scenario.traces.empty() || !scenario.trace_workloads.empty()) known.insert("trace");
    if (!known.count(slo.name))
      fail(v.at("class"), "no workload class '" + slo.name + "' (known: " +
                              (known.empty() ? std::string("none") : join(std::vector<std::string>(known.begin(), known.end()))) + ")");
  }
  const bool utilization_allowed = slo.subject != SloExpectation::Subject::kClass;
  if (const auto u = opt(v, "utilization")) {
    if (!utilization_allowed)
      fail(*u, "not a check of a class SLO (expected: wait, admittedFraction, neverAdmitted; utilization goes with "
               "pool or gpuModel)");
    slo.utilization = as_decimal_comparison(*u);
  }
  if (const auto w = opt(v, "wait")) {
    expect_keys(*w, scenario_fields_at("SloWait"), "wait percentiles {p50, p90, p95, p99, max}");
    for (const auto& item : w->json->items()) slo.wait[item.key()] = as_wait_bound(w->at(item.key()));
    if (slo.wait.empty()) fail(*w, "expected at least one percentile (p50, p90, p95, p99, max)");
  }
  if (const auto a = opt(v, "admittedFraction")) slo.admitted_fraction = as_decimal_comparison(*a);
  if (const auto n = opt(v, "neverAdmitted")) slo.never_admitted = as_comparison(*n);
  if (slo.wait.empty() && !slo.admitted_fraction && !slo.never_admitted && !slo.utilization)
    fail(v, std::string("nothing to check (expected one of: wait, admittedFraction, neverAdmitted") +
                (utilization_allowed ? ", utilization)" : ")"));
  return slo;
}

}  // namespace chaintwin::sim::scenario_detail
