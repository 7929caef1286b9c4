// The eight-H100 MIG walkthrough (operator-domain.md §9.3), end to end: every configuration's
// objects converged with the operator's controllers, then the InstanceType row `kubectl get
// instancetypes` shows (onceMaxRequest/remaining for EX, SH, SL, PT), its slicing catalog and the
// partitioned profiles. The recorded rows were taken with older readings of two columns
// (operator-domain §12 items 1 and 2, docs/fidelity.md): the test asserts the current text, which
// the model implements, and keeps the recorded value in a comment beside it.
#include <catch2/catch.hpp>

#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace {

using namespace chaintwin;
namespace m = chaintwin::model;

const std::string kType = "gpustack--nvidia-h100-80gb-hbm3-linux-amd64";
using Profiles = std::map<std::string, int64_t>;

m::InstanceType converged_type(const std::string& config) {
  const auto objects = sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) +
                                                    "/scenarios/walkthroughs/h100-mig-config-" + config + ".yaml");
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  REQUIRE(cluster.ok());
  const auto r = m::converge(static_cast<const m::ClusterState&>(*cluster), m::operator_controllers(),
                             "2026-01-01T00:00:00Z");
  REQUIRE(r.ok());
  REQUIRE(r->converged);
  REQUIRE(r->state.instance_types.count(kType) == 1);
  const auto& it = r->state.instance_types.at(kType);
  CHECK(it.status.phase == "Active");
  CHECK(it.status.entrance == "gpustack-fnv64-e4768a65ca0ce96b");  // §9.1
  return it;
}

std::string cell(const m::InstanceTypeCapacityView& v) {
  return std::to_string(v.once_max_request) + "/" + std::to_string(v.remaining);
}

// EX SH SL PT as `kubectl get instancetypes` prints them.
std::string row(const m::InstanceTypeStatus& st) {
  return cell(st.accelerator) + " " + cell(st.accelerator_shared) + " " + cell(st.accelerator_sliced) + " " +
         cell(st.accelerator_partitioned.view);
}

// The per-profile catalog of eight MIG cards (the Devices spec's acceleratorSlicedDetail).
std::vector<m::AcceleratorSlicedPhysicalDetailProfile> all_mig_catalog() {
  return {{"1g.10gb", 56, 10240}, {"1g.20gb", 32, 20480}, {"2g.20gb", 24, 20480},
          {"3g.40gb", 16, 40960}, {"4g.40gb", 8, 40960},  {"7g.80gb", 8, 81920}};
}

}  // namespace

TEST_CASE("configuration 1, all eight H100s logical, reads 8/8 8/80 100/800 0/0 with 1024 logical slices", "[walkthrough]") {
  const auto st = converged_type("1-all-logical").status;
  // Recorded: `8/8 80/80 100/800 0/0` — SH onceMaxRequest there is the old share sum (§12.1).
  CHECK(row(st) == "8/8 8/80 100/800 0/0");
  CHECK(st.accelerator.capacity == 8);
  CHECK(st.accelerator_shared.capacity == 80);
  CHECK(st.accelerator_sliced.capacity == 800);
  CHECK(st.accelerator_partitioned == m::InstanceTypePartitionedView{});
  CHECK(st.detail.sliced_detail.logical == m::AcceleratorLogicalSliced{true, 1024});
  CHECK(st.detail.sliced_detail.physical == m::AcceleratorSlicedDetail::Physical{});  // physical {}
}

TEST_CASE("configuration 2, all eight H100s MIG, reads 0/0 0/0 0/0 1/56 with 56 physical instances", "[walkthrough]") {
  const auto st = converged_type("2-all-mig").status;
  CHECK(row(st) == "0/0 0/0 0/0 1/56");  // recorded `0/0 0/0 0/0 1/56`: both readings agree
  CHECK(st.accelerator.capacity == 0);
  CHECK(st.accelerator_shared.capacity == 0);
  CHECK(st.accelerator_sliced.capacity == 0);
  CHECK(st.accelerator_partitioned.view.capacity == 56);  // 8 cards x 7 instances
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 56}, {"1g.20gb", 32}, {"2g.20gb", 24}, {"3g.40gb", 16}, {"4g.40gb", 8}, {"7g.80gb", 8}});
  CHECK(st.accelerator_partitioned.allocated_profiles.empty());
  CHECK(st.detail.sliced_detail.logical == m::AcceleratorLogicalSliced{});
  CHECK(st.detail.sliced_detail.physical.count == 56);
  CHECK(st.detail.sliced_detail.physical.profiles == all_mig_catalog());
}

