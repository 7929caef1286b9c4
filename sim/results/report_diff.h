// Two run reports side by side: per pool (ClusterQueue × resource), per ClusterQueue and per
// workload class, each figure of run A, of run B and the difference B − A. `chaintwin compare`
// (sim/cli/compare_command.h) prints it as text or JSON; docs/cli.md describes the output.
//
// A wait percentile that fell on a never-admitted (censored) workload is only a lower bound, so a
// difference involving one is a bound too: B censored → B − A is at least the shown difference,
// A censored → at most, both → unknown. Rows present in one run only are kept and marked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/results/report.h"

namespace chaintwin::sim {

// One figure of one row, in both runs.
struct FigureDiff {
  enum class Kind { kCount, kDuration, kWait, kRatio, kAmount };
  std::string name;  // "utilization", "wait p95", "arrived", ...
  Kind kind = Kind::kCount;
  std::string resource;  // kAmount: the pool's resource (its unit follows from it: cards, cores, GiB)
  // Values: counts and durations (µs) in `count`, ratios and amounts in `value`.
  std::optional<int64_t> a_count, b_count;
  std::optional<double> a_value, b_value;
  std::optional<WaitPercentile> a_wait, b_wait;  // kWait
  bool differs() const;
};

struct RowDiff {
  std::vector<std::string> key;  // {cluster_queue, resource} | {cluster_queue} | {generator}
  bool in_a = false, in_b = false;
  std::vector<FigureDiff> figures;
};

struct ReportDiff {
  RunInfo a, b;
  std::vector<RowDiff> pools, queues, classes;
  // Per GPU model (key {gpu_model}): cards, mean utilization and fragmentation, arrived, admitted,
  // never admitted, wait p50/p95. Shown by the GUI's Compare panel; the text and JSON of
  // `chaintwin compare` do not print them (yet), nor count them in differences().
  std::vector<RowDiff> gpu_models;
  int64_t differences() const;  // figures that differ, over every row (a one-sided row counts each figure)
};

ReportDiff diff_reports(const Report& a, const Report& b);

// A figure's value in run A (`side_a`) or B, and its difference B − A, as the compare tables write
// them ("-" where absent, "(only in B)" for a one-sided row, a censored wait's bound).
std::string figure_value_text(const FigureDiff& f, bool side_a);
std::string figure_difference_text(const FigureDiff& f, const RowDiff& row);

// Aligned tables, one line per figure: the row's key, the figure, A, B and B − A; then
// "N figures differ". The pools in one table per unit (cards first, then cores, GiB, units), the
// amounts as plain numbers in it; a line's durations (A, B, B − A: one figure) in one precision
// (duration_text.h), a bound rounded the way that keeps it true.
std::string report_diff_text(const ReportDiff& d);
nlohmann::ordered_json report_diff_json(const ReportDiff& d);

}  // namespace chaintwin::sim
