#include <catch2/catch.hpp>

#include "model/stage4/reconcile_loop.h"

using namespace chaintwin::model;

namespace {

// A toy pair of controllers: one creates a Namespace per Node, the other labels each Namespace
// with the count of Namespaces — the second depends on the first's writes.
Controller namespace_per_node() {
  return {"NamespacePerNode",
          [](const ClusterState& s) {
            Plan p;
            for (const auto& [name, node] : s.nodes) {
              if (s.namespaces.count("ns-" + name)) continue;
              Namespace ns;
              ns.metadata.name = "ns-" + name;
              p.writes.push_back({WriteVerb::kCreate, ns, "NamespacePerNode", "node " + name});
            }
            return p;
          },
          {}};
}

Controller count_labeller() {
  return {"CountLabeller",
          [](const ClusterState& s) {
            Plan p;
            const std::string count = std::to_string(s.namespaces.size());
            for (const auto& [name, ns] : s.namespaces) {
              if (ns.metadata.labels.count("count") && ns.metadata.labels.at("count") == count) continue;
              Namespace labelled = ns;
              labelled.metadata.labels["count"] = count;
              p.writes.push_back({WriteVerb::kUpdate, labelled, "CountLabeller", "count is " + count});
            }
            return p;
          },
          {"NamespacePerNode"}};
}

ClusterState two_nodes() {
  ClusterState s;
  for (const char* n : {"a", "b"}) {
    Node node;
    node.metadata.name = n;
    s.nodes[n] = node;
  }
  return s;
}

}  // namespace

TEST_CASE("converge runs passes until nothing is written and the order of controllers does not change the fixpoint", "[loop]") {
  const auto forward = converge(two_nodes(), {namespace_per_node(), count_labeller()}, "t");
  const auto backward = converge(two_nodes(), {count_labeller(), namespace_per_node()}, "t");
  REQUIRE(forward.ok());
  REQUIRE(backward.ok());
  CHECK(forward->converged);
  CHECK(backward->converged);
  CHECK(forward->state.namespaces.at("ns-a").metadata.labels.at("count") == "2");
  CHECK(backward->state.namespaces.at("ns-b").metadata.labels.at("count") == "2");
  CHECK(forward->state.namespaces.size() == backward->state.namespaces.size());
  CHECK(forward->passes == 1);
  CHECK(backward->passes == 2);
  // A converged state writes nothing.
  const auto again = converge(forward->state, {namespace_per_node(), count_labeller()}, "t");
  REQUIRE(again.ok());
  CHECK(again->passes == 0);
  CHECK(again->writes.empty());
}

TEST_CASE("a loop that never settles is reported as not converged", "[loop]") {
  const Controller flapper{"Flapper",
                           [](const ClusterState& s) {
                             Plan p;
                             Node n = s.nodes.at("a");
                             n.metadata.labels["flip"] = n.metadata.labels["flip"] == "x" ? "y" : "x";
                             p.writes.push_back({WriteVerb::kUpdate, n, "Flapper", "flip"});
                             return p;
                           },
                           {}};
  const auto r = converge(two_nodes(), {flapper}, "t", 5);
  REQUIRE(r.ok());
  CHECK_FALSE(r->converged);
  CHECK(r->passes == 5);
}
