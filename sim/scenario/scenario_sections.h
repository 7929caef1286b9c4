// The section readers of the scenario loader (one file each), sharing a LoadContext: the
// files read so far (for the content hash and include cycles) and the nodes already named.
// Internal to sim/scenario; see scenario_loader.h for the entry points.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/device_manager/device_inventory.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_reader.h"
#include "sim/trace/openb_trace.h"

namespace chaintwin::sim::scenario_detail {

// A trace read while loading `workloads`, joined to the cluster and the workloads once the
// cluster is built.
struct TraceImport {
  TraceData data;
  bool take_nodes = true;
  SourceRef where;
};

struct LoadContext {
  uint64_t hash_state = 0;                    // FNV-1a-64 over the bytes of every file read
  std::vector<std::string> include_stack;     // files being read, for cycle detection
  std::vector<std::unique_ptr<SourceObject>> documents;  // keeps every parsed document alive
  std::map<std::string, std::string> node_where;  // node name → "file:line" of its first definition
  std::vector<TraceImport> traces;                // in the order the scenario gives them
};

// Reads a file (hashing its bytes); throws ScenarioError naming `from` when it cannot.
std::string read_file_hashed(LoadContext& ctx, const std::string& path, const Val& from);
// The directory part of a path ("" for none), and `rel` resolved against it.
std::string directory_of(const std::string& path);
std::string resolve_path(const std::string& base_file, const std::string& rel);

// A generated node and its Devices.
struct GeneratedNode {
  model::Node node;
  std::optional<model::Devices> devices;
  std::vector<model::Pod> pods_outside_kueue;  // bound to it, allocated on `devices`
};
// One generator entry: `allow_many` accepts namePrefix + count (cluster.nodes), otherwise a
// single `name:` (add-node).
std::vector<GeneratedNode> read_node_spec(const Val& v, bool allow_many);

// cluster: the Kubernetes objects (inline and included) and the generated nodes. Objects are
// collected first; the caller decodes them.
struct ClusterParts {
  std::vector<SourceObject> objects;
  std::vector<GeneratedNode> generated;
  std::vector<std::string> namespaces;
};
void read_cluster(LoadContext& ctx, const Val& cluster, const std::string& file, ClusterParts& out);

std::vector<WorkloadSpec> read_workloads(LoadContext& ctx, const Val& list, const std::string& file,
                                         std::vector<TraceSource>& traces);
std::vector<TimelineAction> read_timeline(const Val& list, const Scenario& scenario);
std::vector<Expectation> read_expectations(const Val& list, const Scenario& scenario);
// One `slo:` mapping of an expectation (scenario_slo.cpp).
SloExpectation read_slo(const Val& v, const Scenario& scenario);

}  // namespace chaintwin::sim::scenario_detail
