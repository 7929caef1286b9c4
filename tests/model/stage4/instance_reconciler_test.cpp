// The Instance controller's stop (operator-domain.md §3.10, §10.10, §10.11; the operator's
// admission.md "Running-instance stop"): keyed on the backing ClusterQueue's StopPolicy and on the
// InstanceType's deletion or absence, never on an admin Hold.
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/api/instance_codec.h"
#include "model/stage4/instance_reconciler.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"

#include <nlohmann/json.hpp>

using namespace chaintwin::model;

namespace {

constexpr const char* kType = "gpustack--nvidia-tesla-t4-linux-amd64";
constexpr const char* kKey = "default/run-0";

Instance instance(bool stop = false, std::string phase = "") {
  Instance i;
  i.metadata.namespace_ = "default";
  i.metadata.name = "run-0";
  i.metadata.uid = "uid-i";
  i.spec.type = kType;
  i.spec.stop = stop;
  i.status.phase = std::move(phase);
  return i;
}

// A state with the type (optionally terminating), its queue (optionally with a stop policy), and
// the Instance (optionally with its Pod).
ClusterState state_with(const Instance& inst, bool type_exists, bool type_terminating,
                        std::optional<StopPolicy> policy, bool queue_exists, bool pod) {
  ClusterState s;
  if (type_exists) {
    InstanceType t;
    t.metadata.name = kType;
    if (type_terminating) {
      t.metadata.deletion_timestamp = "2026-01-01T00:10:00Z";
      t.metadata.finalizers = {"gpustack.ai/controlled"};
    }
    s.instance_types[kType] = t;
  }
  if (queue_exists) {
    ClusterQueue q;
    q.metadata.name = kType;
    q.spec.stop_policy = policy;
    s.cluster_queues[kType] = q;
  }
  s.instances[kKey] = inst;
  if (pod) s.instance_pods.insert(kKey);
  return s;
}

}  // namespace

TEST_CASE("an Instance is stopped exactly when its queue is HoldAndDrain or its type is going", "[instance]") {
  struct Row {
    const char* what;
    bool type_exists;
    bool type_terminating;
    std::optional<StopPolicy> policy;
    bool queue_exists;
    const char* want_reason;  // "" = no write
  };
  const std::vector<Row> rows{
      {"a queue with no stop policy keeps it running", true, false, std::nullopt, true, ""},
      {"a queue at None keeps it running", true, false, StopPolicy::kNone, true, ""},
      {"an admin Hold keeps it running (Hold is not a stop)", true, false, StopPolicy::kHold, true, ""},
      {"a HoldAndDrain queue stops it", true, false, StopPolicy::kHoldAndDrain, true,
       "stop instance: cluster queue gpustack--nvidia-tesla-t4-linux-amd64 is HoldAndDrain"},
      {"a type being deleted stops it, whatever its queue", true, true, StopPolicy::kNone, true,
       "stop instance: instance type gpustack--nvidia-tesla-t4-linux-amd64 is being deleted"},
      {"a type that is gone stops it", false, false, std::nullopt, false,
       "stop instance: instance type gpustack--nvidia-tesla-t4-linux-amd64 is gone"},
      {"a queue momentarily absent under a live type has no StopPolicy to stop on", true, false, std::nullopt, false, ""},
  };
  for (const auto& r : rows) {
    SECTION(r.what) {
      const Plan p = reconcile_instances(state_with(instance(), r.type_exists, r.type_terminating, r.policy,
                                                    r.queue_exists, true));
      CHECK(p.requeues.empty());
      if (std::string(r.want_reason).empty()) {
        CHECK(p.writes.empty());
      } else {
        REQUIRE(p.writes.size() == 1);
        const Write& w = p.writes[0];
        CHECK(w.verb == WriteVerb::kUpdate);
        CHECK(w.controller == "Instance");
        CHECK(w.reason == r.want_reason);
        const auto& written = std::get<Instance>(w.object);
        CHECK(written.spec.stop);
        CHECK(written.status == instance().status);  // the stop is a spec write; the phase follows
      }
    }
  }
}

