#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/admission/accelerator_claim.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/stage3/resource_classify.h"

using namespace chaintwin::model;

TEST_CASE("resource names classify into the family their suffix names behind a known base", "[resource_classify]") {
  struct Row {
    const char* name;
    ResourceFamily family;
  };
  const Row rows[] = {
      {"nvidia.com/gpu", ResourceFamily::kExclusive},
      {"huawei.com/npu.shared", ResourceFamily::kShared},
      {"nvidia.com/gpu.sliced", ResourceFamily::kSliced},
      {"metax-tech.com/gpu.sliced.units", ResourceFamily::kSliced},
      {"nvidia.com/gpu.sliced.memory-percentage", ResourceFamily::kSliced},
      {"nvidia.com/gpu.partitioned.units", ResourceFamily::kPartitioned},
      {"alibabacloud.com/ppu.partitioned.mig-4g.48gb", ResourceFamily::kPartitioned},
      {"amd.com/gpu.partitioned", ResourceFamily::kPartitioned},  // the fixed suffix does not ask for a kind
      {"device.gpustack.ai/nvidia.visibility", ResourceFamily::kVisibility},
      {"device.gpustack.ai/example.visibility", ResourceFamily::kNone},
      {"nvidia.com/gpu.partitioned.mig-", ResourceFamily::kNone},
      {"amd.com/gpu.partitioned.mig-3g.40gb", ResourceFamily::kNone},  // amd has no partition kind
      {"nvidia.com/gpu.sliced.mig-1g.10gb", ResourceFamily::kNone},   // the superseded key
      {"credits.gpustack.ai/nvidia", ResourceFamily::kNone},
      {"example.com/foo.shared", ResourceFamily::kNone},
      {"cpu", ResourceFamily::kNone},
      {"", ResourceFamily::kNone},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(resource_family_of(row.name) == row.family);
  }
}

TEST_CASE("only the four accelerator families are known resources", "[resource_classify]") {
  CHECK(is_known_acceleratable_resource_name("nvidia.com/gpu.shared"));
  CHECK(is_known_acceleratable_resource_name("nvidia.com/gpu.partitioned.mig-3g.40gb"));
  CHECK_FALSE(is_known_acceleratable_resource_name("device.gpustack.ai/nvidia.visibility"));
  CHECK_FALSE(is_known_acceleratable_resource_name("credits.gpustack.ai/nvidia"));
}

TEST_CASE("credits resources name a known manufacturer", "[resource_classify]") {
  CHECK(is_acceleratable_credits_resource_name(credits_resource_name("nvidia")));
  CHECK(is_acceleratable_credits_resource_name("credits.gpustack.ai/thead"));
  CHECK_FALSE(is_acceleratable_credits_resource_name("credits.gpustack.ai/acme"));
  CHECK_FALSE(is_acceleratable_credits_resource_name("credits.gpustack.ai/"));
  CHECK_FALSE(is_acceleratable_credits_resource_name("credits"));
}

TEST_CASE("the device-plugin resource per allocation mode", "[resource_classify]") {
  CHECK(get_acceleratable_resource_name("nvidia", DeviceAllocationMode::kExclusive) == "nvidia.com/gpu");
  CHECK(get_acceleratable_resource_name("nvidia", DeviceAllocationMode::kNone) == "nvidia.com/gpu");
  CHECK(get_acceleratable_resource_name("ascend", DeviceAllocationMode::kShared) == "huawei.com/npu.shared");
  CHECK(get_acceleratable_resource_name("hygon", DeviceAllocationMode::kSliced) == "hygon.com/dcu.sliced");
  CHECK(get_acceleratable_resource_name("thead", DeviceAllocationMode::kPartitioned) == "alibabacloud.com/ppu.partitioned");
  CHECK(get_acceleratable_resource_name("hygon", DeviceAllocationMode::kPartitioned).empty());
  CHECK(get_acceleratable_resource_name("nvidia", DeviceAllocationMode::kVisibility) ==
        "device.gpustack.ai/nvidia.visibility");
  CHECK(get_acceleratable_resource_name("acme", DeviceAllocationMode::kExclusive).empty());
}

