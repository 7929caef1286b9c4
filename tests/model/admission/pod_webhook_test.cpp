#include <catch2/catch.hpp>

#include "admission_builders.h"
#include "model/admission/pod_request_rules.h"
#include "model/admission/pod_webhook.h"

using namespace admission_test;

namespace {

const std::string kQueue = "gpustack-fnv64-0123456789abcdef";

InstanceType h100_type() {
  InstanceType it;
  it.metadata.name = "gpustack--nvidia-h100-linux-amd64";
  it.spec.acceleratable = true;
  it.spec.accelerator_group = "nvidia-h100";
  it.status.detail.memory = "80Gi";
  it.status.detail.sliced_detail.physical.profiles = {{"1g.10gb", 7, 10240}, {"3g.40gb", 2, 40960}};
  return it;
}

PodTemplate queued(std::vector<Container> containers, std::vector<Container> init = {}) {
  PodTemplate p;
  p.labels[std::string(kQueueNameLabel)] = kQueue;
  p.containers = std::move(containers);
  p.init_containers = std::move(init);
  return p;
}

Container raw_slice(std::vector<std::pair<std::string, std::string>> extra, std::string name = "main") {
  std::vector<std::pair<std::string, std::string>> kv = {{"nvidia.com/gpu.sliced", "1"}};
  kv.insert(kv.end(), extra.begin(), extra.end());
  return container(std::move(name), kv);
}

std::string units_of(const PodAdmission& a, const std::string& key, size_t c = 0) {
  const auto& r = a.pod.containers.at(c).requests;
  const auto it = r.find(key);
  return it == r.end() ? "absent" : std::to_string(it->second.value_ceil());
}

}  // namespace

TEST_CASE("the seven request rules accept and reject with the operator's messages", "[admission][webhook]") {
  const InstanceType it = h100_type();
  Container sidecar = exclusive(1, "log-shipper");
  sidecar.restartable = true;
  struct Row { const char* what; PodTemplate pod; std::string message; };
  const std::vector<Row> rows = {
      {"rule 1 accepts one family on two app containers", queued({exclusive(1, "a"), exclusive(1, "b")}), ""},
      {"rule 1 rejects two families", queued({exclusive(1, "a"), raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}}, "b")}),
       "spec: Forbidden: a Pod may request only one accelerator family, found [exclusive sliced]"},
      {"rule 1 rejects claims in both container groups", queued({exclusive(1)}, {exclusive(1, "warmup")}),
       "spec.initContainers: Forbidden: a Pod's accelerator requests must all sit in one container group; "
       "spec.initContainers must give up its request, because its devices are held for the Pod's whole life while "
       "the scheduler charges the Pod only once"},
      {"rule 2 accepts a single slice", queued({raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}})}), ""},
      {"rule 2 rejects two slices in one request",
       queued({container("main", {{"nvidia.com/gpu.sliced", "2"}, {"nvidia.com/gpu.sliced.memory-percentage", "50"}})}),
       "spec.containers[0].resources.limits[nvidia.com/gpu.sliced]: Invalid value: \"2\": a logical slice request is "
       "always a single accelerator; multi-accelerator logical slicing is not supported yet"},
      {"rule 2 requires a memory budget", queued({raw_slice({})}),
       "spec.containers[0].resources.limits[nvidia.com/gpu.sliced.memory-percentage]: Required value: a "
       "nvidia.com/gpu.sliced request must set nvidia.com/gpu.sliced.memory-percentage or nvidia.com/gpu.sliced.memory-mib"},
      {"rule 2 forbids both memory budgets",
       queued({raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}, {"nvidia.com/gpu.sliced.memory-mib", "1024"}})}),
       "spec.containers[0].resources.limits[nvidia.com/gpu.sliced.memory-mib]: Forbidden: cannot set both "
       "nvidia.com/gpu.sliced.memory-percentage and nvidia.com/gpu.sliced.memory-mib"},
      {"rule 3 accepts one partition", queued({partition("3g.40gb")}), ""},
      {"rule 3 rejects two partitions in one request",
       queued({container("main", {{"nvidia.com/gpu.partitioned", "2"}, {"nvidia.com/gpu.partitioned.mig-1g.10gb", "1"}})}),
       "spec.containers[0].resources.limits[nvidia.com/gpu.partitioned]: Invalid value: \"2\": a partition request is "
       "always a single accelerator; request one Pod per instance"},
      {"rule 3 requires a profile", queued({container("main", {{"nvidia.com/gpu.partitioned", "1"}})}),
       "spec.containers[0].resources.limits[nvidia.com/gpu.partitioned]: Required value: a nvidia.com/gpu.partitioned "
       "request must name a profile, e.g. nvidia.com/gpu.partitioned.<kind>-<profile>"},
      {"rule 4 rejects two profiles on two containers",
       queued({partition("1g.10gb", "a"), partition("3g.40gb", "b")}),
       "spec: Forbidden: a Pod may request only one partition profile, found [1g.10gb 3g.40gb]"},
      {"rule 5 rejects two instances of a profile",
       queued({container("main", {{"nvidia.com/gpu.partitioned", "1"}, {"nvidia.com/gpu.partitioned.mig-3g.40gb", "2"}})}),
       "spec.containers[0].resources.limits[nvidia.com/gpu.partitioned.mig-3g.40gb]: Invalid value: \"2\": a partition "
       "profile request must be exactly 1 instance"},
      {"rule 6 accepts a slice beside a visibility sidecar",
       queued({raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}}),
               container("sshd", {{"device.gpustack.ai/nvidia.visibility", "1"}})}), ""},
      {"rule 6 rejects two slicing containers",
       queued({raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}}, "a"),
               raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}}, "b")}),
       "spec: Forbidden: at most one container may request a slicing family, found 2"},
      {"rule 7 accepts a sidecar without an accelerator",
       queued({exclusive(1)}, {container("log-shipper", {{"cpu", "100m"}})}), ""},
      {"rule 7 rejects a sidecar with one", queued({}, {sidecar}),
       "spec.initContainers[0].resources.limits: Forbidden: a restartable init container (a native sidecar) may not "
       "request an accelerator; move the request to an app container"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const auto got = admit_pod(r.pod, &it, "p");
    if (r.message.empty()) {
      CHECK(got.allowed);
      CHECK(got.message.empty());
    } else {
      CHECK_FALSE(got.allowed);
      CHECK(got.message.find(r.message) != std::string::npos);
      CHECK(got.message.rfind("Pod \"p\" is invalid: ", 0) == 0);
      CHECK(got.pod == r.pod);
    }
  }
}

