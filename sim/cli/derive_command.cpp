#include "sim/cli/derive_command.h"

#include <iostream>
#include <iterator>
#include <sstream>

#include "model/stage3.h"
#include "model/stage4/operator_controllers.h"
#include "sim/chain_report.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"
#include "sim/stage3_report.h"
#include "sim/yaml_writer.h"

namespace chaintwin::sim::data {
extern const std::string_view kExampleClusterYaml;
}

namespace chaintwin::cli {
namespace {

constexpr const char* kDeriveHelp = R"(Usage: chaintwin derive [--patches] [-o yaml|json] [--set NAME=VALUE]... FILE...
       chaintwin derive --example [--patches] [-o yaml|json]   (the bundled example cluster)

Reads Kubernetes objects — Nodes, their Devices records, the operator's Settings, and optionally
Namespaces, TopologySources, InstanceTypes and the Kueue objects already in the cluster
(ResourceFlavor, ClusterQueue, LocalQueue, AdmissionCheck, Topology), as `kubectl get ... -o yaml`
prints them (YAML or JSON, several documents per file, `kind: List` accepted; `-` reads standard
input) — runs the operator's controllers and Kueue's status to the state they settle in, and prints
the whole chain as Kubernetes objects sorted by kind then name: per Node its labels and counting
keys and the worker's NodeFeature, then AdmissionCheck, ClusterQueue (spec), InstanceType (with
status), InstanceTypeFlavor, LocalQueue (one per namespace), ResourceFlavor, Topology.

With --patches it prints instead, per Node, what the worker derives in stage 3:

  keys          the node's gKey and aKeys
  nodeFeature   the worker's NodeFeature <node>-gpustack-worker with the presence labels
  capacity      the capacity counting keys for status.capacity
  fitLabels     the per-card fit labels
  patches       the merge patches that take the observed Node there (null: nothing to write):
                nodeLabels (applied by NFD), nodeStatus (nodes/<name>/status), fitLabels
  notes         why, and anything the input leaves underived

Options:
  --patches                the per-Node stage-3 view with the patches (see above)
  -o, --output yaml|json   output format (default yaml; json prints a kind: List)
  --set NAME=VALUE         an operator setting, e.g. --set instance-type-mixed-on-node=false
                           (Setting objects in the files override it)
  -h, --help               this text

Exit codes: 0 derived, 2 bad input (the message names the file, line, object and field).
)";


struct Options {
  std::string output = "yaml";
  bool patches = false;
  std::vector<std::string> files;
  model::Settings settings;
  bool help = false;
  bool example = false;  // --example: the bundled example cluster instead of FILEs
};

// Parses flags; returns an error message for bad usage.
std::string parse_options(const std::vector<std::string>& args, Options& opt, bool files_allowed) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      opt.help = true;
    } else if (a == "--patches") {
      opt.patches = true;
    } else if (a == "--example") {
      opt.example = true;
    } else if (a == "-o" || a == "--output" || a.rfind("--output=", 0) == 0 || a.rfind("-o=", 0) == 0) {
      std::string v;
      if (a.find('=') != std::string::npos) {
        v = a.substr(a.find('=') + 1);
      } else {
        if (i + 1 >= args.size()) return a + " needs a value (yaml or json)";
        v = args[++i];
      }
      if (v != "yaml" && v != "json") return "unknown output format '" + v + "' (expected yaml or json)";
      opt.output = v;
    } else if (a == "--set") {
      if (i + 1 >= args.size()) return "--set needs NAME=VALUE";
      const std::string kv = args[++i];
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) return "--set " + kv + ": expected NAME=VALUE";
      const auto st = model::set_setting(opt.settings, kv.substr(0, eq), kv.substr(eq + 1));
      if (!st.ok()) return "--set " + kv + ": " + st.error();
    } else if (a.size() > 1 && a[0] == '-' ) {
      return "unknown option '" + a + "'";
    } else if (!files_allowed) {
      return "unexpected argument '" + a + "'";
    } else {
      opt.files.push_back(a);
    }
  }
  return "";
}

