#include <catch2/catch.hpp>

#include <string>

#include "model/catalog/mig_catalog.h"

using namespace chaintwin::model;

TEST_CASE("the embedded catalog parses and validates all thirteen models", "[mig_catalog]") {
  const auto& catalog = embedded_mig_catalog();
  REQUIRE(catalog.ok());
  CHECK(catalog->models().size() == 13);
  for (const auto& m : catalog->models()) {
    INFO(m.key);
    CHECK(validate_catalog_model(m).ok());
  }
}

TEST_CASE("a model is found by key, alias or product name", "[mig_catalog]") {
  struct Row {
    const char* query;
    const char* key;
  };
  const Row rows[] = {
      {"H100-80GB", "H100-80GB"},
      {"NVIDIA H100 80GB HBM3", "H100-80GB"},
      {"nvidia h100-80gb-hbm3", "H100-80GB"},
      {"NVIDIA A100-SXM4-80GB", "A100-80GB"},
      {"A100-PCIE-40GB", "A100-SXM4-40GB"},
      {"NVIDIA A30", "A30-24GB"},
      {"H100 NVL", "H100-94GB"},
      {"PCI 0x233010DE", "H100-80GB"},
      {"H100-96GB", "GH200-96GB"},
      {"PPU-ZW810E", "T-Head-PPU-ZW810E-96GB"},
  };
  for (const auto& row : rows) {
    INFO(row.query);
    const auto* m = find_catalog_model(row.query);
    REQUIRE(m != nullptr);
    CHECK(m->key == row.key);
  }
  CHECK(find_catalog_model("NVIDIA GeForce RTX 4090") == nullptr);
  CHECK(find_catalog_model("") == nullptr);
}

TEST_CASE("an H100's capability lists the six plain profiles with the driver's ceilings", "[mig_catalog]") {
  const auto* m = find_catalog_model("H100-80GB");
  REQUIRE(m != nullptr);
  const auto physical = catalog_physical_sliced(*m);
  REQUIRE(physical.profiles.size() == 6);
  const std::pair<const char*, int32_t> want[] = {{"1g.10gb", 7}, {"1g.20gb", 4}, {"2g.20gb", 3},
                                                  {"3g.40gb", 2}, {"4g.40gb", 1}, {"7g.80gb", 1}};
  for (size_t i = 0; i < 6; ++i) {
    CHECK(physical.profiles[i].name == want[i].first);
    CHECK(physical.profiles[i].count == want[i].second);
  }
  CHECK(physical.count == 7);
  CHECK(physical.profiles[1].memory_slices == 2);  // 1g.20gb spans two memory slices
  CHECK(physical.profiles[5].placements == std::vector<AcceleratorPlacement>{{0, 8}});
  CHECK(catalog_accelerator_status(*m).logical_sliced.count == 0);
}

TEST_CASE("a T-Head capability keeps the vendor spelling and a Hygon one its measured MiB", "[mig_catalog]") {
  const auto* ppu = find_catalog_model("T-Head-PPU-ZW810E-96GB");
  REQUIRE(ppu != nullptr);
  const auto p = catalog_physical_sliced(*ppu);
  REQUIRE(p.profiles.size() == 2);
  CHECK(p.profiles[0].name == "4g48gb");
  CHECK(p.profiles[1].name == "8g96gb");
  CHECK(p.count == 2);
  CHECK(catalog_profile_key("thead", ppu->profiles[0]) == "alibabacloud.com/ppu.partitioned.mig-4g.48gb");

  const auto* dcu = find_catalog_model("Hygon-DCU-C3000-BW-64GB");
  REQUIRE(dcu != nullptr);
  const auto h = catalog_physical_sliced(*dcu);
  REQUIRE(h.profiles.size() == 3);
  CHECK(h.profiles[0].memory_mib == 16380);
  CHECK(h.profiles[0].compute_slices == 1);  // "2g" in the name, one slice on the card
  CHECK(catalog_profile_key("hygon", dcu->profiles[0]) == "hygon.com/dcu.partitioned.mig-2g.15gb");
}

TEST_CASE("broken catalog tables are refused with the reason", "[mig_catalog]") {
  const auto* base = find_catalog_model("H100-80GB");
  REQUIRE(base != nullptr);
  struct Row {
    const char* what;
    void (*mutate)(CatalogModel&);
    const char* reason;
  };
  const Row rows[] = {
      {"overlap", [](CatalogModel& m) { m.profiles[5].placements = {{0, 4}, {2, 4}}; }, "overlap"},
      {"off card", [](CatalogModel& m) { m.profiles[6].placements = {{1, 8}}; }, "leaves the card"},
      {"length", [](CatalogModel& m) { m.profiles[0].placements[0].length = 2; }, "is not 1 slices long"},
      {"ceiling", [](CatalogModel& m) { m.profiles[3].max_instances = 2; }, "differs from its 3"},
      {"published", [](CatalogModel& m) { m.profiles[1].gpustack_published = true; }, "gpustack_published"},
      {"duplicate", [](CatalogModel& m) { m.profiles[2].name = m.profiles[0].name; }, "listed twice"},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    CatalogModel m = *base;
    row.mutate(m);
    const auto st = validate_catalog_model(m);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().find(row.reason) != std::string::npos);
  }
}

TEST_CASE("a malformed catalog document is refused naming the place", "[mig_catalog]") {
  CHECK(MigCatalog::parse("{").error().find("not valid JSON") != std::string::npos);
  CHECK(MigCatalog::parse("[]").error().find("not an object") != std::string::npos);
  const auto missing = MigCatalog::parse(R"({"X": {"vendor": "nvidia", "compute_slices": 7, "total_memory_gb": 1, "profiles": []}})");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("model 'X': missing 'memory_slices'") != std::string::npos);
}
