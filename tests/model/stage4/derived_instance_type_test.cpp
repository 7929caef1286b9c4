#include <catch2/catch.hpp>

#include "model/stage4/derived_instance_type.h"
#include "model/catalog/label_keys.h"
#include "model/stage3/pool_identity.h"

namespace model = chaintwin::model;

namespace {

model::NodeFlavor cpu_pool(const std::string& gkey = "generic") {
  model::NodeFlavor f;
  f.general_key = gkey;
  f.os = "linux";
  f.arch = "amd64";
  return f;
}

model::NodeFlavor accelerated_pool(const std::string& akey, const std::string& product,
                                   const std::string& gkey = "generic") {
  auto f = cpu_pool(gkey);
  f.acceleratable = true;
  f.manufacturer = akey.substr(0, akey.find('-'));
  f.accelerator_key = akey;
  f.product = product;
  return f;
}

}  // namespace

TEST_CASE("a derived type's name and groups follow CPU-manufacturer awareness", "[derived_instance_type]") {
  struct Row {
    model::NodeFlavor flavor;
    bool aware;
    model::InstanceTypeIdentity want;
  };
  const Row rows[] = {
      {cpu_pool("intel-xeon-gold-6430"), false, {"gpustack--generic-linux-amd64", "generic", ""}},
      {cpu_pool("intel-xeon-gold-6430"), true, {"gpustack--intel-xeon-gold-6430-linux-amd64", "intel-xeon-gold-6430", ""}},
      {accelerated_pool("nvidia-a10g", "NVIDIA-A10G", "amd-epyc-7r32"), false,
       {"gpustack--nvidia-a10g-linux-amd64", "generic", "nvidia-a10g"}},
      {accelerated_pool("nvidia-a10g", "NVIDIA-A10G", "amd-epyc-7r32"), true,
       {"gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64", "amd-epyc-7r32", "nvidia-a10g"}},
  };
  for (const auto& r : rows) {
    INFO(r.flavor.accelerator_key << " aware=" << r.aware);
    const auto it = model::derived_instance_type(r.flavor, r.aware);
    CHECK(model::InstanceTypeIdentity{it.metadata.name, it.spec.general_group, it.spec.accelerator_group} == r.want);
  }
}

TEST_CASE("a CPU pool gets 1 CPU / 2Gi, an accelerated one its preset, both 100Gi of storage", "[derived_instance_type]") {
  const auto cpu = model::derived_unit_spec(cpu_pool(), false);
  CHECK(cpu.unit_resources == model::InstanceTypeUnitResources{"1", "2Gi"});
  CHECK(cpu.local_storage == "100Gi");
  CHECK(cpu.display_name == "CPU-only");

  const auto h100 = model::derived_unit_spec(accelerated_pool("nvidia-h100", "NVIDIA-H100-80GB-HBM3"), false);
  CHECK(h100.unit_resources == model::InstanceTypeUnitResources{"12", "192Gi"});
  CHECK(h100.local_storage == "100Gi");
  CHECK(h100.display_name == "NVIDIA-H100-80GB-HBM3");
  CHECK(h100.reason == "preset tier xlarge (nvidia-h100)");

  const auto unknown = model::derived_unit_spec(accelerated_pool("nvidia-contoso9000", "NVIDIA-Contoso-9000"), false);
  CHECK(unknown.unit_resources == model::InstanceTypeUnitResources{"4", "16Gi"});
  CHECK_THAT(unknown.reason, Catch::Matchers::StartsWith("no preset entry"));
}

TEST_CASE("display names: CPU-only only for the collapsed generic pool, and at most 64 runes", "[derived_instance_type]") {
  auto aware_cpu = cpu_pool("intel-xeon-gold-6430");
  aware_cpu.product = "Intel Xeon Gold 6430";
  CHECK(model::derived_display_name(aware_cpu, true) == "Intel Xeon Gold 6430");
  CHECK(model::derived_display_name(aware_cpu, false) == "CPU-only");

  std::string long_name;
  for (int i = 0; i < 70; ++i) long_name += "\xC3\xA9";  // é, two bytes each
  const auto cut = model::derived_display_name(accelerated_pool("nvidia-x", long_name), false);
  CHECK(cut.size() == 128);
  CHECK(model::truncate_runes("abc", 64) == "abc");
  CHECK(model::truncate_runes("ab\xE2\x82\xAC" "cd", 3) == "ab\xE2\x82\xAC");
}

TEST_CASE("authoring creates the derived type once and never touches an existing one", "[derived_instance_type]") {
  const auto flavor = accelerated_pool("nvidia-a10g", "NVIDIA-A10G");
  model::Settings settings;

  const auto create = model::decide_derived_instance_type(flavor, settings, nullptr);
  REQUIRE(create.action == model::AuthorAction::kCreate);
  const auto& it = create.instance_type;
  CHECK(it.metadata.name == "gpustack--nvidia-a10g-linux-amd64");
  CHECK(it.metadata.labels == model::StringMap{{std::string(model::keys::kScheduleDerivedFromNode), "true"}});
  CHECK(it.spec.acceleratable);
  CHECK(it.spec.accelerator_group == "nvidia-a10g");
  CHECK(it.spec.general_group == "generic");
  CHECK(it.spec.unit_resources == model::InstanceTypeUnitResources{"8", "64Gi"});
  CHECK(it.spec.local_storage == "100Gi");
  CHECK_FALSE(it.spec.inactive);

  model::InstanceType admin;
  admin.metadata.name = it.metadata.name;
  admin.spec.unit_resources = {"2", "16Gi"};
  admin.spec.local_storage = "128Gi";
  const auto keep = model::decide_derived_instance_type(flavor, settings, &admin);
  CHECK(keep.action == model::AuthorAction::kKeepExisting);
  CHECK(keep.instance_type == admin);

  settings.instance_type_derived_from_node = false;
  const auto off = model::decide_derived_instance_type(flavor, settings, nullptr);
  CHECK(off.action == model::AuthorAction::kDisabled);
  CHECK(model::to_string(off.action) == "Disabled");
}