TEST_CASE("rule 4 names both profiles a single container asks for", "[admission][webhook]") {
  const InstanceType it = h100_type();
  const auto got = admit_pod(queued({container("main", {{"nvidia.com/gpu.partitioned", "1"},
                                                         {"nvidia.com/gpu.partitioned.mig-1g.10gb", "1"},
                                                         {"nvidia.com/gpu.partitioned.mig-3g.40gb", "1"}})}),
                             &it);
  CHECK_FALSE(got.allowed);
  CHECK(got.message.find("spec: Forbidden: a Pod may request only one partition profile, found [1g.10gb 3g.40gb]") !=
        std::string::npos);
}

TEST_CASE("the fold turns memory into units, recomputing client values", "[admission][webhook]") {
  const InstanceType it = h100_type();  // 80Gi = 81920 MiB per card
  struct Row { const char* what; Container c; std::string units; };
  const std::vector<Row> rows = {
      {"50 % folds to 800,000", raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}}), "800000"},
      {"1 % folds to 16,000", raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "1"}}), "16000"},
      {"a client value is overwritten",
       raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "25"}, {"nvidia.com/gpu.sliced.units", "1"}}), "400000"},
      {"40960 MiB of 81920 folds to 800,000", raw_slice({{"nvidia.com/gpu.sliced.memory-mib", "40960"}}), "800000"},
      {"1000 MiB floors: 1000 × 1,600,000 / 81920 = 19531.25", raw_slice({{"nvidia.com/gpu.sliced.memory-mib", "1000"}}), "19531"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const auto got = admit_pod(queued({r.c}), &it);
    REQUIRE(got.allowed);
    CHECK(units_of(got, "nvidia.com/gpu.sliced.units") == r.units);
    CHECK(units_of(got, "nvidia.com/gpu.sliced.cores-percentage") == "100");
  }
}

TEST_CASE("a partition folds the profile's VRAM share of the card", "[admission][webhook]") {
  const InstanceType it = h100_type();
  const auto got = admit_pod(queued({container("main", {{"nvidia.com/gpu.partitioned", "1"},
                                                        {"nvidia.com/gpu.partitioned.mig-3g.40gb", "1"},
                                                        {"nvidia.com/gpu.partitioned.units", "5"}})}),
                             &it);
  REQUIRE(got.allowed);
  CHECK(units_of(got, "nvidia.com/gpu.partitioned.units") == "800000");  // 40960 / 81920 × M
  const auto unoffered = admit_pod(queued({partition("7g.80gb")}), &it);
  CHECK_FALSE(unoffered.allowed);
  CHECK(unoffered.message == "container \"main\": partition profile \"7g.80gb\" is not offered by the target pool "
                             "(instance type gpustack--nvidia-h100-linux-amd64)");
}

TEST_CASE("a fold that needs the InstanceType is refused without one", "[admission][webhook]") {
  const auto mib = admit_pod(queued({raw_slice({{"nvidia.com/gpu.sliced.memory-mib", "1024"}})}), nullptr);
  CHECK_FALSE(mib.allowed);
  CHECK(mib.message == "no instance type fronts local queue " + kQueue);
  CHECK(admit_pod(queued({raw_slice({{"nvidia.com/gpu.sliced.memory-percentage", "50"}})}), nullptr).allowed);
  const InstanceType it = h100_type();
  const auto too_big = admit_pod(queued({raw_slice({{"nvidia.com/gpu.sliced.memory-mib", "90000"}})}), &it);
  CHECK(too_big.message == "container \"main\": nvidia.com/gpu.sliced.memory-mib must not exceed the per-card VRAM (81920 MiB)");
}

