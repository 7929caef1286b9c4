// The runner's TopologySource controller: what each writing source's arm (its ConfigMap key or
// webhook) reads over the scenario's time — for the sources the timeline feeds — and when the
// controller reconciles a source — at the start, when the arm's content changes (topology-snapshot, topology-read-failure), when it asked
// to look again (the webhook's poll interval, the end of maxStaleness, an ownership conflict's
// minute), and when a Node joins or leaves. Each reconcile applies the model's Plan
// (model/stage4/topology_source_reconciler.h), then NFD's projection of the NodeFeatures onto the
// Nodes (model/stage3/nfd_projection.h); the caller then runs the chain (NodeTopology reads the
// projected labels and the source's Ready condition).
#include <set>

#include "model/stage3/nfd_projection.h"
#include "model/stage4/topology_source_reconciler.h"
#include "sim/runner/chain_sync.h"
#include "sim/runner/simulation.h"

namespace chaintwin::sim {

namespace {

// What a writing arm reads before the scenario delivers anything: the ConfigMap is not there, the
// endpoint does not answer.
model::TopologyRead nothing_delivered(const model::TopologySource& source) {
  model::TopologyRead r;
  if (source.webhook) {
    r.failure_reason = std::string(model::kWebhookReadFailed);
    r.failure_message = "topology webhook returned HTTP 503";
  } else {
    r.failure_reason = std::string(model::kConfigMapReadFailed);
    r.failure_message = "configmaps \"" + (source.config_map ? source.config_map->config_map_ref.name : "") +
                        "\" not found";
  }
  return r;
}

}  // namespace

size_t Simulation::start_topology_sources() {
  // The controller runs for the writing sources the timeline feeds; any other source keeps the
  // status the scenario gives it (a cluster captured from a live one already carries the labels).
  std::set<std::string> fed;
  for (const auto& a : scenario_.timeline)
    if (a.kind == TimelineAction::Kind::kTopologySnapshot || a.kind == TimelineAction::Kind::kTopologyReadFailure)
      fed.insert(a.source);
  for (auto& [name, source] : cluster_.topology_sources) {
    if (!source.writes() || fed.count(name) == 0) continue;
    // A source given without a uid gets a stable one: its NodeFeatures are named after it.
    if (source.metadata.uid.empty()) source.metadata.uid = "uid-topologysource-" + name;
    topology_arms_[name].read = nothing_delivered(source);
  }
  // What the arms hold at 0s is what the operator reads when it starts.
  for (size_t i = 0; i < scenario_.timeline.size(); ++i) {
    const TimelineAction& a = scenario_.timeline[i];
    if (a.at > SimTime{} || (a.kind != TimelineAction::Kind::kTopologySnapshot &&
                             a.kind != TimelineAction::Kind::kTopologyReadFailure))
      continue;
    topology_arms_[a.source].read = a.read;
    timeline_done_at_start_.insert(i);
  }
  size_t writes = 0;
  for (const auto& [name, arm] : topology_arms_) writes += reconcile_topology_source(name).size();
  return writes;
}

std::vector<model::Write> Simulation::reconcile_topology_source(const std::string& name) {
  auto arm = topology_arms_.find(name);
  if (arm == topology_arms_.end() || cluster_.topology_sources.count(name) == 0) return {};
  const auto features_before = cluster_.node_features;
  model::Plan plan = model::reconcile_topology_source(cluster_, name, arm->second.read, rfc3339(now_));
  auto applied = model::apply_plan(cluster_, plan, rfc3339(now_));
  if (!applied.ok()) {
    fatal_ = "at " + now_.to_string() + ": the TopologySource controller failed: " + applied.error();
    return {};
  }
  cluster_ = std::move(applied).value();
  model::Plan projection = model::project_node_features(features_before, cluster_);
  auto projected = model::apply_plan(cluster_, projection, rfc3339(now_));
  if (!projected.ok()) {
    fatal_ = "at " + now_.to_string() + ": NFD's projection failed: " + projected.error();
    return {};
  }
  cluster_ = std::move(projected).value();
  // The latest reconcile decides when the source is looked at again; earlier requeues lapse.
  const int64_t epoch = ++arm->second.epoch;
  for (const auto& r : plan.requeues) {
    if (r.after_seconds <= 0) {
      log("error", "TopologySource " + name, r.reason);
      continue;
    }
    schedule(now_ + SimTime::seconds(r.after_seconds), {SimEvent::Kind::kTopologySource, 0, name, epoch});
  }
  std::vector<model::Write> writes = std::move(plan.writes);
  for (auto& w : projection.writes) writes.push_back(std::move(w));
  return writes;
}

void Simulation::reconcile_writing_sources() {
  std::vector<std::string> names;
  for (const auto& [name, arm] : topology_arms_) names.push_back(name);
  std::vector<model::Write> writes;
  for (const auto& name : names)
    for (auto& w : reconcile_topology_source(name)) writes.push_back(std::move(w));
  if (!writes.empty()) after_chain_writes(writes, {}, {});
}

void Simulation::on_topology_source(const std::string& name, int64_t epoch) {
  const auto arm = topology_arms_.find(name);
  if (arm == topology_arms_.end() || arm->second.epoch != epoch) return;
  auto writes = reconcile_topology_source(name);
  if (!fatal_.empty()) return;
  if (writes.empty()) return;  // nothing changed: the chain has nothing new to read
  after_chain_writes(writes, {}, {});
  resync({});
  after_queue_change();
}

void Simulation::delete_topology_source(const std::string& name) {
  // The finalizer's cleanup: the source's NodeFeatures go, then the source.
  const auto it = cluster_.topology_sources.find(name);
  if (it == cluster_.topology_sources.end()) return;
  const auto features_before = cluster_.node_features;
  model::Plan plan;
  for (const auto& key : model::owned_node_features(cluster_, it->second))
    plan.writes.push_back({model::WriteVerb::kDelete, cluster_.node_features.at(key),
                           std::string(model::kTopologySourceController),
                           "TopologySource " + name + " is deleted: its NodeFeatures go with it"});
  cluster_.topology_sources.erase(it);
  topology_arms_.erase(name);
  auto applied = model::apply_plan(cluster_, plan, rfc3339(now_));
  if (!applied.ok()) {
    fatal_ = "at " + now_.to_string() + ": deleting TopologySource " + name + " failed: " + applied.error();
    return;
  }
  cluster_ = std::move(applied).value();
  model::Plan projection = model::project_node_features(features_before, cluster_);
  auto projected = model::apply_plan(cluster_, projection, rfc3339(now_));
  if (projected.ok()) cluster_ = std::move(projected).value();
  for (auto& w : projection.writes) plan.writes.push_back(std::move(w));
  if (!plan.writes.empty()) after_chain_writes(plan.writes, {}, {});
}

void Simulation::collect_node_features(const std::string& node) {
  // NFD's garbage collector: the NodeFeatures of a Node that is gone are deleted.
  for (auto it = cluster_.node_features.begin(); it != cluster_.node_features.end();)
    it = it->second.node_name() == node ? cluster_.node_features.erase(it) : std::next(it);
}

}  // namespace chaintwin::sim
