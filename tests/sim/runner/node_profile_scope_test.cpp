// NodeProfileScope (sim/runner/node_profile_scope.h): over every Node, NodeProfile looks at each
// Node once, then only at the Nodes whose Node or Devices record another writer touched since it
// last looked; a Node only stage 3 itself or the topology-profile label writes touched since is
// left out, and named by skipped().
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/runner/node_profile_scope.h"

using namespace chaintwin;

namespace {

model::WriteReceipt node_write(const std::string& name, const std::string& controller) {
  model::Node n;
  n.metadata.name = name;
  return model::receipt_of(model::Write{model::WriteVerb::kUpdate, n, controller, ""});
}

model::WriteReceipt devices_write(const std::string& name, const std::string& controller = "DeviceManager") {
  model::Devices d;
  d.metadata.name = name;
  return model::receipt_of(model::Write{model::WriteVerb::kUpdateStatus, d, controller, ""});
}

model::WriteReceipt flavor_write(const std::string& name) {
  model::ResourceFlavor f;
  f.metadata.name = name;
  return model::receipt_of(model::Write{model::WriteVerb::kCreate, f, "NodeFlavor", ""});
}

using Writes = std::vector<model::WriteReceipt>;
using Names = std::set<std::string>;

}  // namespace

TEST_CASE("NodeProfile looks at every Node once, then at the Nodes written since it last looked", "[runner][incremental]") {
  struct Row {
    const char* what;
    Writes earlier_pass;  // the previous pass's writes ({} with first = true: no pass yet)
    Writes this_pass;     // writes earlier in the current pass, before NodeProfile runs
    bool first;
    std::optional<Names> expected;  // nullopt: every Node
    Names skipped;                  // left out: only stage 3's own writes touched them
  };
  const std::vector<Row> rows = {
      {"the first look is at every Node", {}, {}, true, std::nullopt, Names{}},
      {"a Node another controller wrote in the previous pass", {node_write("a", "NodeQueue")}, {}, false, Names{"a"}, Names{}},
      {"the topology profile label NodeTopology wrote on a Node is left out", {node_write("a", "NodeTopology")}, {}, false,
       Names{}, Names{"a"}},
      {"a Node NodeProfile itself wrote in the previous pass is left out", {node_write("b", "NodeProfile")}, {}, false,
       Names{}, Names{"b"}},
      {"kubelet's mirror of stage 3's capacity is stage 3's own write too", {node_write("b", "NodeCapacity")}, {}, false,
       Names{}, Names{"b"}},
      {"the topology profile mirrored onto a Devices record's labels is left out", {devices_write("b", "NodeDevices")},
       {}, false, Names{}, Names{"b"}},
      {"a Node both stage 3 and another controller wrote is looked at",
       {node_write("b", "NodeProfile"), node_write("b", "NodeFitLabel")}, {}, false, Names{"b"}, Names{}},
      {"a Devices record written in the previous pass", {devices_write("c")}, {}, false, Names{"c"}, Names{}},
      {"a Node written earlier in this pass", {}, {node_write("d", "NodeFitLabel")}, false, Names{"d"}, Names{}},
      {"both passes, and objects NodeProfile does not read",
       {node_write("a", "NodeProfile"), flavor_write("f")},
       {devices_write("e"), flavor_write("g")},
       false,
       Names{"e"},
       Names{"a"}},
      {"nothing written since: no Node", {flavor_write("f")}, {}, false, Names{}, Names{}},
  };
  for (const auto& row : rows) {
    SECTION(row.what) {
      sim::NodeProfileScope scope;
      if (!row.first) {
        REQUIRE_FALSE(scope.next({}).has_value());  // the first pass looks at every Node
        scope.pass_done(row.earlier_pass);
      }
      CHECK(scope.next(row.this_pass) == row.expected);
      CHECK(scope.skipped() == row.skipped);
    }
  }
}

TEST_CASE("only the last pass's writes count: a Node written two passes ago was looked at since", "[runner][incremental]") {
  sim::NodeProfileScope scope;
  REQUIRE_FALSE(scope.next({}).has_value());
  scope.pass_done({node_write("a", "DeviceManager")});
  CHECK(scope.next({}) == Names{"a"});
  scope.pass_done({node_write("b", "NodeFitLabel")});
  CHECK(scope.next({}) == Names{"b"});
  scope.pass_done({});
  CHECK(scope.next({}) == Names{});
}