TEST_CASE("a shared request of two or more cards gets the card-count pin", "[admission][webhook]") {
  const InstanceType it = h100_type();
  PodTemplate p = queued({shared(3)});
  p.required_node_affinity = {NodeSelectorTerm{{{"zone", "In", {"a"}}}, {}}, NodeSelectorTerm{{{"zone", "In", {"b"}}}, {}}};
  const auto got = admit_pod(p, &it);
  REQUIRE(got.allowed);
  REQUIRE(got.pod.required_node_affinity.size() == 2);
  for (const auto& term : got.pod.required_node_affinity) {
    const NodeSelectorRequirement want{"acceleratable.feature.gpustack.ai/nvidia-h100.count", "Gt", {"2"}};
    CHECK(std::find(term.match_expressions.begin(), term.match_expressions.end(), want) != term.match_expressions.end());
  }
  CHECK(admit_pod(queued({shared(1)}), &it).pod.required_node_affinity.empty());
  const auto none = admit_pod(queued({shared(2)}), nullptr);
  CHECK_FALSE(none.allowed);
  CHECK(none.message == "no instance type fronts local queue " + kQueue);
}

TEST_CASE("a Pod without the queue-name label passes untouched", "[admission][webhook]") {
  PodTemplate p;
  p.containers = {container("main", {{"nvidia.com/gpu.sliced", "3"}})};
  const auto got = admit_pod(p, nullptr);
  CHECK(got.allowed);
  CHECK(got.pod == p);
}

TEST_CASE("a logical slice's shape checks name each key that fails, in the rules' order", "[admission][webhook]") {
  const std::string at = "spec.containers[0].resources.limits";
  struct Row {
    const char* what;
    std::vector<std::pair<std::string, std::string>> requests;
    std::vector<std::string> errors;
  };
  const std::vector<Row> rows = {
      {"a well-formed slice", {{"nvidia.com/gpu.sliced", "1"}, {"nvidia.com/gpu.sliced.memory-percentage", "50"}}, {}},
      {"no card key",
       {{"nvidia.com/gpu.sliced.memory-percentage", "50"}},
       {at + "[nvidia.com/gpu.sliced]: Required value: a sliced request must set nvidia.com/gpu.sliced"}},
      {"a memory share over 100 %",
       {{"nvidia.com/gpu.sliced", "1"}, {"nvidia.com/gpu.sliced.memory-percentage", "150"}},
       {at + "[nvidia.com/gpu.sliced.memory-percentage]: Invalid value: \"150\": must be within (0, 100]"}},
      {"no memory in MiB",
       {{"nvidia.com/gpu.sliced", "1"}, {"nvidia.com/gpu.sliced.memory-mib", "0"}},
       {at + "[nvidia.com/gpu.sliced.memory-mib]: Invalid value: \"0\": must be greater than zero"}},
      {"a cores share of 0",
       {{"nvidia.com/gpu.sliced", "1"},
        {"nvidia.com/gpu.sliced.memory-percentage", "50"},
        {"nvidia.com/gpu.sliced.cores-percentage", "0"}},
       {at + "[nvidia.com/gpu.sliced.cores-percentage]: Invalid value: \"0\": must be within (0, 100]"}},
      {"two cards, both memory budgets, cores over 100 %",
       {{"nvidia.com/gpu.sliced", "2"},
        {"nvidia.com/gpu.sliced.memory-percentage", "50"},
        {"nvidia.com/gpu.sliced.memory-mib", "1024"},
        {"nvidia.com/gpu.sliced.cores-percentage", "101"}},
       {at + "[nvidia.com/gpu.sliced]: Invalid value: \"2\": a logical slice request is always a single accelerator; "
             "multi-accelerator logical slicing is not supported yet",
        at + "[nvidia.com/gpu.sliced.memory-mib]: Forbidden: cannot set both nvidia.com/gpu.sliced.memory-percentage "
             "and nvidia.com/gpu.sliced.memory-mib",
        at + "[nvidia.com/gpu.sliced.cores-percentage]: Invalid value: \"101\": must be within (0, 100]"}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    PodTemplate pod = queued({container("main", row.requests)});
    CHECK(validate_pod_accelerator_request(pod) == row.errors);
  }
  // The path names the container's place in its list.
  PodTemplate two = queued({container("a", {{"cpu", "1"}}), container("b", {{"nvidia.com/gpu.sliced", "1"}})});
  CHECK(validate_pod_accelerator_request(two) ==
        std::vector<std::string>{"spec.containers[1].resources.limits[nvidia.com/gpu.sliced.memory-percentage]: Required "
                                 "value: a nvidia.com/gpu.sliced request must set "
                                 "nvidia.com/gpu.sliced.memory-percentage or nvidia.com/gpu.sliced.memory-mib"});
}
