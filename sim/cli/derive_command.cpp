#include "sim/cli/derive_command.h"

#include <iostream>
#include <iterator>
#include <sstream>

#include "model/stage3/stage3.h"
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

// What derive works with: the parsed options and the settings --set gave.
struct Options {
  const DeriveCommandOptions& cli;
  model::Settings settings;
};

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
  if (opt.cli.output == "json") {
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
  if (!opt.cli.patches) return print_chain(*cluster, opt, out, err, who);
  nlohmann::ordered_json docs = nlohmann::ordered_json::array();
  for (const auto& [name, node] : cluster->nodes) {
    const auto it = cluster->devices.find(name);
    const model::Devices* devices = it == cluster->devices.end() ? nullptr : &it->second;
    docs.push_back(sim::stage3_document(model::derive_node_stage3(node, devices, cluster->settings)));
  }
  // Write only once everything is derived, so a refusal never leaves half an output.
  if (opt.cli.output == "json") {
    out << docs.dump(2) << "\n";
  } else {
    out << sim::to_yaml_documents(docs);
  }
  return 0;
}

}  // namespace

int derive_command(const DeriveCommandOptions& o, std::ostream& out, std::ostream& err) {
  Options opt{o, {}};
  for (const auto& [name, value] : o.settings) {
    if (const auto st = model::set_setting(opt.settings, name, value); !st.ok()) {
      err << "chaintwin derive: --set " << name << "=" << value << ": " << st.error() << "\n";
      return 2;
    }
  }
  if (o.example) {
    const auto example = sim::parse_kubernetes_objects(std::string(sim::data::kExampleClusterYaml),
                                                       "scenarios/examples/example-cluster.yaml");
    if (!example.ok()) {
      err << "chaintwin derive: the embedded example is broken: " << example.error() << "\n";
      return 2;
    }
    out << "# chaintwin: the chain of the bundled example cluster (scenarios/examples/example-cluster.yaml)\n";
    return derive_objects(*example, opt, out, err, "chaintwin derive");
  }
  std::vector<sim::SourceObject> objects;
  for (const auto& file : o.files) {
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
    for (auto& object : loaded.value()) objects.push_back(std::move(object));
  }
  return derive_objects(objects, opt, out, err, "chaintwin derive");
}

}  // namespace chaintwin::cli
