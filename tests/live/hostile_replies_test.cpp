// What a hostile or broken API server (or exec plugin, or role file) may send: members of the wrong
// type, lists that are not lists, items that are not objects. Each is refused by position or read
// as empty; none may throw out of the reader.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "live/api_tables.h"
#include "live/cluster_reader.h"
#include "live/cluster_role.h"
#include "live/json_members.h"

using namespace chaintwin;
using json = nlohmann::json;

TEST_CASE("Members of outside JSON read as empty when missing, mistyped or asked of a non-object", "[live][hostile]") {
  struct Row {
    const char* what;
    json value;
    std::string string;
    size_t object_size, array_size;
  };
  const std::vector<Row> rows = {
      {"a member of the right type", {{"k", "v"}}, "v", 0, 0},
      {"a missing member", json::object(), "", 0, 0},
      {"a number where a string is expected", {{"k", 7}}, "", 0, 0},
      {"an object member", {{"k", {{"a", 1}}}}, "", 1, 0},
      {"an array member", {{"k", json::array({1, 2})}}, "", 0, 2},
      {"a null member", {{"k", nullptr}}, "", 0, 0},
      {"a number instead of an object", 5, "", 0, 0},
      {"a string instead of an object", "k", "", 0, 0},
      {"an array instead of an object", json::array({"k"}), "", 0, 0},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(live::string_member(r.value, "k") == r.string);
    CHECK(live::object_member(r.value, "k").is_object());
    CHECK(live::object_member(r.value, "k").size() == r.object_size);
    CHECK(live::array_member(r.value, "k").is_array());
    CHECK(live::array_member(r.value, "k").size() == r.array_size);
  }
}

TEST_CASE("A list reply that is not a list of objects is refused by position and adds nothing", "[live][hostile]") {
  const auto node = live::find_resource("Node");
  REQUIRE(node.has_value());
  struct Row {
    const char* what;
    json reply;
    std::string error;  // empty: accepted
    int64_t objects;
  };
  const std::vector<Row> rows = {
      {"a list of two objects", {{"items", {{{"metadata", {{"name", "a"}}}}, {{"metadata", {{"name", "b"}}}}}}}, "", 2},
      {"a list without items", {{"metadata", {{"resourceVersion", "9"}}}}, "", 0},
      {"items: null (Go's empty slice)", {{"items", nullptr}}, "", 0},
      {"a reply that is a number", 42, "the reply is not a list (expected an object with items)", 0},
      {"a reply that is an array", json::array({1}), "the reply is not a list (expected an object with items)", 0},
      {"items that are a string", {{"items", "x"}}, "items: expected a list of objects, got string", 0},
      {"an item that is a number", {{"items", {json::object(), 3}}}, "items[1]: expected an object, got number", 0},
      {"a metadata that is a string", {{"metadata", "x"}, {"items", json::array()}}, "", 0},
      {"a resourceVersion that is a number", {{"metadata", {{"resourceVersion", 12}}}, {"items", json::array()}}, "", 0},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    live::ObservedCluster out;
    const auto s = live::add_listed(out, r.reply, *node);
    CHECK(s.ok() == r.error.empty());
    if (!s.ok()) CHECK(s.error() == r.error);
    CHECK(out.objects == r.objects);
    CHECK(static_cast<int64_t>(out.raw.size()) == r.objects);
  }
}

TEST_CASE("A discovery reply with mistyped members serves only what it spells right", "[live][hostile]") {
  const json reply = {{"groups",
                       {{{"name", 7}, {"versions", {{{"version", "v1"}}}}},
                        {{"name", "kueue.x-k8s.io"}, {"versions", {{{"version", 3}}, {{"version", "v1beta2"}}, 5}}},
                        "not a group",
                        {{"name", "gpustack.ai"}, {"versions", "v1"}}}}};
  const live::ServedVersions served = live::served_versions(reply);
  CHECK(served.at("kueue.x-k8s.io").count("v1beta2") == 1);
  CHECK(served.count("gpustack.ai") == 0);
  CHECK(live::served_versions(json("x")).empty());
  CHECK(live::served_versions({{"groups", 1}}).empty());
}

TEST_CASE("Objects whose kind, apiVersion or metadata are mistyped are refused by the decoder, not thrown", "[live][hostile]") {
  live::ObservedCluster out;
  out.raw = {{{"kind", 5}, {"apiVersion", "v1"}, {"metadata", {{"name", "n"}}}},
             {{"kind", "Node"}, {"apiVersion", json::array()}, {"metadata", "x"}}};
  const auto s = live::decode_observed(out);
  CHECK_FALSE(s.ok());
}

TEST_CASE("A ClusterRole file with mistyped members is refused, not thrown", "[live][hostile]") {
  struct Row {
    const char* what;
    json document;
    std::string error;
  };
  const auto role_with = [](const json& extra) {
    json document = {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"}};
    document.update(extra);
    return document;
  };
  const std::vector<Row> rows = {
      {"a kind that is a number", {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", 1}}, "expected a ClusterRole"},
      {"metadata that is a string", role_with({{"metadata", "x"}, {"rules", json::array()}}), ""},
      {"rules that are a string", role_with({{"rules", "x"}}), "rules: expected a list"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const auto role = live::decode_cluster_role(r.document);
    CHECK(role.ok() == r.error.empty());
    if (!role.ok()) CHECK_THAT(role.error(), Catch::Contains(r.error));
  }
}

TEST_CASE("A served object with mistyped status members still makes a table row", "[live][hostile]") {
  const std::vector<json> objects = {
      {{"metadata", {{"name", "q"}}}, {"spec", "x"}, {"status", {{"pendingWorkloads", "many"}, {"conditions", 3}}}},
      {{"metadata", 4}, {"status", {{"conditions", {1, {{"type", 2}}}}}}}};
  for (const char* kind : {"ClusterQueue", "InstanceType", "LocalQueue", "Devices", "Workload", "Setting", "Node"}) {
    INFO(kind);
    const json table = live::object_table(kind, objects, "1");
    CHECK(table["rows"].size() == 2);
  }
}
