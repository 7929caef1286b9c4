#include "sim/scenario/slo_check.h"

#include <cstdio>
#include <string_view>

#include "model/catalog/label_keys.h"

namespace chaintwin::sim {
namespace {

std::string fixed4(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

bool compare_us(const std::string& op, int64_t a, int64_t b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == ">=") return a >= b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  if (op == "<") return a < b;
  return false;
}

const char* subject_word(SloExpectation::Subject s) {
  switch (s) {
    case SloExpectation::Subject::kClass: return "class";
    case SloExpectation::Subject::kPool: return "pool";
    case SloExpectation::Subject::kGpuModel: return "gpuModel";
  }
  return "class";
}

struct Judge {
  const Expectation& e;
  std::string object;
  std::vector<ExpectationFailure> failures;
  void fail(const std::string& field, const std::string& want, const std::string& got) {
    failures.push_back({e.where, "end", object, field, want, got});
  }
};

const std::optional<WaitPercentile>& percentile(const WaitStats& w, const std::string& name) {
  if (name == "p50") return w.p50;
  if (name == "p90") return w.p90;
  if (name == "p95") return w.p95;
  if (name == "p99") return w.p99;
  return w.max;
}

void judge_waits(Judge& j, const WaitStats& w) {
  for (const char* name : {"p50", "p90", "p95", "p99", "max"}) {
    const auto it = j.e.slo->wait.find(name);
    if (it == j.e.slo->wait.end()) continue;
    const WaitBound& bound = it->second;
    const std::string field = std::string("wait ") + name;
    const auto& p = percentile(w, name);
    if (!p) {
      j.fail(field, bound.str(), "- (no waits: no workload that was not rejected)");
      continue;
    }
    // A censored value is a lower bound of the true wait: only a lower bound on it can be judged.
    const bool lower_bound = bound.op == ">=" || bound.op == ">";
    const bool holds = compare_us(bound.op, p->us, bound.value.us()) && (!p->censored || lower_bound);
    if (holds) continue;
    std::string got = wait_percentile_text(p, DurationPrecision::kExact);
    if (w.censored > 0)
      got += " (" + std::to_string(w.censored) + " of " + std::to_string(w.count) + " censored" +
             (p->censored ? ": the true value is at least this" : "") + ")";
    j.fail(field, bound.str(), got);
  }
}

// The reserved-credits utilization of a ClusterQueue over its credits resources: ∫reserved ÷ ∫nominal.
std::optional<double> pool_utilization(const Report& report, const std::string& queue) {
  const PoolReport* only = nullptr;
  int rows = 0;
  double reserved = 0, nominal = 0;
  for (const auto& p : report.pools) {
    if (p.cluster_queue != queue) continue;
    if (std::string_view(p.resource).substr(0, model::keys::kCreditsPrefix.size()) != model::keys::kCreditsPrefix)
      continue;
    only = &p;
    ++rows;
    reserved += p.reserved.mean * static_cast<double>(p.span_us);
    nominal += p.nominal.mean * static_cast<double>(p.span_us);
  }
  if (rows == 1) return only->utilization;
  if (rows == 0 || nominal <= 0) return std::nullopt;
  return reserved / nominal;
}

}  // namespace

std::vector<ExpectationFailure> check_slo(const Expectation& e, const Report& report, const RunRecord& record) {
  const SloExpectation& slo = *e.slo;
  Judge j{e, "SLO " + std::string(subject_word(slo.subject)) + " " + slo.name, {}};
  std::vector<const WorkloadOutcome*> mine;
  for (const auto& w : record.workloads) {
    const std::string& key = slo.subject == SloExpectation::Subject::kClass  ? w.generator
                             : slo.subject == SloExpectation::Subject::kPool ? w.cluster_queue
                                                                             : w.gpu_model;
    if (key == slo.name) mine.push_back(&w);
  }
  const GpuModelReport* model = nullptr;
  for (const auto& m : report.gpu_models)
    if (m.usage.gpu_model == slo.name) model = &m;
  bool seen = !mine.empty() || slo.subject == SloExpectation::Subject::kClass;
  if (slo.subject == SloExpectation::Subject::kPool)
    for (const auto& p : report.pools) seen = seen || p.cluster_queue == slo.name;
  if (slo.subject == SloExpectation::Subject::kGpuModel) seen = seen || model != nullptr;
  if (!seen) {
    j.fail("exists", "yes", "no (the run has no such " + std::string(subject_word(slo.subject)) + ")");
    return j.failures;
  }

  if (!slo.wait.empty()) judge_waits(j, wait_stats(mine, record.info.ended_at));
  const auto arrived = static_cast<int64_t>(mine.size());
  int64_t admitted = 0;
  for (const WorkloadOutcome* w : mine) admitted += w->first_admitted ? 1 : 0;
  if (slo.admitted_fraction) {
    if (arrived == 0) {
      j.fail("admittedFraction", slo.admitted_fraction->str(), "- (no workload arrived)");
    } else if (!slo.admitted_fraction->holds(admitted, arrived)) {
      j.fail("admittedFraction", slo.admitted_fraction->str(),
             fixed4(static_cast<double>(admitted) / static_cast<double>(arrived)) + " (" + std::to_string(admitted) +
                 " of " + std::to_string(arrived) + " admitted)");
    }
  }
  if (slo.never_admitted && !slo.never_admitted->holds(arrived - admitted))
    j.fail("neverAdmitted", slo.never_admitted->str(),
           std::to_string(arrived - admitted) + " (of " + std::to_string(arrived) + " arrived)");
  if (slo.utilization) {
    const std::optional<double> u = slo.subject == SloExpectation::Subject::kPool
                                        ? pool_utilization(report, slo.name)
                                        : (model ? model->usage.mean_utilization : std::nullopt);
    if (!u)
      j.fail("utilization", slo.utilization->str(),
             slo.subject == SloExpectation::Subject::kPool ? "- (the pool had no credits quota)" : "- (no cards)");
    else if (!slo.utilization->holds(*u))
      j.fail("utilization", slo.utilization->str(), fixed4(*u));
  }
  return j.failures;
}

}  // namespace chaintwin::sim
