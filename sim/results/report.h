// The run report: what a run amounted to, computed from its RunRecord — per pool (ClusterQueue ×
// resource) the nominal, reserved and admitted quota over time, utilization, time held and
// draining; per ClusterQueue, per workload class (generator) and in total the workload figures
// (admitted, pending at the end, evictions, rejections, Retry verdicts, waits with the
// never-admitted right-censored at the end). `chaintwin run` prints report_text() and writes
// report_json(); docs/results.md describes every field.
//
// Arithmetic: time-weighted sums are exact integers (128-bit) over integer µs; only the final
// division into a mean or a ratio is floating point. Percentiles are nearest-rank on integer µs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/results/duration_text.h"
#include "sim/results/run_record.h"

namespace chaintwin::sim {

// One quantity of a pool as a step function: its peak over every sample and its time-weighted
// mean over the pool's span (first sample → end of run).
struct LevelStats {
  int64_t peak = 0;
  double mean = 0;
};

// One percentile of a wait distribution whose never-admitted Workloads are right-censored.
struct WaitPercentile {
  int64_t us = 0;
  bool censored = false;  // the rank fell on a never-admitted Workload: the true value is >= us
};

// Creation → first admission. A Workload never admitted by the end of the run (and not rejected)
// is right-censored: it counts at (end − created), a lower bound of its true wait, so a class whose
// Workloads mostly never started does not report only the waits of the lucky few.
struct WaitStats {
  int64_t count = 0;     // admitted at least once + censored (rejected Workloads are not counted)
  int64_t censored = 0;  // never admitted by the end, each counted at (end - created)
  std::optional<WaitPercentile> p50, p90, p95, p99, max;
};

// Creation -> first admission of `workloads`; the never-admitted censored at `end`, rejected ones left out.
// Nearest rank; at equal values an observed wait sorts before a censored one.
WaitStats wait_stats(const std::vector<const WorkloadOutcome*>& workloads, SimTime end);

struct WorkloadFigures {
  int64_t workloads = 0;       // arrived (including rejected)
  int64_t admitted = 0;        // admitted at least once (a re-admission does not count twice)
  int64_t running_at_end = 0;  // admitted when the run stopped
  int64_t pending_at_end = 0;  // queued and not admitted when the run stopped
  int64_t finished = 0;
  int64_t rejected = 0;        // refused at Gate 1, never queued
  int64_t evictions = 0;       // evictions, summed over workloads
  int64_t preemptions = 0;     // of which by Kueue's preemption
  int64_t retries = 0;         // admission-check Retry verdicts, summed over workloads
  WaitStats wait;
};

struct PoolReport {
  std::string cluster_queue, resource;
  int64_t span_us = 0;  // first sample → end of run
  LevelStats nominal, reserved, admitted;
  std::optional<double> utilization;           // ∫reserved / ∫nominal; empty when ∫nominal = 0
  std::optional<double> admitted_utilization;  // ∫admitted / ∫nominal
  int64_t held_us = 0;      // stop policy Hold
  int64_t draining_us = 0;  // draining (HoldAndDrain or the operator's migration)
  std::string stop_policy_at_end;
  WorkloadFigures workloads;  // the ClusterQueue's workloads (the same for each of its resources)
};

struct QueueReport {
  std::string cluster_queue;  // "" for workloads that never reached a ClusterQueue
  WorkloadFigures workloads;
};

struct ClassReport {
  std::string generator;
  WorkloadFigures workloads;
};

// One GPU model (accelerator key): its usage summary (empty figures when no Devices had it) and
// the workloads that queued on it (WorkloadOutcome::gpu_model).
struct GpuModelReport {
  GpuModelSummary usage;
  int64_t workloads = 0;  // arrived, rejected ones included
  int64_t admitted = 0;   // admitted at least once
  // The workloads whose wait was more than 0 s: admitted after their creation instant, or never
  // admitted (rejected ones left out; censored at the end of the run).
  int64_t waited = 0;
  // Over every workload of the model that was not rejected, zero waits included: the definition
  // of the ClusterQueue and class figures (wait_stats) and of an SLO's wait.
  WaitStats wait;
  int64_t never_admitted = 0;  // never admitted by the end (rejected ones included)
  // never_admitted by the last gate that held them: gate1, queue (Kueue: no quota), gate2 … gate5,
  // then any other value in name order ("" = no reason recorded); only gates with a count.
  std::vector<std::pair<std::string, int64_t>> never_admitted_by_gate;
};

struct Report {
  RunInfo info;
  std::vector<GpuModelReport> gpu_models;  // by gpu_model; empty when the run had no GPU models
  std::vector<PoolReport> pools;     // by (cluster_queue, resource)
  std::vector<QueueReport> queues;   // by cluster_queue
  std::vector<ClassReport> classes;  // by generator
  WorkloadFigures total;
};

Report build_report(const RunRecord& record);

// The GPU model rows of a record: one per model in record.gpu_models or named by a workload.
std::vector<GpuModelReport> gpu_model_reports(const RunRecord& record);

// Nearest-rank percentile of sorted values: the value at rank ceil(percent/100 × n); empty for no
// values. percent in 1..100.
std::optional<int64_t> nearest_rank(const std::vector<int64_t>& sorted, int32_t percent);

// The figures of some workloads (any subset of a record's outcomes); `end` is the run's end
// (record.info.ended_at), where the waits of the never-admitted are censored.
WorkloadFigures workload_figures(const std::vector<const WorkloadOutcome*>& workloads, SimTime end);

// A wait percentile as the text prints it at `precision` (duration_text.h): "-" when there is
// none, "5m00s", or ">= 18h00m00s" when it is censored, its value rounded down (report_format.cpp).
std::string wait_percentile_text(const std::optional<WaitPercentile>& p, DurationPrecision precision);
// {"count", "censored", "p50": {"us", "censored"} | null, "p90", "p95", "p99", "max"}.
nlohmann::ordered_json wait_stats_json(const WaitStats& w);

// An amount of `resource` as the text prints it, a number in the unit a reader thinks in ("2.000"
// cards, "16.000" cores, "4.000" GiB, "3.000" units); that unit as a title names it ("cards",
// "cores", "GiB", "units"); and the JSON name of the exact unit ("credits", "millicores", "bytes",
// "units").
std::string format_resource_amount(double value, const std::string& resource);
std::string resource_unit_text(const std::string& resource);
std::string resource_unit_name(const std::string& resource);

// Aligned tables, one unit per table named in its title, durations for people (report_format.cpp).
std::string report_text(const Report& report);
nlohmann::ordered_json report_json(const Report& report);

}  // namespace chaintwin::sim