TEST_CASE("the classifier's table answers as the rules do, for every name of a family and its near misses",
          "[resource_classify]") {
  // The family, and the accelerator key (base, manufacturer, family) read off the same table.
  // Every base with every suffix and tail the rules know, the visibility and credits names, and
  // each of them cut, extended, re-cased or moved behind another prefix.
  const std::vector<std::string> suffixes{"",
                                          ".shared",
                                          ".sliced",
                                          ".sliced.units",
                                          ".sliced.cores-percentage",
                                          ".sliced.memory-percentage",
                                          ".sliced.memory-mib",
                                          ".partitioned",
                                          ".partitioned.units",
                                          ".partitioned.mig-1g.10gb",
                                          ".partitioned.mig-",
                                          ".partitioned.mig-x.partitioned.units",
                                          ".partitioned.other-1g",
                                          ".visibility",
                                          ".shared.shared",
                                          "x"};
  std::vector<std::string> names{"", "cpu", "memory", "pods", "ephemeral-storage", "hugepages-2Mi", "/", "gpu",
                                 "example.com/gpu", "nvidia.com", "nvidia.com/", "Nvidia.com/gpu"};
  for (const auto& m : known_manufacturers()) {
    for (const auto& suffix : suffixes) {
      const std::string name = std::string(m.resource_base) + suffix;
      names.push_back(name);
      names.push_back(name.substr(0, name.size() - 1));
      names.push_back(name + ".");
      names.push_back(" " + name);
      names.push_back("x" + name);
      std::string upper = name;
      for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      names.push_back(upper);
    }
    names.push_back(std::string(keys::kVisibilityPrefix) + std::string(m.name) + ".visibility");
    names.push_back(std::string(keys::kVisibilityPrefix) + std::string(m.name) + ".visibilityx");
    names.push_back(std::string(keys::kVisibilityPrefix) + std::string(m.resource_base) + ".visibility");
    names.push_back(std::string(keys::kVisibilityPrefix) + std::string(m.name));
    names.push_back(std::string(keys::kCreditsPrefix) + std::string(m.name));
  }
  names.push_back(std::string(keys::kVisibilityPrefix) + "unknown.visibility");
  int families = 0, keys = 0;
  for (const auto& name : names) {
    CAPTURE(name);
    CHECK(resource_family_of(name) == resource_family_by_rules(name));
    CHECK(accelerator_key_of(name) == accelerator_key_by_rules(name));
    if (resource_family_by_rules(name) != ResourceFamily::kNone) ++families;
    if (accelerator_key_by_rules(name)) ++keys;
  }
  CHECK(families > 100);  // the corpus reaches every family, not only misses
  CHECK(keys > 100);
}

TEST_CASE("a name's role in a claim is what the manufacturer's resource names make it", "[resource_classify]") {
  // For every known manufacturer, each of its resource names (and names near them) classifies
  // with the role a comparison with those names gives: the four token names count, the two units
  // names are units, everything else (percentages, MiB, per-profile keys, visibility, credits) is
  // neither.
  int counted = 0, units = 0;
  for (const auto& m : known_manufacturers()) {
    const ManufacturerResourceNames* n = resource_names_for(m.name);
    REQUIRE(n != nullptr);
    const std::vector<std::string> names = {
        n->exclusive, n->shared, n->sliced, n->sliced_units, n->sliced_cores_percentage, n->sliced_memory_percentage,
        n->sliced_memory_mib, n->partitioned, n->partitioned_units, n->partitioned_profile_prefix + "1g.10gb",
        n->visibility, n->credits, std::string(m.resource_base) + ".partitioned", "cpu"};
    for (const auto& name : names) {
      if (name.empty()) continue;
      INFO(name);
      ClaimRole expected = ClaimRole::kOther;
      if (name == n->exclusive || name == n->shared || name == n->sliced || name == n->partitioned)
        expected = ClaimRole::kCount;
      else if (name == n->sliced_units || name == n->partitioned_units)
        expected = ClaimRole::kUnits;
      CHECK(resource_class_of(name).role == expected);
      counted += expected == ClaimRole::kCount;
      units += expected == ClaimRole::kUnits;
    }
  }
  CHECK(counted > 0);
  CHECK(units > 0);
}
