// The openb importer (sim/trace/openb_trace.h): each GPU model's product, each pod shape, the
// times, the rule for pods without gpu_spec, and the file:line of every bad row.
#include <catch2/catch.hpp>

#include <sstream>

#include "sim/trace/openb_models.h"
#include "sim/trace/openb_trace.h"

namespace {

using namespace chaintwin;
using sim::OpenbTraceOptions;
using sim::RequestShape;
using sim::SimTime;

const std::string kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";
const std::string kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
// Three G2 nodes and one T4 node, one CPU node: G2 is the default model.
const std::string kNodes = kNodeHeader +
                           "cpu-0,32000,262144,0,\n"
                           "g2-0,96000,786432,8,G2\n"
                           "g2-1,96000,786432,8,G2\n"
                           "t4-0,64000,262144,2,T4\n";

// A pod row with the irrelevant columns defaulted.
std::string pod(const std::string& name, const std::string& gpu = "1,1000", const std::string& spec = "",
                const std::string& times = "0,100,0", const std::string& cpu_mem = "4000,8192") {
  return name + "," + cpu_mem + "," + gpu + "," + spec + ",LS,Running," + times + "\n";
}

model::Result<sim::TraceData> import(const std::string& pods, const std::string& nodes = kNodes,
                                     const OpenbTraceOptions& options = {}) {
  return sim::parse_openb_trace(nodes, "nodes.csv", pods, "pods.csv", options);
}

sim::TraceData import_ok(const std::string& pods, const std::string& nodes = kNodes,
                         const OpenbTraceOptions& options = {}) {
  auto d = import(pods, nodes, options);
  INFO((d.ok() ? std::string() : d.error()));
  REQUIRE(d.ok());
  return std::move(d).value();
}

// Everything a TraceWorkload carries, as one line (for whole-value comparison).
std::string describe(const sim::TraceWorkload& w) {
  std::ostringstream o;
  o << w.namespace_ << "/" << w.name << " at " << w.arrival.to_string() << " runs " << w.duration.to_string()
    << " on '" << w.instance_type.accelerator << "'";
  for (const auto& p : w.pod_sets) {
    const auto& r = p.request;
    o << " " << p.name << "x" << p.count << " " << static_cast<int>(r.kind) << " cards " << r.cards << " mem% "
      << r.memory_percentage.value_or(-1) << " cores% " << r.cores_percentage.value_or(-1) << " cpu "
      << r.cpu.to_string() << " memory " << r.memory.to_string() << " @" << p.where.str();
  }
  return o.str();
}

}  // namespace

TEST_CASE("each openb GPU model becomes its NVIDIA product with its cards and VRAM", "[trace]") {
  for (const auto& m : sim::openb_gpu_models()) {
    INFO(m.code);
    const auto d = import_ok(kPodHeader, kNodeHeader + "n-0,64000,262144,4," + m.code + "\n");
    REQUIRE(d.nodes.size() == 1);
    const auto& n = d.nodes.front();
    REQUIRE(n.devices.has_value());
    REQUIRE(n.devices->spec.groups.size() == 1);
    const auto& g = n.devices->spec.groups.front();
    CHECK(g.manufacturer == "nvidia");
    CHECK(g.name == m.product);
    CHECK(g.memory == static_cast<uint64_t>(m.memory_mib));
    CHECK(g.accelerators.size() == 4u);
    CHECK(n.node.status.capacity.at("nvidia.com/gpu").to_string() == "4");
    CHECK(n.node.status.capacity.at("cpu").to_string() == "64");
    CHECK(n.node.status.capacity.at("memory").to_string() == "256Gi");
    CHECK(n.model_code == m.code);
    CHECK(d.cards_by_model.at(m.code) == 4);
  }
}

TEST_CASE("the mapping covers every GPU model of the shipped node lists", "[trace]") {
  for (const std::string code : {"P100", "T4", "V100M16", "V100M32", "A10", "G2", "G3"})
    CHECK(sim::find_openb_gpu_model(code) != nullptr);
  CHECK(sim::find_openb_gpu_model("g2") == nullptr);  // codes are exact
  CHECK(sim::find_openb_gpu_model("G2")->stand_in);
  CHECK_FALSE(sim::find_openb_gpu_model("T4")->stand_in);
}

TEST_CASE("a CPU-only row becomes a Node without Devices", "[trace]") {
  const auto d = import_ok(kPodHeader);
  const auto& cpu = d.nodes.front();
  CHECK(cpu.node.metadata.name == "cpu-0");
  CHECK_FALSE(cpu.devices.has_value());
  CHECK(cpu.node.status.capacity.count("nvidia.com/gpu") == 0);
  CHECK(cpu.node.status.capacity.at("cpu").to_string() == "32");
  CHECK(cpu.where.str() == "nodes.csv:2");
}

