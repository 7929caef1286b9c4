#include "live/kueue_conversion.h"

#include <string>

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

constexpr const char* kV1beta1 = "kueue.x-k8s.io/v1beta1";
constexpr const char* kV1beta2 = "kueue.x-k8s.io/v1beta2";

// Fields only renamed between the versions: kind, the object's section, v1beta1's and v1beta2's name.
struct Rename {
  const char* kind;
  const char* section;
  const char* v1beta1;
  const char* v1beta2;
};
constexpr Rename kRenames[] = {
    {"ClusterQueue", "spec", "cohort", "cohortName"},
    {"LocalQueue", "status", "flavorUsage", "flavorsUsage"},
    {"Workload", "status", "accumulatedPastExexcutionTimeSeconds", "accumulatedPastExecutionTimeSeconds"},
};

// A ClusterQueue's flavorFungibility values: v1beta2 calls both "stop at this flavor" policies
// MayStopSearch.
constexpr std::pair<const char*, const char*> kFungibility[] = {{"whenCanBorrow", "Borrow"}, {"whenCanPreempt", "Preempt"}};

// The priority class kinds of v1beta2's priorityClassRef and the source strings v1beta1 used.
struct PrioritySource {
  const char* source;  // v1beta1 spec.priorityClassSource
  const char* group;   // v1beta2 spec.priorityClassRef.group
  const char* kind;    // v1beta2 spec.priorityClassRef.kind
};
constexpr PrioritySource kPrioritySources[] = {
    {"kueue.x-k8s.io/workloadpriorityclass", "kueue.x-k8s.io", "WorkloadPriorityClass"},
    {"scheduling.k8s.io/priorityclass", "scheduling.k8s.io", "PriorityClass"},
};

// A string member, or "" when it is absent or not a string (a hostile or broken object must not
// throw out of a conversion: json::value throws on a member of another type).
std::string text_of(const json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

json* member(json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_object() ? &object[key] : nullptr;
}

// Moves `object[from]` to `object[to]` (when present).
void rename(json& object, const char* from, const char* to) {
  if (!object.contains(from)) return;
  object[to] = std::move(object[from]);
  object.erase(from);
}

// A Workload's priority class: v1beta1's source and name strings ↔ v1beta2's reference.
void convert_priority(json& spec, bool up) {
  if (up && spec.contains("priorityClassSource")) {
    const json source = spec["priorityClassSource"];
    for (const auto& p : kPrioritySources)
      if (source == p.source)
        spec["priorityClassRef"] = {{"group", p.group}, {"kind", p.kind}, {"name", text_of(spec, "priorityClassName")}};
    spec.erase("priorityClassSource");
    spec.erase("priorityClassName");
  } else if (json* ref = up ? nullptr : member(spec, "priorityClassRef")) {
    for (const auto& p : kPrioritySources)
      if (text_of(*ref, "group") == p.group && text_of(*ref, "kind") == p.kind) {
        spec["priorityClassSource"] = p.source;
        spec["priorityClassName"] = text_of(*ref, "name");
      }
    spec.erase("priorityClassRef");
  }
}

// `up`: v1beta1 → v1beta2; otherwise back. Objects of any other apiVersion pass unchanged.
json convert(json o, bool up) {
  if (!o.is_object() || text_of(o, "apiVersion") != (up ? kV1beta1 : kV1beta2)) return o;
  o["apiVersion"] = up ? kV1beta2 : kV1beta1;
  const std::string kind = text_of(o, "kind");
  for (const auto& r : kRenames)
    if (kind == r.kind)
      if (json* section = member(o, r.section)) rename(*section, up ? r.v1beta1 : r.v1beta2, up ? r.v1beta2 : r.v1beta1);
  json* spec = member(o, "spec");
  if (kind == "ClusterQueue" && spec != nullptr)
    if (json* f = member(*spec, "flavorFungibility"))
      for (const auto& [field, old_name] : kFungibility)
        if (f->contains(field) && (*f)[field] == (up ? old_name : "MayStopSearch")) (*f)[field] = up ? "MayStopSearch" : old_name;
  if (kind == "Workload" && spec != nullptr) convert_priority(*spec, up);
  return o;
}

}  // namespace

json kueue_to_v1beta2(json object) { return convert(std::move(object), true); }
json kueue_to_v1beta1(json object) { return convert(std::move(object), false); }

}  // namespace chaintwin::live
