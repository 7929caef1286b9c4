// The scenario loader (sim/scenario/scenario_loader.h): what a good scenario becomes, and the
// exact `file:line: field: reason` of every kind of bad input.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// Lines 1-3; bodies start on line 4.
const std::string kHead = "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\n";

sim::Scenario load_ok(const std::string& body) {
  const auto s = sim::load_scenario_text(kHead + body, "t.yaml");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

std::string load_error(const std::string& body) {
  const auto s = sim::load_scenario_text(kHead + body, "t.yaml");
  REQUIRE_FALSE(s.ok());
  return s.error();
}

const char* kH100Node = R"(cluster:
  nodes:
  - namePrefix: h100-
    count: 2
    cpu: {vendor: AMD, name: "AMD EPYC 7763 64-Core Processor", cores: 128}
    memory: 1Ti
    labels: {topology.kubernetes.io/zone: zone-a}
    accelerators:
      manufacturer: nvidia
      product: NVIDIA H100 80GB HBM3
      count: 8
      memory: 80Gi
      partitioning:
      - cards: [0, 1, 2]
        mode: mig
        instances: ["3g.40gb@0"]
)";

}  // namespace

TEST_CASE("node generators expand into Nodes and Devices with the pool tokens of their cards", "[scenario]") {
  const auto s = load_ok(kH100Node);
  REQUIRE(s.cluster.nodes.size() == 2);
  const auto& n = s.cluster.nodes.at("h100-1");
  CHECK(n.metadata.labels.at("topology.kubernetes.io/zone") == "zone-a");
  CHECK(n.metadata.labels.at("kubernetes.io/hostname") == "h100-1");
  CHECK(n.status.capacity.at("nvidia.com/gpu").to_string() == "5");
  // Three MIG cards each carrying a 3g.40gb: 1 allocated + 3 free 1g.10gb each.
  CHECK(n.status.capacity.at("nvidia.com/gpu.partitioned").to_string() == "12");
  CHECK(n.status.capacity.at("cpu").to_string() == "128");
  REQUIRE(s.cluster.devices.count("h100-0") == 1);
  CHECK(s.cluster.devices.at("h100-0").status.groups.at(0).accelerators.at(2).allocated == 800000);
  CHECK(s.cluster.namespaces.count("default") == 0);  // nothing names it
}

