#include <catch2/catch.hpp>

#include "model/stage3/node_keys.h"

using namespace chaintwin::model;

namespace {

Node make_node(StringMap labels, StringMap annotations = {}, const char* cpu = nullptr) {
  Node n;
  n.metadata.labels = std::move(labels);
  n.metadata.annotations = std::move(annotations);
  if (cpu != nullptr) n.status.capacity["cpu"] = *Quantity::parse(cpu);
  return n;
}

const StringMap kOsArch{{"kubernetes.io/os", "linux"}, {"kubernetes.io/arch", "amd64"}};

StringMap with(StringMap base, const StringMap& more) {
  for (const auto& [k, v] : more) base[k] = v;
  return base;
}

const StringMap kAmd25_1{{"feature.node.kubernetes.io/cpu-model.vendor_id", "AMD"},
                         {"feature.node.kubernetes.io/cpu-model.family", "25"},
                         {"feature.node.kubernetes.io/cpu-model.id", "1"}};
const std::string kCpuName = "feature.gpustack.ai/cpu-name";

}  // namespace

TEST_CASE("the general key leads with the CPU vendor and blends the CPU name or cpu-model ids", "[node_keys]") {
  struct Row {
    const char* why;
    StringMap labels;
    StringMap annotations;
    const char* want;
  };
  const StringMap amd{{"feature.node.kubernetes.io/cpu-model.vendor_id", "AMD"}};
  const Row rows[] = {
      {"no cpu information keys off generic", kOsArch, {}, "generic"},
      {"cpu-model family/id is the fallback", with(kOsArch, kAmd25_1), {}, "amd-25-1"},
      {"cpu-name leads", with(kOsArch, kAmd25_1), {{kCpuName, "AMD EPYC 7763 64-Core Processor"}}, "amd-epyc-7763"},
      {"an unresolved '@' cpu-name falls back", with(kOsArch, kAmd25_1), {{kCpuName, "@cpu.model.name"}}, "amd-25-1"},
      {"unknown vendor keys off generic",
       {{"feature.node.kubernetes.io/cpu-model.vendor_id", "VendorUnknown"}},
       {{kCpuName, "Kunpeng 920"}},
       "generic-kunpeng-920"},
      {"family without id is no id", with(amd, {{"feature.node.kubernetes.io/cpu-model.family", "25"}}), {}, "amd"},
      {"a cpu-name that sanitizes to nothing", amd, {{kCpuName, "(TM)"}}, "amd"},
      {"intel with trademarks and frequency",
       {{"feature.node.kubernetes.io/cpu-model.vendor_id", "Intel"}},
       {{kCpuName, "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz"}},
       "intel-xeon-platinum-8358"},
  };
  for (const auto& row : rows) {
    INFO(row.why);
    CHECK(extract_general_node_key(make_node(row.labels, row.annotations)) == row.want);
  }
}

TEST_CASE("a very long CPU name is cut so that gKey.capacity still fits a 63-character label name", "[node_keys]") {
  std::string name;
  for (int i = 0; i < 4; ++i) name += "epyc-9654-96-core-processor-";
  const std::string g_key =
      extract_general_node_key(make_node({{"feature.node.kubernetes.io/cpu-model.vendor_id", "AMD"}}, {{kCpuName, name}}));
  CHECK(g_key == "amd-epyc-9654-96-core-processor-epyc-9654-96-core-proc");
  CHECK((g_key + ".capacity").size() == 63);
}

TEST_CASE("accelerator keys come from true acceleratable labels of known manufacturers", "[node_keys]") {
  const Node n = make_node({{"foo", "bar"},
                            {"acceleratable.feature.gpustack.ai/nvidia", "true"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4", "true"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.count", "4"},
                            {"acceleratable.feature.gpustack.ai/amd-mi300x", "true"},
                            {"acceleratable.feature.gpustack.ai/nvidia-a10g", "false"},
                            {"acceleratable.feature.gpustack.ai/unknown-tesla-t4", "true"},
                            {"feature.gpustack.ai/nvidia-h100", "true"}});
  CHECK(extract_acceleratable_node_keys(n) == std::vector<std::string>{"amd-mi300x", "nvidia-tesla-t4"});
  CHECK(extract_acceleratable_node_keys(make_node({{"foo", "bar"}})).empty());
}

TEST_CASE("capacity labels: managed mark, general presence and the rounded-up CPU count", "[node_keys]") {
  const Node n = make_node(with(kOsArch, kAmd25_1), {}, "15500m");
  CHECK(construct_node_capacity_labels(n, false) == StringMap{{"gpustack.ai/managed", "true"},
                                                              {"general.feature.gpustack.ai/amd", "true"},
                                                              {"general.feature.gpustack.ai/amd-25-1", "true"},
                                                              {"general.feature.gpustack.ai/amd-25-1.count", "16"}});
  SECTION("no CPU capacity, no count") {
    const auto labels = construct_node_capacity_labels(make_node(kAmd25_1, {}, "0"), false);
    CHECK(labels.count("general.feature.gpustack.ai/amd-25-1.count") == 0);
  }
  SECTION("manual management injects nothing, but a value on the node always wins") {
    CHECK(construct_node_capacity_labels(make_node({}), true).count("gpustack.ai/managed") == 0);
    CHECK(construct_node_capacity_labels(make_node({{"gpustack.ai/managed", "false"}}), false).at("gpustack.ai/managed") ==
          "false");
    CHECK(construct_node_capacity_labels(make_node({{"gpustack.ai/managed", "true"}}), true).at("gpustack.ai/managed") ==
          "true");
  }
}

