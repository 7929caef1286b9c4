#include <catch2/catch.hpp>

#include "admission_builders.h"
#include "model/admission/accelerator_claim.h"
#include "model/admission/credit_transform.h"
#include "model/admission/pods_for_admission.h"

using namespace admission_test;

namespace {
ResourceList requests(std::vector<std::pair<std::string, std::string>> kv) { return container("c", std::move(kv)).requests; }
std::string credits_of(const ResourceList& r, const std::string& name = "credits.gpustack.ai/nvidia") {
  const auto it = r.find(name);
  return it == r.end() ? "absent" : it->second.to_string();
}
}  // namespace

TEST_CASE("the credit transform turns each accelerator family into credits", "[admission][credits]") {
  struct Row { const char* what; ResourceList in; std::string credits; };
  const std::vector<Row> rows = {
      {"exclusive 2 cards", requests({{"nvidia.com/gpu", "2"}}), "3200k"},
      {"shared on 3 cards", requests({{"nvidia.com/gpu.shared", "3"}}), "480k"},
      {"a 50 % slice", requests({{"nvidia.com/gpu.sliced", "1"}, {"nvidia.com/gpu.sliced.memory-percentage", "50"},
                                 {"nvidia.com/gpu.sliced.cores-percentage", "100"},
                                 {"nvidia.com/gpu.sliced.units", "800000"}}), "800k"},
      {"a partition", requests({{"nvidia.com/gpu.partitioned", "1"}, {"nvidia.com/gpu.partitioned.mig-3g.40gb", "1"},
                                {"nvidia.com/gpu.partitioned.units", "800000"}}), "800k"},
      {"an unfolded slice costs nothing", requests({{"nvidia.com/gpu.sliced", "1"}}), "absent"},
      {"no accelerator", requests({{"cpu", "2"}}), "absent"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(credits_of(kueue_effective_requests(r.in)) == r.credits);
  }
}

TEST_CASE("the credit transform replaces accelerator keys and retains the rest", "[admission][credits]") {
  const auto out = kueue_effective_requests(requests({{"cpu", "4"}, {"memory", "8Gi"},
                                                      {"hygon.com/dcu", "1"},
                                                      {"device.gpustack.ai/nvidia.visibility", "1"},
                                                      {"hygon.com/dcu.sliced.units", "16000"}}));
  CHECK(out.count("hygon.com/dcu") == 0);
  CHECK(out.count("hygon.com/dcu.sliced.units") == 0);
  CHECK(credits_of(out, "credits.gpustack.ai/hygon") == "1616k");
  CHECK(out.at("cpu").to_string() == "4");
  CHECK(out.at("memory").to_string() == "8Gi");
  CHECK(out.count("device.gpustack.ai/nvidia.visibility") == 1);
  CHECK(credit_transform_replaces("nvidia.com/gpu.partitioned.mig-1g.10gb"));
  CHECK_FALSE(credit_transform_replaces("device.gpustack.ai/nvidia.visibility"));
}

TEST_CASE("an admitted Workload creates its Pods bound along the topology assignment", "[admission][pods]") {
  Workload wl;
  wl.metadata.name = "wl";
  wl.metadata.namespace_ = "team";
  wl.queue_name = "gpustack-fnv64-0123456789abcdef";
  PodSet ps;
  ps.name = "main";
  ps.count = 3;
  ps.template_.containers = {slice(50)};
  wl.pod_sets = {ps};
  PodSetAssignment a;
  a.name = "main";
  a.count = 3;
  a.topology_assignment = TopologyAssignment{{"kubernetes.io/hostname"}, {{{"node-a"}, 2}, {{"node-b"}, 1}}};
  wl.status.admission = Admission{"cq", {a}};

  const auto pods = pods_for_admission(wl);
  REQUIRE(pods.size() == 3);
  CHECK(pods[0].metadata.name == "wl-main-0");
  CHECK(pods[2].metadata.name == "wl-main-2");
  CHECK(pods[0].metadata.namespace_ == "team");
  CHECK(pods[0].node_name == "node-a");
  CHECK(pods[1].node_name == "node-a");
  CHECK(pods[2].node_name == "node-b");
  CHECK(pods[1].metadata.labels.at(std::string(kQueueNameLabel)) == wl.queue_name);
  CHECK(pods[1].metadata.labels.at(std::string(kPodSetLabel)) == "main");
  CHECK(pods[1].metadata.annotations.at(std::string(kWorkloadAnnotation)) == "wl");
  CHECK(pods[1].spec.containers == ps.template_.containers);
  CHECK(pods[1].phase == PodPhase::kPending);

  wl.status.admission->pod_set_assignments[0].topology_assignment.reset();
  CHECK(pods_for_admission(wl)[0].node_name.empty());
}

TEST_CASE("a container claims an accelerator exactly when its claim can be read off its requests", "[admission][claims]") {
  // claims_accelerator is container_claim(...).has_value() without building the claim (Gate 3
  // asks it of every Pod on a checked Node).
  struct Row { const char* what; std::vector<std::pair<std::string, std::string>> requests; bool claims; };
  const std::vector<Row> rows = {
      {"cpu and memory only", {{"cpu", "2"}, {"memory", "4Gi"}}, false},
      {"no requests", {}, false},
      {"whole cards", {{"nvidia.com/gpu", "2"}}, true},
      {"a share", {{"nvidia.com/gpu.shared", "1"}}, true},
      {"a slice by units", {{"nvidia.com/gpu.sliced", "1"}, {"nvidia.com/gpu.sliced.units", "400000"}}, true},
      {"units alone", {{"nvidia.com/gpu.sliced.units", "400000"}}, true},
      {"a partition profile", {{"nvidia.com/gpu.partitioned.mig-3g.40gb", "1"}}, true},
      {"visibility only", {{"device.gpustack.ai/nvidia.visibility", "1"}}, false},
      {"credits only", {{"credits.gpustack.ai/nvidia", "1600000"}}, false},
      {"an unknown vendor", {{"example.com/gpu", "1"}}, false},
      {"cpu beside a card", {{"cpu", "1"}, {"amd.com/gpu", "1"}}, true},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const Container c = container("c", row.requests);
    CHECK(container_claim(c).has_value() == row.claims);
    CHECK(claims_accelerator(c) == row.claims);
  }
}
