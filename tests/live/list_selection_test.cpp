#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "live/field_selector.h"
#include "live/go_strconv.h"
#include "live/label_selector.h"
#include "live/list_options.h"
#include "live/list_paging.h"
#include "live/object_validation.h"

using namespace chaintwin::live;
using json = nlohmann::json;

TEST_CASE("a label selector selects as kube-apiserver's does", "[live][label-selector]") {
  const Labels gpu = {{"tier", "gpu"}, {"count", "8"}, {"zone", "a"}};
  const Labels cpu = {{"tier", "cpu"}, {"count", "64"}};
  struct Row {
    const char* selector;
    bool selects_gpu, selects_cpu;
  };
  const std::vector<Row> rows = {
      {"", true, true},
      {"tier=gpu", true, false},
      {"tier==gpu", true, false},
      {"tier!=gpu", false, true},
      {"tier in (gpu,tpu)", true, false},
      {"tier notin (gpu)", false, true},
      {"zone", true, false},
      {"!zone", false, true},
      {"zone notin (b)", true, true},  // notin holds where the key is absent
      {"zone!=b", true, true},
      {"tier=gpu,zone=a", true, false},
      {"tier=gpu,zone=b", false, false},
      {"count>10", false, true},
      {"count<10", true, false},
      {"  tier = cpu ", false, true},
      {"tier in (in, notin, cpu)", false, true},  // in and notin are values inside parentheses
      {"zone in ()", false, false},               // the empty value only
      {"zone=", false, false},
  };
  for (const auto& row : rows) {
    INFO(row.selector);
    const auto s = parse_label_selector(row.selector);
    REQUIRE(s.ok());
    CHECK(s->matches(gpu) == row.selects_gpu);
    CHECK(s->matches(cpu) == row.selects_cpu);
  }
}

TEST_CASE("a label selector that does not parse is refused in kube-apiserver's words", "[live][label-selector]") {
  struct Row {
    const char* selector;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"a in b", "unable to parse requirement: found 'b' expected: '('"},
      {"a in (b", "unable to parse requirement: found '', expected: ',' or ')'"},
      {"a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
      {"a=b c", "found 'c', expected: ',' or 'end of string'"},
      {"a,", "found '', expected: identifier after ','"},
      {"=a", "found '=', expected: !, identifier, or 'end of string'"},
      {"!a=b", "found '=', expected: ',' or 'end of string'"},
      {"a=(", "unable to parse requirement: found '(', expected: identifier"},
      {"-a=b",
       "unable to parse requirement: <nil>: Invalid value: \"-a\": name part must consist of alphanumeric characters, '-', "
       "'_' or '.', and must start and end with an alphanumeric character"},
      {"a=-b",
       "unable to parse requirement: values[0][a]: Invalid value: \"-b\": a valid label must be an empty string or consist "
       "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"},
      {"a>x", "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"},
  };
  for (const auto& row : rows) {
    INFO(row.selector);
    const auto s = parse_label_selector(row.selector);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == row.error);
  }
  const std::string long_value(64, 'v');
  CHECK(parse_label_selector("a=" + long_value).error().find("must be no more than 63 characters") != std::string::npos);
}

TEST_CASE("a field selector selects by the fields kube lets each kind be selected by", "[live][field-selector]") {
  const json node = {{"metadata", {{"name", "cpu-1"}}}, {"spec", {{"unschedulable", true}}}};
  const json queue = {{"metadata", {{"name", "q"}, {"namespace", "team-a"}}}};
  struct Row {
    const char* kind;
    bool namespaced;
    const char* selector;
    const json* object;
    bool selected;
  };
  const std::vector<Row> rows = {
      {"Node", false, "metadata.name=cpu-1", &node, true},
      {"Node", false, "metadata.name==cpu-1", &node, true},
      {"Node", false, "metadata.name!=cpu-1", &node, false},
      {"Node", false, "spec.unschedulable=true", &node, true},
      {"Node", false, "spec.unschedulable=false,metadata.name=cpu-1", &node, false},
      {"LocalQueue", true, "metadata.namespace=team-a", &queue, true},
      {"LocalQueue", true, "metadata.namespace=team-b,metadata.name=q", &queue, false},
      {"LocalQueue", true, "", &queue, true},
  };
  for (const auto& row : rows) {
    INFO(row.kind << " " << row.selector);
    const auto s = parse_field_selector(row.selector);
    REQUIRE(s.ok());
    CHECK(check_selectable(*s, row.kind, row.namespaced).ok());
    CHECK(s->matches(selectable_of(row.kind, *row.object).fields) == row.selected);
  }
}

