// The seven request rules.
#include "model/admission/pod_request_rules.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include <boost/container/small_vector.hpp>

#include "model/admission/accelerator_claim.h"
#include "model/catalog/profile_names.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

enum class Group { kInit, kRunning, kSidecar };

struct PodContainer {
  const Container* c;
  Group group;
  std::size_t index;  // in spec.containers or spec.initContainers
};

// spec.containers[i] / spec.initContainers[i], built for a message only.
std::string path_of(const PodContainer& pc) {
  return std::string(pc.group == Group::kRunning ? "spec.containers[" : "spec.initContainers[") +
         std::to_string(pc.index) + "]";
}

using Containers = boost::container::small_vector<PodContainer, 4>;

Containers pod_containers(const PodTemplate& pod) {
  Containers out;
  for (size_t i = 0; i < pod.init_containers.size(); ++i) {
    const auto& c = pod.init_containers[i];
    out.push_back({&c, c.restartable ? Group::kSidecar : Group::kInit, i});
  }
  for (size_t i = 0; i < pod.containers.size(); ++i) out.push_back({&pod.containers[i], Group::kRunning, i});
  return out;
}

// The (family, base) pairs a container claims (every key of a family counts), sorted and each
// once. The bases are views into the container's request names.
using Claims = boost::container::small_vector<std::pair<ResourceFamily, std::string_view>, 2>;

void claims_of(const Container& c, Claims& out) {
  for (const auto& [name, q] : c.requests)
    if (const auto key = accelerator_key_of(name)) out.emplace_back(key->family, key->base);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

bool claims_family(const Claims& claims, ResourceFamily family) {
  return std::any_of(claims.begin(), claims.end(), [&](const auto& c) { return c.first == family; });
}

// Per-profile keys of one base: profile → (key, quantity), sorted by profile.
std::map<std::string, std::pair<std::string, Quantity>> profile_requests(const Container& c, std::string_view base) {
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

// The request named `base` + `suffix`, found without building the name.
const Quantity* find(const Container& c, std::string_view base, std::string_view suffix) {
  for (const auto& [name, q] : c.requests)
    if (name.size() == base.size() + suffix.size() && std::string_view(name).substr(0, base.size()) == base &&
        std::string_view(name).substr(base.size()) == suffix)
      return &q;
  return nullptr;
}

bool exactly_one(const Quantity& q) { return q == Quantity::from_int(1); }

std::string forbidden(const std::string& path, const std::string& detail) { return path + ": Forbidden: " + detail; }
std::string required(const std::string& path, const std::string& detail) { return path + ": Required value: " + detail; }
std::string invalid(const std::string& path, const Quantity& value, const std::string& detail) {
  return path + ": Invalid value: \"" + value.to_string() + "\": " + detail;
}

void validate_partition(const Container& c, std::string_view base, const std::string& path, std::vector<std::string>& errs) {
  const std::string card = std::string(base) + std::string(kPartitionedSuffix);
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

void validate_slice(const Container& c, std::string_view base, const std::string& path, std::vector<std::string>& errs) {
  // The key names, built for a message only.
  const auto name = [&](std::string_view suffix) { return std::string(base) + std::string(suffix); };
  if (const Quantity* q = find(c, base, kSlicedSuffix); !q) {
    const std::string card = name(kSlicedSuffix);
    errs.push_back(required(path + "[" + card + "]", "a sliced request must set " + card));
  } else if (!exactly_one(*q)) {
    errs.push_back(invalid(path + "[" + name(kSlicedSuffix) + "]", *q,
                           "a logical slice request is always a single accelerator; multi-accelerator logical slicing "
                           "is not supported yet"));
  }
  const Quantity* pct = find(c, base, kSlicedMemoryPercentageSuffix);
  const Quantity* mib = find(c, base, kSlicedMemoryMibSuffix);
  const Quantity* cpct = find(c, base, kSlicedCoresPercentageSuffix);
  if (!pct && !mib) {
    const std::string mem_pct = name(kSlicedMemoryPercentageSuffix);
    errs.push_back(required(path + "[" + mem_pct + "]", "a " + name(kSlicedSuffix) + " request must set " + mem_pct +
                                                            " or " + name(kSlicedMemoryMibSuffix)));
  }
  if (pct && mib)
    errs.push_back(forbidden(path + "[" + name(kSlicedMemoryMibSuffix) + "]",
                             "cannot set both " + name(kSlicedMemoryPercentageSuffix) + " and " + name(kSlicedMemoryMibSuffix)));
  auto out_of_range = [](const Quantity& q) { return q.value_ceil() <= 0 || q.value_ceil() > 100; };
  if (pct && out_of_range(*pct))
    errs.push_back(invalid(path + "[" + name(kSlicedMemoryPercentageSuffix) + "]", *pct, "must be within (0, 100]"));
  if (mib && mib->value_ceil() <= 0)
    errs.push_back(invalid(path + "[" + name(kSlicedMemoryMibSuffix) + "]", *mib, "must be greater than zero"));
  if (cpct && out_of_range(*cpct))
    errs.push_back(invalid(path + "[" + name(kSlicedCoresPercentageSuffix) + "]", *cpct, "must be within (0, 100]"));
}

}  // namespace

std::vector<std::string> validate_pod_accelerator_request(const PodTemplate& pod) {
  std::vector<std::string> errs;
  const Containers containers = pod_containers(pod);
  boost::container::small_vector<Claims, 4> claims(containers.size());
  for (size_t i = 0; i < containers.size(); ++i) claims_of(*containers[i].c, claims[i]);

  boost::container::small_vector<ResourceFamily, 2> families;  // each once
  std::set<std::string> profiles;
  unsigned groups = 0;  // a bit per Group
  int slicing = 0;
  for (size_t i = 0; i < containers.size(); ++i) {
    const auto& pc = containers[i];
    const auto& claim = claims[i];
    if (claim.empty()) continue;
    if (pc.group == Group::kSidecar) {  // rule 7
      errs.push_back(forbidden(path_of(pc) + ".resources.limits",
                               "a restartable init container (a native sidecar) may not request an accelerator; "
                               "move the request to an app container"));
      continue;
    }
    for (const auto& [family, base] : claim) {
      if (std::find(families.begin(), families.end(), family) == families.end()) families.push_back(family);
      if (family == ResourceFamily::kPartitioned)
        for (const auto& [p, kq] : profile_requests(*pc.c, base)) profiles.insert(p);
    }
    groups |= 1u << static_cast<unsigned>(pc.group);
    if (claims_family(claim, ResourceFamily::kSliced) || claims_family(claim, ResourceFamily::kPartitioned)) ++slicing;
  }
  if (families.size() > 1) {  // rule 1, family half
    std::set<std::string> names;
    for (const ResourceFamily f : families) names.insert(std::string(to_string(f)));
    errs.push_back(forbidden("spec", "a Pod may request only one accelerator family, found " + list(names)));
  }
  if (std::popcount(groups) > 1)  // rule 1, group half
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
    const bool sliced = claims_family(claims[i], ResourceFamily::kSliced);
    const bool partitioned = claims_family(claims[i], ResourceFamily::kPartitioned);
    if (!sliced && !partitioned) continue;
    const std::string path = path_of(pc) + ".resources.limits";
    for (const auto& [family, base] : claims[i])
      if (family == ResourceFamily::kSliced) validate_slice(*pc.c, base, path, errs);
    for (const auto& [family, base] : claims[i])
      if (family == ResourceFamily::kPartitioned) validate_partition(*pc.c, base, path, errs);
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
