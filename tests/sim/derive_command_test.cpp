#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/cli/command_line.h"
#include "sim/kube_documents.h"

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = chaintwin::cli::dispatch(args, out, err);
  return {code, out.str(), err.str()};
}

std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "chaintwin-derive-test";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

const char* kNode = R"(apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels:
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    feature.node.kubernetes.io/cpu-model.vendor_id: AMD
    feature.node.kubernetes.io/cpu-model.family: '25'
    feature.node.kubernetes.io/cpu-model.id: '1'
    acceleratable.feature.gpustack.ai/nvidia-a10g: 'true'
    acceleratable.feature.gpustack.ai/nvidia-a10g.count: '1'
    acceleratable.feature.gpustack.ai/nvidia-a10g.memory: 24Gi
status:
  capacity:
    cpu: '8'
    nvidia.com/gpu.sliced: '128'
)";

std::string devices(const std::string& manufacturer, const std::string& accelerator_status) {
  return "apiVersion: worker.gpustack.ai/v1\nkind: Devices\nmetadata:\n  name: node-a\nspec:\n  groups:\n"
         "  - id: a10g\n    manufacturer: " + manufacturer + "\n    name: NVIDIA A10G\n    accelerators:\n"
         "    - id: GPU-0\n      index: 0\n      status:\n" + accelerator_status;
}

}  // namespace

TEST_CASE("derive prints one document per Node with its keys, capacity, fit labels and patches", "[cli]") {
  const std::string file = write_temp("ok.yaml", std::string(kNode) + "---\n" +
      devices("nvidia", "        logicalSliced: {coresPercentageOvercommit: true, count: 128}\n"));
  const auto r = run({"derive", "--patches", file});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const auto docs = chaintwin::sim::parse_kubernetes_objects(r.out, "out.yaml");
  REQUIRE(docs.ok());
  REQUIRE(docs->size() == 1);
  const auto& d = docs->at(0).object;
  CHECK(d["node"] == "node-a");
  CHECK(d["capacity"]["nvidia.com/gpu.sliced.units"] == "1600k");
  CHECK(d["capacity"]["nvidia.com/gpu.sliced.memory-mib"] == "24576");
  CHECK(d["fitLabels"].empty());  // no ledger published yet: the operator reads fit labels from Devices.status only
  CHECK(d["nodeFeature"]["metadata"]["name"] == "node-a-gpustack-worker");
  CHECK(d["patches"]["nodeStatus"]["status"]["capacity"]["nvidia.com/gpu.sliced.units"] == "1600k");

  const auto j = run({"derive", "--patches", "-o", "json", file});
  REQUIRE(j.code == 0);
  const auto parsed = nlohmann::json::parse(j.out);
  // This Devices has no acceleratorSlicedDetail, so the operator reads "no overcommit": 1 card x 100.
  CHECK(parsed.at(0)["capacity"]["nvidia.com/gpu.sliced.cores-percentage"] == "100");
  CHECK(parsed.at(0)["notes"].dump().find("acceleratorSlicedDetail does not aggregate its accelerators") != std::string::npos);
}

TEST_CASE("a Setting in the input or --set changes the derivation", "[cli]") {
  const std::string file = write_temp("manual.yaml", std::string(kNode) +
      "---\napiVersion: gpustack.ai/v1\nkind: Setting\nmetadata: {name: node-management-manual, namespace: gpustack-system}\nspec: {value: 'true'}\n");
  const auto r = run({"derive", "--patches", "-o", "json", file});
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out).at(0)["managed"] == false);
  const auto s = run({"derive", "--patches", "-o", "json", "--set", "node-management-manual=true", write_temp("plain.yaml", kNode)});
  REQUIRE(s.code == 0);
  CHECK(nlohmann::json::parse(s.out).at(0)["managed"] == false);
}

