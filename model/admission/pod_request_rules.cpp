// The seven request rules.
#include "model/admission/pod_request_rules.h"

#include <map>
#include <set>

#include "model/admission/accelerator_claim.h"
#include "model/catalog/profile_names.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

enum class Group { kInit, kRunning, kSidecar };

struct PodContainer {
  const Container* c;
  Group group;
  std::string path;  // spec.containers[i] / spec.initContainers[i]
};

std::vector<PodContainer> pod_containers(const PodTemplate& pod) {
  std::vector<PodContainer> out;
  for (size_t i = 0; i < pod.init_containers.size(); ++i) {
    const auto& c = pod.init_containers[i];
    out.push_back({&c, c.restartable ? Group::kSidecar : Group::kInit, "spec.initContainers[" + std::to_string(i) + "]"});
  }
  for (size_t i = 0; i < pod.containers.size(); ++i)
    out.push_back({&pod.containers[i], Group::kRunning, "spec.containers[" + std::to_string(i) + "]"});
  return out;
}

// family → bases a container claims (every key of a family counts).
std::map<ResourceFamily, std::set<std::string>> claims_of(const Container& c) {
  std::map<ResourceFamily, std::set<std::string>> out;
  for (const auto& [name, q] : c.requests)
    if (const auto key = accelerator_key_of(name)) out[key->family].emplace(key->base);
  return out;
}

// Per-profile keys of one base: profile → (key, quantity), sorted by profile.
std::map<std::string, std::pair<std::string, Quantity>> profile_requests(const Container& c, const std::string& base) {
  std::map<std::string, std::pair<std::string, Quantity>> out;
  for (const auto& [name, q] : c.requests) {
    const auto parsed = partitioned_profile_of(name);
    const auto key = accelerator_key_of(name);
    if (parsed && key && key->base == base) out[parsed->profile] = {name, q};
  }
  return out;
}

std::string list(const std::set<std::string>& items) {
  std::string s = "[";
  for (const auto& i : items) s += (s.size() > 1 ? " " : "") + i;
  return s + "]";
}

const Quantity* find(const Container& c, const std::string& name) {
  const auto it = c.requests.find(name);
  return it == c.requests.end() ? nullptr : &it->second;
}

bool exactly_one(const Quantity& q) { return q == Quantity::from_int(1); }

std::string forbidden(const std::string& path, const std::string& detail) { return path + ": Forbidden: " + detail; }
std::string required(const std::string& path, const std::string& detail) { return path + ": Required value: " + detail; }
std::string invalid(const std::string& path, const Quantity& value, const std::string& detail) {
  return path + ": Invalid value: \"" + value.to_string() + "\": " + detail;
}

void validate_partition(const Container& c, const std::string& base, const std::string& path, std::vector<std::string>& errs) {
  const std::string card = base + std::string(kPartitionedSuffix);
  const Quantity* q = find(c, card);
  if (!q) {
    errs.push_back(required(path + "[" + card + "]", "a partition request must set " + card));
  } else if (!exactly_one(*q)) {
    errs.push_back(invalid(path + "[" + card + "]", *q,
                           "a partition request is always a single accelerator; request one Pod per instance"));
  }
  const auto reqs = profile_requests(c, base);
  if (reqs.empty()) {
    errs.push_back(required(path + "[" + card + "]",
                            "a " + card + " request must name a profile, e.g. " + card + ".<kind>-<profile>"));
  } else if (reqs.size() > 1) {
    std::set<std::string> names;
    for (const auto& [p, kq] : reqs) names.insert(p);
    errs.push_back(forbidden(path + "[" + card + "]", "a container may request only one partition profile, found " + list(names)));
  }
  for (const auto& [profile, kq] : reqs)
    if (!exactly_one(kq.second))
      errs.push_back(invalid(path + "[" + kq.first + "]", kq.second, "a partition profile request must be exactly 1 instance"));
}

