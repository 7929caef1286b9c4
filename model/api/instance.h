// Instance (worker.gpustack.ai, namespaced): a user's running unit of an InstanceType. The
// operator's Instance controller backs it with one Pod queued on the type's LocalQueue, and stops
// it (`spec.stop`) instead of recreating a Pod the type's queue can never admit. Only what the
// chain reads or writes is modelled: the type it names, the stop switch, and the status phase.
// Reference: operator-domain.md §1.10 (fields), §3.10 (running-instance stop).
#pragma once

#include <string>

#include "model/api/object_meta.h"

namespace chaintwin::model {

// status.phase values the Instance controller writes (operator: instance.go's InstancePhase*).
inline constexpr const char* kInstancePhaseStarting = "Starting";  // the backing Pod is being created
inline constexpr const char* kInstancePhaseStopping = "Stopping";  // stop asked, the Pod is being deleted
inline constexpr const char* kInstancePhaseStopped = "Stopped";    // stop asked and the Pod is gone
inline constexpr const char* kInstancePhaseReady = "Ready";        // the Pod runs
inline constexpr const char* kInstancePhaseDeleting = "Deleting";  // the Instance is being deleted

struct InstanceSpec {
  std::string type;   // the InstanceType (= ClusterQueue) name
  bool stop = false;  // spec.stop: the backing Pod is deleted and not recreated
  bool operator==(const InstanceSpec&) const = default;
};

struct InstanceStatus {
  std::string phase;          // see kInstancePhase*; empty until the controller writes one
  std::string phase_message;  // status.phaseMessage
  bool operator==(const InstanceStatus&) const = default;
};

struct Instance {
  ObjectMeta metadata;  // namespaced
  InstanceSpec spec;
  InstanceStatus status;
  bool operator==(const Instance&) const = default;
};

inline std::string instance_key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

}  // namespace chaintwin::model
