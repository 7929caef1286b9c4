#include "sim/runner/workload_factory.h"

#include "model/admission/instance_webhook.h"
#include "model/admission/pod_webhook.h"
#include "model/admission/workload_fit_pin.h"
#include "model/admission/instance_general_resources.h"
#include "model/stage3/pool_identity.h"
#include "model/catalog/profile_names.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::sim {
namespace {

// A view into the InstanceType's spec.
std::string_view manufacturer_of(const model::InstanceType& it) {
  if (!it.spec.descriptors.manufacturer.empty()) return it.spec.descriptors.manufacturer;
  const std::string_view group = it.spec.accelerator_group;
  const auto dash = group.find('-');
  return dash == std::string_view::npos ? group : group.substr(0, dash);
}

bool wants_accelerator(const RequestShape& shape) {
  switch (shape.kind) {
    case RequestShape::Kind::kCpu: return false;
    case RequestShape::Kind::kContainers: {
      auto any_accel = [](const std::vector<model::Container>& cs) {
        for (const auto& c : cs)
          for (const auto& [name, q] : c.requests)
            if (name != "cpu" && name != "memory" && name != "ephemeral-storage") return true;
        return false;
      };
      return any_accel(shape.containers) || any_accel(shape.init_containers);
    }
    default: return true;
  }
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Equal once ASCII capitals are lowered in both.
bool equal_lowered(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool matches(const model::InstanceType& it, std::string_view selector) {
  if (it.spec.accelerator_group == selector) return true;
  if (equal_lowered(it.spec.descriptors.product, selector)) return true;
  if (equal_lowered(it.spec.accelerator_group, selector)) return true;
  // "nvidia-h100-80gb-hbm3" names the group id under its manufacturer: "<manufacturer>-<group>".
  const std::string_view mfr = manufacturer_of(it);
  const std::string_view group = it.spec.accelerator_group;
  return selector.size() == mfr.size() + 1 + group.size() && equal_lowered(selector.substr(0, mfr.size()), mfr) &&
         selector[mfr.size()] == '-' && equal_lowered(selector.substr(mfr.size() + 1), group);
}

std::string first_matching(const model::ClusterState& cluster, const std::string& accelerator_selector) {
  for (const auto& [name, it] : cluster.instance_types)
    if (!it.metadata.deletion_timestamp && it.spec.acceleratable && matches(it, accelerator_selector)) return name;
  return "";
}

// The status view a Pod of `shape` draws on and how much of it one Pod needs; nullptr for CPU.
std::pair<const model::InstanceTypeCapacityView*, int64_t> view_for(const model::InstanceType& it,
                                                                    const RequestShape& shape) {
  switch (shape.kind) {
    case RequestShape::Kind::kExclusive: return {&it.status.accelerator, shape.cards};
    case RequestShape::Kind::kShared: return {&it.status.accelerator_shared, shape.cards};
    case RequestShape::Kind::kSliced: return {&it.status.accelerator_sliced, shape.memory_percentage.value_or(1)};
    case RequestShape::Kind::kPartitioned: return {&it.status.accelerator_partitioned.view, 1};
    default: return {nullptr, 0};
  }
}

// The Instance spec.resources a `kind: Instance` workload's request stands for (§3.1, Instance API).
model::InstanceResources instance_resources_for(const RequestShape& shape) {
  model::InstanceResources r;
  switch (shape.kind) {
    case RequestShape::Kind::kExclusive: r.accelerator = shape.cards; break;
    case RequestShape::Kind::kSliced:
      r.accelerator = 1;
      r.sliced_memory_percentage = shape.memory_percentage.value_or(0);
      r.sliced_cores_percentage = shape.cores_percentage.value_or(0);
      break;
    case RequestShape::Kind::kPartitioned:
      r.accelerator = 1;
      r.partitioned_profile = shape.profile;
      break;
    default: break;
  }
  r.cpu = shape.cpu;
  r.ram = shape.memory;
  return r;
}

}  // namespace

std::string accelerator_selector_key(const model::InstanceType& it) {
  const std::string_view mfr = manufacturer_of(it);
  const std::string& group = it.spec.accelerator_group;
  if (group.size() > mfr.size() && group.compare(0, mfr.size(), mfr) == 0 && group[mfr.size()] == '-') return group;
  return std::string(mfr) + "-" + group;
}

std::string choose_instance_type(const model::ClusterState& cluster, const InstanceTypeSelector& selector,
                                 bool accelerator, const std::vector<PodSetSpec>& pod_sets) {
  if (!selector.name.empty()) return selector.name;
  if (selector.accelerator.empty()) {
    if (accelerator) return "";
    for (const auto& [name, it] : cluster.instance_types)
      if (!it.metadata.deletion_timestamp && !it.spec.acceleratable) return name;
    return "";
  }
  if (selector.alternatives.empty()) return first_matching(cluster, selector.accelerator);
  // Several allowed accelerators: what a client reading `kubectl get instancetypes` would pick —
  // a type whose onceMaxRequest takes the first accelerated PodSet's Pod now, then the most
  // remaining in that view, then the listed order.
  const RequestShape* shape = nullptr;
  for (const auto& ps : pod_sets)
    if (shape == nullptr && wants_accelerator(ps.request)) shape = &ps.request;
  std::vector<std::string> choices{selector.accelerator};
  choices.insert(choices.end(), selector.alternatives.begin(), selector.alternatives.end());
  std::string best;
  std::pair<bool, int64_t> best_rank{false, -1};
  for (const auto& c : choices) {
    const std::string name = first_matching(cluster, c);
    if (name.empty()) continue;
    std::pair<bool, int64_t> rank{false, 0};
    if (shape != nullptr) {
      const auto [view, need] = view_for(cluster.instance_types.at(name), *shape);
      if (view != nullptr) rank = {view->once_max_request >= need, view->remaining};
    }
    if (best.empty() || rank > best_rank) {
      best = name;
      best_rank = rank;
    }
  }
  return best;
}

std::string family_of(const RequestShape& shape) {
  switch (shape.kind) {
    case RequestShape::Kind::kExclusive: return "exclusive";
    case RequestShape::Kind::kShared: return "shared";
    case RequestShape::Kind::kSliced: return "sliced";
    case RequestShape::Kind::kPartitioned: return "partitioned";
    case RequestShape::Kind::kCpu: return "cpu";
    case RequestShape::Kind::kContainers: return "containers";
  }
  return "cpu";
}

std::vector<model::Container> containers_for(const RequestShape& shape, const std::string& manufacturer) {
  if (shape.kind == RequestShape::Kind::kContainers) return shape.containers;
  model::Container c;
  c.name = "main";
  if (!shape.cpu.is_zero()) c.requests["cpu"] = shape.cpu;
  if (!shape.memory.is_zero()) c.requests["memory"] = shape.memory;
  const auto names = model::resource_names_for(manufacturer);
  if (names) {
    switch (shape.kind) {
      case RequestShape::Kind::kExclusive:
        c.requests[names->exclusive] = model::Quantity::from_int(shape.cards);
        break;
      case RequestShape::Kind::kShared:
        c.requests[names->shared] = model::Quantity::from_int(shape.cards);
        break;
      case RequestShape::Kind::kSliced:
        c.requests[names->sliced] = model::Quantity::from_int(1);
        if (shape.memory_percentage)
          c.requests[names->sliced_memory_percentage] = model::Quantity::from_int(*shape.memory_percentage);
        if (shape.memory_mib) c.requests[names->sliced_memory_mib] = model::Quantity::from_int(*shape.memory_mib);
        if (shape.cores_percentage)
          c.requests[names->sliced_cores_percentage] = model::Quantity::from_int(*shape.cores_percentage);
        break;
      case RequestShape::Kind::kPartitioned:
        if (!names->partitioned.empty()) {
          c.requests[names->partitioned] = model::Quantity::from_int(1);
          c.requests[model::partitioned_profile_resource_name(
              manufacturer, model::vendor_partitioned_profile_name(manufacturer, shape.profile))] =
              model::Quantity::from_int(1);
        }
        break;
      default: break;
    }
  }
  return {c};
}

RequestShape instance_pod_shape(const RequestShape& shape, const model::InstanceType& it, bool overcommit) {
  if (!it.spec.acceleratable || !shape.cpu.is_zero() || !shape.memory.is_zero()) return shape;
  model::InstanceAcceleratorHold hold;
  switch (shape.kind) {
    case RequestShape::Kind::kExclusive:
    case RequestShape::Kind::kShared: hold.cards = shape.cards; break;
    case RequestShape::Kind::kSliced:
      // Only the compute share given: the webhook copies it into the memory share first.
      hold.sliced_memory_percentage = shape.memory_percentage.value_or(shape.memory_mib ? 0 : shape.cores_percentage.value_or(0));
      if (hold.sliced_memory_percentage <= 0) return shape;
      break;
    default: return shape;
  }
  const auto sized = model::instance_general_resources(it, hold, overcommit);
  if (!sized) return shape;
  RequestShape out = shape;
  out.cpu = sized->cpu_request;
  out.memory = sized->memory_request;
  return out;
}

BuiltWorkload build_workload(const model::ClusterState& cluster, const WorkloadRequest& request, SimTime now) {
  BuiltWorkload out;
  bool accelerator = false;
  std::string family;
  for (const auto& ps : request.pod_sets) {
    accelerator = accelerator || wants_accelerator(ps.request);
    const std::string f = family_of(ps.request);
    family = family.empty() || family == f ? f : "mixed";
  }
  out.family = family.empty() ? "cpu" : family;
  if (!request.local_queue.empty()) {
    const auto lq = cluster.local_queues.find(model::local_queue_key(request.namespace_, request.local_queue));
    out.cluster_queue = lq == cluster.local_queues.end() ? "" : lq->second.cluster_queue;
  } else {
    out.instance_type = choose_instance_type(cluster, request.instance_type, accelerator, request.pod_sets);
  }
  if (out.instance_type.empty() && request.local_queue.empty()) {
    out.rejection = request.instance_type.accelerator.empty()
                        ? "no InstanceType without accelerators to queue a CPU workload on"
                        : "no InstanceType serves accelerator '" + request.instance_type.accelerator + "'";
    out.rejected_by = "no-instance-type";
    return out;
  }
  if (request.local_queue.empty()) out.cluster_queue = out.instance_type;
  const auto it_found = cluster.instance_types.find(out.instance_type);
  const model::InstanceType* it = it_found == cluster.instance_types.end() ? nullptr : &it_found->second;
  const std::string manufacturer = it != nullptr ? std::string(manufacturer_of(*it)) : request.instance_type.accelerator;
  const std::string queue =
      request.local_queue.empty() ? model::format_local_queue_name(out.instance_type) : request.local_queue;
  if (request.instance && it != nullptr && !request.pod_sets.empty()) {
    const auto admitted = model::admit_instance(*it, instance_resources_for(request.pod_sets.front().request),
                                                request.name, cluster.settings.instance_general_resources_overcommit);
    if (!admitted.allowed) {
      out.rejection = admitted.message;
      out.rejected_by = "gate1";
      return out;
    }
  }

  model::Workload wl;
  wl.metadata.name = request.name;
  wl.metadata.namespace_ = request.namespace_;
  wl.metadata.uid = request.namespace_ + "/" + request.name;
  wl.queue_name = queue;
  wl.priority = request.priority;
  wl.priority_class_ref = request.priority_class_ref;
  wl.creation_time = now.us();
  wl.status.queue_order_time = now.us();
  for (const auto& spec : request.pod_sets) {
    model::PodTemplate pod;
    if (!request.template_built) pod.labels[std::string(model::kQueueNameLabel)] = queue;
    const RequestShape shape = request.instance && it != nullptr
                                   ? instance_pod_shape(spec.request, *it, cluster.settings.instance_general_resources_overcommit)
                                   : spec.request;
    pod.containers = containers_for(shape, manufacturer);
    pod.init_containers = spec.request.init_containers;
    model::PodSet ps;
    if (request.template_built) {
      ps.template_ = pod;  // Kueue copies the job's template as written
    } else {
      const model::PodAdmission admitted = model::admit_pod(pod, it);
      if (!admitted.allowed) {
        out.rejection = admitted.message;
        out.rejected_by = "gate1";
        return out;
      }
      ps.template_ = admitted.pod;
    }
    ps.name = spec.name;
    ps.count = spec.count;
    ps.required_topology_level = request.required_topology_level;
    if (!ps.required_topology_level.empty())
      ps.template_.annotations[std::string(model::kPodSetRequiredTopologyAnnotation)] = ps.required_topology_level;
    wl.pod_sets.push_back(std::move(ps));
  }
  model::apply_workload_fit_pin(wl, cluster);
  out.workload = std::move(wl);
  return out;
}

}  // namespace chaintwin::sim