TEST_CASE("accelerator labels are written per group with accelerators, values sanitized", "[node_keys]") {
  DevicesGroup t4;
  t4.id = "tesla-t4";
  t4.manufacturer = "nvidia";
  t4.name = "Tesla T4";
  t4.memory = 15360;
  t4.cores = 2560;
  t4.family = "Turing";
  t4.accelerators.resize(2);
  DevicesGroup empty = t4;
  empty.id = "idle";
  empty.accelerators.clear();
  const auto labels = construct_acceleratable_node_labels({t4, empty});
  CHECK(labels == StringMap{{"feature.gpustack.ai/acceleratable", "true"},
                            {"acceleratable.feature.gpustack.ai/nvidia", "true"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4", "true"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.product", "Tesla-T4"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.memory", "15Gi"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.cores", "2560"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.count", "2"},
                            {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.family", "Turing"}});
  CHECK(construct_acceleratable_node_labels({empty}).empty());
}

TEST_CASE("a node contributes a CPU flavor and one device flavor per counted accelerator key", "[node_keys]") {
  const Node n = make_node(with(with(kOsArch, kAmd25_1), {{"general.feature.gpustack.ai/amd-25-1.count", "8"},
                                                          {"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"},
                                                          {"acceleratable.feature.gpustack.ai/nvidia-a10g.count", "2"},
                                                          {"acceleratable.feature.gpustack.ai/nvidia-a10g.memory", "24Gi"},
                                                          {"acceleratable.feature.gpustack.ai/amd-mi300x", "true"},
                                                          {"acceleratable.feature.gpustack.ai/amd-mi300x.count", "0"}}));
  const auto flavors = extract_node_flavors(n);
  REQUIRE(flavors.size() == 2);
  CHECK(flavors[0].name == "gpustack--amd-25-1-linux-amd64-8c");
  CHECK_FALSE(flavors[0].acceleratable);
  CHECK(flavors[0].own_key() == "amd-25-1");
  CHECK(flavors[0].node_labels.at("general.feature.gpustack.ai/amd-25-1.count") == "8");
  CHECK(flavors[1].name == "gpustack--amd-25-1--nvidia-a10g-linux-amd64-2d");
  CHECK(flavors[1].own_key() == "nvidia-a10g");
  CHECK(flavors[1].manufacturer == "nvidia");
  CHECK(flavors[1].memory == "24Gi");
  CHECK(flavors[1].node_labels == StringMap{{"gpustack.ai/managed", "true"},
                                            {"kubernetes.io/os", "linux"},
                                            {"kubernetes.io/arch", "amd64"},
                                            {"general.feature.gpustack.ai/amd-25-1", "true"},
                                            {"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"},
                                            {"acceleratable.feature.gpustack.ai/nvidia-a10g.count", "2"}});
  SECTION("without the .count label there is no CPU flavor") {
    CHECK(extract_node_flavors(make_node(with(kOsArch, kAmd25_1), {}, "8")).empty());
  }
}

TEST_CASE("flavor names carry the topology profile and give back their per-node count", "[node_keys]") {
  const std::string profile = "fnv64-87bf574bea2a4f23";
  const std::string rf = topology_qualified_flavor_name("gpustack--generic-linux-amd64-4c", profile);
  CHECK(rf == "gpustack--generic-linux-amd64-4c-fnv64-87bf574bea2a4f23");
  CHECK(topology_unqualified_flavor_name(rf, profile) == "gpustack--generic-linux-amd64-4c");
  CHECK(topology_unqualified_flavor_name(rf, "") == rf);
  CHECK(parse_node_flavor_count(rf) == 4);
  CHECK(parse_node_flavor_count("gpustack--amd-epyc-7763--nvidia-tesla-t4-linux-amd64-2d-fnv64-0123456789abcdef") == 2);
  CHECK(parse_node_flavor_count("gpustack--nvidia-a10g-linux-amd64-16d") == 16);
  CHECK(parse_node_flavor_count("gpustack--generic-linux-amd64") == 0);
}

TEST_CASE("topology profiles hash the levels joined by NUL", "[node_keys]") {
  CHECK(topology_profile({"kubernetes.io/hostname"}) == "fnv64-87bf574bea2a4f23");
  CHECK(topology_profile({"topology.kubernetes.io/region", "topology.kubernetes.io/zone", "kubernetes.io/hostname"}) ==
        "fnv64-570aeab478df5111");
  CHECK(topology_name("fnv64-87bf574bea2a4f23") == "gpustack-fnv64-87bf574bea2a4f23");
}

TEST_CASE("Go's Atoi accepts a sign and refuses anything else or an overflow", "[node_keys]") {
  CHECK(go_atoi("12") == 12);
  CHECK(go_atoi("+3") == 3);
  CHECK(go_atoi("-4") == -4);
  CHECK(go_atoi("9223372036854775807") == INT64_MAX);
  CHECK(go_atoi("-9223372036854775808") == INT64_MIN);
  CHECK_FALSE(go_atoi("9223372036854775808").has_value());
  CHECK_FALSE(go_atoi("").has_value());
  CHECK_FALSE(go_atoi("+").has_value());
  CHECK_FALSE(go_atoi("1_0").has_value());
  CHECK_FALSE(go_atoi(" 1").has_value());
}