TEST_CASE("each pod row maps to its request shape and InstanceType selector", "[trace]") {
  struct Case {
    std::string row;
    RequestShape::Kind kind;
    int32_t cards;
    int32_t percent;  // -1: none
    std::string accelerator;
  };
  const std::string g2 = "nvidia-a100-sxm4-40gb";
  const std::vector<Case> cases{
      {pod("whole", "1,1000"), RequestShape::Kind::kExclusive, 1, -1, g2},
      {pod("eight", "8,1000"), RequestShape::Kind::kExclusive, 8, -1, g2},
      {pod("share-460", "1,460"), RequestShape::Kind::kSliced, 0, 46, g2},
      {pod("share-475", "1,475"), RequestShape::Kind::kSliced, 0, 48, g2},  // rounded up
      {pod("share-1", "1,1"), RequestShape::Kind::kSliced, 0, 1, g2},
      {pod("share-999", "1,999"), RequestShape::Kind::kSliced, 0, 100, g2},
      {pod("cpu", "0,0"), RequestShape::Kind::kCpu, 0, -1, ""},
      {pod("spec-one", "1,1000", "T4"), RequestShape::Kind::kExclusive, 1, -1, "nvidia-tesla-t4"},
      {pod("spec-first", "1,500", "V100M16|V100M32"), RequestShape::Kind::kSliced, 0, 50, "nvidia-tesla-v100-sxm2-16gb"},
      {pod("spec-absent", "2,1000", "G3"), RequestShape::Kind::kExclusive, 2, -1, "nvidia-a100-sxm4-80gb"},
  };
  for (const auto& c : cases) {
    INFO(c.row);
    const auto d = import_ok(kPodHeader + c.row);
    REQUIRE(d.workloads.size() == 1);
    const auto& w = d.workloads.front();
    REQUIRE(w.pod_sets.size() == 1);
    const auto& r = w.pod_sets.front().request;
    CHECK(r.kind == c.kind);
    CHECK(r.cards == c.cards);
    CHECK(r.memory_percentage.value_or(-1) == c.percent);
    CHECK(r.cores_percentage.value_or(-1) == c.percent);
    CHECK(w.instance_type.accelerator == c.accelerator);
    CHECK(w.instance_type.name.empty());
    CHECK(r.cpu.to_string() == "4");  // every pod keeps its CPU and memory
    CHECK(r.memory.to_string() == "8Gi");
    CHECK(w.pod_sets.front().where.str() == "pods.csv:2");
  }
}

TEST_CASE("arrival is creation_time and the run time is deletion_time minus scheduled_time", "[trace]") {
  const auto d = import_ok(kPodHeader + pod("a", "1,1000", "", "100,4000,160") + pod("b", "0,0", "", "200,200,200"));
  REQUIRE(d.workloads.size() == 2);
  CHECK(d.workloads[0].arrival == SimTime::seconds(100));
  CHECK(d.workloads[0].duration == SimTime::seconds(3840));
  CHECK(d.workloads[1].duration == SimTime::seconds(1));  // a pod that ran 0 s runs 1 s
  CHECK(d.end == SimTime::seconds(3940));  // latest arrival + run time (created 100, ran 3840 s)
  CHECK(d.timed);
}

TEST_CASE("pods never scheduled are skipped, or run deletion minus creation when included", "[trace]") {
  const std::string pods = kPodHeader + pod("ran", "1,1000", "", "0,50,10") + pod("empty", "1,1000", "", "100,400,") +
                           pod("negative", "1,1000", "", "100,250,-1");
  const auto skipped = import_ok(pods);
  REQUIRE(skipped.workloads.size() == 1);
  CHECK(skipped.workloads[0].name == "ran");
  CHECK(skipped.skipped_unscheduled == 2);
  CHECK(skipped.pod_rows == 3);
  OpenbTraceOptions include;
  include.unscheduled = sim::UnscheduledPods::kInclude;
  const auto kept = import_ok(pods, kNodes, include);
  REQUIRE(kept.workloads.size() == 3);
  CHECK(kept.workloads[1].duration == SimTime::seconds(300));
  CHECK(kept.workloads[2].duration == SimTime::seconds(150));
  CHECK(kept.skipped_unscheduled == 0);
}