TEST_CASE("a field selector on a field the kind cannot be selected by is refused", "[live][field-selector]") {
  struct Row {
    const char* kind;
    bool namespaced;
    const char* selector;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"Node", false, "spec.nodeName=x", "field label not supported: spec.nodeName"},
      {"Node", false, "metadata.namespace=x", "field label not supported: metadata.namespace"},
      {"ClusterQueue", false, "status.phase=x", "field label not supported: status.phase"},
      {"LocalQueue", true, "spec.clusterQueue=x", "field label not supported: spec.clusterQueue"},
  };
  for (const auto& row : rows) {
    INFO(row.selector);
    const auto s = parse_field_selector(row.selector);
    REQUIRE(s.ok());
    CHECK(check_selectable(*s, row.kind, row.namespaced).error() == row.error);
  }
  CHECK(parse_field_selector("nonsense").error() == "invalid selector: 'nonsense'; can't understand 'nonsense'");
  CHECK(parse_field_selector("a=b\\x").error() == "invalid field selector: invalid escape sequence: \\x");
  CHECK(parse_field_selector("a=b\\,c")->terms.at(0).value == "b,c");
}

TEST_CASE("query integers are read as Go's strconv reads them", "[live][list-options]") {
  CHECK(*go_parse_int("42") == 42);
  CHECK(*go_parse_int("-1") == -1);
  CHECK(*go_parse_int("+7") == 7);
  CHECK(go_parse_int("abc").error() == "strconv.ParseInt: parsing \"abc\": invalid syntax");
  CHECK(go_parse_int("").error() == "strconv.ParseInt: parsing \"\": invalid syntax");
  CHECK(go_parse_int("9223372036854775808").error() == "strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
  CHECK(*go_parse_int("-9223372036854775808") == INT64_MIN);
  CHECK(go_parse_uint("-1").error() == "strconv.ParseUint: parsing \"-1\": invalid syntax");
}

TEST_CASE("list parameters are refused where kube-apiserver refuses them", "[live][list-options]") {
  using Params = std::map<std::string, std::string, std::less<>>;
  struct Row {
    Params params;
    const char* error;  // "" when accepted
  };
  const std::string token = encode_continue({12, {"", "cpu-0"}});
  const std::vector<Row> rows = {
      {{{"limit", "abc"}}, "strconv.ParseInt: parsing \"abc\": invalid syntax"},
      {{{"limit", "-1"}}, ""},  // kube pages only for a positive limit
      {{{"timeoutSeconds", "abc"}}, "strconv.ParseInt: parsing \"abc\": invalid syntax"},
      {{{"resourceVersion", "bogus"}},
       "invalid resource version: resourceVersion: Invalid value: \"bogus\": strconv.ParseUint: parsing \"bogus\": invalid "
       "syntax"},
      {{{"continue", "abc"}}, "invalid continue token: continue key is not valid: not a JSON object"},
      {{{"continue", "a"}}, "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"},
      {{{"continue", token}, {"resourceVersion", "5"}}, "specifying resource version is not allowed when using continue"},
      {{{"continue", token}, {"resourceVersion", "0"}}, ""},
      {{{"fieldSelector", "spec.nodeName=a"}}, "field label not supported: spec.nodeName"},
      {{{"labelSelector", "a in b"}}, "unable to parse requirement: found 'b' expected: '('"},
  };
  for (const auto& row : rows) {
    INFO(row.params.begin()->first << "=" << row.params.begin()->second);
    const auto o = parse_list_options(row.params, "Node", false);
    if (std::string(row.error).empty()) CHECK(o.ok());
    else CHECK(o.error() == row.error);
  }
  CHECK(parse_list_options({{"watch", "yes"}}, "Node", false)->watch);  // Go: anything but 0 and false
  CHECK_FALSE(parse_list_options({{"watch", "False"}}, "Node", false)->watch);
}

namespace {
std::vector<json> page_nodes(std::initializer_list<const char*> names) {
  std::vector<json> out;
  for (const char* n : names) {
    const bool even = (std::string(n).back() - '0') % 2 == 0;
    json labels = {{"even", even ? "yes" : "no"}};
    json meta = {{"name", n}, {"labels", labels}};
    out.push_back({{"metadata", meta}});
  }
  return out;
}
std::vector<std::string> page_names(const Page& p) {
  std::vector<std::string> out;
  for (const auto& o : p.items) out.push_back(o["metadata"]["name"]);
  return out;
}
}  // namespace

TEST_CASE("pages hold at most limit selected items and continue after the last one", "[live][list-paging]") {
  const auto all = page_nodes({"n0", "n1", "n2", "n3", "n4"});
  const auto any = [](const json&) { return true; };
  const auto even = [](const json& o) { return o["metadata"]["labels"]["even"] == "yes"; };
  struct Row {
    const char* what;
    std::function<bool(const json&)> selected;
    std::optional<ObjectKey> after;
    int64_t limit;
    std::vector<std::string> items;
    std::optional<ObjectKey> last;
    int64_t remaining;
  };
  const std::vector<Row> rows = {
      {"no limit: everything, no continue", any, std::nullopt, 0, {"n0", "n1", "n2", "n3", "n4"}, std::nullopt, 0},
      {"a negative limit is no limit", any, std::nullopt, -1, {"n0", "n1", "n2", "n3", "n4"}, std::nullopt, 0},
      {"the first page", any, std::nullopt, 2, {"n0", "n1"}, ObjectKey{"", "n1"}, 3},
      {"a middle page", any, ObjectKey{"", "n1"}, 2, {"n2", "n3"}, ObjectKey{"", "n3"}, 1},
      {"the last page has no continue", any, ObjectKey{"", "n3"}, 2, {"n4"}, std::nullopt, 0},
      {"an exact fit has no continue", any, ObjectKey{"", "n2"}, 2, {"n3", "n4"}, std::nullopt, 0},
      {"a selector fills the page with selected items", even, std::nullopt, 2, {"n0", "n2"}, ObjectKey{"", "n2"}, 1},
      {"and continues only while selected items remain", even, ObjectKey{"", "n2"}, 2, {"n4"}, std::nullopt, 0},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const Page p = take_page(all, row.selected, row.after, row.limit);
    CHECK(page_names(p) == row.items);
    CHECK(p.last == row.last);
    CHECK(p.remaining == row.remaining);
  }
}

TEST_CASE("a continue token reads back what was written and refuses what was not", "[live][list-paging]") {
  const ContinueToken t{42, {"team-a", "q-1"}};
  const auto back = decode_continue(encode_continue(t));
  REQUIRE(back.ok());
  CHECK(back->resource_version == 42);
  CHECK(back->after == t.after);
  CHECK(decode_continue("e30").error() == "continue key is not valid: server does not recognize this encoded version \"\"");
  CHECK(decode_continue("!!").error() == "continue key is not valid: illegal base64 data at input byte 0");
}

TEST_CASE("objects kube would refuse are refused with its codes and causes", "[live][object-validation]") {
  const auto node = [](json meta, json status = json::object()) {
    return json{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", std::move(meta)}, {"status", std::move(status)}};
  };
  struct Row {
    const char* what;
    json object;
    int code;  // 0: accepted
    const char* field;
  };
  const std::vector<Row> rows = {
      {"a well-formed Node", node({{"name", "n-1"}, {"labels", {{"example.com/k", "v"}}}}), 0, ""},
      {"no name", node(json::object()), 422, "metadata.name"},
      {"a name that is not DNS-1123", node({{"name", "Bad_Name"}}), 422, "metadata.name"},
      {"a label value past 63 characters", node({{"name", "n"}, {"labels", {{"k", std::string(64, 'v')}}}}), 422, "metadata.labels"},
      {"a label key with a bad prefix", node({{"name", "n"}, {"labels", {{"-x/k", "v"}}}}), 422, "metadata.labels"},
      {"a label name part past 63 characters", node({{"name", "n"}, {"labels", {{std::string(64, 'k'), "v"}}}}), 422, "metadata.labels"},
      {"a capacity that is not a quantity", node({{"name", "n"}}, {{"capacity", {{"memory", "12Gix"}}}}), 400, ""},
      {"a capacity that is one", node({{"name", "n"}}, {{"capacity", {{"memory", "12Gi"}}}}), 0, ""},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const auto r = validate_object("", "Node", row.object);
    if (row.code == 0) {
      CHECK_FALSE(r.has_value());
      continue;
    }
    REQUIRE(r.has_value());
    CHECK(r->code == row.code);
    if (row.code == 422) {
      REQUIRE(r->causes.size() == 1);
      CHECK(r->causes[0].field == row.field);
      const json status = r->status("", "Node", "n");
      CHECK(status["reason"] == "Invalid");
      CHECK(status["details"]["causes"][0]["field"] == row.field);
    }
  }
  const json queue = {{"kind", "ClusterQueue"},
                      {"metadata", {{"name", "q"}}},
                      {"spec", {{"resourceGroups", {{{"flavors", {{{"resources", {{{"name", "cpu"}, {"nominalQuota", "12Gix"}}}}}}}}}}}}};
  const auto r = validate_object("kueue.x-k8s.io", "ClusterQueue", queue);
  REQUIRE(r.has_value());
  CHECK(r->code == 422);
  CHECK(r->causes.at(0).field == "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
  CHECK(r->message.rfind("ClusterQueue.kueue.x-k8s.io \"q\" is invalid: spec.resourceGroups[0]", 0) == 0);
}