// Runs the operator's controllers to their fixpoint and prints the chain.
int print_chain(const model::ClusterState& input, const Options& opt, std::ostream& out, std::ostream& err,
                const char* who) {
  const auto converged = model::converge(input, model::operator_controllers(), "1970-01-01T00:00:00Z");
  if (!converged.ok()) {
    err << who << ": the controllers refused the input: " << converged.error() << "\n";
    return 2;
  }
  const nlohmann::json items = sim::chain_objects(converged->state);
  std::string header = "# " + std::to_string(converged->writes.size()) + " writes in " +
                       std::to_string(converged->passes) + " passes; " +
                       (converged->converged ? "converged" : "NOT converged (the controllers kept writing)") + "\n";
  std::map<std::string, int> waits;
  for (const auto& r : converged->requeues) ++waits[r.controller + " requeues " + r.key + " after " + std::to_string(r.after_seconds) + "s: " + r.reason];
  for (const auto& [w, n] : waits) header += "# " + w + "\n";
  if (opt.output == "json") {
    out << nlohmann::json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump(2) << "\n";
  } else {
    out << header << sim::to_yaml_documents(items);
  }
  return converged->converged ? 0 : 1;
}

int derive_objects(const std::vector<sim::SourceObject>& objects, const Options& opt, std::ostream& out,
                   std::ostream& err, const char* who) {
  const auto cluster = sim::read_cluster_objects(objects, opt.settings);
  if (!cluster.ok()) {
    err << who << ": " << cluster.error() << "\n";
    return 2;
  }
  if (cluster->nodes.empty()) {
    err << who << ": no Node in the input (expected objects of kind Node, with their Devices)\n";
    return 2;
  }
  if (!opt.patches) return print_chain(*cluster, opt, out, err, who);
  nlohmann::ordered_json docs = nlohmann::ordered_json::array();
  for (const auto& [name, node] : cluster->nodes) {
    const auto it = cluster->devices.find(name);
    const model::Devices* devices = it == cluster->devices.end() ? nullptr : &it->second;
    docs.push_back(sim::stage3_document(model::derive_node_stage3(node, devices, cluster->settings)));
  }
  // Write only once everything is derived, so a refusal never leaves half an output.
  if (opt.output == "json") {
    out << docs.dump(2) << "\n";
  } else {
    out << sim::to_yaml_documents(docs);
  }
  return 0;
}

}  // namespace

int derive_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options opt;
  const std::string usage_error = parse_options(args, opt, true);
  if (!usage_error.empty()) {
    err << "chaintwin derive: " << usage_error << "\n(see chaintwin derive --help)\n";
    return 2;
  }
  if (opt.help) {
    out << kDeriveHelp;
    return 0;
  }
  if (opt.example) {
    if (!opt.files.empty()) {
      err << "chaintwin derive: --example takes no FILE\n(see chaintwin derive --help)\n";
      return 2;
    }
    const auto example = sim::parse_kubernetes_objects(std::string(sim::data::kExampleClusterYaml),
                                                       "scenarios/examples/example-cluster.yaml");
    if (!example.ok()) {
      err << "chaintwin derive: the embedded example is broken: " << example.error() << "\n";
      return 2;
    }
    out << "# chaintwin: the chain of the bundled example cluster (scenarios/examples/example-cluster.yaml)\n";
    return derive_objects(*example, opt, out, err, "chaintwin derive");
  }
  if (opt.files.empty()) {
    err << "chaintwin derive: no FILE given\n(see chaintwin derive --help)\n";
    return 2;
  }
  std::vector<sim::SourceObject> objects;
  for (const auto& file : opt.files) {
    auto loaded = [&]() -> model::Result<std::vector<sim::SourceObject>> {
      if (file == "-") {
        const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
        return sim::parse_kubernetes_objects(text, "<stdin>");
      }
      return sim::load_kubernetes_objects(file);
    }();
    if (!loaded.ok()) {
      err << "chaintwin derive: " << loaded.error() << "\n";
      return 2;
    }
    for (auto& o : loaded.value()) objects.push_back(std::move(o));
  }
  return derive_objects(objects, opt, out, err, "chaintwin derive");
}

}  // namespace chaintwin::cli
