// NodePods keeps, per Node, the keys of the Pods bound there and what the running ones request:
// after every bind, phase change, unbind and Node removal its totals equal the sum over the Pods.
#include <functional>
#include <map>
#include <string>

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
  std::map<std::string, model::Pod> pods;  // the live Pods, by key
  const auto key = [](const model::Pod& p) { return model::object_key(p.metadata); };
  const auto bind = [&](model::Pod p) {
    kept.bind(key(p), p);
    pods[key(p)] = std::move(p);
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
      {"p1 goes", [&] { kept.unbind("default/p1", pods.at("default/p1")); pods.erase("default/p1"); }},
      {"p2 goes", [&] { kept.unbind("default/p2", pods.at("default/p2")); pods.erase("default/p2"); }},
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
      for (const auto& [k, p] : pods)
        if (p.node_name == node) on.push_back(&p);
      CHECK(kept.requested(node) == model::node_requested(on));
      const auto keys = kept.keys().find(node);
      CHECK((keys == kept.keys().end() ? 0u : keys->second.size()) == on.size());
    }
  }
}
