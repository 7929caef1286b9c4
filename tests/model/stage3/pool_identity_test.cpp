#include <catch2/catch.hpp>

#include "model/stage3/pool_identity.h"

using namespace chaintwin::model;

namespace {

NodeFlavor flavor(bool acceleratable, std::string g_key, std::string a_key = "") {
  NodeFlavor f;
  f.acceleratable = acceleratable;
  f.general_key = std::move(g_key);
  f.accelerator_key = std::move(a_key);
  f.os = "linux";
  f.arch = "amd64";
  return f;
}

// The labels NodeFlavorReconciler stamps on a ResourceFlavor.
StringMap rf_labels(const NodeFlavor& f) {
  const std::string own = (f.acceleratable ? "acceleratable.feature.gpustack.ai/" : "general.feature.gpustack.ai/") + f.own_key();
  StringMap l{{own, "true"},
              {own + ".count", "2"},
              {own + ".capacity", "4"},
              {"kubernetes.io/os", f.os},
              {"kubernetes.io/arch", f.arch},
              {"topology.gpustack.ai/profile", "fnv64-87bf574bea2a4f23"},
              {"feature.gpustack.ai/acceleratable", f.acceleratable ? "true" : "false"}};
  if (f.acceleratable) l["general.feature.gpustack.ai/" + f.general_key] = "true";
  return l;
}

StringMap queue_labels(const NodeFlavor& f, bool aware) {
  const auto id = derived_instance_type_identity(f, aware);
  return pool_schedule_labels(f.acceleratable, aware, id.general_group, id.accelerator_group, f.os, f.arch);
}

}  // namespace

