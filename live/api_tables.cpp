#include "live/api_tables.h"

#include <functional>
#include <string>

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

struct Column {
  const char* name;
  const char* description;
  std::function<json(const json&)> cell;
};

// A quantity field as text, whether the API wrote it as a string ("12") or a number.
std::string quantity(const json& v, const char* field) {
  const auto it = v.find(field);
  if (it == v.end()) return "0";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string view(const json& o, const char* field) {
  const json v = o.value("status", json::object()).value(field, json::object());
  if (!v.is_object() || v.empty()) return "-";
  return quantity(v, "onceMaxRequest") + "/" + quantity(v, "remaining");
}

std::string condition(const json& o, const char* type) {
  for (const auto& c : o.value("status", json::object()).value("conditions", json::array()))
    if (c.value("type", "") == type) return c.value("status", "") + " (" + c.value("reason", "") + ")";
  return "-";
}

std::vector<Column> columns_of(std::string_view kind) {
  const Column name{"Name", "the object's name", [](const json& o) { return o["metadata"].value("name", ""); }};
  if (kind == "InstanceType")
    return {name,
            {"Phase", "status.phase", [](const json& o) { return o.value("status", json::object()).value("phase", ""); }},
            {"EX", "whole cards: onceMaxRequest/remaining", [](const json& o) { return view(o, "accelerator"); }},
            {"SH", "shares", [](const json& o) { return view(o, "acceleratorShared"); }},
            {"SL", "slice percent", [](const json& o) { return view(o, "acceleratorSliced"); }},
            {"PT", "partition instances", [](const json& o) { return view(o, "acceleratorPartitioned"); }},
            {"CPU", "cores", [](const json& o) { return view(o, "cpu"); }}};
  if (kind == "ClusterQueue")
    return {name,
            {"Stop Policy", "spec.stopPolicy",
             [](const json& o) { return o.value("spec", json::object()).value("stopPolicy", "None"); }},
            {"Pending", "pending Workloads",
             [](const json& o) { return o.value("status", json::object()).value("pendingWorkloads", 0); }},
            {"Admitted", "admitted Workloads",
             [](const json& o) { return o.value("status", json::object()).value("admittedWorkloads", 0); }},
            {"Active", "the Active condition", [](const json& o) { return condition(o, "Active"); }},
            {"TopologyReady", "the operator's condition", [](const json& o) { return condition(o, "TopologyReady"); }}};
  if (kind == "LocalQueue")
    return {name, {"ClusterQueue", "spec.clusterQueue", [](const json& o) { return o.value("spec", json::object()).value("clusterQueue", ""); }}};
  if (kind == "Devices")
    return {name, {"Cards", "accelerators in the ledger", [](const json& o) {
                     int n = 0;
                     for (const auto& g : o.value("status", json::object()).value("groups", json::array()))
                       n += static_cast<int>(g.value("accelerators", json::array()).size());
                     return n;
                   }}};
  if (kind == "Workload")
    return {name,
            {"Queue", "spec.queueName", [](const json& o) { return o.value("spec", json::object()).value("queueName", ""); }},
            {"Reserved in", "status.admission.clusterQueue",
             [](const json& o) {
               return o.value("status", json::object()).value("admission", json::object()).value("clusterQueue", "");
             }},
            {"Admitted", "the Admitted condition", [](const json& o) { return condition(o, "Admitted"); }},
            {"Finished", "the Finished condition", [](const json& o) { return condition(o, "Finished"); }}};
  if (kind == "Setting")
    return {name, {"Value", "status.value", [](const json& o) { return o.value("status", json::object()).value("value", ""); }}};
  if (kind == "Node")
    return {name, {"Managed", "gpustack.ai/managed", [](const json& o) {
                     return o["metadata"].value("labels", json::object()).value("gpustack.ai/managed", "-");
                   }}};
  return {name};
}

}  // namespace

json object_table(std::string_view kind, const std::vector<json>& objects, const std::string& resource_version) {
  const std::vector<Column> columns = columns_of(kind);
  json table = {{"kind", "Table"},
                {"apiVersion", "meta.k8s.io/v1"},
                {"metadata", {{"resourceVersion", resource_version}}},
                {"columnDefinitions", json::array()},
                {"rows", json::array()}};
  for (const auto& c : columns)
    table["columnDefinitions"].push_back(
        {{"name", c.name}, {"type", "string"}, {"format", c.name == std::string("Name") ? "name" : ""}, {"description", c.description}, {"priority", 0}});
  for (const auto& o : objects) {
    json cells = json::array();
    for (const auto& c : columns) cells.push_back(c.cell(o));
    json meta = o["metadata"];
    table["rows"].push_back({{"cells", cells},
                             {"object", {{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", meta}}}});
  }
  return table;
}

}  // namespace chaintwin::live
