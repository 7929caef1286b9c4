// ClusterQueue JSON encoding and path-aware decoding.
#include "model/kueue/cluster_queue_codec.h"

#include <limits>

#include "model/api/codec_support.h"
#include "model/kueue/condition_codec.h"
#include "model/kueue/fair_sharing_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/kueue/resource_groups_codec.h"
#include "model/api/object_meta_codec.h"

namespace chaintwin::model {
namespace {

using codec::json;
using resource_groups_codec::decode_resource_groups;
using resource_groups_codec::encode_resource_groups;
using resource_groups_codec::optional_quantity;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// ---- encoding ----------------------------------------------------------------------------------

json encode_usage(const std::vector<FlavorUsage>& usage) {
  json out = json::array();
  for (const auto& f : usage) {
    json resources = json::array();
    for (const auto& r : f.resources)
      resources.push_back({{"name", r.name}, {"total", r.total.to_string()}, {"borrowed", r.borrowed.to_string()}});
    out.push_back({{"name", f.name}, {"resources", std::move(resources)}});
  }
  return out;
}

json encode_spec(const ClusterQueueSpec& s) {
  json spec = json::object();
  if (!s.cohort_name.empty()) spec["cohortName"] = s.cohort_name;
  if (!s.resource_groups.empty()) spec["resourceGroups"] = encode_resource_groups(s.resource_groups);
  if (s.stop_policy) spec["stopPolicy"] = to_string(*s.stop_policy);
  if (!s.admission_checks.empty()) {
    json checks = json::array();
    for (const auto& name : s.admission_checks) checks.push_back({{"name", name}});
    spec["admissionChecksStrategy"] = {{"admissionChecks", std::move(checks)}};
  }
  if (s.namespace_selector_all) spec["namespaceSelector"] = json::object();
  json fungibility = json::object();
  if (!s.flavor_fungibility.when_can_borrow.empty()) fungibility["whenCanBorrow"] = s.flavor_fungibility.when_can_borrow;
  if (!s.flavor_fungibility.when_can_preempt.empty()) fungibility["whenCanPreempt"] = s.flavor_fungibility.when_can_preempt;
  if (!s.flavor_fungibility.preference.empty()) fungibility["preference"] = s.flavor_fungibility.preference;
  if (!fungibility.empty()) spec["flavorFungibility"] = std::move(fungibility);
  json preemption = json::object();
  if (!s.preemption.reclaim_within_cohort.empty()) preemption["reclaimWithinCohort"] = s.preemption.reclaim_within_cohort;
  if (!s.preemption.borrow_within_cohort_policy.empty() || s.preemption.max_priority_threshold) {
    json borrow = json::object();
    if (!s.preemption.borrow_within_cohort_policy.empty()) borrow["policy"] = s.preemption.borrow_within_cohort_policy;
    if (s.preemption.max_priority_threshold) borrow["maxPriorityThreshold"] = *s.preemption.max_priority_threshold;
    preemption["borrowWithinCohort"] = std::move(borrow);
  }
  if (!s.preemption.within_cluster_queue.empty()) preemption["withinClusterQueue"] = s.preemption.within_cluster_queue;
  if (!preemption.empty()) spec["preemption"] = std::move(preemption);
  if (!s.queueing_strategy.empty()) spec["queueingStrategy"] = s.queueing_strategy;
  fair_sharing_codec::encode_weight(spec, s.fair_sharing_weight);
  if (!s.admission_mode.empty()) spec["admissionScope"] = {{"admissionMode", s.admission_mode}};
  return spec;
}

json encode_status(const ClusterQueueStatus& s) {
  json status{{"pendingWorkloads", s.pending_workloads},
              {"reservingWorkloads", s.reserving_workloads},
              {"admittedWorkloads", s.admitted_workloads}};
  if (!s.conditions.empty()) status["conditions"] = encode_conditions(s.conditions);
  if (!s.flavors_reservation.empty()) status["flavorsReservation"] = encode_usage(s.flavors_reservation);
  if (!s.flavors_usage.empty()) status["flavorsUsage"] = encode_usage(s.flavors_usage);
  if (s.weighted_share) status["fairSharing"] = {{"weightedShare", *s.weighted_share}};
  return status;
}

// ---- decoding (throws codec::DecodeError) ------------------------------------------------------

std::vector<std::string> decode_admission_checks(const json& spec) {
  std::vector<std::string> out;
  if (const json* strategy = codec::find_member(spec, "admissionChecksStrategy")) {
    codec::expect_object(*strategy, "spec.admissionChecksStrategy");
    const json& checks = codec::read_array(*strategy, "admissionChecks", "spec.admissionChecksStrategy");
    for (std::size_t i = 0; i < checks.size(); ++i) {
      const std::string at = codec::index_path("spec.admissionChecksStrategy.admissionChecks", i);
      codec::expect_object(checks[i], at);
      out.push_back(codec::read_string(checks[i], "name", at));
    }
    return out;
  }
  return codec::read_string_list(spec, "admissionChecks", "spec");  // v1beta1
}

ClusterQueueSpec decode_spec(const json& spec) {
  ClusterQueueSpec s;
  s.cohort_name = codec::read_string(spec, "cohortName", "spec");
  if (s.cohort_name.empty()) s.cohort_name = codec::read_string(spec, "cohort", "spec");  // v1beta1
  s.resource_groups = decode_resource_groups(spec);
  if (const json* p = codec::find_member(spec, "stopPolicy")) {
    const std::string text = codec::as_string(*p, "spec.stopPolicy");
    s.stop_policy = parse_stop_policy(text);
    if (!s.stop_policy)
      codec::fail("spec.stopPolicy", "expected \"None\", \"Hold\" or \"HoldAndDrain\", got " + p->dump());
  }
  s.admission_checks = decode_admission_checks(spec);
  s.namespace_selector_all = false;
  if (const json* ns = codec::find_member(spec, "namespaceSelector")) {
    codec::expect_object(*ns, "spec.namespaceSelector");
    const json* labels = codec::find_member(*ns, "matchLabels");
    const json* exprs = codec::find_member(*ns, "matchExpressions");
    if ((labels != nullptr && !labels->empty()) || (exprs != nullptr && !exprs->empty()))
      codec::fail("spec.namespaceSelector",
                  "only {} (every namespace) is modelled, got " + ns->dump());
    s.namespace_selector_all = true;
  }
  if (const json* f = codec::find_member(spec, "flavorFungibility")) {
    codec::expect_object(*f, "spec.flavorFungibility");
    s.flavor_fungibility.when_can_borrow = codec::read_string(*f, "whenCanBorrow", "spec.flavorFungibility");
    s.flavor_fungibility.when_can_preempt = codec::read_string(*f, "whenCanPreempt", "spec.flavorFungibility");
    s.flavor_fungibility.preference = codec::read_string(*f, "preference", "spec.flavorFungibility");
  }
  if (const json* p = codec::find_member(spec, "preemption")) {
    codec::expect_object(*p, "spec.preemption");
    s.preemption.reclaim_within_cohort = codec::read_string(*p, "reclaimWithinCohort", "spec.preemption");
    s.preemption.within_cluster_queue = codec::read_string(*p, "withinClusterQueue", "spec.preemption");
    if (const json* b = codec::find_member(*p, "borrowWithinCohort")) {
      codec::expect_object(*b, "spec.preemption.borrowWithinCohort");
      s.preemption.borrow_within_cohort_policy = codec::read_string(*b, "policy", "spec.preemption.borrowWithinCohort");
      if (codec::find_member(*b, "maxPriorityThreshold") != nullptr)
        s.preemption.max_priority_threshold = static_cast<int32_t>(codec::read_int(
            *b, "maxPriorityThreshold", "spec.preemption.borrowWithinCohort", std::numeric_limits<int32_t>::min(), kInt32Max));
    }
  }
  // Kueue's CEL rules on the ClusterQueue (clusterqueue_types.go).
  if (s.cohort_name.empty())
    for (std::size_t g = 0; g < s.resource_groups.size(); ++g)
      for (std::size_t f = 0; f < s.resource_groups[g].flavors.size(); ++f)
        for (std::size_t r = 0; r < s.resource_groups[g].flavors[f].resources.size(); ++r)
          if (s.resource_groups[g].flavors[f].resources[r].borrowing_limit)
            codec::fail("spec.resourceGroups[" + std::to_string(g) + "].flavors[" + std::to_string(f) + "].resources[" +
                            std::to_string(r) + "].borrowingLimit",
                        "must be nil when cohort is empty");
  if (s.preemption.reclaim_within_cohort == "Never" && !s.preemption.borrow_within_cohort_policy.empty() &&
      s.preemption.borrow_within_cohort_policy != "Never")
    codec::fail("spec.preemption", "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never");
  // Kueue's defaulting webhook stores BestEffortFIFO when the field is left out.
  if (codec::find_member(spec, "queueingStrategy") != nullptr)
    s.queueing_strategy = codec::read_string(spec, "queueingStrategy", "spec");
  s.fair_sharing_weight = fair_sharing_codec::decode_weight(spec);
  if (const json* scope = codec::find_member(spec, "admissionScope"); scope != nullptr && !scope->is_null()) {
    codec::expect_object(*scope, "spec.admissionScope");
    s.admission_mode = codec::read_string(*scope, "admissionMode", "spec.admissionScope");
    if (s.admission_mode.empty()) codec::fail("spec.admissionScope.admissionMode", "Required value");
  }
  return s;
}

std::vector<FlavorUsage> decode_usage(const json& status, std::string_view key) {
  std::vector<FlavorUsage> out;
  const json& list = codec::read_array(status, key, "status");
  const std::string path = codec::member_path("status", key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = codec::index_path(path, i);
    codec::expect_object(list[i], at);
    FlavorUsage f;
    f.name = codec::read_string(list[i], "name", at);
    const json& resources = codec::read_array(list[i], "resources", at);
    for (std::size_t ri = 0; ri < resources.size(); ++ri) {
      const std::string rp = codec::index_path(codec::member_path(at, "resources"), ri);
      codec::expect_object(resources[ri], rp);
      ResourceUsage r;
      r.name = codec::read_string(resources[ri], "name", rp);
      r.total = optional_quantity(resources[ri], "total", rp).value_or(Quantity{});
      r.borrowed = optional_quantity(resources[ri], "borrowed", rp).value_or(Quantity{});
      f.resources.push_back(std::move(r));
    }
    out.push_back(std::move(f));
  }
  return out;
}

ClusterQueueStatus decode_status(const json& status) {
  ClusterQueueStatus s;
  if (const json* c = codec::find_member(status, "conditions"))
    s.conditions = codec::decode_conditions_at(*c, "status.conditions");
  s.pending_workloads = static_cast<int32_t>(codec::read_int(status, "pendingWorkloads", "status", 0, kInt32Max));
  s.reserving_workloads = static_cast<int32_t>(codec::read_int(status, "reservingWorkloads", "status", 0, kInt32Max));
  s.admitted_workloads = static_cast<int32_t>(codec::read_int(status, "admittedWorkloads", "status", 0, kInt32Max));
  s.flavors_reservation = decode_usage(status, "flavorsReservation");
  s.flavors_usage = decode_usage(status, "flavorsUsage");
  if (const json* fs = codec::find_member(status, "fairSharing"); fs != nullptr && !fs->is_null()) {
    codec::expect_object(*fs, "status.fairSharing");
    s.weighted_share = codec::read_int(*fs, "weightedShare", "status.fairSharing", 0, INT64_MAX);
  }
  return s;
}

}  // namespace

json encode_cluster_queue(const ClusterQueue& cq) {
  return {{"apiVersion", kKueueApiVersion},
          {"kind", "ClusterQueue"},
          {"metadata", encode_object_meta(cq.metadata)},
          {"spec", encode_spec(cq.spec)},
          {"status", encode_status(cq.status)}};
}

Result<ClusterQueue> decode_cluster_queue(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kKueueApiVersion, kKueueApiVersionV1beta1}, "ClusterQueue");
    ClusterQueue cq;
    if (const json* m = codec::find_member(doc, "metadata")) cq.metadata = codec::decode_object_meta_at(*m, "metadata");
    cq.spec.namespace_selector_all = false;  // an absent selector matches no namespace
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      cq.spec = decode_spec(*spec);
    }
    if (const json* status = codec::find_member(doc, "status")) {
      codec::expect_object(*status, "status");
      cq.status = decode_status(*status);
    }
    return cq;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
