#include "live/kueue_conversion.h"

#include <string>

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

constexpr const char* kV1beta1 = "kueue.x-k8s.io/v1beta1";
constexpr const char* kV1beta2 = "kueue.x-k8s.io/v1beta2";

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

// Moves `object[from]` to `object[to]` (when present).
void rename(json& object, const char* from, const char* to) {
  if (!object.is_object() || !object.contains(from)) return;
  object[to] = std::move(object[from]);
  object.erase(from);
}

json* member(json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_object() ? &object[key] : nullptr;
}

// flavorFungibility's policies: v1beta2 calls both "stop at this flavor" values MayStopSearch.
void convert_fungibility(json& spec, bool up) {
  json* f = member(spec, "flavorFungibility");
  if (f == nullptr) return;
  for (const auto& [field, old_name] : {std::pair{"whenCanBorrow", "Borrow"}, std::pair{"whenCanPreempt", "Preempt"}}) {
    if (!f->contains(field) || !(*f)[field].is_string()) continue;
    const std::string v = (*f)[field];
    if (up && v == old_name) (*f)[field] = "MayStopSearch";
    if (!up && v == "MayStopSearch") (*f)[field] = old_name;
  }
}

bool is_kueue(const json& object, const char* version) {
  return object.is_object() && object.value("apiVersion", "") == version;
}

}  // namespace

json kueue_to_v1beta2(json o) {
  if (!is_kueue(o, kV1beta1)) return o;
  o["apiVersion"] = kV1beta2;
  const std::string kind = o.value("kind", "");
  json* spec = member(o, "spec");
  json* status = member(o, "status");
  if (kind == "ClusterQueue" && spec != nullptr) {
    rename(*spec, "cohort", "cohortName");
    convert_fungibility(*spec, true);
  } else if (kind == "LocalQueue" && status != nullptr) {
    rename(*status, "flavorUsage", "flavorsUsage");
  } else if (kind == "Workload") {
    if (status != nullptr) rename(*status, "accumulatedPastExexcutionTimeSeconds", "accumulatedPastExecutionTimeSeconds");
    if (spec != nullptr && spec->contains("priorityClassSource")) {
      const std::string source = (*spec)["priorityClassSource"].is_string() ? (*spec)["priorityClassSource"].get<std::string>() : "";
      for (const auto& p : kPrioritySources)
        if (source == p.source)
          (*spec)["priorityClassRef"] = {{"group", p.group}, {"kind", p.kind}, {"name", spec->value("priorityClassName", "")}};
      spec->erase("priorityClassSource");
      spec->erase("priorityClassName");
    }
  }
  return o;
}

json kueue_to_v1beta1(json o) {
  if (!is_kueue(o, kV1beta2)) return o;
  o["apiVersion"] = kV1beta1;
  const std::string kind = o.value("kind", "");
  json* spec = member(o, "spec");
  json* status = member(o, "status");
  if (kind == "ClusterQueue" && spec != nullptr) {
    rename(*spec, "cohortName", "cohort");
    convert_fungibility(*spec, false);
  } else if (kind == "LocalQueue" && status != nullptr) {
    rename(*status, "flavorsUsage", "flavorUsage");
  } else if (kind == "Workload") {
    if (status != nullptr) rename(*status, "accumulatedPastExecutionTimeSeconds", "accumulatedPastExexcutionTimeSeconds");
    if (json* ref = spec != nullptr ? member(*spec, "priorityClassRef") : nullptr) {
      for (const auto& p : kPrioritySources)
        if (ref->value("group", "") == p.group && ref->value("kind", "") == p.kind) {
          (*spec)["priorityClassSource"] = p.source;
          (*spec)["priorityClassName"] = ref->value("name", "");
        }
      spec->erase("priorityClassRef");
    }
  }
  return o;
}

}  // namespace chaintwin::live