TEST_CASE("a pod list without time columns arrives one pod a second and never finishes", "[trace]") {
  const auto d = import_ok("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,1024,1,1000\np1,1000,1024,0,0\n");
  REQUIRE(d.workloads.size() == 2);
  CHECK_FALSE(d.timed);
  CHECK(d.workloads[1].arrival == SimTime::seconds(1));
  CHECK(d.workloads[1].duration == sim::kOpenbUntimedDuration);
}

TEST_CASE("limit keeps the first N imported pods", "[trace]") {
  OpenbTraceOptions o;
  o.limit = 2;
  const auto d = import_ok(kPodHeader + pod("a") + pod("b", "1,1000", "", "5,6,") + pod("c") + pod("d"), kNodes, o);
  REQUIRE(d.workloads.size() == 2);
  CHECK(d.workloads[0].name == "a");
  CHECK(d.workloads[1].name == "c");  // b was never scheduled: skipped, not counted
}

TEST_CASE("pods without gpu_spec queue on the model with the most nodes, then cards, then the smaller code", "[trace]") {
  struct Case {
    std::string nodes;
    std::string expected;
  };
  const std::vector<Case> cases{
      {"a,1000,1024,8,G2\nb,1000,1024,2,T4\nc,1000,1024,2,T4\n", "T4"},         // most nodes
      {"a,1000,1024,8,G2\nb,1000,1024,2,T4\n", "G2"},                           // tie on nodes: most cards
      {"a,1000,1024,4,V100M16\nb,1000,1024,4,P100\n", "P100"},                 // full tie: smaller code
      {"a,1000,1024,0,\n", ""},                                                 // no GPU node
  };
  for (const auto& c : cases) {
    INFO(c.nodes);
    const auto d = import_ok(kPodHeader + pod("cpu", "0,0"), kNodeHeader + c.nodes);
    CHECK(d.default_model == c.expected);
  }
  OpenbTraceOptions o;
  o.default_model = "V100M32";
  const auto chosen = import_ok(kPodHeader + pod("p"), kNodes, o);
  CHECK(chosen.workloads.front().instance_type.accelerator == "nvidia-tesla-v100-sxm2-32gb");
}

TEST_CASE("bad rows are refused with file, line and column", "[trace]") {
  struct Case {
    std::string nodes;
    std::string pods;
    std::string message;
  };
  const std::vector<Case> cases{
      {kNodes + "x,1000,1024,2,K80\n", kPodHeader, "nodes.csv:6: model: unknown GPU model 'K80' (known: A10, G2"},
      {kNodes + "x,1000,1024,2,\n", kPodHeader, "nodes.csv:6: model: a node with 2 GPUs needs a GPU model"},
      {kNodes + "x,1000,1024,0,T4\n", kPodHeader, "nodes.csv:6: model: GPU model 'T4' on a node with gpu 0"},
      {kNodes + "x,lots,1024,0,\n", kPodHeader, "nodes.csv:6: cpu_milli: 'lots' is not a whole number"},
      {kNodes + "g2-0,1000,1024,0,\n", kPodHeader, "nodes.csv:6: sn: node name 'g2-0' is used twice (first at line 3)"},
      {kNodes, kPodHeader + pod("p", "2,500"), "pods.csv:2: gpu_milli: 500 with num_gpu 2"},
      {kNodes, kPodHeader + pod("p", "1,0"), "pods.csv:2: gpu_milli: 0 with num_gpu 1"},
      {kNodes, kPodHeader + pod("p", "1,1500"), "pods.csv:2: gpu_milli: 1500 is out of range (0..1000)"},
      {kNodes, kPodHeader + pod("p", "0,300"), "pods.csv:2: gpu_milli: 300 without a GPU"},
      {kNodes, kPodHeader + pod("p", "0,0", "", "0,1,0", "0,0"), "pods.csv:2: cpu_milli: a pod that requests nothing"},
      {kNodes, kPodHeader + pod("p", "1,1000", "T4|H800"), "pods.csv:2: gpu_spec: unknown GPU model 'H800'"},
      {kNodes, kPodHeader + pod("p", "0,0", "T4"), "pods.csv:2: gpu_spec: 'T4' on a pod without a GPU"},
      {kNodes, kPodHeader + pod("p", "1,1000", "", "100,50,60"), "pods.csv:2: scheduled_time: 60 is before creation_time 100"},
      {kNodes, kPodHeader + pod("p", "1,1000", "", "100,150,120") + pod("q", "1,1000", "", "100,110,120"),
       "pods.csv:3: deletion_time: 110 is before scheduled_time 120"},
      {kNodes, kPodHeader + pod("p") + pod("p"), "pods.csv:3: name: pod name 'p' is used twice (first at line 2)"},
      {kNodeHeader + "cpu-0,1000,1024,0,\n", kPodHeader + pod("p"), "pods.csv:2: gpu_spec: empty, and the node list has no GPU node"},
      {kNodes, "name,cpu_milli,memory_mib,num_gpu\n", "pods.csv:1: missing column 'gpu_milli'"},
      {kNodes, "name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time\n", "pods.csv:1: give all of creation_time"},
      {kNodes, kPodHeader + "p,1,2\n", "pods.csv:2: 3 fields, but the header has 11"},
  };
  for (const auto& c : cases) {
    INFO(c.pods);
    const auto d = import(c.pods, c.nodes);
    REQUIRE_FALSE(d.ok());
    CHECK(d.error().rfind(c.message, 0) == 0);
  }
}

