// `chaintwin import openb` (sim/cli/import_command.h): the written scenario loads to the same
// cluster and trace workloads as the trace itself, bad CSVs write nothing, gpu_spec becomes a choice
// of InstanceTypes and CPU-only pods go to the CPU pool.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/cli/command_line.h"
#include "sim/runner/workload_factory.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/trace/openb_trace.h"

namespace {

using namespace chaintwin;
namespace fs = std::filesystem;

const std::string kNodes =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "openb-node-0000,32000,131072,0,\n"
    "openb-node-0001,64000,262144,2,T4\n"
    "openb-node-0002,96000,786432,8,V100M32\n"
    "openb-node-0003,96000,786432,8,V100M32\n";
const std::string kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
const std::string kPods = kPodHeader +
                          "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,3600,0\n"
                          "openb-pod-0001,6000,12288,1,460,T4,LS,Running,60,7200,120\n"
                          "openb-pod-0002,8000,30517,0,0,,BE,Pending,90,500,\n"
                          "openb-pod-0003,2000,4096,0,0,,BE,Succeeded,100,400,100\n"
                          "openb-pod-0004,4000,8192,2,1000,V100M32|T4,LS,Running,120,900,130\n";

// A folder with the two CSVs under csv/ and the scenario written to out/.
struct Workspace {
  fs::path dir;
  explicit Workspace(const std::string& name, const std::string& pods = kPods) {
    dir = fs::temp_directory_path() / ("chaintwin-import-test-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir / "csv");
    fs::create_directories(dir / "out");
    write("csv/nodes.csv", kNodes);
    write("csv/pods.csv", pods);
  }
  void write(const std::string& rel, const std::string& text) const {
    std::ofstream out(dir / rel, std::ios::binary);
    out << text;
  }
  std::string path(const std::string& rel) const { return (dir / rel).string(); }
  std::string read(const std::string& rel) const {
    std::ifstream in(dir / rel, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Runs `chaintwin import openb` with the workspace's CSVs; returns the exit code.
  int import(std::vector<std::string> extra, std::string& err_text) const {
    std::vector<std::string> args{"import", "openb", "--nodes", path("csv/nodes.csv"), "--pods", path("csv/pods.csv"),
                                  "-o", path("out/scenario.yaml")};
    args.insert(args.end(), extra.begin(), extra.end());
    std::ostringstream out, err;
    const int code = cli::dispatch(args, out, err);
    err_text = err.str();
    return code;
  }
};

sim::Scenario load_ok(const std::string& path) {
  const auto s = sim::load_scenario(path);
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

}  // namespace

TEST_CASE("an imported scenario loads to the same nodes and trace workloads as the trace itself", "[import][trace]") {
  struct Case {
    std::string label;
    std::vector<std::string> flags;
    sim::OpenbTraceOptions options;
  };
  sim::OpenbTraceOptions include;
  include.unscheduled = sim::UnscheduledPods::kInclude;
  sim::OpenbTraceOptions limited;
  limited.limit = 2;
  limited.default_model = "T4";
  const std::vector<Case> cases{
      {"defaults", {}, {}},
      {"include unscheduled", {"--unscheduled", "include"}, include},
      {"limit and default model", {"--limit", "2", "--default-model", "T4"}, limited},
  };
  for (const auto& c : cases) {
    INFO(c.label);
    const Workspace w("same-" + std::to_string(&c - cases.data()));
    std::string err;
    REQUIRE(w.import(c.flags, err) == 0);
    const std::string text = w.read("out/scenario.yaml");
    CHECK(text.find("nodes: ../csv/nodes.csv") != std::string::npos);  // relative to the scenario file
    const auto s = load_ok(w.path("out/scenario.yaml"));
    const auto direct = sim::read_openb_trace(w.path("csv/nodes.csv"), w.path("csv/pods.csv"), c.options);
    REQUIRE(direct.ok());
    REQUIRE(s.cluster.nodes.size() == direct->nodes.size());
    for (const auto& n : direct->nodes) {
      INFO(n.node.metadata.name);
      REQUIRE(s.cluster.nodes.count(n.node.metadata.name) == 1);
      CHECK(s.cluster.nodes.at(n.node.metadata.name) == n.node);
      CHECK(s.cluster.devices.count(n.node.metadata.name) == (n.devices ? 1U : 0U));
      if (n.devices) CHECK(s.cluster.devices.at(n.node.metadata.name) == *n.devices);
    }
    REQUIRE(s.trace_workloads.size() == direct->workloads.size());
    for (size_t i = 0; i < s.trace_workloads.size(); ++i) {
      const auto& a = s.trace_workloads[i];
      const auto& b = direct->workloads[i];
      INFO(b.name);
      CHECK(a.name == b.name);
      CHECK(a.namespace_ == b.namespace_);
      CHECK(a.arrival == b.arrival);
      CHECK(a.duration == b.duration);
      CHECK(a.instance_type == b.instance_type);
      REQUIRE(a.pod_sets.size() == b.pod_sets.size());
      for (size_t p = 0; p < a.pod_sets.size(); ++p) {
        const auto& x = a.pod_sets[p];
        const auto& y = b.pod_sets[p];
        CHECK(x.name == y.name);
        CHECK(x.count == y.count);
        CHECK(x.request.kind == y.request.kind);
        CHECK(x.request.cards == y.request.cards);
        CHECK(x.request.memory_percentage == y.request.memory_percentage);
        CHECK(x.request.cores_percentage == y.request.cores_percentage);
        CHECK(x.request.cpu == y.request.cpu);
        CHECK(x.request.memory == y.request.memory);
      }
    }
    // The default horizon: one day past the last finish, in whole days.
    CHECK(s.horizon == sim::SimTime::days(2));
  }
}

TEST_CASE("the header counts nodes per model and pods by kind", "[import][trace]") {
  const Workspace w("header");
  std::string err;
  REQUIRE(w.import({"--name", "tiny", "--description", "a tiny trace"}, err) == 0);
  const std::string text = w.read("out/scenario.yaml");
  for (const std::string line : {
           "# Nodes (../csv/nodes.csv): 4, of which 3 with 18 GPUs and 1 CPU-only",
           "#   T4: 1 nodes, 2 GPUs -> Tesla T4",
           "#   V100M32: 2 nodes, 16 GPUs -> Tesla V100-SXM2-32GB",
           "# Pods (../csv/pods.csv): 5 rows, 4 imported:",
           "#   2 whole cards, 1 GPU slices, 1 CPU-only; 2 with gpu_spec (1 allowing several models)",
           "# Never scheduled by the real cluster: 1 skipped (unscheduled: skip)",
           "#     --description 'a tiny trace' \\",
           "  name: tiny",
           "      defaultModel: V100M32   # the pool of GPU pods without gpu_spec",
           "        T4: {product: Tesla T4, memory: 16Gi, cores: 2560, family: Turing, computeCapability: \"7.5\"}",
       }) {
    INFO(line);
    CHECK(text.find(line + "\n") != std::string::npos);
  }
}

TEST_CASE("a bad CSV exits 2 naming file, line and column and writes nothing", "[import][trace]") {
  struct Case {
    std::string pods;
    std::string message;
  };
  const std::vector<Case> cases{
      {kPodHeader + "p0,1000,1024,1,1000,,LS,Running,0,10,0\np1,1000,1024,3,400,,LS,Running,0,10,0\n",
       "csv/pods.csv:3: gpu_milli: 400 with num_gpu 3"},
      {kPodHeader + "p0,1000,1024,1,1000,H800,LS,Running,0,10,0\n", "csv/pods.csv:2: gpu_spec: unknown GPU model 'H800'"},
      {kPodHeader + "p0,abc,1024,1,1000,,LS,Running,0,10,0\n", "csv/pods.csv:2: cpu_milli: 'abc' is not a whole number"},
      {kPodHeader + "p0,1000,1024,1,1000,,LS\n", "csv/pods.csv:2"},
  };
  for (const auto& c : cases) {
    INFO(c.message);
    const Workspace w("bad-" + std::to_string(&c - cases.data()), c.pods);
    std::string err;
    CHECK(w.import({}, err) == 2);
    CHECK(err.find(c.message) != std::string::npos);
    CHECK(fs::is_empty(w.dir / "out"));  // neither the scenario nor a temporary file
  }
  const Workspace w("bad-option");
  std::string err;
  CHECK(w.import({"--unscheduled", "maybe"}, err) == 2);
  CHECK(fs::is_empty(w.dir / "out"));
}

TEST_CASE("gpu_spec becomes a choice of InstanceTypes and CPU-only pods go to the CPU pool", "[import][trace]") {
  const Workspace w("choices");
  std::string err;
  REQUIRE(w.import({"--unscheduled", "include"}, err) == 0);
  const auto s = load_ok(w.path("out/scenario.yaml"));
  const auto r = model::converge(s.cluster, model::operator_controllers(), "2026-01-01T00:00:00Z");
  REQUIRE(r.ok());
  REQUIRE(r->converged);
  std::map<std::string, const sim::TraceWorkload*> by_name;
  for (const auto& t : s.trace_workloads) by_name[t.name] = &t;

  const auto& both = *by_name.at("openb-pod-0004");  // gpu_spec V100M32|T4
  CHECK(both.instance_type.accelerator == "nvidia-tesla-v100-sxm2-32gb");
  CHECK(both.instance_type.alternatives == std::vector<std::string>{"nvidia-tesla-t4"});
  const auto& one = *by_name.at("openb-pod-0001");  // gpu_spec T4
  CHECK(one.instance_type.accelerator == "nvidia-tesla-t4");
  CHECK(one.instance_type.alternatives.empty());

  // Each of the allowed models' types can be the one chosen, by what its status says is free.
  std::string t4, v100, cpu;
  for (const auto& [name, it] : r->state.instance_types) {
    if (!it.spec.acceleratable) cpu = name;
    else if (name.find("t4") != std::string::npos) t4 = name;
    else if (name.find("v100") != std::string::npos) v100 = name;
  }
  REQUIRE_FALSE(t4.empty());
  REQUIRE_FALSE(v100.empty());
  REQUIRE_FALSE(cpu.empty());
  auto state = r->state;
  auto set_free = [&](const std::string& it, int64_t once_max, int64_t remaining) {
    state.instance_types.at(it).status.accelerator.once_max_request = once_max;
    state.instance_types.at(it).status.accelerator.remaining = remaining;
  };
  struct Case {
    int64_t t4_once, t4_left, v100_once, v100_left;
    std::string want;
  };
  const std::vector<Case> cases{
      {2, 2, 8, 16, v100},  // both take the 2-card Pod: the most remaining
      {2, 2, 1, 16, t4},    // only T4 takes 2 cards at once
      {1, 1, 1, 3, v100},   // neither: the most remaining
      {2, 2, 2, 2, v100},   // a tie: the listed order
  };
  for (const auto& c : cases) {
    INFO(c.t4_once << "/" << c.t4_left << " " << c.v100_once << "/" << c.v100_left);
    set_free(t4, c.t4_once, c.t4_left);
    set_free(v100, c.v100_once, c.v100_left);
    CHECK(sim::choose_instance_type(state, both.instance_type, true, both.pod_sets) == c.want);
  }
  for (const auto& name : {"openb-pod-0002", "openb-pod-0003"}) {  // CPU-only
    const auto& t = *by_name.at(name);
    INFO(name);
    CHECK(t.instance_type.accelerator.empty());
    CHECK(sim::choose_instance_type(state, t.instance_type, false, t.pod_sets) == cpu);
  }
}

TEST_CASE("an edited models table in the scenario changes the products the trace's cards become", "[import][trace]") {
  const Workspace w("edited");
  std::string err;
  REQUIRE(w.import({}, err) == 0);
  std::string text = w.read("out/scenario.yaml");
  const std::string row = "T4: {product: Tesla T4, memory: 16Gi, cores: 2560, family: Turing, computeCapability: \"7.5\"}";
  const auto at = text.find(row);
  REQUIRE(at != std::string::npos);
  text.replace(at, row.size(), "T4: {product: NVIDIA L4, memory: 24Gi}");
  w.write("out/edited.yaml", text);
  const auto s = load_ok(w.path("out/edited.yaml"));
  const auto& group = s.cluster.devices.at("openb-node-0001").spec.groups.at(0);
  CHECK(group.name == "NVIDIA L4");
  CHECK(group.memory == 24576);
  for (const auto& t : s.trace_workloads)
    if (t.name == "openb-pod-0001") CHECK(t.instance_type.accelerator == "nvidia-l4");
}
