// A scenario's `trace:` entry (sim/scenario/scenario_workloads.cpp → sim/trace/openb_trace.h):
// the trace's nodes join the cluster, its pods become the scenario's trace workloads, and the
// entry's options (takeNodes, limit, unscheduled, defaultModel) do what they say.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/runner/workload_factory.h"
#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// A tiny openb trace written to a temporary folder; the scenario names it by absolute path.
struct TinyTrace {
  std::filesystem::path dir;
  explicit TinyTrace(const std::string& name = "good") {
    // One folder per process: ctest runs test cases in parallel processes, and a case reading the
    // CSVs while another rewrites them would see them half written.
    dir = std::filesystem::temp_directory_path() /
          ("chaintwin-trace-loader-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    write("nodes.csv",
          "sn,cpu_milli,memory_mib,gpu,model\n"
          "openb-node-0000,32000,131072,0,\n"
          "openb-node-0001,64000,262144,2,T4\n"
          "openb-node-0002,96000,786432,8,V100M32\n");
    write("pods.csv",
          "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
          "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,3600,0\n"
          "openb-pod-0001,6000,12288,1,460,T4,LS,Running,60,7200,120\n"
          "openb-pod-0002,8000,30517,0,0,,BE,Pending,90,500,\n"
          "openb-pod-0003,2000,4096,0,0,,BE,Succeeded,100,400,100\n");
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream out(dir / name, std::ios::binary);
    out << text;
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }

  std::string scenario(const std::string& extra = "", const std::string& cluster = "") const {
    return "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 3h\n" + cluster +
           "workloads:\n- trace:\n    format: openb\n    nodes: " + path("nodes.csv") + "\n    pods: " +
           path("pods.csv") + "\n" + extra;
  }
};

}  // namespace