TEST_CASE("a stopped Instance reads Stopping while its Pod is there and Stopped once it is gone", "[instance]") {
  struct Row {
    const char* what;
    const char* phase;
    bool pod;
    const char* want_phase;  // "" = no write
    bool want_requeue;
  };
  const std::vector<Row> rows{
      {"the Pod still there: Stopping, and a look again in 2 s", "", true, "Stopping", true},
      {"already Stopping with the Pod there: no write, still waiting", "Stopping", true, "", true},
      {"the Pod gone: Stopped", "Stopping", false, "Stopped", false},
      {"never had a Pod: Stopped", "", false, "Stopped", false},
      {"already Stopped: nothing to do", "Stopped", false, "", false},
  };
  for (const auto& r : rows) {
    SECTION(r.what) {
      Instance i = instance(true, r.phase);
      i.status.phase_message = "was running";
      const Plan p = reconcile_instances(state_with(i, true, false, StopPolicy::kHoldAndDrain, true, r.pod));
      if (std::string(r.want_phase).empty()) {
        CHECK(p.writes.empty());
      } else {
        REQUIRE(p.writes.size() == 1);
        CHECK(p.writes[0].verb == WriteVerb::kUpdateStatus);
        const auto& written = std::get<Instance>(p.writes[0].object);
        CHECK(written.status.phase == r.want_phase);
        // Stopped replaces the whole status (instance.go: Status = {Phase: Stopped}); Stopping sets
        // the phase only.
        CHECK(written.status.phase_message == (std::string(r.want_phase) == "Stopped" ? "" : "was running"));
      }
      if (r.want_requeue) {
        REQUIRE(p.requeues.size() == 1);
        CHECK(p.requeues[0] == Requeue{"Instance", kKey, 2, "pod deletion in progress"});
      } else {
        CHECK(p.requeues.empty());
      }
    }
  }
}

TEST_CASE("a drained queue's Instance goes from running to Stopped through the reconcile loop", "[instance]") {
  ClusterState s = state_with(instance(), true, false, StopPolicy::kHoldAndDrain, true, false);
  Instance other = instance();
  other.metadata.name = "run-1";
  other.spec.type = "gpustack--nvidia-a10g-linux-amd64";  // no such type: stopped too
  s.instances["default/run-1"] = other;
  const std::vector<Controller> controllers{{"Instance", [](const ClusterState& st) { return reconcile_instances(st); }, {}}};
  const auto r = converge(s, controllers, "2026-01-01T00:10:00Z");
  REQUIRE(r.ok());
  CHECK(r->converged);
  CHECK(r->passes == 2);  // the stop, then the phase
  for (const char* key : {"default/run-0", "default/run-1"}) {
    const Instance& got = r->state.instances.at(key);
    CHECK(got.spec.stop);
    CHECK(got.status.phase == "Stopped");
    CHECK(got.metadata.generation == 1);  // the stop is a spec change on an object that had none stored
  }
}

TEST_CASE("the Instance controller runs last in the operator's loop, after every controller it reads", "[instance]") {
  const auto controllers = operator_controllers();
  REQUIRE_FALSE(controllers.empty());
  CHECK(controllers.back().name == "Instance");
  CHECK(controllers.back().reads_from == std::vector<std::string>{"InstanceType", "NodeQueue", "Kueue"});
  // With no Instances it writes nothing, so a cluster without them converges as before.
  CHECK(reconcile_instances(ClusterState{}).writes.empty());
}

TEST_CASE("an Instance encodes as worker.gpustack.ai/v1 and decodes back", "[instance]") {
  Instance i = instance(true, "Stopped");
  const auto j = encode_instance(i);
  CHECK(j.at("apiVersion") == "worker.gpustack.ai/v1");
  CHECK(j.at("kind") == "Instance");
  CHECK(j.at("spec").at("type") == kType);
  CHECK(j.at("spec").at("stop") == true);
  CHECK(j.at("status").at("phase") == "Stopped");
  const auto back = decode_instance(j);
  REQUIRE(back.ok());
  CHECK(back->spec == i.spec);
  CHECK(back->status == i.status);
  CHECK(back->metadata.name == "run-0");
  CHECK(back->metadata.namespace_ == "default");
  CHECK_FALSE(encode_instance(instance()).at("spec").contains("stop"));
}