TEST_CASE("a full scenario loads every section into the shape the runner consumes", "[scenario]") {
  const auto s = load_ok(std::string(kH100Node) + R"(  namespaces: [team-a]
seed: 42
settings: {instance-type-aware-cpu-manufacturer: true}
kueue: {queueingStrategy: StrictFIFO, admissionCheckRetryDelay: 10s, statusLag: 2s}
operator: {podStart: 5s}
workloads:
- name: chat
  namespace: team-b
  arrival: {poisson: {rate: 12/h}}
  duration: {lognormal: {median: 40m, p95: 6h}}
  count: 500
  accelerator: nvidia-h100-80gb-hbm3
  podSets:
  - request: {sliced: {memoryPercentage: 50}, cpu: 2}
  replicas: 2
- name: carve
  arrival: {at: [0s, 10s]}
  duration: {fixed: 1h}
  instanceType: gpustack--nvidia-h100-80gb-hbm3-linux-amd64
  podSets:
  - request: {partitioned: 3g.40gb}
  podDeletionDelay: 30s
timeline:
- {at: 1h, action: cordon, node: h100-1}
- {at: 30m, action: set-partitioning, node: h100-0, cards: [3, 4], mode: mig, redetectAfter: 2m}
- at: 1h
  action: add-node
  node: {name: cpu-9, cpu: {vendor: Intel, name: Xeon, cores: 16}, memory: 64Gi}
- {at: 90m, action: remove-node, node: cpu-9}
expect:
- {at: 1h, clusterQueue: q, stopPolicy: None, nominalCredits: {nvidia: 25600000}}
- {at: end, node: h100-0, capacity: {nvidia.com/gpu: 5}, labels: {a: "1", b: null}}
- {at: end, instanceType: it, status: {accelerator: "5/5"}}
- {at: end, workloads: {name: chat, admitted: ">= 480", pending: 0}}
)");
  CHECK(s.seed == 42);
  CHECK(s.settings.instance_type_aware_cpu_manufacturer);
  CHECK(s.cluster.settings.instance_type_aware_cpu_manufacturer);
  CHECK(s.kueue.queueing_strategy == "StrictFIFO");
  CHECK(s.kueue.admission_check_retry_delay == sim::SimTime::seconds(10));
  CHECK(s.kueue.status_lag == sim::SimTime::seconds(2));
  CHECK(s.timings.pod_start == sim::SimTime::seconds(5));
  CHECK(s.timings.fit_label_coalesce == sim::SimTime::seconds(3));  // default kept
  CHECK(s.cluster.namespaces.count("team-a") == 1);
  CHECK(s.cluster.namespaces.count("team-b") == 1);  // named by a workload
  CHECK(s.cluster.namespaces.count("default") == 1);

  REQUIRE(s.workloads.size() == 2);
  const auto& chat = s.workloads[0];
  CHECK(chat.arrival.kind == sim::Arrival::Kind::kPoisson);
  CHECK(chat.arrival.rate_per_second == Approx(12.0 / 3600));
  CHECK(chat.duration.kind == sim::Duration::Kind::kLognormal);
  CHECK(chat.duration.p95 == sim::SimTime::hours(6));
  CHECK(chat.count == 500);
  CHECK(chat.replicas == 2);
  CHECK(chat.pod_sets.at(0).name == "main");
  CHECK(chat.pod_sets.at(0).request.kind == sim::RequestShape::Kind::kSliced);
  CHECK(chat.pod_sets.at(0).request.memory_percentage == 50);
  CHECK(chat.pod_sets.at(0).request.cores_percentage == 100);
  CHECK(chat.pod_sets.at(0).request.cpu.to_string() == "2");
  CHECK(chat.where.str() == "t.yaml:26");
  CHECK(s.workloads[1].arrival.at == std::vector<sim::SimTime>{sim::SimTime(), sim::SimTime::seconds(10)});
  CHECK(s.workloads[1].pod_deletion_delay == sim::SimTime::seconds(30));

  // Sorted by time, stable: 30m set-partitioning, then the two 1h actions in file order, then 90m.
  REQUIRE(s.timeline.size() == 4);
  CHECK(s.timeline[0].kind == sim::TimelineAction::Kind::kSetPartitioning);
  CHECK(s.timeline[0].cards == std::vector<int32_t>{3, 4});
  CHECK(s.timeline[0].redetect_after == sim::SimTime::minutes(2));
  CHECK(s.timeline[1].kind == sim::TimelineAction::Kind::kCordon);
  CHECK(s.timeline[2].kind == sim::TimelineAction::Kind::kAddNode);
  REQUIRE(s.timeline[2].new_node.has_value());
  CHECK(s.timeline[2].new_node->metadata.labels.at("feature.gpustack.ai/acceleratable") == "false");
  CHECK_FALSE(s.timeline[2].new_devices.has_value());
  CHECK(s.timeline[3].kind == sim::TimelineAction::Kind::kRemoveNode);

  REQUIRE(s.expectations.size() == 4);
  CHECK(s.expectations[0].nominal_credits.at("nvidia") == 25600000);
  CHECK(s.expectations[1].at == std::nullopt);
  CHECK(s.expectations[1].capacity.at("nvidia.com/gpu") == "5");
  CHECK(s.expectations[1].labels.at("b") == std::nullopt);
  CHECK(s.expectations[3].counters.at("admitted").str() == ">= 480");
  CHECK(s.expectations[3].counters.at("pending").str() == "0");
  CHECK(s.content_hash.size() == 16);
}

TEST_CASE("a scenario given as JSON loads with the same lines and meaning", "[scenario]") {
  const auto s = sim::load_scenario_text(
      "{\"apiVersion\": \"chaintwin/v1\", \"kind\": \"Scenario\",\n \"horizon\": \"1h\",\n"
      " \"cluster\": {\"nodes\": [{\"name\": \"n\", \"cpu\": {\"cores\": 4}}]}}",
      "t.json");
  REQUIRE(s.ok());
  CHECK(s->horizon == sim::SimTime::hours(1));
  CHECK(s->cluster.nodes.at("n").status.capacity.at("cpu").to_string() == "4");
  const auto bad = sim::load_scenario_text("{\"apiVersion\": \"chaintwin/v1\", \"kind\": \"Scenario\",\n \"horizn\": \"1h\"}", "t.json");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::StartsWith("t.json:2: horizn: unknown field (expected one of: apiVersion, kind,"));
}

