// The full-demand experiment's parts in sim/fulldemand: reading the trace as the paper does, the
// resampling to a demand target, the curve's buckets, the statistics over seeds, a run's
// determinism, and `chaintwin full-demand` (its output, its plot, its bad input).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/cli/command_line.h"
#include "sim/fulldemand/demand_curve.h"
#include "sim/fulldemand/full_demand_run.h"
#include "sim/fulldemand/seed_summary.h"
#include "sim/fulldemand/share_trace.h"
#include "sim/fulldemand/tuned_pods.h"

namespace {

using namespace chaintwin;
namespace fs = std::filesystem;
using model::placement::SharePod;

const std::string kNodes =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "n-a,64000,262144,2,T4\n"
    "n-b,96000,786432,8,V100M32\n"
    "n-c,32000,131072,0,\n"
    "n-d,96000,786432,4,V100M32\n";
const std::string kPods =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
    "p-3,12000,16384,1,1000,,LS,Running,0,3600,0\n"
    "p-1,6000,12288,1,460,T4,LS,Running,60,7200,120\n"
    "p-2,8000,30517,0,0,,BE,Pending,90,500,\n"
    "p-0,4000,8192,2,1000,V100M32|T4,LS,Running,120,900,130\n"
    "p-4,2000,4096,1,250,,LS,Running,5,50,6\n";

SharePod gpu_pod(int32_t gpus, int32_t milli) {
  SharePod p;
  p.cpu = 1000;
  p.gpus = gpus;
  p.milli = milli;
  return p;
}

}  // namespace

TEST_CASE("the trace is read as the paper reads it: every row a pod, sorted by name, models interned", "[fulldemand]") {
  const auto t = sim::parse_share_trace(kNodes, "nodes.csv", kPods, "pods.csv");
  REQUIRE(t.ok());
  CHECK(t->node_names == std::vector<std::string>{"n-a", "n-b", "n-c", "n-d"});
  CHECK(t->models == std::vector<std::string>{"T4", "V100M32"});
  CHECK(t->nodes[1].model == 1);
  CHECK(t->nodes[1].gpu_left == std::vector<int32_t>(8, 1000));
  CHECK(t->nodes[2].gpu_left.empty());
  CHECK(t->capacity_milli() == 14000);
  // The never-scheduled p-2 is a pod here; names in order.
  CHECK(t->pod_names == std::vector<std::string>{"p-0", "p-1", "p-2", "p-3", "p-4"});
  CHECK(t->pods[0].models == 3u);  // V100M32|T4
  CHECK(t->pods[1].models == 1u);  // T4
  CHECK(t->pods[3].models == 0u);  // any
  CHECK(t->pods[0].spec != t->pods[1].spec);
  CHECK(t->demand_milli() == 2000 + 460 + 1000 + 250);
}

TEST_CASE("a malformed trace row is refused with its file, line and column", "[fulldemand]") {
  const std::string header = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n";
  struct Case {
    std::string nodes, pods, message;
  };
  const std::vector<Case> cases{
      {kNodes, header + "a,1,1,3,400,\n", "pods.csv:2: gpu_milli: 400 with num_gpu 3"},
      {kNodes, header + "a,1,1,0,300,\n", "pods.csv:2: gpu_milli: 300 on a pod with num_gpu 0"},
      {kNodes, header + "a,1,1,1,1001,\n", "pods.csv:2: gpu_milli: 1001 is out of range"},
      {kNodes, header + "a,x,1,1,1000,\n", "pods.csv:2: cpu_milli: 'x' is not a whole number"},
      {kNodes, header + "a,1,1,0,0,T4\n", "pods.csv:2: gpu_spec: 'T4' on a pod without GPUs"},
      {kNodes, header + "a,1,1,1,1000,\nb,1,1,1,1000,\na,1,1,1,1000,\n", "pods.csv:4: name: pod name 'a' is used twice"},
      {kNodes, "name,cpu_milli,memory_mib,num_gpu\n", "pods.csv:1: missing column 'gpu_milli'"},
      {"sn,cpu_milli,memory_mib,gpu,model\nn,1000,1,2,\n", header, "nodes.csv:2: model: a node with 2 GPUs needs a GPU model"},
      {"sn,cpu_milli,memory_mib,gpu,model\nn,0,1,2,T4\n", header, "nodes.csv:2: cpu_milli: 0 is out of range"},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    const auto t = sim::parse_share_trace(c.nodes, "nodes.csv", c.pods, "pods.csv");
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().find(c.message) != std::string::npos);
  }
}

