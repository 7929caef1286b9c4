// Issue 17, MIG catalogs: a card's physical-slice capability as the operator's capacity and
// instance-type tests build it — static per-profile ceilings (the driver's InstanceCount) in the
// order the detector reports them. NVIDIA's order is NVML's profile index order (1, 2, 3, 4, 7
// compute slices, then the one-slice REV2 profile), media variants dropped: operator-code-rules.md
// §3e ("Static ceiling per profile", "Detectors drop +… variants", the H100 80GB example catalog,
// which is the operator test's h100Catalog) and mig-geometry.md's per-model tables (A100 40 GB:
// 1g.5gb 7, 1g.10gb 4, 2g.10gb 3, 3g.20gb 2, 4g.20gb 1, 7g.40gb 1).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "model/catalog/mig_catalog.h"

namespace m = chaintwin::model;

namespace {
using Ceilings = std::vector<std::pair<std::string, int32_t>>;

Ceilings ceilings_of(const m::AcceleratorPhysicalSliced& sliced) {
  Ceilings out;
  for (const auto& p : sliced.profiles) out.emplace_back(p.name, p.count);
  return out;
}
}  // namespace

TEST_CASE("a MIG card's catalog lists static ceilings in the detector's order", "[mig_catalog][issue17]") {
  struct Row {
    std::string model;
    Ceilings want;
  };
  const std::vector<Row> rows{
      {"H100-80GB",
       {{"1g.10gb", 7}, {"2g.20gb", 3}, {"3g.40gb", 2}, {"4g.40gb", 1}, {"7g.80gb", 1}, {"1g.20gb", 4}}},
      {"A100-80GB",
       {{"1g.10gb", 7}, {"2g.20gb", 3}, {"3g.40gb", 2}, {"4g.40gb", 1}, {"7g.80gb", 1}, {"1g.20gb", 4}}},
      {"A100-SXM4-40GB",
       {{"1g.5gb", 7}, {"2g.10gb", 3}, {"3g.20gb", 2}, {"4g.20gb", 1}, {"7g.40gb", 1}, {"1g.10gb", 4}}},
      // A30 has no 3- or 7-slice profile: 1g.6gb (index 0), 2g.12gb (1), 4g.24gb (3).
      {"A30-24GB", {{"1g.6gb", 4}, {"2g.12gb", 2}, {"4g.24gb", 1}}},
  };
  for (const auto& row : rows) {
    SECTION(row.model) {
      const m::CatalogModel* model = m::find_catalog_model(row.model);
      REQUIRE(model != nullptr);
      const auto sliced = m::detector_physical_sliced(*model);
      CHECK(ceilings_of(sliced) == row.want);
      int32_t largest = 0;
      for (const auto& [name, count] : row.want) largest = std::max(largest, count);
      CHECK(sliced.count == largest);
      // Same profiles, same records, as the catalog-order capability: only the order differs.
      auto by_catalog = m::catalog_physical_sliced(*model).profiles;
      auto by_detector = sliced.profiles;
      const auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
      std::sort(by_catalog.begin(), by_catalog.end(), by_name);
      std::sort(by_detector.begin(), by_detector.end(), by_name);
      CHECK(by_catalog == by_detector);
    }
  }
}

TEST_CASE("a catalog of another vendor keeps the driver's order", "[mig_catalog][issue17]") {
  for (const std::string key : {"T-Head-PPU-ZW810E-96GB", "Hygon-DCU-C3000-BW-64GB"}) {
    SECTION(key) {
      const m::CatalogModel* model = m::find_catalog_model(key);
      REQUIRE(model != nullptr);
      CHECK(m::detector_physical_sliced(*model) == m::catalog_physical_sliced(*model));
    }
  }
}
