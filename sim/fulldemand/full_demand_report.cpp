#include "sim/fulldemand/full_demand_report.h"

#include <cstdio>
#include <sstream>

namespace chaintwin::sim {
namespace {

std::string fixed(double v, int digits = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string tune_text(int64_t permille) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(permille / 1000),
                static_cast<long long>(permille % 1000));
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

const BucketSummary* at_bucket(const PolicySummary& s, int32_t bucket) {
  for (const BucketSummary& b : s.buckets)
    if (b.bucket == bucket) return &b;
  return nullptr;
}

std::string spread_text(const Spread& s) {
  return fixed(s.median) + " [" + fixed(s.p25) + ", " + fixed(s.p75) + "] (" + fixed(s.min) + ".." + fixed(s.max) + ")";
}

nlohmann::json spread_json(const Spread& s) {
  return {{"median", s.median}, {"p25", s.p25}, {"p75", s.p75}, {"mean", s.mean}, {"min", s.min}, {"max", s.max}};
}

std::string seeds_text(const std::vector<uint64_t>& seeds) {
  if (seeds.empty()) return "none";
  bool consecutive = true;
  for (size_t i = 1; i < seeds.size(); ++i) consecutive = consecutive && seeds[i] == seeds[i - 1] + 1;
  if (consecutive && seeds.size() > 1) return std::to_string(seeds.front()) + ".." + std::to_string(seeds.back());
  std::string s;
  for (const uint64_t v : seeds) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

}  // namespace

std::string full_demand_text(const ShareTrace& trace, const FullDemandStudy& study) {
  std::ostringstream out;
  const int64_t capacity = trace.capacity_milli();
  out << "Full demand: " << study.pods_file << " on " << study.nodes_file << "\n";
  out << "  cluster: " << trace.nodes.size() << " Nodes, " << capacity / 1000 << " GPUs\n";
  out << "  trace: " << trace.pods.size() << " pods asking for " << fixed(static_cast<double>(trace.demand_milli()) / 1000.0)
      << " GPUs (" << fixed(capacity > 0 ? 100.0 * static_cast<double>(trace.demand_milli()) / static_cast<double>(capacity) : 0)
      << " % of capacity)\n";
  out << "  tune " << tune_text(study.tune_permille) << ": pods resampled to " << fixed(static_cast<double>(study.tune_permille) / 10.0, 1)
      << " % of capacity, submitted one by one, none leaving; seeds " << seeds_text(study.seeds) << "\n";
  out << "  target workload (fragmentation): the " << study.target.classes.size() << " most common of "
      << study.target.trace_classes << " pod classes, " << study.target.total << " of " << trace.pods.size() << " pods\n\n";

  out << "GPU allocated, % of capacity, over seeds: median [25th, 75th percentile] (min..max)\n";
  for (const PolicySummary& s : study.summaries) {
    const BucketSummary* b100 = at_bucket(s, 100);
    out << "  " << policy_name(s.policy) << ":\n";
    out << "    at 100 % arrived: "
        << (b100 ? spread_text(b100->allocated) + ", " + std::to_string(b100->runs) + " runs" : std::string("not reached"))
        << "\n";
    out << "    at the end:       " << spread_text(s.final_allocated) << "\n";
    out << "    fragmented GPU at 100 % arrived: "
        << (b100 ? spread_text(b100->fragment) : std::string("not reached")) << "; at the end: "
        << spread_text(s.final_fragment) << "\n";
    out << "    pods submitted " << fixed(s.submitted.mean, 1) << ", placed " << fixed(s.placed.mean, 1) << ", failed "
        << fixed(s.failed.mean, 1) << " (means over seeds)\n";
  }
  out << "\nBy arrived demand (% of capacity), medians over seeds: allocated / fragmented GPU, % of capacity\n";
  out << "  arrived";
  for (const PolicySummary& s : study.summaries) {
    std::string head = policy_name(s.policy);
    out << "  " << std::string(head.size() < 17 ? 17 - head.size() : 0, ' ') << head;
  }
  out << "\n";
  int32_t last = 0;
  for (const PolicySummary& s : study.summaries)
    if (!s.buckets.empty()) last = std::max(last, s.buckets.back().bucket);
  for (int32_t bucket = 0; bucket <= last; ++bucket) {
    if (bucket % 10 != 0 && bucket != last && !(bucket >= 80 && bucket <= 100 && bucket % 5 == 0)) continue;
    out << "  " << std::string(bucket < 10 ? 5 : bucket < 100 ? 4 : 3, ' ') << bucket << " %";
    for (const PolicySummary& s : study.summaries) {
      const BucketSummary* b = at_bucket(s, bucket);
      const std::string cell = b ? fixed(b->allocated.median) + " / " + fixed(b->fragment.median) : std::string("-");
      out << "  " << std::string(cell.size() < 17 ? 17 - cell.size() : 0, ' ') << cell;
    }
    out << "\n";
  }
  return out.str();
}

nlohmann::json full_demand_json(const ShareTrace& trace, const FullDemandStudy& study) {
  nlohmann::json j;
  j["nodes_file"] = study.nodes_file;
  j["pods_file"] = study.pods_file;
  j["nodes"] = trace.nodes.size();
  j["capacity_milli_gpu"] = trace.capacity_milli();
  j["trace_pods"] = trace.pods.size();
  j["trace_demand_milli_gpu"] = trace.demand_milli();
  j["tune"] = static_cast<double>(study.tune_permille) / 1000.0;
  j["seeds"] = study.seeds;
  j["pod_classes"] = study.target.trace_classes;
  j["typical_pod_classes"] = study.target.classes.size();
  j["typical_pods"] = study.target.total;
  j["policies"] = nlohmann::json::array();
  for (size_t p = 0; p < study.summaries.size(); ++p) {
    const PolicySummary& s = study.summaries[p];
    nlohmann::json pj;
    pj["policy"] = policy_name(s.policy);
    pj["final_allocated_percent"] = spread_json(s.final_allocated);
    pj["final_fragment_percent"] = spread_json(s.final_fragment);
    pj["buckets"] = nlohmann::json::array();
    for (const BucketSummary& b : s.buckets)
      pj["buckets"].push_back({{"arrived_percent", b.bucket},
                               {"runs", b.runs},
                               {"allocated_percent", spread_json(b.allocated)},
                               {"fragment_percent", spread_json(b.fragment)},
                               {"fragment_ratio_percent", spread_json(b.fragment_ratio)}});
    pj["runs"] = nlohmann::json::array();
    for (const FullDemandRun& r : study.runs[p]) {
      nlohmann::json rj{{"seed", r.settings.seed},       {"submitted", r.submitted},
                        {"placed", r.placed},            {"failed", r.failed},
                        {"drawn", r.drawn},              {"removed", r.removed},
                        {"demand_milli_gpu", r.demand_milli}, {"target_milli_gpu", r.target_milli},
                        {"allocated_milli_gpu", r.allocated_milli}, {"fragment_percent", r.fragment_percent}};
      rj["curve"] = nlohmann::json::array();
      for (const CurvePoint& c : r.curve)
        rj["curve"].push_back({c.bucket, c.allocated_percent, c.fragment_percent, c.fragment_ratio});
      pj["runs"].push_back(std::move(rj));
    }
    j["policies"].push_back(std::move(pj));
  }
  j["curve_columns"] = {"arrived_percent", "allocated_percent", "fragment_percent", "fragment_ratio_percent"};
  return j;
}

plot::Chart full_demand_chart(const FullDemandStudy& study) {
  // The paper's view (its Fig. 9(a)): the GPU left unallocated from 70 % of the capacity arrived
  // on, where the policies part, with the fragmented GPU beside it on the same scale.
  constexpr int32_t kFirstBucket = 70;
  plot::Chart c;
  c.title = "Unallocated and fragmented GPU, tune " + tune_text(study.tune_permille) + ", " +
            std::to_string(study.seeds.size()) + " seeds";
  c.x_label = "arrived GPU demand (% of capacity)";
  c.y_label = "GPU (% of capacity)";
  for (const PolicySummary& s : study.summaries) {
    plot::Series unallocated, fragment;
    unallocated.label = policy_name(s.policy) + " unallocated";
    fragment.label = policy_name(s.policy) + " fragmented";
    unallocated.style = fragment.style = plot::Series::Style::kLine;
    for (const BucketSummary& b : s.buckets) {
      if (b.bucket < kFirstBucket) continue;
      const auto x = static_cast<double>(b.bucket);
      unallocated.x.push_back(x);
      unallocated.y.push_back(100.0 - b.allocated.median);
      unallocated.y_low.push_back(100.0 - b.allocated.p75);
      unallocated.y_high.push_back(100.0 - b.allocated.p25);
      fragment.x.push_back(x);
      fragment.y.push_back(b.fragment.median);
      fragment.y_low.push_back(b.fragment.p25);
      fragment.y_high.push_back(b.fragment.p75);
    }
    c.series.push_back(std::move(unallocated));
    c.series.push_back(std::move(fragment));
  }
  c.lines.push_back({"all capacity arrived", 100.0, true, 0});
  return c;
}

}  // namespace chaintwin::sim
