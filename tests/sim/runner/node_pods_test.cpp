// NodePods keeps, per Node, the keys of the Pods bound there and what the running ones request:
// after every bind, phase change, unbind and Node removal its totals equal the sum over the Pods.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/runner/node_pods.h"

namespace model = chaintwin::model;
namespace sim = chaintwin::sim;

namespace {

model::Pod pod_on(const std::string& name, const std::string& node, const char* gpus) {
  model::Pod p;
  p.metadata.name = name;
  p.metadata.namespace_ = "default";
  p.node_name = node;
  p.phase = model::PodPhase::kRunning;
  p.spec.containers.push_back(model::Container{"c", {{"nvidia.com/gpu", *model::Quantity::parse(gpus)}}, false});
  return p;
}

}  // namespace

TEST_CASE("kept Node requests equal the sum over the Pods after every bind, phase change and removal",
          "[runner][node_pods]") {
  sim::NodePods kept;
  model::SlotTable<model::Pod> pods;  // the live Pods, by key
  const auto bind = [&](model::Pod p) {
    const auto placed = pods.insert_or_assign(model::object_key(p.metadata), std::move(p)).first;
    kept.bind(placed.slot(), placed->second);
  };
  const auto unbind = [&](const std::string& key) {
    const auto p = pods.find(key);
    kept.unbind(p.slot(), p->second);
    pods.erase(p);
  };
  struct Step {
    const char* what;
    std::function<void()> apply;
  };
  const std::vector<Step> steps = {
      {"two Pods bound to a", [&] { bind(pod_on("p1", "a", "1")); bind(pod_on("p2", "a", "2")); }},
      {"one bound to b", [&] { bind(pod_on("p3", "b", "1")); }},
      {"p1 succeeds", [&] { kept.set_phase(pods.at("default/p1"), model::PodPhase::kSucceeded); }},
      {"p1 set to Succeeded again", [&] { kept.set_phase(pods.at("default/p1"), model::PodPhase::kSucceeded); }},
      {"p1 goes", [&] { unbind("default/p1"); }},
      {"p2 goes", [&] { unbind("default/p2"); }},
      {"p5 takes the slot p2 left", [&] { bind(pod_on("p5", "a", "3")); }},
      {"a terminated Pod is bound", [&] {
         auto p = pod_on("p4", "a", "4");
         p.phase = model::PodPhase::kFailed;
         bind(std::move(p));
       }},
      {"Node b leaves with its Pod", [&] { kept.drop_node("b"); pods.erase("default/p3"); }},
  };
  for (const auto& step : steps) {
    INFO(step.what);
    step.apply();
    for (const std::string node : {"a", "b"}) {
      INFO("Node " << node);
      std::vector<const model::Pod*> on;
      std::vector<sim::NodePods::Slot> slots_on;
      for (auto p = pods.begin(); p != pods.end(); ++p)
        if (p->second.node_name == node) {
          on.push_back(&p->second);
          slots_on.push_back(p.slot());
        }
      CHECK(kept.requested(node) == model::node_requested(on));
      const auto* slots = kept.slots().find(node);
      std::vector<sim::NodePods::Slot> kept_slots = slots == nullptr ? std::vector<sim::NodePods::Slot>{} : *slots;
      std::sort(kept_slots.begin(), kept_slots.end());
      CHECK(kept_slots == slots_on);
      CHECK((slots == nullptr) == on.empty());  // a Node with none has no entry
    }
  }
}