sim::Scenario load_ok(const std::string& text) {
  const auto s = sim::load_scenario_text(text, "t.yaml");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

std::string load_error(const std::string& text) {
  const auto s = sim::load_scenario_text(text, "t.yaml");
  REQUIRE_FALSE(s.ok());
  return s.error();
}

TEST_CASE("a trace entry brings its nodes into the cluster and its pods into the trace workloads", "[trace][scenario]") {
  const TinyTrace t;
  const auto s = load_ok(t.scenario());
  CHECK(s.cluster.nodes.size() == 3);
  CHECK(s.cluster.devices.size() == 2);
  CHECK(s.cluster.nodes.at("openb-node-0002").status.capacity.at("nvidia.com/gpu").to_string() == "8");
  CHECK(s.cluster.namespaces.count("default") == 1);
  REQUIRE(s.traces.size() == 1);
  CHECK(s.traces[0].take_nodes);
  REQUIRE(s.trace_workloads.size() == 3);  // the never-scheduled pod is skipped
  const auto& w0 = s.trace_workloads[0];
  CHECK(w0.name == "openb-pod-0000");
  // T4 and V100M32 have one node each; the tie goes to the model with more cards.
  CHECK(w0.instance_type.accelerator == "nvidia-tesla-v100-sxm2-32gb");
  CHECK(w0.duration == sim::SimTime::hours(1));
  CHECK(s.trace_workloads[1].instance_type.accelerator == "nvidia-tesla-t4");
  CHECK(s.trace_workloads[1].arrival == sim::SimTime::minutes(1));
  CHECK(s.trace_workloads[2].instance_type.accelerator.empty());  // CPU pool
  CHECK(s.workloads.empty());
}

TEST_CASE("the entry's options keep the cluster, cut the pods, include the unscheduled, pick the model", "[trace][scenario]") {
  const TinyTrace t;
  const auto s = load_ok(t.scenario("    takeNodes: false\n    limit: 2\n    unscheduled: include\n    defaultModel: T4\n",
                                    "cluster:\n  nodes:\n  - name: own-0\n"));
  CHECK(s.cluster.nodes.size() == 1);
  CHECK(s.cluster.nodes.count("own-0") == 1);
  REQUIRE(s.trace_workloads.size() == 2);
  CHECK(s.trace_workloads[0].instance_type.accelerator == "nvidia-tesla-t4");
  CHECK_FALSE(s.traces[0].take_nodes);
  CHECK(s.traces[0].limit == int64_t{2});
  CHECK(s.traces[0].include_unscheduled);
  const auto all = load_ok(t.scenario("    unscheduled: include\n"));
  REQUIRE(all.trace_workloads.size() == 4);
  CHECK(all.trace_workloads[2].duration == sim::SimTime::seconds(410));  // deletion − creation
}

TEST_CASE("a bad trace entry or trace row is refused with where it is", "[trace][scenario]") {
  const TinyTrace t;
  CHECK(load_error(t.scenario("    defaultModel: H800\n")).rfind("t.yaml:9: workloads[0].trace.defaultModel: unknown openb GPU model 'H800'", 0) == 0);
  CHECK(load_error(t.scenario("    limit: -1\n")).rfind("t.yaml:9: workloads[0].trace.limit:", 0) == 0);
  const std::string clash = load_error(t.scenario("", "cluster:\n  nodes:\n  - name: openb-node-0001\n"));
  CHECK(clash.rfind(t.path("nodes.csv") + ":3: sn: node name 'openb-node-0001' is already in the cluster", 0) == 0);
  CHECK(clash.find("takeNodes: false") != std::string::npos);
  const TinyTrace bad("bad-row");
  bad.write("pods.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1000,1024,3,400\n");
  const std::string row = load_error(bad.scenario());
  CHECK(row.find("cannot import the trace: " + bad.path("pods.csv") + ":2: gpu_milli: 400 with num_gpu 3") !=
        std::string::npos);
}

TEST_CASE("the shipped openb-default scenario loads the whole trace", "[trace][scenario]") {
  const auto s = sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/traces/openb-default.yaml");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  CHECK(s->cluster.nodes.size() == 1523);
  CHECK(s->cluster.devices.size() == 1213);
  CHECK(s->trace_workloads.size() == 8152 - 897);
  size_t cpu = 0, g2 = 0;
  for (const auto& w : s->trace_workloads) {
    cpu += w.instance_type.accelerator.empty() ? 1 : 0;
    g2 += w.instance_type.accelerator == "nvidia-a100-sxm4-40gb" ? 1 : 0;
  }
  CHECK(cpu + g2 == s->trace_workloads.size());  // no gpu_spec in the default list: every GPU pod on G2
  CHECK(cpu > 0);
  CHECK(s->horizon >= s->trace_workloads.back().arrival);
}

TEST_CASE("every imported pod finds its InstanceType in the converged chain", "[trace][scenario]") {
  const TinyTrace t;
  const auto s = load_ok(t.scenario("    unscheduled: include\n"));
  const auto r = model::converge(s.cluster, model::operator_controllers(), "2026-01-01T00:00:00Z");
  REQUIRE(r.ok());
  REQUIRE(r->converged);
  for (const auto& w : s.trace_workloads) {
    INFO(w.name << " selector '" << w.instance_type.accelerator << "'");
    const bool gpu = !w.instance_type.accelerator.empty();
    const std::string it = sim::choose_instance_type(r->state, w.instance_type, gpu);
    CHECK_FALSE(it.empty());
    CHECK((it.find("nvidia") != std::string::npos) == gpu);
  }
}

TEST_CASE("a trace entry's models table replaces the built-in one and is checked with its place", "[trace][scenario]") {
  const TinyTrace t("models");
  const std::string both =
      "    models:\n"
      "      T4: {product: NVIDIA L4, memory: 24Gi}\n"
      "      V100M32: {product: Tesla V100-SXM2-32GB, memory: 32Gi, cores: 5120, family: Volta, computeCapability: \"7.0\"}\n";
  const auto s = load_ok(t.scenario(both));
  CHECK(s.cluster.devices.at("openb-node-0001").spec.groups.at(0).name == "NVIDIA L4");
  for (const auto& w : s.trace_workloads)
    if (w.name == "openb-pod-0001") CHECK(w.instance_type.accelerator == "nvidia-l4");
  struct Case {
    std::string extra;
    std::string message;
  };
  const std::vector<Case> cases{
      {"    models:\n      T4: {product: Tesla T4}\n", "workloads[0].trace.models.T4"},
      {"    models:\n      T4: {product: Tesla T4, memory: 16Gi, vram: 16Gi}\n", "vram"},
      {"    models:\n      T4: {product: Tesla T4, memory: 16Gi}\n", "nodes.csv:4: model: unknown GPU model 'V100M32' (known: T4)"},
      {both + "    defaultModel: G2\n", "unknown openb GPU model 'G2' (known: T4, V100M32)"},
  };
  for (const auto& c : cases) {
    INFO(c.extra);
    const std::string e = load_error(t.scenario(c.extra));
    CHECK(e.find(c.message) != std::string::npos);
    CHECK(e.rfind("t.yaml:", 0) == 0);
  }
}
