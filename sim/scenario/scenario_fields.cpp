#include "sim/scenario/scenario_fields.h"

#include <cstdlib>

#include "model/api/settings.h"

namespace chaintwin::sim {

const std::map<std::string, std::vector<std::string>>& scenario_fields() {
  static const std::map<std::string, std::vector<std::string>> fields = [] {
    std::map<std::string, std::vector<std::string>> f{
        {"Scenario", {"apiVersion", "kind", "metadata", "seed", "horizon", "settings", "kueue", "operator",
                      "deviceManager", "cluster", "workloads", "timeline", "expect"}},
        {"Metadata", {"name", "description"}},
        {"Kueue", {"queueingStrategy", "admissionCheckRetryDelay", "schedulingCycleCost", "statusLag", "version",
                   "featureGates", "fairSharing", "admissionFairSharing"}},
        {"FairSharing", {"enable", "preemptionStrategies"}},
        {"AdmissionFairSharing", {"usageHalfLifeTime", "usageSamplingInterval", "resourceWeights"}},
        {"Operator", {"fitLabelCoalesce", "podStart", "redetectAfter"}},
        {"DeviceManager", {"noFastFailed"}},
        {"Cluster", {"nodes", "objects", "include", "namespaces"}},
        {"NodeSpec", {"name", "namePrefix", "count", "os", "arch", "cpu", "memory", "pods", "labels", "annotations",
                      "unschedulable", "accelerators", "podsOutsideKueue"}},
        {"PodOutsideKueue", {"name", "namespace", "requests"}},
        {"Cpu", {"vendor", "name", "cores", "family", "model"}},
        {"Accelerators", {"manufacturer", "product", "count", "memory", "memoryMib", "cores", "family",
                          "computeCapability", "partitioning"}},
        {"Partitioning", {"cards", "mode", "instances"}},
        {"Workload", {"name", "namespace", "arrival", "duration", "count", "instanceType", "accelerator", "podSets",
                      "requiredTopologyLevel", "priority", "workloadPriorityClass", "priorityClass", "replicas",
                      "podDeletionDelay", "kind", "localQueue"}},
        {"TraceEntry", {"trace"}},
        {"Trace", {"format", "nodes", "pods", "takeNodes", "limit", "unscheduled", "defaultModel", "models", "fullDemand"}},
        {"FullDemand", {"placement", "tune", "seeds", "firstSeed", "chooser"}},
        {"TraceModel", {"product", "memory", "cores", "family", "computeCapability", "standIn"}},
        {"Arrival", {"poisson", "every", "at"}},
        {"Poisson", {"rate"}},
        {"Duration", {"fixed", "exponential", "lognormal"}},
        {"Exponential", {"mean"}},
        {"Lognormal", {"median", "p95"}},
        {"PodSet", {"name", "count", "request", "containers", "initContainers"}},
        {"Request", {"exclusive", "shared", "sliced", "partitioned", "cpu", "memory"}},
        {"Sliced", {"memoryPercentage", "memoryMib", "coresPercentage"}},
        {"Container", {"name", "requests", "restartable"}},
        {"TimelineAction", {"at", "action", "node", "value", "cards", "mode", "redetectAfter", "name", "instanceType",
                            "kind", "ledgerAfter", "detectAfter", "for", "outcome", "manufacturer", "source",
                            "revision", "nodes", "apiVersion", "reason", "message", "workload"}},
        {"Expectation", {"at", "clusterQueue", "node", "instanceType", "resourceFlavor", "workloads", "stopPolicy",
                         "nominalCredits", "conditions", "capacity", "allocatable", "labels", "status", "annotations",
                         "phase", "exists", "terminating", "slo", "instance", "stop", "devices", "cards",
                         "topologySource", "messages", "lastSuccessfulRevision", "nodeFeatures"}},
        {"Slo", {"class", "pool", "gpuModel", "wait", "admittedFraction", "neverAdmitted", "utilization"}},
        {"SloWait", {"p50", "p90", "p95", "p99", "max"}},
        {"WorkloadCounters", {"name", "admitted", "running", "pending", "evicted", "preempted", "retries", "finished", "rejected", "rejectedMessage"}},
        {"InstanceTypeStatus", {"accelerator", "acceleratorShared", "acceleratorSliced", "acceleratorPartitioned", "cpu"}},
    };
    std::vector<std::string> settings;
    for (const char* const* n = model::setting_names(); *n != nullptr; ++n) settings.emplace_back(*n);
    for (const char* const* n = model::environment_names(); *n != nullptr; ++n) settings.emplace_back(*n);
    f["Settings"] = settings;
    return f;
  }();
  return fields;
}

const std::vector<std::string>& scenario_fields_at(const std::string& place) {
  const auto& f = scenario_fields();
  const auto it = f.find(place);
  if (it == f.end()) std::abort();
  return it->second;
}

}  // namespace chaintwin::sim
