#include "live/api_tables.h"
#include "live/json_members.h"

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

// A member of `v` as the cell shows it, whatever its type; `fallback` when it is missing.
json cell(const json& v, const char* field, json fallback) {
  const auto it = v.find(field);
  return it == v.end() ? fallback : *it;
}

const json& status(const json& o) { return object_member(o, "status"); }
const json& spec(const json& o) { return object_member(o, "spec"); }

std::string view(const json& o, const char* field) {
  const json& v = object_member(status(o), field);
  if (v.empty()) return "-";
  return quantity(v, "onceMaxRequest") + "/" + quantity(v, "remaining");
}

std::string condition(const json& o, const char* type) {
  for (const auto& c : array_member(status(o), "conditions"))
    if (string_member(c, "type") == type) return string_member(c, "status") + " (" + string_member(c, "reason") + ")";
  return "-";
}

std::vector<Column> columns_of(std::string_view kind) {
  const Column name{"Name", "the object's name", [](const json& o) { return string_member(object_member(o, "metadata"), "name"); }};
  if (kind == "InstanceType")
    return {name,
            {"Phase", "status.phase", [](const json& o) { return string_member(status(o), "phase"); }},
            {"EX", "whole cards: onceMaxRequest/remaining", [](const json& o) { return view(o, "accelerator"); }},
            {"SH", "shares", [](const json& o) { return view(o, "acceleratorShared"); }},
            {"SL", "slice percent", [](const json& o) { return view(o, "acceleratorSliced"); }},
            {"PT", "partition instances", [](const json& o) { return view(o, "acceleratorPartitioned"); }},
            {"CPU", "cores", [](const json& o) { return view(o, "cpu"); }}};
  if (kind == "ClusterQueue")
    return {name,
            {"Stop Policy", "spec.stopPolicy",
             [](const json& o) { return cell(spec(o), "stopPolicy", "None"); }},
            {"Pending", "pending Workloads",
             [](const json& o) { return cell(status(o), "pendingWorkloads", 0); }},
            {"Admitted", "admitted Workloads",
             [](const json& o) { return cell(status(o), "admittedWorkloads", 0); }},
            {"Active", "the Active condition", [](const json& o) { return condition(o, "Active"); }},
            {"TopologyReady", "the operator's condition", [](const json& o) { return condition(o, "TopologyReady"); }}};
  if (kind == "LocalQueue")
    return {name, {"ClusterQueue", "spec.clusterQueue", [](const json& o) { return string_member(spec(o), "clusterQueue"); }}};
  if (kind == "Devices")
    return {name, {"Cards", "accelerators in the ledger", [](const json& o) {
                     int n = 0;
                     for (const auto& g : array_member(status(o), "groups"))
                       n += static_cast<int>(array_member(g, "accelerators").size());
                     return n;
                   }}};
  if (kind == "Workload")
    return {name,
            {"Queue", "spec.queueName", [](const json& o) { return string_member(spec(o), "queueName"); }},
            {"Reserved in", "status.admission.clusterQueue",
             [](const json& o) {
               return string_member(object_member(status(o), "admission"), "clusterQueue");
             }},
            {"Admitted", "the Admitted condition", [](const json& o) { return condition(o, "Admitted"); }},
            {"Finished", "the Finished condition", [](const json& o) { return condition(o, "Finished"); }}};
  if (kind == "Setting")
    return {name, {"Value", "status.value", [](const json& o) { return cell(status(o), "value", ""); }}};
  if (kind == "Node")
    return {name, {"Managed", "gpustack.ai/managed", [](const json& o) {
                     return cell(object_member(object_member(o, "metadata"), "labels"), "gpustack.ai/managed", "-");
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
    const json& meta = object_member(o, "metadata");
    table["rows"].push_back({{"cells", cells},
                             {"object", {{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", meta}}}});
  }
  return table;
}

}  // namespace chaintwin::live