TEST_CASE("tuning up keeps every trace pod once, first, and appends draws until the next would pass the target",
          "[fulldemand]") {
  const std::vector<SharePod> pods{gpu_pod(1, 1000), gpu_pod(1, 500), gpu_pod(0, 0), gpu_pod(8, 1000), gpu_pod(1, 250)};
  for (const uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    sim::RandomStream random(seed, 0, "test");
    const sim::TunedPods t = sim::tune_pods(pods, 20000, 1300, random);  // target 26,000
    CHECK(t.target_milli == 26000);
    std::set<int32_t> first(t.order.begin(), t.order.begin() + 5);
    CHECK(first.size() == 5);
    CHECK(t.drawn == static_cast<int64_t>(t.order.size()) - 5);
    int64_t demand = 0;
    for (const int32_t i : t.order) demand += pods[static_cast<size_t>(i)].gpu_milli();
    CHECK(demand == t.demand_milli);
    // The rule tests the per-card share: an 8-card draw may end past the target by at most 7 cards.
    CHECK(t.demand_milli <= t.target_milli + 7000);
    CHECK(t.demand_milli > t.target_milli - 1000);
  }
}

TEST_CASE("a seed's tuned order is pinned (our stream's draws: a change to them or to the procedure shows here)",
          "[fulldemand]") {
  const auto t = sim::parse_share_trace(kNodes, "nodes.csv", kPods, "pods.csv");
  REQUIRE(t.ok());
  sim::RandomStream random(9, 0, "full-demand/pods");
  const sim::TunedPods tuned = sim::tune_pods(t->pods, t->capacity_milli(), 1300, random);
  CHECK(tuned.order == std::vector<int32_t>{4, 2, 1, 0, 3, 3, 3, 3, 3, 3, 4, 4, 1, 2, 3, 0, 0, 0, 3, 2, 2, 2, 4, 2, 4});
  CHECK(tuned.demand_milli == 18170);  // 18,200 is the target; the next draw would pass it
}

TEST_CASE("tuning down removes pods until the demand is at most the target", "[fulldemand]") {
  std::vector<SharePod> pods(40, gpu_pod(1, 1000));
  sim::RandomStream random(7, 0, "test");
  const sim::TunedPods t = sim::tune_pods(pods, 20000, 1300, random);
  CHECK(t.removed == 14);
  CHECK(t.order.size() == 26);
  CHECK(t.demand_milli == 26000);
}

TEST_CASE("a trace without GPU pods is not tuned up (the draws could never reach the target)", "[fulldemand]") {
  std::vector<SharePod> pods(5, gpu_pod(0, 0));
  sim::RandomStream random(7, 0, "test");
  const sim::TunedPods t = sim::tune_pods(pods, 20000, 1300, random);
  CHECK(t.order.size() == 5);
  CHECK(t.drawn == 0);
}