TEST_CASE("the content hash changes with any byte of the file", "[scenario]") {
  const auto a = sim::load_scenario_text(kHead, "t.yaml");
  const auto b = sim::load_scenario_text(kHead + "# a comment\n", "t.yaml");
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->content_hash != b->content_hash);
  CHECK(a->content_hash == sim::load_scenario_text(kHead, "other.yaml")->content_hash);
}

TEST_CASE("bad scenarios are refused with the file, the line, the field and the reason", "[scenario]") {
  const std::vector<std::pair<std::string, std::string>> table{
      {"seed: -1\n", "t.yaml:4: seed: -1 is out of range (expected an integer >= 0)"},
      {"horizon2: 1h\n", "t.yaml:4: horizon2: unknown field (expected one of: apiVersion, kind, metadata, seed, "
                         "horizon, settings, kueue, operator, deviceManager, cluster, workloads, timeline, expect)"},
      {"kueue: {queueingStrategy: Fair}\n",
       "t.yaml:4: kueue.queueingStrategy: unknown value 'Fair' (expected one of: BestEffortFIFO, StrictFIFO)"},
      {"kueue: {schedulingCycleCost: 1 second}\n",
       "t.yaml:4: kueue.schedulingCycleCost: duration '1 second': unknown unit ' second' (expected us, ms, s, m, h or d)"},
      {"kueue: {schedulingCycleCost: 2m}\n",
       "t.yaml:4: kueue.schedulingCycleCost: must be at most 1m (the time one cycle takes)"},
      {"kueue: {schedulingCyclePeriod: 1s}\n",
       "t.yaml:4: kueue.schedulingCyclePeriod: no longer a setting: Kueue runs its cycles back to back and backs off (1 ms to 100 ms) only when a cycle admits nothing; set schedulingCycleCost, the time one cycle takes, instead"},
      {"settings:\n  instance-type-mixed: true\n",
       "t.yaml:5: settings.instance-type-mixed: unknown field (expected one of: "},
      {"settings:\n  workload-fit-affinity: \"yes\"\n",
       "t.yaml:5: settings.workload-fit-affinity: expected true or false, got a string"},
      {"cluster:\n  nodes:\n  - namePrefix: a-\n    count: -2\n",
       "t.yaml:7: cluster.nodes[0].count: -2 is out of range (expected an integer between 0 and 100000)"},
      {"cluster:\n  nodes:\n  - name: a\n  - name: a\n",
       "t.yaml:7: cluster.nodes[1]: node name 'a' is used twice (first at t.yaml:6)"},
      {"cluster:\n  nodes:\n  - name: a\n    accelerators: {manufacturer: nvidia, product: NVIDIA H100 80GB HBM3, "
       "count: 8,\n      partitioning: [{cards: [1], mode: mig, instances: [3g.41gb@0]}]}\n",
       "t.yaml:8: cluster.nodes[0].accelerators.partitioning: card 1: 'NVIDIA H100 80GB HBM3' offers no MIG profile "
       "'3g.41gb' (known: 1g.10gb, "},
      {"cluster:\n  nodes:\n  - name: a\n    accelerators: {manufacturer: nvidia, product: NVIDIA A10G, count: 1,\n"
       "      partitioning: [{cards: [0], mode: mig}]}\n",
       "t.yaml:8: cluster.nodes[0].accelerators.partitioning: 'NVIDIA A10G' has no MIG mode (no partition catalog "
       "entry)"},
      {"cluster:\n  nodes:\n  - name: a\n    accelerators: {manufacturer: acme, product: X, count: 1}\n",
       "t.yaml:7: cluster.nodes[0].accelerators.manufacturer: unknown manufacturer 'acme' (known: "},
      {"cluster:\n  nodes:\n  - name: a\n    gpus: 2\n",
       "t.yaml:7: cluster.nodes[0].gpus: unknown field (expected one of: name, namePrefix, count, os, arch, cpu, "
       "memory, pods, labels, annotations, unschedulable, accelerators, podsOutsideKueue)"},
      {"workloads:\n- name: w\n  arrival: {poisson: {rate: 12/hour}}\n  duration: {fixed: 1h}\n  podSets: [{request: "
       "{cpu: 1}}]\n",
       "t.yaml:6: workloads[0].arrival.poisson.rate: '12/hour': unknown rate unit 'hour' (expected s, m, h or d)"},
      {"workloads:\n- name: w\n  arrival: {every: 5m}\n  duration: {fixed: 1h}\n  instanceType: "
       "gpustack--generic-linux-amd64\n  podSets: [{request: {exclusive: 1}}]\n",
       "t.yaml:8: workloads[0].instanceType: 'gpustack--generic-linux-amd64' is a CPU InstanceType, but podSets[0] "
       "requests an accelerator"},
      {"workloads:\n- name: w\n  arrival: {every: 5m}\n  duration: {fixed: 1h}\n  podSets: [{request: {shared: 1}}]\n",
       "t.yaml:8: workloads[0].podSets[0].request: an accelerator request needs the workload's instanceType or "
       "accelerator (which InstanceType it queues on)"},
      {"workloads:\n- name: w\n  arrival: {every: 5m}\n  duration: {fixed: 1h}\n  accelerator: NVIDIA H100 80GB HBM3\n"
       "  podSets: [{request: {partitioned: 3g.20gb}}]\n",
       "t.yaml:9: workloads[0].podSets[0].request.partitioned: 'NVIDIA H100 80GB HBM3' offers no MIG profile "
       "'3g.20gb' (known: "},
      {"workloads:\n- name: w\n  arrival: {every: 5m}\n  duration: {fixed: 1h}\n  accelerator: x\n"
       "  podSets: [{request: {sliced: {memoryPercentage: 50, memoryMib: 100}}}]\n",
       "t.yaml:9: workloads[0].podSets[0].request.sliced: give exactly one of memoryPercentage and memoryMib"},
      {"workloads:\n- name: w\n  arrival: {every: 5m}\n  duration: {lognormal: {median: 1h, p95: 30m}}\n"
       "  podSets: [{request: {cpu: 1}}]\n",
       "t.yaml:7: workloads[0].duration.lognormal.p95: must be longer than the median (1h)"},
      {"timeline:\n- {at: 1h, action: reboot, node: a}\n",
       "t.yaml:5: timeline[0].action: unknown value 'reboot' (expected one of: add-node, remove-node, cordon, "
       "uncordon, set-managed, set-partitioning, set-setting, set-inactive, delete, kubelet-restart, "
       "detection-pass, topology-snapshot, topology-read-failure, finish-workload, add-namespace)"},
      {"timeline:\n- {at: 1h, action: cordon, node: ghost}\n", "t.yaml:5: timeline[0].node: no node 'ghost' exists at 1h"},
      {"timeline:\n- {at: 3h, action: set-setting, name: workload-fit-affinity, value: false}\n",
       "t.yaml:5: timeline[0].at: 3h is after the horizon (2h)"},
      {"timeline:\n- {at: 1h, action: set-setting, name: fit, value: true}\n",
       "t.yaml:5: timeline[0].name: unknown setting 'fit' (known: "},
      {"settings:\n  model-artifact-delivery-mode: Disk\n",
       "t.yaml:5: settings.model-artifact-delivery-mode: unknown value 'Disk' (expected one of: Engine, Node)"},
      {"settings:\n  GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS: maybe\n",
       "t.yaml:5: settings.GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS: "},
      {"timeline:\n- {at: 1h, action: set-setting, name: GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS, value: false}\n",
       "t.yaml:5: timeline[0].name: 'GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS' is a deploy-time environment variable, "
       "not a Setting"},
      {"workloads:\n- name: w\n  kind: CronJob\n  arrival: {every: 5m}\n  duration: {fixed: 1h}\n"
       "  podSets: [{request: {cpu: 1}}]\n",
       "t.yaml:6: workloads[0].kind: unknown value 'CronJob' (expected one of: Workload, Instance, Job, JobSet, RayJob)"},
      {"timeline:\n- {at: 1h, action: cordon, node: a, value: true}\n",
       "t.yaml:5: timeline[0].value: not a field of action cordon (expected: at, action, node)"},
      {"expect:\n- {at: 1h, node: a, clusterQueue: b, stopPolicy: None}\n",
       "t.yaml:5: expect[0].node: an expectation has exactly one subject (also given: clusterQueue)"},
      {"expect:\n- {at: 1h, node: a, stopPolicy: None}\n",
       "t.yaml:5: expect[0].stopPolicy: not a check of a node expectation (expected: capacity, allocatable, labels)"},
      {"expect:\n- {at: end, workloads: {admitted: \"about 4\"}}\n",
       "t.yaml:5: expect[0].workloads.admitted: 'about 4' is not a comparison (expected an integer or a comparison "
       "such as \">= 480\" (==, !=, >=, <=, >, <))"},
      {"expect:\n- {at: end, workloads: {name: chat, admitted: 1}}\n",
       "t.yaml:5: expect[0].workloads.name: no workload generator named 'chat'"},
      {"expect:\n- {at: end, instanceType: x, status: {accelerator: \"5 of 5\"}}\n",
       "t.yaml:5: expect[0].status.accelerator: '5 of 5' is not a status reading (expected \"onceMaxRequest/remaining\" "
       "such as \"5/5\")"},
      {"cluster:\n  include: [missing.yaml]\n",
       "t.yaml:5: cluster.include[0]: cannot read 'missing.yaml' (expected a readable file, relative to the scenario)"},
      {"workloads:\n- trace: {format: openb, nodes: a.csv, pods: b.csv}\n",
       "t.yaml:5: workloads[0].trace.nodes: cannot read 'a.csv' (expected a readable file, relative to the scenario)"},
  };
  for (const auto& [body, want] : table) {
    INFO(body);
    CHECK_THAT(load_error(body), Catch::StartsWith(want));
  }
}

