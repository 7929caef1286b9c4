// What one container claims of an accelerator family, read off its resource requests: the
// family, the manufacturer and resource base it names, the token count, the folded units and
// the partition profile. The Pod webhook, the credit transform, Gate 3's demand builder and the
// device-plugin allocator all read requests through this one reader, so they never disagree on
// which key belongs to which family (resource_classify.h decides that).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/object_meta.h"
#include "model/catalog/resource_names.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// The accelerator base a resource name is a key of, with its family; nullopt outside the four
// accelerator families (visibility and credits included). The names are the manufacturer table's
// own (model/catalog/manufacturer.h), so they outlive any key.
struct AcceleratorKey {
  std::string_view base;          // e.g. "nvidia.com/gpu"
  std::string_view manufacturer;  // e.g. "nvidia"
  ResourceFamily family = ResourceFamily::kNone;
  bool operator==(const AcceleratorKey&) const = default;
};
std::optional<AcceleratorKey> accelerator_key_of(std::string_view resource_name);
// The same, found by the rules one by one (its base cut off the name, then looked up) instead of
// resource_class_of()'s table: its tests compare the two.
std::optional<AcceleratorKey> accelerator_key_by_rules(std::string_view resource_name);

struct ContainerClaim {
  ResourceFamily family = ResourceFamily::kNone;
  std::string manufacturer;
  std::string base;
  int64_t count = 0;     // exclusive / shared: cards; sliced / partitioned: the token (1)
  int64_t units = 0;     // `.sliced.units` or `.partitioned.units` (0 when absent)
  std::string profile;   // partitioned: the published profile the per-profile key names
};

// The container's claim on the first accelerator family its requests name (a Pod that passed
// the webhook names at most one); nullopt when it requests none.
std::optional<ContainerClaim> container_claim(const Container& container);
// Whether container_claim() gives a claim: some request has an accelerator key (no claim built).
bool claims_accelerator(const Container& container);

// Every container of the template that claims an accelerator, init containers first, with
// its claim.
struct ClaimingContainer {
  const Container* container = nullptr;
  ContainerClaim claim;
};
std::vector<ClaimingContainer> claiming_containers(const PodTemplate& pod);

// The Pod's effective requests as the scheduler sums them: per key, max(Σ app containers,
// max over each init container) — a native sidecar counts towards both.
ResourceList pod_effective_requests(const PodTemplate& pod);
// Calls f(name, milli) for each entry of pod_effective_requests(pod), in name order, with its
// amount in milli-units; without building the list where the Pod has one container and no init
// containers (most Pods: its requests are the list, each rounded up to a milli).
template <class F>
void each_effective_request(const PodTemplate& pod, F&& f) {
  if (pod.init_containers.empty() && pod.containers.size() == 1) {
    for (const auto& [name, q] : pod.containers.front().requests) f(name, q.milli_value_ceil());
    return;
  }
  for (const auto& [name, q] : pod_effective_requests(pod)) f(name, q.milli_value_ceil());
}

}  // namespace chaintwin::model