TEST_CASE("a line falls in its rounded bucket and an empty bucket takes its neighbours' mean", "[fulldemand]") {
  CHECK(sim::round_half_even(25, 10) == 2);
  CHECK(sim::round_half_even(35, 10) == 4);
  CHECK(sim::round_half_even(36, 10) == 4);
  CHECK(sim::round_half_even(34, 10) == 3);
  sim::DemandCurve curve(10000);
  curve.add(100, 100, 9900, 0, 1);    // bucket 1, 1 % allocated
  curve.add(100, 300, 9700, 0, 1);    // bucket 1, 3 %
  curve.add(300, 500, 9500, 950, 1);  // bucket 3, 5 %, fragment 9.5 % of capacity, 10 % of idle
  const auto points = curve.points();
  REQUIRE(points.size() == 4);  // bucket 0 (from bucket 1), 1, 2 (from 1 and 3), 3
  CHECK(points[0].bucket == 0);
  CHECK(points[0].allocated_percent == Approx(2.0));
  CHECK(points[1].bucket == 1);
  CHECK(points[2].bucket == 2);
  CHECK(points[2].allocated_percent == Approx(3.0));  // (1 + 3 + 5) / 3
  CHECK(points[3].allocated_percent == Approx(5.0));
  CHECK(points[3].fragment_percent == Approx(9.5));
  CHECK(points[3].fragment_ratio == Approx(10.0));
}

TEST_CASE("a policy's name reads back as the policy", "[fulldemand]") {
  for (const auto p : {sim::FullDemandPolicy::kBestFit, sim::FullDemandPolicy::kFgd, sim::FullDemandPolicy::kChain})
    CHECK(sim::policy_named(sim::policy_name(p)) == p);
  CHECK(sim::policy_name(sim::FullDemandPolicy::kBestFit) == "best-fit");
  CHECK_FALSE(sim::policy_named("random").has_value());
}

TEST_CASE("percentiles interpolate as numpy's do", "[fulldemand]") {
  CHECK(sim::percentile({1, 2, 3, 4}, 50) == Approx(2.5));
  CHECK(sim::percentile({4, 1, 3, 2}, 25) == Approx(1.75));
  CHECK(sim::percentile({7}, 75) == Approx(7));
  const sim::Spread s = sim::spread_of({3, 1, 2});
  CHECK(s.median == Approx(2));
  CHECK(s.min == 1);
  CHECK(s.max == 3);
  CHECK(s.mean == Approx(2));
}

TEST_CASE("a full-demand run is the same for the same seed and places what fits", "[fulldemand]") {
  const auto t = sim::parse_share_trace(kNodes, "nodes.csv", kPods, "pods.csv");
  REQUIRE(t.ok());
  const auto target = model::placement::typical_pods(t->pods, sim::kTypicalPodCoverage);
  for (const auto policy : {sim::FullDemandPolicy::kBestFit, sim::FullDemandPolicy::kFgd}) {
    const sim::FullDemandRun a = sim::run_full_demand(*t, target, {policy, 1300, 9});
    const sim::FullDemandRun b = sim::run_full_demand(*t, target, {policy, 1300, 9});
    CHECK(a.submitted == a.placed + a.failed);
    CHECK(a.placed == b.placed);
    CHECK(a.allocated_milli == b.allocated_milli);
    REQUIRE(a.curve.size() == b.curve.size());
    for (size_t i = 0; i < a.curve.size(); ++i) CHECK(a.curve[i].allocated_percent == b.curve[i].allocated_percent);
    CHECK(a.allocated_milli <= a.capacity_milli);
    CHECK(a.demand_milli >= a.target_milli - 1000);
  }
}