TEST_CASE("configuration 2 with one 3g.40gb carved on GPU 0 reads 0/0 0/0 0/0 1/52, its catalog unchanged", "[walkthrough]") {
  const auto st = converged_type("2-all-mig-carved").status;
  // Recorded: `0/0 0/0 0/0 7/52` — PT onceMaxRequest there is not the current 1-or-0 (§12.2).
  CHECK(row(st) == "0/0 0/0 0/0 1/52");
  CHECK(st.accelerator_partitioned.view.capacity == 56);
  // PT remaining = 3 (the carved card's largest free count, 1g.10gb at slices 4-6) + 7 x 7.
  CHECK(st.accelerator_partitioned.view.remaining == 52);
  // Carved card: 1g.10gb {4,5,6} = 3, 1g.20gb {4,6} = 2, 2g.20gb {4} = 1, 3g.40gb 1 free,
  // 4g.40gb 0, 7g.80gb 0; plus 7 untouched cards at their ceilings.
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 3 + 49}, {"1g.20gb", 2 + 28}, {"2g.20gb", 1 + 21},
                 {"3g.40gb", 1 + 14}, {"4g.40gb", 0 + 7}, {"7g.80gb", 0 + 7}});
  CHECK(st.accelerator_partitioned.allocated_profiles == Profiles{{"3g.40gb", 1}});
  // The catalog is the capability, not the availability: physical.count 56, 4g.40gb 8.
  CHECK(st.detail.sliced_detail.physical.count == 56);
  CHECK(st.detail.sliced_detail.physical.profiles == all_mig_catalog());
}

TEST_CASE("configuration 3, GPUs 0-2 MIG and 3-7 whole, reads 5/5 5/50 100/500 1/21", "[walkthrough]") {
  const auto st = converged_type("3-mixed").status;
  // Recorded: `5/5 50/50 100/500 7/21` — SH (§12.1) and PT (§12.2) onceMaxRequest in the old readings.
  CHECK(row(st) == "5/5 5/50 100/500 1/21");
  CHECK(st.accelerator.capacity == 5);
  CHECK(st.accelerator_shared.capacity == 50);
  CHECK(st.accelerator_sliced.capacity == 500);
  CHECK(st.accelerator_partitioned.view.capacity == 21);
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 21}, {"1g.20gb", 12}, {"2g.20gb", 9}, {"3g.40gb", 6}, {"4g.40gb", 3}, {"7g.80gb", 3}});
  CHECK(st.accelerator_partitioned.allocated_profiles.empty());
  CHECK(st.detail.sliced_detail.logical == m::AcceleratorLogicalSliced{true, 640});
  CHECK(st.detail.sliced_detail.physical.count == 21);
}

TEST_CASE("configuration 3 with a 3g.40gb on GPU 0 and a 50 % slice on GPU 5 reads 4/4 4/40 100/450 1/17", "[walkthrough]") {
  const auto st = converged_type("3-mixed-carved-sliced").status;
  // Recorded: `4/4 40/40 100/450 7/17` (EX 5 -> 4, SL 450 = 4 x 100 + 50, PT 17 = 2 x 7 + 3);
  // SH (§12.1) and PT (§12.2) onceMaxRequest in the current readings.
  CHECK(row(st) == "4/4 4/40 100/450 1/17");
  CHECK(st.accelerator.capacity == 5);
  CHECK(st.accelerator_shared.capacity == 50);
  CHECK(st.accelerator_sliced.capacity == 500);
  CHECK(st.accelerator_partitioned.view.capacity == 21);
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 3 + 14}, {"1g.20gb", 2 + 8}, {"2g.20gb", 1 + 6},
                 {"3g.40gb", 1 + 4}, {"4g.40gb", 0 + 2}, {"7g.80gb", 0 + 2}});
  CHECK(st.accelerator_partitioned.allocated_profiles == Profiles{{"3g.40gb", 1}});
  CHECK(st.detail.sliced_detail.physical.count == 21);  // the catalog ignores the carve
}

TEST_CASE("configuration 4, back to all logical, reads as configuration 1", "[walkthrough]") {
  const auto back = converged_type("4-back-to-logical").status;
  // Recorded: `8/8 80/80 100/800 0/0` (§12.1).
  CHECK(row(back) == "8/8 8/80 100/800 0/0");
  CHECK(back == converged_type("1-all-logical").status);
}
