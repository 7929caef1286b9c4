#include "sim/cli/explain_command.h"

#include "live/api_client.h"
#include "live/cluster_reader.h"
#include "live/kubeconfig.h"

#include "sim/explain/explain_report.h"
#include "sim/explain/explain_run.h"
#include "sim/results/run_file_reader.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::cli {

int explain_command(const ExplainCommandOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& why) {
    err << "chaintwin explain: " << why << "\n";
    return 2;
  };
  // The first positional that reads as a scenario file is the SCENARIO: CLI11 gives every
  // positional to WORKLOAD..., so a name ending in .yaml/.yml/.json is taken as the scenario.
  std::vector<std::string> names;
  std::string scenario_path = o.scenario;
  for (const auto& w : o.workloads) {
    const auto ends = [&](const std::string& suffix) {
      return w.size() > suffix.size() && w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (scenario_path.empty() && (ends(".yaml") || ends(".yml") || ends(".json"))) scenario_path = w;
    else names.push_back(w);
  }
  if (!o.db.empty() && !scenario_path.empty()) return fail("give a SCENARIO or --db FILE, not both");
  const bool live = o.live || o.kubeconfig || o.context;
  if (live) {
    if (!o.db.empty() || !scenario_path.empty()) return fail("--live reads a cluster: no SCENARIO or --db");
    if (o.at || o.within || o.seed || o.most_searched)
      return fail("--live explains the cluster as it is now: no --at, --within, --seed or --most-searched");
    if (names.empty() && !o.all_pending) return fail("name a Workload (<namespace>/<name>), or give --all-pending");
    auto connection = live::resolve_connection(live::request_from_environment(o.kubeconfig, o.context));
    if (!connection.ok()) return fail(connection.error());
    auto client = live::ApiClient::create(*connection, {});
    if (!client.ok()) return fail(client.error());
    auto observed = live::read_cluster(**client);
    if (!observed.ok()) {
      err << "chaintwin explain: " << connection->server << ": " << observed.error() << "\n";
      return 3;
    }
    for (const auto& m : observed->missing) err << "chaintwin explain: not served: " << m << "\n";
    auto result = sim::explain_state(observed->state, observed->workloads, names, o.all_pending, 12, connection->server);
    if (!result) return fail(result.error());
    if (o.output == "json") out << sim::explain_json(*result).dump(2) << "\n";
    else out << sim::explain_text(*result);
    return 0;
  }
  sim::ExplainOptions options;
  options.workloads = names;
  options.all_pending = o.all_pending;
  options.at = o.at;
  options.seed = o.seed;
  if (o.within) options.within = *o.within;
  options.search = !o.no_search;
  if (o.most_searched) options.most_searched = static_cast<size_t>(*o.most_searched);
  if (names.empty() && !o.all_pending) return fail("name a Workload (<namespace>/<name>), or give --all-pending");

  model::Result<sim::Scenario> scenario = model::err("");
  if (!o.db.empty()) {
    auto stored = sim::read_run_file(o.db, std::nullopt);
    if (!stored) return fail(stored.error());
    const sim::RunInfo& info = stored->record.info;
    const bool embedded = info.scenario_file.find("(embedded)") != std::string::npos;
    scenario = sim::load_scenario_or_default(embedded ? "" : info.scenario_file);
    if (!scenario)
      return fail(o.db + ": the run's scenario " + info.scenario_file + " cannot be read again (" + scenario.error() +
                  "); explain replays the run from it");
    if (scenario->content_hash != info.scenario_hash)
      return fail(o.db + ": the scenario " + info.scenario_file + " changed since the run (hash " + info.scenario_hash +
                  " then, " + scenario->content_hash + " now); explain replays the run from it");
    if (o.seed && *o.seed != info.seed) return fail("--seed " + std::to_string(*o.seed) + " differs from the run's seed " + std::to_string(info.seed));
    options.seed = info.seed;
    if (o.at && info.ended_at < *o.at)
      return fail("--at " + o.at->to_string() + " is after the run's end " + info.ended_at.to_string() + " in " + o.db);
    if (!options.at) options.at = info.ended_at;
  } else {
    scenario = sim::load_scenario_or_default(scenario_path);
    if (!scenario) return fail(scenario.error());
  }
  auto result = sim::explain_scenario(*scenario, options);
  if (!result) return fail(result.error());
  if (o.output == "json") out << sim::explain_json(*result).dump(2) << "\n";
  else out << sim::explain_text(*result);
  return 0;
}

}  // namespace chaintwin::cli