TEST_CASE("chaintwin full-demand reports both policies, writes its plot, and refuses bad input with 2", "[fulldemand][cli]") {
  const fs::path dir = fs::temp_directory_path() / "chaintwin-full-demand-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "nodes.csv") << kNodes;
  std::ofstream(dir / "pods.csv") << kPods;
  std::ofstream(dir / "bad.csv") << "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,2,500\n";
  const auto run = [&](std::vector<std::string> extra, std::string& out_text, std::string& err_text) {
    std::vector<std::string> args{"full-demand", "--nodes", (dir / "nodes.csv").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::ostringstream out, err;
    const int code = cli::dispatch(args, out, err);
    out_text = out.str();
    err_text = err.str();
    return code;
  };
  std::string out, err;
  REQUIRE(run({"--pods", (dir / "pods.csv").string(), "--seeds", "3", "--plot", (dir / "c.png").string()}, out, err) == 0);
  CHECK(out.find("best-fit:") != std::string::npos);
  CHECK(out.find("fgd:") != std::string::npos);
  CHECK(out.find("seeds 42..44") != std::string::npos);
  CHECK(fs::file_size(dir / "c.png") > 1000);

  REQUIRE(run({"--pods", (dir / "pods.csv").string(), "--seeds", "2", "--policy", "fgd", "-o", "json"}, out, err) == 0);
  const auto j = nlohmann::json::parse(out);
  REQUIRE(j["policies"].size() == 1);
  CHECK(j["policies"][0]["policy"] == "fgd");
  CHECK(j["policies"][0]["runs"].size() == 2);

  // The operator's chain on the same pods: the same tuned pods, the same output for the same seeds.
  for (const std::string chooser : {"most-free", "best-fit", "proportional", "default-model"}) {
    INFO(chooser);
    std::string first, again;
    REQUIRE(run({"--pods", (dir / "pods.csv").string(), "--seeds", "2", "--policy", "chain", "--chooser", chooser, "-o",
                 "json"},
                first, err) == 0);
    REQUIRE(run({"--pods", (dir / "pods.csv").string(), "--seeds", "2", "--policy", "chain", "--chooser", chooser, "-o",
                 "json"},
                again, err) == 0);
    CHECK(first == again);
    const auto chain = nlohmann::json::parse(first)["policies"][0];
    CHECK(chain["policy"] == "chain");
    for (const auto& r : chain["runs"]) {
      CHECK(r["placed"].get<int64_t>() + r["failed"].get<int64_t>() == r["submitted"].get<int64_t>());
      CHECK(r["placed"].get<int64_t>() > 0);
      CHECK(r["allocated_milli_gpu"].get<int64_t>() > 0);
    }
  }
  // The paper policies' runs of a seed submit the very pods the chain's run of that seed does.
  REQUIRE(run({"--pods", (dir / "pods.csv").string(), "--seeds", "1", "--policy", "fgd", "--policy", "chain", "-o", "json"},
              out, err) == 0);
  const auto both = nlohmann::json::parse(out)["policies"];
  CHECK(both[0]["runs"][0]["demand_milli_gpu"] == both[1]["runs"][0]["demand_milli_gpu"]);
  CHECK(both[0]["runs"][0]["submitted"] == both[1]["runs"][0]["submitted"]);

  // The chain's sample reads slices from the Devices ledgers: two shares (460 and 300 milli-GPU)
  // on one 2-card T4 Node are 760 milli-GPU allocated whatever the order; with 0.38 × 2,000 the
  // target equals the demand, so nothing is drawn or removed. The fragment for the two classes is
  // 240 milli-GPU (both on one card: 240 left there, which neither class fits) or 0 (one per card).
  std::ofstream(dir / "one-node.csv") << "sn,cpu_milli,memory_mib,gpu,model\nn-t4,64000,262144,2,T4\n";
  std::ofstream(dir / "two-shares.csv") << "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nq-0,1000,1024,1,460\nq-1,1000,1024,1,300\n";
  std::vector<std::string> args{"full-demand", "--nodes", (dir / "one-node.csv").string(), "--pods",
                                (dir / "two-shares.csv").string(), "--tune", "0.38", "--seeds", "1", "--policy",
                                "chain", "--policy", "best-fit", "-o", "json"};
  std::ostringstream shares_out, shares_err;
  REQUIRE(cli::dispatch(args, shares_out, shares_err) == 0);
  const auto shares = nlohmann::json::parse(shares_out.str())["policies"];
  for (const auto& policy : shares) {
    INFO(policy["policy"]);
    const auto& r = policy["runs"][0];
    CHECK(r["submitted"] == 2);
    CHECK(r["placed"] == 2);
    CHECK(r["allocated_milli_gpu"] == 760);
    const double fragment = r["fragment_percent"].get<double>();
    CHECK((fragment == Approx(12.0) || fragment == Approx(0.0)));
  }
  // Best-fit puts the second share on the card the first used: the tightest that holds it.
  CHECK(shares[1]["runs"][0]["fragment_percent"].get<double>() == Approx(12.0));

  // A scenario's trace entry names the CSVs and, in fullDemand:, the experiment; flags override it.
  const auto scenario = [&](const std::string& full_demand) {
    std::ofstream(dir / "s.yaml") << "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata:\n  name: s\nseed: 1\n"
                                     "horizon: 1d\nworkloads:\n  - trace:\n      format: openb\n"
                                     "      nodes: nodes.csv\n      pods: pods.csv\n"
                                  << full_demand;
    return (dir / "s.yaml").string();
  };
  const auto from_scenario = [&](std::vector<std::string> words, std::string& out_text, std::string& err_text) {
    words.insert(words.begin(), "full-demand");
    std::ostringstream o, e;
    const int code = cli::dispatch(words, o, e);
    out_text = o.str();
    err_text = e.str();
    return code;
  };
  const std::string good = scenario("      fullDemand:\n        placement: [fgd, chain]\n        seeds: 3\n        firstSeed: 7\n");
  REQUIRE(from_scenario({good, "-o", "json"}, out, err) == 0);
  auto j2 = nlohmann::json::parse(out);
  REQUIRE(j2["policies"].size() == 2);
  CHECK(j2["policies"][0]["policy"] == "fgd");
  CHECK(j2["policies"][1]["policy"] == "chain");
  CHECK(j2["seeds"] == std::vector<uint64_t>{7, 8, 9});
  REQUIRE(from_scenario({good, "--policy", "best-fit", "--seeds", "1", "-o", "json"}, out, err) == 0);
  j2 = nlohmann::json::parse(out);
  REQUIRE(j2["policies"].size() == 1);
  CHECK(j2["policies"][0]["policy"] == "best-fit");
  CHECK(j2["seeds"] == std::vector<uint64_t>{7});
  // Without fullDemand: the operator's chain, ten seeds from 42.
  REQUIRE(from_scenario({scenario(""), "--seeds", "1", "-o", "json"}, out, err) == 0);
  CHECK(nlohmann::json::parse(out)["policies"][0]["policy"] == "chain");
  struct Bad {
    std::string block, message;
  };
  const std::vector<Bad> bad{
      {"      fullDemand:\n        tune: 0\n", "s.yaml:13: workloads[0].trace.fullDemand.tune: expected a number over 0"},
      {"      fullDemand:\n        tune: 1.2345\n", "fullDemand.tune: expected a number over 0 and at most 10 with at most three decimals"},
      {"      fullDemand:\n        placement: [fgd, fgd]\n", "placement 'fgd' is listed twice"},
      {"      fullDemand:\n        placement: []\n", "expected at least one of best-fit, fgd, chain"},
      {"      fullDemand:\n        chooser: random\n", "s.yaml:13"},
      {"      fullDemand:\n        seed: 3\n", "s.yaml:13: workloads[0].trace.fullDemand.seed: unknown field"},
  };
  for (const Bad& b : bad) {
    INFO(b.block);
    CHECK(from_scenario({scenario(b.block)}, out, err) == 2);
    CHECK(err.find(b.message) != std::string::npos);
  }
  CHECK(from_scenario({good, "--nodes", (dir / "nodes.csv").string(), "--pods", (dir / "pods.csv").string()}, out, err) == 2);
  CHECK(err.find("not both") != std::string::npos);
  CHECK(from_scenario({"--seeds", "1"}, out, err) == 2);
  CHECK(err.find("give a SCENARIO, or both --nodes and --pods") != std::string::npos);

  CHECK(run({"--pods", (dir / "bad.csv").string(), "--plot", (dir / "bad.png").string()}, out, err) == 2);
  CHECK(err.find("bad.csv:2: gpu_milli: 500 with num_gpu 2") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "bad.png"));
  CHECK(run({"--pods", (dir / "pods.csv").string(), "--tune", "0"}, out, err) == 2);
  CHECK(run({"--pods", (dir / "pods.csv").string(), "--policy", "random"}, out, err) == 2);
  fs::remove_all(dir);
}
