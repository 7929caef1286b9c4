// NodeProfileScope (sim/runner/node_profile_scope.h): over every Node, NodeProfile looks at each
// Node once, then only at the Nodes whose Node or Devices record was written since it last looked.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/runner/node_profile_scope.h"

using namespace chaintwin;

namespace {

model::Write node_write(const std::string& name, const std::string& controller) {
  model::Node n;
  n.metadata.name = name;
  return {model::WriteVerb::kUpdate, n, controller, ""};
}

model::Write devices_write(const std::string& name) {
  model::Devices d;
  d.metadata.name = name;
  return {model::WriteVerb::kUpdateStatus, d, "DeviceManager", ""};
}

model::Write flavor_write(const std::string& name) {
  model::ResourceFlavor f;
  f.metadata.name = name;
  return {model::WriteVerb::kCreate, f, "NodeFlavor", ""};
}

using Writes = std::vector<model::Write>;
using Names = std::set<std::string>;

}  // namespace

TEST_CASE("NodeProfile looks at every Node once, then at the Nodes written since it last looked", "[runner][incremental]") {
  struct Row {
    const char* what;
    Writes earlier_pass;  // the previous pass's writes ({} with first = true: no pass yet)
    Writes this_pass;     // writes earlier in the current pass, before NodeProfile runs
    bool first;
    std::optional<Names> expected;  // nullopt: every Node
  };
  const std::vector<Row> rows = {
      {"the first look is at every Node", {}, {}, true, std::nullopt},
      {"a Node another controller wrote in the previous pass", {node_write("a", "NodeTopology")}, {}, false, Names{"a"}},
      {"a Node NodeProfile itself wrote in the previous pass", {node_write("b", "NodeProfile")}, {}, false, Names{"b"}},
      {"a Devices record written in the previous pass", {devices_write("c")}, {}, false, Names{"c"}},
      {"a Node written earlier in this pass", {}, {node_write("d", "NodeFitLabel")}, false, Names{"d"}},
      {"both passes, and objects NodeProfile does not read",
       {node_write("a", "NodeProfile"), flavor_write("f")},
       {devices_write("e"), flavor_write("g")},
       false,
       Names{"a", "e"}},
      {"nothing written since: no Node", {flavor_write("f")}, {}, false, Names{}},
  };
  for (const auto& row : rows) {
    SECTION(row.what) {
      sim::NodeProfileScope scope;
      if (!row.first) {
        REQUIRE_FALSE(scope.next({}).has_value());  // the first pass looks at every Node
        scope.pass_done(row.earlier_pass);
      }
      CHECK(scope.next(row.this_pass) == row.expected);
    }
  }
}

TEST_CASE("only the last pass's writes count: a Node written two passes ago was looked at since", "[runner][incremental]") {
  sim::NodeProfileScope scope;
  REQUIRE_FALSE(scope.next({}).has_value());
  scope.pass_done({node_write("a", "NodeProfile")});
  CHECK(scope.next({}) == Names{"a"});
  scope.pass_done({node_write("b", "NodeTopology")});
  CHECK(scope.next({}) == Names{"b"});
  scope.pass_done({});
  CHECK(scope.next({}) == Names{});
}
