// Builders shared by the admission tests: a node's Devices (spec capability + seeded ledger),
// containers, Pods. Everything not named is defaulted.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/credits.h"
#include "model/api/devices.h"
#include "model/workload/workload.h"

namespace admission_test {

using namespace chaintwin::model;

constexpr int32_t kM = 1'600'000;
constexpr int32_t pct(int32_t p) { return p * 16'000; }

enum class CardKind { kSliceable, kWholeOnly, kH100Mig };

inline AcceleratorPhysicalSliced h100_mig() {
  AcceleratorPhysicalSliced p;
  auto profile = [](std::string name, int64_t mib, int32_t size, std::vector<int32_t> starts) {
    AcceleratorPhysicalSlicedProfile pr;
    pr.name = std::move(name);
    pr.memory_mib = mib;
    pr.compute_slices = size;
    pr.memory_slices = size;
    pr.count = static_cast<int32_t>(starts.size());
    for (int32_t s : starts) pr.placements.push_back({s, size});
    return pr;
  };
  p.profiles = {profile("1g.10gb", 9856, 1, {0, 1, 2, 3, 4, 5, 6}), profile("3g.40gb", 40192, 4, {0, 4}),
                profile("7g.80gb", 80896, 8, {0})};
  p.count = 7;
  return p;
}

// A node with `n` cards of one kind; every ledger row seeded (remaining M, mode None).
inline Devices node_devices(const std::string& node, int n, CardKind kind = CardKind::kSliceable,
                            const std::string& manufacturer = "nvidia", int32_t logical = 0) {
  Devices d;
  d.metadata.name = node;
  DevicesGroup g;
  g.id = "a100";
  g.manufacturer = manufacturer;
  g.memory = 81920;
  DevicesAllocationGroup s;
  s.id = g.id;
  s.manufacturer = manufacturer;
  for (int i = 0; i < n; ++i) {
    Accelerator a;
    a.id = node + "-card-" + std::to_string(i);
    a.index = static_cast<uint32_t>(i);
    if (kind == CardKind::kSliceable) a.status.logical_sliced.count = logical > 0 ? logical : 128;
    if (kind == CardKind::kH100Mig) a.status.physical_sliced = h100_mig();
    g.accelerators.push_back(a);
    AcceleratorAllocation row;
    row.id = a.id;
    row.index = a.index;
    row.remaining = kM;
    if (kind == CardKind::kH100Mig)
      for (const auto& p : a.status.physical_sliced.profiles) {
        row.allocated_profiles.push_back({p.name, 0});
        row.remaining_profiles.push_back({p.name, p.count});
      }
    s.accelerators.push_back(row);
  }
  d.spec.groups.push_back(g);
  d.status.groups.push_back(s);
  return d;
}

inline Container container(std::string name, std::vector<std::pair<std::string, std::string>> requests) {
  Container c;
  c.name = std::move(name);
  for (auto& [k, v] : requests) c.requests[k] = Quantity::parse(v).value();
  return c;
}

inline Container slice(int32_t percent, std::string name = "main") {
  return container(std::move(name), {{"nvidia.com/gpu.sliced", "1"},
                                     {"nvidia.com/gpu.sliced.memory-percentage", std::to_string(percent)},
                                     {"nvidia.com/gpu.sliced.units", std::to_string(pct(percent))}});
}
inline Container exclusive(int n, std::string name = "main") {
  return container(std::move(name), {{"nvidia.com/gpu", std::to_string(n)}});
}
inline Container shared(int n, std::string name = "main") {
  return container(std::move(name), {{"nvidia.com/gpu.shared", std::to_string(n)}});
}
inline Container partition(const std::string& profile, std::string name = "main") {
  return container(std::move(name), {{"nvidia.com/gpu.partitioned", "1"},
                                     {"nvidia.com/gpu.partitioned.mig-" + profile, "1"},
                                     {"nvidia.com/gpu.partitioned.units", "800000"}});
}

inline Pod pod(std::string name, std::vector<Container> containers, std::string node = "node-a") {
  Pod p;
  p.metadata.name = std::move(name);
  p.metadata.namespace_ = "default";
  p.node_name = std::move(node);
  p.spec.containers = std::move(containers);
  return p;
}

inline const AcceleratorAllocation& row(const Devices& d, size_t i) { return d.status.groups.at(0).accelerators.at(i); }

}  // namespace admission_test