TEST_CASE("bad input gets one line naming the file, line, object and field, exit 2 and no output", "[cli]") {
  struct Row {
    const char* name;
    std::string text;
    std::string want;  // the message after "chaintwin derive: <file>"
  };
  const std::vector<Row> rows = {
      {"not-yaml.yaml", "kind: Node\nmetadata: [unclosed\n", ":3: not valid YAML or JSON: end of sequence flow not found"},
      {"unknown-manufacturer.yaml",
       std::string(kNode) + "---\n" + devices("acme", "        logicalSliced: {count: 4}\n"),
       ":26: Devices/node-a: spec.groups[0].manufacturer: unknown manufacturer 'acme' (known: amd, ascend, "
       "cambricon, hygon, iluvatar, metax, mthreads, nvidia, thead)"},
      {"negative-count.yaml",
       std::string(kNode) + "---\n" + devices("nvidia", "        logicalSliced: {count: -4}\n"),
       ":32: Devices/node-a: spec.groups[0].accelerators[0].status.logicalSliced.count: "},
      {"bad-profile.yaml",
       std::string(kNode) + "---\n" +
           "apiVersion: worker.gpustack.ai/v1\nkind: Devices\nmetadata:\n  name: node-a\nspec:\n  groups:\n"
           "  - id: h100-80gb-hbm3\n    manufacturer: nvidia\n    name: NVIDIA H100 80GB HBM3\n    accelerators:\n"
           "    - id: GPU-0\n      status:\n        physicalSliced:\n          count: 2\n          profiles:\n"
           "          - {name: 3g.41gb, count: 2}\n",
       ":34: Devices/node-a: spec.groups[0].accelerators[0].status.physicalSliced.profiles[0].name: unknown MIG "
       "profile '3g.41gb' for NVIDIA H100 80GB HBM3 (known: 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb)"},
      {"orphan-devices.yaml", devices("nvidia", "        logicalSliced: {count: 4}\n"),
       ":4: Devices/node-a: metadata.name: Devices 'node-a' has no Node of the same name (a Devices record always "
       "belongs to its Node)"},
      {"negative-label.yaml",
       std::string(kNode).replace(std::string(kNode).find("count: '1'"), 10, "count: '-1'"),
       ":12: Node/node-a: metadata.labels[\"acceleratable.feature.gpustack.ai/nvidia-a10g.count\"]: '-1' is not a "
       "valid label value"},
      {"bad-quantity.yaml", std::string(kNode).replace(std::string(kNode).find("cpu: '8'"), 8, "cpu: eight"),
       ":16: Node/node-a: status.capacity[\"cpu\"]: quantity 'eight' must start with a number"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    const std::string file = write_temp(row.name, row.text);
    const auto r = run({"derive", file});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    const std::string prefix = "chaintwin derive: " + file + row.want;
    CHECK(r.err.substr(0, prefix.size()) == prefix);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("usage errors and help", "[cli]") {
  CHECK(run({"derive"}).code == 2);
  CHECK(run({"derive", "-o", "xml", "x.yaml"}).err.find("-o: expected one of yaml, json, got 'xml'") != std::string::npos);
  CHECK(run({"derive", "/no/such/file.yaml"}).err == "chaintwin derive: /no/such/file.yaml: cannot read the file\n");
  const auto help = run({"derive", "--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("Usage: chaintwin derive") == 0);
  CHECK(run({"--help"}).out.find("\n  derive  ") != std::string::npos);
  CHECK(run({"frobnicate"}).code == 2);
}

TEST_CASE("derive --example derives the embedded example cluster", "[cli]") {
  const auto r = run({"derive", "--example"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("nvidia.com/gpu.partitioned.mig-1g.10gb: '17'") != std::string::npos);
  CHECK(run({"derive", "--example", "x.yaml"}).code == 2);
}

TEST_CASE("the chain is printed as Kubernetes objects sorted by kind then name", "[cli]") {
  const auto r = run({"derive", "-o", "json", std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/walkthroughs/four-node-cluster.yaml"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto list = nlohmann::json::parse(r.out);
  CHECK(list["kind"] == "List");
  const auto& items = list["items"];
  REQUIRE(items.size() > 20);
  std::vector<std::string> keys;
  std::map<std::string, int> kinds;
  for (const auto& o : items) {
    REQUIRE(o.contains("apiVersion"));
    REQUIRE(o.contains("kind"));
    REQUIRE(o["metadata"].contains("name"));
    CHECK_FALSE(o["metadata"].contains("uid"));
    CHECK_FALSE(o["metadata"].contains("resourceVersion"));
    ++kinds[o["kind"].get<std::string>()];
    keys.push_back(o["kind"].get<std::string>() + " " + o["metadata"].value("namespace", "") + "/" +
                   o["metadata"]["name"].get<std::string>());
  }
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  CHECK(kinds == std::map<std::string, int>{{"AdmissionCheck", 2}, {"ClusterQueue", 3}, {"InstanceType", 3},
                                            {"InstanceTypeFlavor", 3}, {"LocalQueue", 3}, {"Node", 4}, {"NodeFeature", 4}, {"ResourceFlavor", 7}, {"Topology", 1}});
  // A ClusterQueue is printed with its spec only: the status is Kueue's.
  for (const auto& o : items)
    if (o["kind"] == "ClusterQueue") CHECK_FALSE(o.contains("status"));
}