TEST_CASE("settings take the operator's names and the deploy-time environment variables", "[scenario]") {
  const auto s = sim::load_scenario_text(kHead + std::string("settings:\n  model-artifact-delivery-mode: Node\n"
                                                             "  instance-general-resources-overcommit: false\n"
                                                             "  GPUSTACK_DEVICE_PLUGIN_SLICED_ALLOCATE_GATE: false\n"
                                                             "  GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS: false\n"),
                                         "t.yaml");
  REQUIRE(s.ok());
  model::Settings want;
  want.model_artifact_delivery_mode = "Node";
  want.instance_general_resources_overcommit = false;
  want.device_plugin_sliced_allocate_gate = false;
  want.ledger_release_terminated_pods = false;
  CHECK(s->settings == want);
}

TEST_CASE("the header is checked before anything else", "[scenario]") {
  CHECK(sim::load_scenario_text("apiVersion: chaintwin/v2\nkind: Scenario\n", "t.yaml").error() ==
        "t.yaml:1: apiVersion: unknown apiVersion 'chaintwin/v2' (expected chaintwin/v1)");
  CHECK(sim::load_scenario_text("apiVersion: chaintwin/v1\nkind: Node\n", "t.yaml").error() ==
        "t.yaml:2: kind: expected kind Scenario, got 'Node'");
  CHECK_THAT(sim::load_scenario_text("a: [\n", "t.yaml").error(), Catch::StartsWith("t.yaml:"));
}

