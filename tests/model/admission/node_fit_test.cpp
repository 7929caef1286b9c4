#include <functional>

#include <catch2/catch.hpp>

#include "admission_builders.h"
#include "model/admission/node_fit.h"

using namespace admission_test;

namespace {
Node node(std::vector<std::pair<std::string, std::string>> allocatable, bool cordoned = false) {
  Node n;
  n.metadata.name = "node-a";
  n.unschedulable = cordoned;
  for (auto& [k, v] : allocatable) n.status.allocatable[k] = Quantity::parse(v).value();
  return n;
}
}  // namespace

TEST_CASE("node fit counts every requested key against allocatable minus bound Pods", "[admission][nodefit]") {
  const Node n = node({{"nvidia.com/gpu.sliced", "128"}, {"nvidia.com/gpu.sliced.units", "1600000"},
                       {"nvidia.com/gpu.sliced.memory-percentage", "100"}, {"cpu", "8"}});
  const Pod running = pod("r", {slice(60)});
  Pod finished = pod("f", {slice(60)});
  finished.phase = PodPhase::kSucceeded;

  struct Row { const char* what; int32_t percent; std::vector<const Pod*> others; std::string error; };
  const std::vector<Row> rows = {
      {"an empty node fits a 60 % slice", 60, {}, ""},
      {"a 40 % slice fits beside a running 60 %", 40, {&running}, ""},
      {"a second 60 % does not", 60, {&running},
       "Insufficient nvidia.com/gpu.sliced.memory-percentage, Insufficient nvidia.com/gpu.sliced.units"},
      {"a finished Pod adds nothing to a running one", 60, {&running, &finished}, "Insufficient nvidia.com/gpu.sliced.memory-percentage, Insufficient nvidia.com/gpu.sliced.units"},
      {"a finished Pod alone leaves room", 60, {&finished}, ""},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    auto p = pod("p", {slice(r.percent)});
    const auto got = node_fits(n, r.others, p);
    if (r.error.empty()) {
      CHECK(got.ok());
    } else {
      REQUIRE_FALSE(got.ok());
      CHECK(got.error() == r.error);
    }
  }
}

TEST_CASE("node fit refuses a key the node does not advertise and ignores the Pod itself", "[admission][nodefit]") {
  const Node n = node({{"nvidia.com/gpu", "1"}}, true);
  const auto p = pod("x", {exclusive(1)});
  CHECK(node_fits(n, {&p}, p).ok());  // cordoned, but already bound; itself not double counted
  const auto q = pod("y", {container("main", {{"nvidia.com/gpu.partitioned", "1"}})});
  const auto got = node_fits(n, std::vector<const Pod*>{}, q);
  REQUIRE_FALSE(got.ok());
  CHECK(got.error() == "Insufficient nvidia.com/gpu.partitioned");
  const auto second = pod("z", {exclusive(1)});
  CHECK(node_fits(n, {&p}, second).error() == "Insufficient nvidia.com/gpu");
}

TEST_CASE("kept requests follow Pods coming, terminating and going, and decide as the Pods themselves do",
          "[admission][nodefit]") {
  const Node n = node({{"nvidia.com/gpu.sliced", "128"}, {"nvidia.com/gpu.sliced.units", "1600000"},
                       {"nvidia.com/gpu.sliced.memory-percentage", "100"}, {"pods", "2"}});
  Pod a = pod("a", {slice(40)});
  Pod b = pod("b", {slice(30)});
  NodeRequested kept;
  std::vector<const Pod*> bound;
  struct Step {
    const char* what;
    std::function<void()> apply;
  };
  const std::vector<Step> steps = {
      {"a is bound", [&] { kept.add(a, +1); bound.push_back(&a); }},
      {"b is bound", [&] { kept.add(b, +1); bound.push_back(&b); }},
      {"a succeeds and stops counting", [&] { kept.add(a, -1); a.phase = PodPhase::kSucceeded; }},
      {"b goes", [&] { kept.add(b, -1); bound.pop_back(); }},
      {"a goes too", [&] { bound.clear(); }},
  };
  for (const auto& step : steps) {
    INFO(step.what);
    step.apply();
    CHECK(kept == node_requested(bound));
    for (const int32_t percent : {20, 30, 60, 70}) {
      INFO(percent << " %");
      const auto p = pod("p", {slice(percent)});
      const auto from_kept = node_fits(n, kept, p);
      const auto from_pods = node_fits(n, bound, p);
      CHECK(from_kept.ok() == from_pods.ok());
      if (!from_kept.ok() && !from_pods.ok()) CHECK(from_kept.error() == from_pods.error());
    }
  }
  CHECK(kept.milli.empty());  // every total back at 0 leaves no entry
  CHECK(kept.pods == 0);
}
