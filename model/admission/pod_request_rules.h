// Gate 1's validating half — the seven accelerator request rules of the operator's Pod webhook
// (pkg/worker/webhooks/worker/pod.go validatePodAcceleratorRequest), with its field errors:
//   1. one accelerator family per Pod, all claims in one container group (init vs app);
//   2. `<base>.sliced` exactly 1, one memory budget (percentage xor MiB), budgets in range;
//   3. `<base>.partitioned` exactly 1, naming a profile;
//   4. one partition profile Pod-wide (and per container);
//   5. each per-profile key exactly 1;
//   6. at most one container requests a slicing family (logical or physical);
//   7. a native sidecar (restartable init container) requests no accelerator.
// The visibility resource is outside the families, so no rule counts it. Called by
// pod_webhook.cpp after the fold, as the API server runs mutating before validating webhooks.
#pragma once

#include <string>
#include <vector>

#include "model/workload/workload.h"

namespace chaintwin::model {

// Kubernetes field errors, each rendered "<path>: <Type>: <detail>" as field.Error does
// (e.g. `spec: Forbidden: a Pod may request only one accelerator family, found [exclusive sliced]`).
std::vector<std::string> validate_pod_accelerator_request(const PodTemplate& pod);

// The API server's aggregate for an Invalid Pod: `Pod "<name>" is invalid: <e>` for one error,
// `… is invalid: [<e1>, <e2>]` for several.
std::string invalid_pod_message(const std::string& pod_name, const std::vector<std::string>& errors);

}  // namespace chaintwin::model