TEST_CASE("included walkthrough objects and generated nodes must not name the same node", "[scenario]") {
  const std::string dir = std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/walkthroughs/";
  const auto ok = sim::load_scenario_text(kHead + "cluster:\n  include: [four-node-cluster.yaml]\n", dir + "x.yaml");
  REQUIRE(ok.ok());
  CHECK(ok->cluster.nodes.size() == 4);
  CHECK(ok->cluster.devices.size() == 3);
  const auto clash = sim::load_scenario_text(
      kHead + "cluster:\n  include: [four-node-cluster.yaml]\n  nodes: [{name: node-cpu}]\n", dir + "x.yaml");
  REQUIRE_FALSE(clash.ok());
  CHECK(clash.error() == dir + "x.yaml:6: cluster.nodes: node name 'node-cpu' is used twice (also given as a Node object)");
}

TEST_CASE("a bad field in the eleventh of a scenario's cluster objects is reported at its own line", "[scenario]") {
  // objects[1] and objects[10] share a path prefix; each object's line map holds only its own fields.
  std::string body = "cluster:\n  objects:\n";
  int line = 6, bad_line = 0;  // body line 1 is file line 4
  for (int i = 0; i < 11; ++i) {
    body += "  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: ns-" + std::to_string(i) + "\n";
    line += 4;
    if (i == 1 || i == 10) {
      body += std::string("      labels:\n        team: ") + (i == 10 ? "3" : "ok") + "\n";
      line += 2;
      if (i == 10) bad_line = line - 1;
    }
  }
  CHECK(load_error(body) == "t.yaml:" + std::to_string(bad_line) +
                                ": Namespace/ns-10: metadata.labels[\"team\"]: expected a string, got 3");
}