void validate_slice(const Container& c, const std::string& base, const std::string& path, std::vector<std::string>& errs) {
  const std::string card = base + std::string(kSlicedSuffix);
  const std::string mem_pct = base + std::string(kSlicedMemoryPercentageSuffix);
  const std::string mem_mib = base + std::string(kSlicedMemoryMibSuffix);
  const std::string cores = base + std::string(kSlicedCoresPercentageSuffix);
  if (const Quantity* q = find(c, card); !q) {
    errs.push_back(required(path + "[" + card + "]", "a sliced request must set " + card));
  } else if (!exactly_one(*q)) {
    errs.push_back(invalid(path + "[" + card + "]", *q,
                           "a logical slice request is always a single accelerator; multi-accelerator logical slicing "
                           "is not supported yet"));
  }
  const Quantity* pct = find(c, mem_pct);
  const Quantity* mib = find(c, mem_mib);
  const Quantity* cpct = find(c, cores);
  if (!pct && !mib) errs.push_back(required(path + "[" + mem_pct + "]", "a " + card + " request must set " + mem_pct + " or " + mem_mib));
  if (pct && mib) errs.push_back(forbidden(path + "[" + mem_mib + "]", "cannot set both " + mem_pct + " and " + mem_mib));
  auto out_of_range = [](const Quantity& q) { return q.value_ceil() <= 0 || q.value_ceil() > 100; };
  if (pct && out_of_range(*pct)) errs.push_back(invalid(path + "[" + mem_pct + "]", *pct, "must be within (0, 100]"));
  if (mib && mib->value_ceil() <= 0) errs.push_back(invalid(path + "[" + mem_mib + "]", *mib, "must be greater than zero"));
  if (cpct && out_of_range(*cpct)) errs.push_back(invalid(path + "[" + cores + "]", *cpct, "must be within (0, 100]"));
}

}  // namespace

std::vector<std::string> validate_pod_accelerator_request(const PodTemplate& pod) {
  std::vector<std::string> errs;
  const auto containers = pod_containers(pod);
  std::vector<std::map<ResourceFamily, std::set<std::string>>> claims;
  for (const auto& pc : containers) claims.push_back(claims_of(*pc.c));

  std::set<std::string> families, profiles;
  std::set<Group> groups;
  int slicing = 0;
  for (size_t i = 0; i < containers.size(); ++i) {
    const auto& pc = containers[i];
    const auto& claim = claims[i];
    if (claim.empty()) continue;
    if (pc.group == Group::kSidecar) {  // rule 7
      errs.push_back(forbidden(pc.path + ".resources.limits",
                               "a restartable init container (a native sidecar) may not request an accelerator; "
                               "move the request to an app container"));
      continue;
    }
    for (const auto& [family, bases] : claim) {
      families.insert(std::string(to_string(family)));
      if (family == ResourceFamily::kPartitioned)
        for (const auto& base : bases)
          for (const auto& [p, kq] : profile_requests(*pc.c, base)) profiles.insert(p);
    }
    groups.insert(pc.group);
    if (claim.count(ResourceFamily::kSliced) || claim.count(ResourceFamily::kPartitioned)) ++slicing;
  }
  if (families.size() > 1)  // rule 1, family half
    errs.push_back(forbidden("spec", "a Pod may request only one accelerator family, found " + list(families)));
  if (groups.size() > 1)  // rule 1, group half
    errs.push_back(forbidden("spec.initContainers",
                             "a Pod's accelerator requests must all sit in one container group; spec.initContainers "
                             "must give up its request, because its devices are held for the Pod's whole life while "
                             "the scheduler charges the Pod only once"));
  if (slicing > 1)  // rule 6
    errs.push_back(forbidden("spec", "at most one container may request a slicing family, found " + std::to_string(slicing)));
  if (profiles.size() > 1)  // rule 4
    errs.push_back(forbidden("spec", "a Pod may request only one partition profile, found " + list(profiles)));
  for (size_t i = 0; i < containers.size(); ++i) {  // rules 2, 3, 5 and the shape checks
    const auto& pc = containers[i];
    if (pc.group == Group::kSidecar) continue;
    const std::string path = pc.path + ".resources.limits";
    if (const auto it = claims[i].find(ResourceFamily::kSliced); it != claims[i].end())
      for (const auto& base : it->second) validate_slice(*pc.c, base, path, errs);
    if (const auto it = claims[i].find(ResourceFamily::kPartitioned); it != claims[i].end())
      for (const auto& base : it->second) validate_partition(*pc.c, base, path, errs);
  }
  return errs;
}

std::string invalid_pod_message(const std::string& pod_name, const std::vector<std::string>& errors) {
  std::string out = "Pod \"" + pod_name + "\" is invalid: ";
  if (errors.size() == 1) return out + errors.front();
  out += "[";
  for (size_t i = 0; i < errors.size(); ++i) out += (i ? ", " : "") + errors[i];
  return out + "]";
}

}  // namespace chaintwin::model
