// Gate 5's card choice and the ledger arithmetic.
#include "model/admission/device_allocator.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "model/admission/accelerator_claim.h"
#include "model/credits.h"
#include "model/catalog/partition_geometry.h"
#include "model/stage3/card_ledger.h"
#include "model/stage3/population.h"

namespace chaintwin::model {
namespace {

constexpr int32_t kWhole = static_cast<int32_t>(kUnitsPerAccelerator);
constexpr int32_t kShare = static_cast<int32_t>(kUnitsPerShare);

// One ledger row with the capability of the same accelerator id (in the Devices' spec, which an
// allocation leaves alone).
struct CardRef {
  size_t group = 0;
  size_t row = 0;
  const AcceleratorStatus* capability = nullptr;
};

// The healthy cards of `manufacturer` in status order, each with the capability of the last spec
// entry of its id (CardJoin's join); a row the spec does not list is left out.
std::vector<CardRef> cards_for(const Devices& devices, const std::string& manufacturer) {
  const CardJoin join(devices);
  std::vector<CardRef> cards;
  for (size_t g = 0; g < devices.status.groups.size(); ++g) {
    const auto& group = devices.status.groups[g];
    if (group.manufacturer != manufacturer) continue;
    for (size_t r = 0; r < group.accelerators.size(); ++r) {
      const CardJoin::SpecEntry spec = join.spec_of(group.accelerators[r].id);
      if (spec.accelerator == nullptr || spec.accelerator->status.unhealthy) continue;
      cards.push_back({g, r, &spec.accelerator->status});
    }
  }
  return cards;
}

AcceleratorAllocation& row_of(Devices& d, const CardRef& c) { return d.status.groups[c.group].accelerators[c.row]; }

bool mode_is(const AcceleratorAllocation& row, DeviceAllocationMode a, DeviceAllocationMode b) {
  return row.mode == a || row.mode == b;
}

// Recomputes the published per-profile counts of a partitioned row from its live instances.
void publish_profiles(AcceleratorAllocation& row, const std::string& manufacturer, const AcceleratorStatus& cap) {
  const PartitionGeometry geometry = geometry_from_capability(manufacturer, cap.physical_sliced);
  std::vector<LiveInstance> live;
  for (const auto& inst : row.instances) live.push_back({inst.profile, inst.placement.start});
  const auto view = card_partition_view(geometry, live);
  if (!view.ok()) return;
  row.allocated_profiles.clear();
  row.remaining_profiles.clear();
  for (const auto& p : view->profiles) {
    if (!p.offered) continue;
    row.allocated_profiles.push_back({p.profile, p.allocated});
    row.remaining_profiles.push_back({p.profile, p.remaining});
  }
}

// Returns whether the mode moved.
bool settle_mode(AcceleratorAllocation& row) {
  if (row.mode == DeviceAllocationMode::kNone) return false;
  if (row.allocated == 0 && row.allocated_slices == 0 && row.instances.empty() && row.charges.empty()) {
    row.mode = DeviceAllocationMode::kNone;
    return true;
  }
  return false;
}

ContainerAllocation grant(Devices& d, const CardRef& card, const std::string& holder, const std::string& container,
                          DeviceAllocationMode mode, int32_t units, int32_t slices, std::string profile = "",
                          int32_t start = 0, int32_t length = 0) {
  AcceleratorAllocation& row = row_of(d, card);
  const auto& group = d.status.groups[card.group];
  units = std::min(units, std::max(row.remaining, 0));
  row.remaining -= units;
  row.allocated += units;
  row.allocated_slices += slices;
  row.mode = mode;
  row.charges.push_back({holder, mode, units, slices, profile, start});
  if (!profile.empty()) {
    row.instances.push_back({profile, {start, length}});
    publish_profiles(row, group.manufacturer, *card.capability);
  }
  return {container, group.id, row.id, row.index, mode, units, profile.empty() ? "-" : profile, start, length};
}

Error refuse(const std::string& what) { return err("FailedPrecondition: " + what); }

Result<std::vector<ContainerAllocation>> allocate_claim(Devices& d, const std::string& holder,
                                                        const std::string& container, const ContainerClaim& claim,
                                                        bool sliced_allocate_gate) {
  std::vector<CardRef> cards = cards_for(d, claim.manufacturer);
  std::vector<ContainerAllocation> out;
  const std::string who = "container \"" + container + "\": ";
  switch (claim.family) {
    case ResourceFamily::kExclusive: {
      std::vector<CardRef> free;
      for (const auto& c : cards) {
        const auto& row = row_of(d, c);
        if (is_whole_accelerator_capable(*c.capability) && row.mode == DeviceAllocationMode::kNone &&
            row.allocated == 0 && row.remaining >= kWhole)
          free.push_back(c);
      }
      if (static_cast<int64_t>(free.size()) < claim.count)
        return refuse(who + "needs " + std::to_string(claim.count) + " whole free " + claim.manufacturer +
                      " accelerator(s), only " + std::to_string(free.size()) + " on node " + d.metadata.name);
      for (int64_t i = 0; i < claim.count; ++i)
        out.push_back(grant(d, free[static_cast<size_t>(i)], holder, container, DeviceAllocationMode::kExclusive, kWhole, 0));
      return out;
    }
    case ResourceFamily::kShared: {
      std::vector<CardRef> free;
      for (const auto& c : cards) {
        const auto& row = row_of(d, c);
        if (is_whole_accelerator_capable(*c.capability) &&
            mode_is(row, DeviceAllocationMode::kNone, DeviceAllocationMode::kShared) && row.remaining >= kShare)
          free.push_back(c);
      }
      if (static_cast<int64_t>(free.size()) < claim.count)
        return refuse(who + "a shared grant of " + std::to_string(claim.count) +
                      " needs as many distinct accelerators with a free share, only " + std::to_string(free.size()) +
                      " on node " + d.metadata.name);
      std::stable_sort(free.begin(), free.end(), [&](const CardRef& a, const CardRef& b) {
        return row_of(d, a).remaining > row_of(d, b).remaining;
      });
      for (int64_t i = 0; i < claim.count; ++i)
        out.push_back(grant(d, free[static_cast<size_t>(i)], holder, container, DeviceAllocationMode::kShared, kShare, 0));
      return out;
    }
    case ResourceFamily::kSliced: {
      const int64_t units = std::max<int64_t>(claim.units, 0);
      const CardRef* best = nullptr;
      for (const auto& c : cards) {
        const auto& row = row_of(d, c);
        if (!is_logically_sliceable(*c.capability)) continue;
        if (!mode_is(row, DeviceAllocationMode::kNone, DeviceAllocationMode::kSliced)) continue;
        if (logical_slots_free(*c.capability, row.allocated_slices) <= 0 || row.remaining < units) continue;
        if (!best || row.remaining < row_of(d, *best).remaining) best = &c;
      }
      if (!best && !sliced_allocate_gate) {
        // The gate switched off: the kubelet's token still names a card with a free slot; the slice
        // is allocated there anyway and grant() clamps the card's remaining at 0. Which token the
        // kubelet hands is not documented: the freest card with a free slot (ties: position).
        for (const auto& c : cards) {
          const auto& row = row_of(d, c);
          if (!is_logically_sliceable(*c.capability)) continue;
          if (!mode_is(row, DeviceAllocationMode::kNone, DeviceAllocationMode::kSliced)) continue;
          if (logical_slots_free(*c.capability, row.allocated_slices) <= 0) continue;
          if (!best || row.remaining > row_of(d, *best).remaining) best = &c;
        }
      }
      if (!best)
        return refuse(who + "no " + claim.manufacturer + " accelerator on node " + d.metadata.name +
                      " has a free slice slot and " + std::to_string(units) + " free units");
      out.push_back(grant(d, *best, holder, container, DeviceAllocationMode::kSliced, static_cast<int32_t>(units), 1));
      return out;
    }
    case ResourceFamily::kPartitioned: {
      std::vector<PartitionCard> candidates;
      std::vector<CardRef> refs;
      for (const auto& c : cards) {
        const auto& row = row_of(d, c);
        if (!is_partitioned(*c.capability)) continue;
        if (!mode_is(row, DeviceAllocationMode::kNone, DeviceAllocationMode::kPartitioned)) continue;
        PartitionCard pc{geometry_from_capability(claim.manufacturer, c.capability->physical_sliced), {}};
        for (const auto& inst : row.instances) pc.live.push_back({inst.profile, inst.placement.start});
        candidates.push_back(std::move(pc));
        refs.push_back(c);
      }
      const auto choice = select_partition_placements(candidates, claim.profile, 1);
      if (!choice.ok() || choice->empty())
        return refuse(who + "no partitioned " + claim.manufacturer + " accelerator on node " + d.metadata.name +
                      " has a free placement for \"" + claim.profile + "\"" +
                      (choice.ok() ? std::string() : ": " + choice.error()));
      const PartitionChoice& pick = choice->front();
      const GeometryProfile* profile = candidates[pick.card].geometry.find(claim.profile);
      const std::string vendor = profile ? profile->name : claim.profile;
      const int32_t length = profile ? profile->size : 0;
      const auto units = static_cast<int32_t>(std::clamp<int64_t>(claim.units, 0, kWhole));
      out.push_back(grant(d, refs[pick.card], holder, container, DeviceAllocationMode::kPartitioned, units, 0, vendor,
                          pick.start, length));
      return out;
    }
    default: return out;
  }
}

// The grants already recorded for a holder (a retried Allocate).
std::vector<ContainerAllocation> existing_grants(const Devices& d, const std::string& holder, const std::string& container) {
  std::vector<ContainerAllocation> out;
  for (const auto& group : d.status.groups)
    for (const auto& row : group.accelerators)
      for (const auto& ch : row.charges)
        if (ch.holder == holder) {
          int32_t length = 0;
          for (const auto& inst : row.instances)
            if (inst.profile == ch.profile && inst.placement.start == ch.start) length = inst.placement.length;
          out.push_back({container, group.id, row.id, row.index, ch.mode, ch.units,
                         ch.profile.empty() ? "-" : ch.profile, ch.start, length});
        }
  return out;
}

std::string holder_prefix(const Pod& pod) { return object_key(pod.metadata) + "/"; }

// Whether `holder` starts with `prefix` ("<namespace>/<pod>/"), tried on the prefix's last two
// characters first: the holders of one Node share most of their first characters and differ at the
// end of the Pod's name, so most holders of other Pods are told apart without comparing the rest.
bool held_under(std::string_view holder, std::string_view prefix) {
  const std::size_t n = prefix.size();
  if (holder.size() < n) return false;
  if (n >= 2 && (holder[n - 1] != prefix[n - 1] || holder[n - 2] != prefix[n - 2])) return false;
  return holder.compare(0, n, prefix) == 0;
}

}  // namespace

bool charge_outlives_finished_pod(DeviceAllocationMode mode, std::string_view manufacturer) {
  if (mode == DeviceAllocationMode::kPartitioned) return true;
  return mode == DeviceAllocationMode::kSliced && (manufacturer == "metax" || manufacturer == "cambricon");
}

Result<std::vector<ContainerAllocation>> allocate_pod(Devices& devices, const Pod& pod, bool sliced_allocate_gate) {
  const auto claims = claiming_containers(pod.spec);
  // allocate_claim refuses before it grants anything, so a lone claiming container is granted on the
  // ledger itself; with more, a later refusal must leave the earlier grants undone, so all are made
  // on a copy that replaces the ledger only when every one was granted.
  std::optional<Devices> copy;
  if (claims.size() > 1) copy = devices;
  Devices& trial = copy ? *copy : devices;
  std::vector<ContainerAllocation> all;
  for (const auto& claiming : claims) {
    const std::string holder = holder_prefix(pod) + claiming.container->name;
    auto granted = existing_grants(trial, holder, claiming.container->name);
    if (granted.empty()) {
      auto fresh = allocate_claim(trial, holder, claiming.container->name, claiming.claim, sliced_allocate_gate);
      if (!fresh.ok()) return Error{fresh.error()};
      granted = std::move(fresh).value();
    }
    all.insert(all.end(), granted.begin(), granted.end());
  }
  if (copy) devices = std::move(*copy);
  return all;
}

bool release_pod(Devices& devices, const Pod& pod, bool deleted, bool release_terminated_pods) {
  if (!deleted && !release_terminated_pods) return false;
  const std::string prefix = holder_prefix(pod);
  // The capability of an accelerator id: the last spec entry naming it (read only for a card whose
  // partitions moved).
  const auto capability_of = [&](const std::string& id) {
    const AcceleratorStatus* found = nullptr;
    for (const auto& g : devices.spec.groups)
      for (const auto& a : g.accelerators)
        if (a.id == id) found = &a.status;
    return found;
  };
  bool moved = false;
  for (auto& group : devices.status.groups) {
    for (auto& row : group.accelerators) {
      bool touched_partition = false;
      for (auto it = row.charges.begin(); it != row.charges.end();) {
        if (!held_under(it->holder, prefix) || (!deleted && charge_outlives_finished_pod(it->mode, group.manufacturer))) {
          ++it;
          continue;
        }
        row.allocated -= it->units;
        row.remaining += it->units;
        row.allocated_slices -= it->slices;
        if (!it->profile.empty()) {
          const auto inst = std::find_if(row.instances.begin(), row.instances.end(), [&](const auto& i) {
            return i.profile == it->profile && i.placement.start == it->start;
          });
          if (inst != row.instances.end()) row.instances.erase(inst);
          touched_partition = true;
        }
        it = row.charges.erase(it);
        moved = true;
      }
      if (touched_partition)
        if (const AcceleratorStatus* cap = capability_of(row.id)) publish_profiles(row, group.manufacturer, *cap);
      if (settle_mode(row)) moved = true;
    }
  }
  return moved;
}

bool pod_allocation_complete(const Pod& pod) {
  // Every claiming container (claiming_containers' set, no claim built) has an allocation record.
  for (const auto* list : {&pod.spec.init_containers, &pod.spec.containers})
    for (const auto& c : *list) {
      if (!claims_accelerator(c)) continue;
      const bool named = std::any_of(pod.allocations.begin(), pod.allocations.end(),
                                     [&](const ContainerAllocation& a) { return a.container == c.name; });
      if (!named) return false;
    }
  return true;
}

}  // namespace chaintwin::model