TEST_CASE("the same files import to the same nodes and TraceWorkloads", "[trace]") {
  const std::string pods = kPodHeader + pod("a", "1,470", "", "3,90,5") + pod("b", "4,1000", "G2", "4,50,4") +
                           pod("c", "0,0", "", "9,12,10") + pod("d", "1,1000", "T4|G2", "11,20,");
  const auto one = import_ok(pods);
  const auto two = import_ok(pods);
  REQUIRE(one.workloads.size() == two.workloads.size());
  for (size_t i = 0; i < one.workloads.size(); ++i) CHECK(describe(one.workloads[i]) == describe(two.workloads[i]));
  REQUIRE(one.nodes.size() == two.nodes.size());
  for (size_t i = 0; i < one.nodes.size(); ++i) {
    CHECK(one.nodes[i].node == two.nodes[i].node);
    CHECK(one.nodes[i].devices == two.nodes[i].devices);
  }
  CHECK(describe(one.workloads[0]) ==
        "default/a at 3s runs 85s on 'nvidia-a100-sxm4-40gb' mainx1 2 cards 0 mem% 47 cores% 47 cpu 4 memory 8Gi "
        "@pods.csv:2");
}

TEST_CASE("a gpu_spec naming several models lets the pod queue on any of their accelerators", "[trace]") {
  struct Case {
    std::string spec;
    std::string accelerator;
    std::vector<std::string> alternatives;
  };
  const std::vector<Case> cases{
      {"T4", "nvidia-tesla-t4", {}},
      {"V100M16|V100M32", "nvidia-tesla-v100-sxm2-16gb", {"nvidia-tesla-v100-sxm2-32gb"}},
      {"G3|T4|P100", "nvidia-a100-sxm4-80gb", {"nvidia-tesla-t4", "nvidia-tesla-p100-pcie-16gb"}},
      {"T4|T4", "nvidia-tesla-t4", {}},  // a code named twice counts once
      {"", "nvidia-a100-sxm4-40gb", {}},  // no gpu_spec: the default model only
  };
  for (const auto& c : cases) {
    INFO(c.spec);
    const auto d = import_ok(kPodHeader + pod("p", "1,500", c.spec));
    REQUIRE(d.workloads.size() == 1);
    CHECK(d.workloads[0].instance_type.accelerator == c.accelerator);
    CHECK(d.workloads[0].instance_type.alternatives == c.alternatives);
    CHECK(d.with_gpu_spec == (c.spec.empty() ? 0 : 1));
  }
}

TEST_CASE("a model table given in the options replaces the built-in one", "[trace]") {
  OpenbTraceOptions o;
  o.models = {{"G2", "NVIDIA H100 80GB HBM3", 81920, 0, "", "", true},
              {"T4", "NVIDIA L4", 24576, 7424, "Ada Lovelace", "8.9", false}};
  const auto d = import_ok(kPodHeader + pod("p", "1,1000", "T4|G2"), kNodes, o);
  CHECK(d.workloads[0].instance_type.accelerator == "nvidia-l4");
  CHECK(d.workloads[0].instance_type.alternatives == std::vector<std::string>{"nvidia-h100-80gb-hbm3"});
  const auto& g2 = d.nodes[1];
  REQUIRE(g2.devices);
  CHECK(g2.devices->spec.groups.at(0).name == "NVIDIA H100 80GB HBM3");
  CHECK(g2.devices->spec.groups.at(0).cores > 0);  // left out: from chaintwin's product table
  CHECK(d.models.size() == 2);
  CHECK(d.nodes_by_model.at("G2") == 2);
  CHECK(d.nodes_by_model.at("") == 1);
  // A code the table lacks is an unknown model, even one the built-in table has.
  const auto bad = import(kPodHeader + pod("p", "1,1000", "V100M16"), kNodes, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rfind("pods.csv:2: gpu_spec: unknown GPU model 'V100M16' (known: G2, T4)", 0) == 0);
}