TEST_CASE("awareness decides whether the CPU key splits the pool", "[pool_identity]") {
  struct Row {
    bool acceleratable, aware;
    const char *g_key, *a_key, *name, *general_group, *itf;
  };
  const Row rows[] = {
      {false, false, "amd-epyc-7763", "", "gpustack--generic-linux-amd64", "generic", "gpustack--generic"},
      {false, true, "amd-epyc-7763", "", "gpustack--amd-epyc-7763-linux-amd64", "amd-epyc-7763", "gpustack--amd-epyc-7763"},
      {true, false, "amd-epyc-7763", "nvidia-a10g", "gpustack--nvidia-a10g-linux-amd64", "generic", "gpustack--nvidia-a10g"},
      {true, true, "amd-epyc-7763", "nvidia-a10g", "gpustack--amd-epyc-7763--nvidia-a10g-linux-amd64", "amd-epyc-7763",
       "gpustack--amd-epyc-7763--nvidia-a10g"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    const NodeFlavor f = flavor(row.acceleratable, row.g_key, row.a_key);
    const auto id = derived_instance_type_identity(f, row.aware);
    CHECK(id.name == row.name);
    CHECK(id.general_group == row.general_group);
    CHECK(id.accelerator_group == row.a_key);
    CHECK(instance_type_flavor_name(f, row.aware) == row.itf);
  }
}

TEST_CASE("schedule labels add the CPU key only for an aware pool of a real CPU", "[pool_identity]") {
  CHECK(pool_schedule_labels(false, true, "generic", "", "linux", "") ==
        StringMap{{"feature.gpustack.ai/acceleratable", "false"}, {"kubernetes.io/os", "linux"}});
  CHECK(pool_schedule_labels(true, true, "amd-25-1", "nvidia-h100", "linux", "arm64") ==
        StringMap{{"feature.gpustack.ai/acceleratable", "true"},
                  {"kubernetes.io/os", "linux"},
                  {"kubernetes.io/arch", "arm64"},
                  {"acceleratable.feature.gpustack.ai/nvidia-h100", "true"},
                  {"general.feature.gpustack.ai/amd-25-1", "true"}});
  CHECK(pool_schedule_labels(false, false, "amd-25-1", "", "", "").size() == 1);
}

TEST_CASE("a selector needs a discriminator and keeps only true feature keys", "[pool_identity]") {
  CHECK_FALSE(pool_flavor_selector({{"kubernetes.io/os", "linux"}, {"foo", "true"}}).has_value());
  CHECK_FALSE(pool_flavor_selector({{"general.feature.gpustack.ai/amd", "false"}}).has_value());
  CHECK(pool_flavor_selector({{"feature.gpustack.ai/acceleratable", "false"}, {"resource.gpustack.ai/type", "x"}}) ==
        StringMap{{"feature.gpustack.ai/acceleratable", "false"}});
}

TEST_CASE("a flavor feeds a queue when the queue's selector is a subset of the flavor's", "[pool_identity]") {
  const NodeFlavor cpu = flavor(false, "amd-epyc-7763");
  const NodeFlavor gpu = flavor(true, "amd-epyc-7763", "nvidia-a10g");
  const NodeFlavor other_cpu_gpu = flavor(true, "intel-xeon", "nvidia-a10g");
  SECTION("the collapsed generic queue takes every CPU flavor but no accelerated one") {
    CHECK(flavor_feeds_queue(rf_labels(cpu), queue_labels(cpu, false)));
    CHECK_FALSE(flavor_feeds_queue(rf_labels(gpu), queue_labels(cpu, false)));
  }
  SECTION("an aware CPU queue never takes an accelerated flavor of the same CPU") {
    CHECK(flavor_feeds_queue(rf_labels(cpu), queue_labels(cpu, true)));
    CHECK_FALSE(flavor_feeds_queue(rf_labels(gpu), queue_labels(cpu, true)));
  }
  SECTION("an unaware accelerated queue takes the model on any CPU; an aware one only on its CPU") {
    CHECK(flavor_feeds_queue(rf_labels(other_cpu_gpu), queue_labels(gpu, false)));
    CHECK(flavor_feeds_queue(rf_labels(gpu), queue_labels(gpu, true)));
    CHECK_FALSE(flavor_feeds_queue(rf_labels(other_cpu_gpu), queue_labels(gpu, true)));
  }
  SECTION("other os/arch never feeds") {
    NodeFlavor arm = cpu;
    arm.arch = "arm64";
    CHECK_FALSE(flavor_feeds_queue(rf_labels(arm), queue_labels(cpu, false)));
  }
}

TEST_CASE("LocalQueue names are the 31-character FNV of the ClusterQueue name", "[pool_identity]") {
  CHECK(format_local_queue_name("gpustack--nvidia-a10g-linux-amd64") == "gpustack-fnv64-c4680bb149644f1c");
  CHECK(format_local_queue_name("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64") == "gpustack-fnv64-029fd9550e0c70bd");
  CHECK(format_local_queue_name("x").size() == 31);
  CHECK(map_contains({{"a", "1"}, {"b", "2"}}, {{"a", "1"}}));
  CHECK_FALSE(map_contains({{"a", "1"}}, {{"a", "2"}}));
}

TEST_CASE("a label map contains a selector exactly when each of its keys is there with its value",
          "[pool_identity]") {
  // Against the plain per-key lookup, over random maps and selectors drawn from a small alphabet
  // (so hits, misses, prefixes and values that differ all occur).
  const std::vector<std::string> keys = {"a", "ab", "abc", "b", "ba", "gpustack.ai/x", "gpustack.ai/xy", "z"};
  uint64_t state = 12345;
  const auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  for (int round = 0; round < 2000; ++round) {
    StringMap superset, subset;
    for (const auto& k : keys)
      if (next(3) != 0) superset[k] = std::to_string(next(2));
    for (const auto& k : keys)
      if (next(4) == 0) subset[k] = std::to_string(next(2));
    bool expected = true;
    for (const auto& [k, v] : subset) {
      const auto it = superset.find(k);
      if (it == superset.end() || it->second != v) expected = false;
    }
    INFO("round " << round);
    CHECK(map_contains(superset, subset) == expected);
  }
  CHECK(map_contains({}, {}));
  CHECK(map_contains({{"a", "1"}}, {}));
  CHECK_FALSE(map_contains({}, {{"a", "1"}}));
}
