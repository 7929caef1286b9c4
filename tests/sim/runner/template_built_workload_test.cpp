// A template-built Workload (kind: Job | JobSet | RayJob) is built from the job's Pod template as
// written: the operator's Pod webhook never sees it (operator-domain.md §10.14).
#include <catch2/catch.hpp>

#include "sim/runner/workload_factory.h"

namespace sim = chaintwin::sim;
namespace model = chaintwin::model;

namespace {

model::ClusterState a10g_cluster() {
  model::ClusterState cluster;
  model::InstanceType it;
  it.metadata.name = "t";
  it.spec.acceleratable = true;
  it.spec.accelerator_group = "nvidia-a10g";
  it.spec.descriptors.manufacturer = "nvidia";
  it.spec.descriptors.memory = "24Gi";
  cluster.instance_types["t"] = it;
  return cluster;
}

sim::WorkloadRequest request(sim::RequestShape shape, bool template_built) {
  sim::WorkloadRequest r;
  r.name = "w-0";
  r.namespace_ = "default";
  r.instance_type.name = "t";
  sim::PodSetSpec ps;
  ps.request = std::move(shape);
  r.pod_sets = {ps};
  r.template_built = template_built;
  return r;
}

}  // namespace

TEST_CASE("a Job-built slice keeps its template: no units, no cores default, no queue label", "[runner][template]") {
  sim::RequestShape slice;
  slice.kind = sim::RequestShape::Kind::kSliced;
  slice.memory_percentage = 60;
  struct Row { bool template_built; bool units; bool cores; bool label; };
  for (const auto& row : std::vector<Row>{{false, true, true, true}, {true, false, false, false}}) {
    INFO("template_built " << row.template_built);
    const auto built = sim::build_workload(a10g_cluster(), request(slice, row.template_built), sim::SimTime());
    REQUIRE(built.workload);
    const auto& pod = built.workload->pod_sets.at(0).template_;
    const auto& req = pod.containers.at(0).requests;
    CHECK(req.count("nvidia.com/gpu.sliced.units") == (row.units ? 1u : 0u));
    if (row.units) CHECK(req.at("nvidia.com/gpu.sliced.units") == model::Quantity::from_int(960000));
    CHECK(req.count("nvidia.com/gpu.sliced.cores-percentage") == (row.cores ? 1u : 0u));
    CHECK(req.count("nvidia.com/gpu.sliced") == 1u);
    CHECK(pod.labels.count("kueue.x-k8s.io/queue-name") == (row.label ? 1u : 0u));
  }
}

TEST_CASE("a Job-built template breaking a request rule is not refused: the Pod webhook never sees it",
          "[runner][template]") {
  sim::RequestShape raw;
  raw.kind = sim::RequestShape::Kind::kContainers;
  model::Container c;
  c.name = "main";
  c.requests["nvidia.com/gpu.sliced"] = model::Quantity::from_int(2);
  c.requests["nvidia.com/gpu.sliced.memory-percentage"] = model::Quantity::from_int(50);
  raw.containers = {c};
  CHECK_FALSE(sim::build_workload(a10g_cluster(), request(raw, false), sim::SimTime()).workload);
  CHECK(sim::build_workload(a10g_cluster(), request(raw, true), sim::SimTime()).workload);
}
