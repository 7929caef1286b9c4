// Placement-based partition (MIG) geometry for one card and for a node's partitioned cards:
// whether a set of live instances is legal, how many of each profile can still be built, what
// the operator publishes from that (per-profile keys, the `.partitioned` pool, the
// InstanceType's PT remaining), and where a new instance goes.
//
// Everything is placement arithmetic on memory-slice intervals [start, start+size): a set of
// instances is legal iff each sits on a legal start of its profile and no two overlap
// (half-open: [a,a+m) and [b,b+n) overlap iff a < b+n and b < a+m). Slices are never counted:
// a slice-count model would accept 3g+3g+1g on an 8-slice card, and a 3g on fragmented slices.
// Callers: the capacity keys and InstanceType status (views, node sums), the device plugin
// (placement choice), scenario validation (validate_instances).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/catalog/mig_catalog.h"
#include "model/result.h"

namespace chaintwin::model {

// One GPU-instance profile as the geometry needs it.
struct GeometryProfile {
  std::string name;       // vendor spelling (Devices, ledger)
  std::string published;  // published spelling (keys, requests)
  int32_t size = 0;       // memory slices per instance
  int32_t max_instances = 0;
  std::vector<int32_t> starts;  // legal starts, in capability order (ascending)
  bool media_engine = false;    // a +me variant: at most one media-engine instance per card [inf]
  bool offered = true;          // in gpustack's inventory (keys, pool, PT); +me/+gfx are not
};

struct PartitionGeometry {
  int32_t memory_slices = 0;
  std::vector<GeometryProfile> profiles;
  // By vendor or published spelling; nullptr when the card has no such profile.
  const GeometryProfile* find(std::string_view name) const;
};

// Every catalog profile, +me variants included (a live +me instance still occupies slices);
// `offered` follows catalog_profile_offered.
PartitionGeometry geometry_from_catalog(const CatalogModel& model);
// A card's Devices capability (only offered profiles); the card's extent is the furthest
// placement end.
PartitionGeometry geometry_from_capability(std::string_view manufacturer, const AcceleratorPhysicalSliced& physical);

// One live GPU instance: its profile (either spelling) and its start memory slice.
struct LiveInstance {
  std::string profile;
  int32_t start = 0;
  bool operator==(const LiveInstance&) const = default;
};
// "3g.40gb@4" → {3g.40gb, 4}.
Result<LiveInstance> parse_live_instance(std::string_view spec);

// Refuses, with the reason, an unknown profile, a start that is not a legal start of its
// profile, two overlapping instances, more instances of a profile than its max_instances, and
// a second media-engine instance.
Status validate_instances(const PartitionGeometry& geometry, const std::vector<LiveInstance>& live);

struct ProfileAvailability {
  std::string profile;    // vendor spelling
  std::string published;  // published spelling
  bool offered = true;
  int32_t allocated = 0;  // live instances of exactly this profile
  int32_t remaining = 0;  // further instances that can be built
  int32_t allocated_plus_remaining() const { return allocated + remaining; }
};

// One card as the operator publishes it.
struct CardPartitionView {
  std::vector<ProfileAvailability> profiles;  // geometry order; every profile, even at 0
  int32_t allocated_total = 0;  // Σ allocated over offered profiles
  int32_t max_remaining = 0;    // max remaining over offered profiles
  int32_t ceiling = 0;          // max max_instances over offered profiles (PhysicalSliced.Count)
  bool from_ledger = true;      // false: the static-ceiling fallback
  // The card's share of `<base>.partitioned`: allocated + the largest per-profile free count.
  int32_t pool_contribution() const { return allocated_total + max_remaining; }
  // The card's share of the InstanceType PT remaining: a maximum, never a sum, because the
  // profiles compete for the same slices.
  int32_t pt_remaining() const { return max_remaining; }
  const ProfileAvailability* find(std::string_view name) const;
};

// Per profile: free = legal placements overlapping no live instance (any profile, +me too);
// remaining = min(free, max_instances − live of that profile), and 0 for a media-engine
// profile while any media-engine instance is live. Refuses an illegal live set.
Result<CardPartitionView> card_partition_view(const PartitionGeometry& geometry, const std::vector<LiveInstance>& live);
// A card whose ledger is not published yet: every profile at its static ceiling
// (max_instances), nothing allocated — room is advertised rather than nothing.
CardPartitionView static_ceiling_view(const PartitionGeometry& geometry);
// The ledger row decides: not ready (partition_ledger_ready) → the static ceiling; a row with live
// instances (the simulator's own) → the view of those instances by placement; a row read from a
// cluster (no instances) → its published allocatedProfiles / remainingProfiles, as the operator
// reads them.
Result<CardPartitionView> card_view_from_ledger(const PartitionGeometry& geometry, const AcceleratorAllocation* row);

// A node's partitioned cards summed the way gpustack publishes them.
struct NodePartitionSummary {
  std::map<std::string, int32_t> per_profile;  // published profile → Σ (allocated + remaining)
  int32_t pool = 0;                            // `<base>.partitioned`: Σ pool_contribution
  int32_t pt_remaining = 0;                    // InstanceType PT remaining: Σ max remaining
  int32_t pt_capacity = 0;                     // InstanceType PT capacity: Σ ceiling
  int32_t once_max_request = 0;                // 1 when any card can host an instance
};
NodePartitionSummary summarize_partitioned_cards(const std::vector<CardPartitionView>& cards);

// Where a new instance of `profile` goes on one card: the lowest legal start that overlaps no
// live instance (respecting max_instances and media-engine exclusivity). Our choice, matching
// gpustack's device plugin (pickPlacement / lowestFreePlacement): deterministic, so two equal
// requests against equal state place identically, and it keeps the free room contiguous at the
// high end. Refuses when nothing fits, naming why.
Result<int32_t> choose_start(const PartitionGeometry& geometry, const std::vector<LiveInstance>& live,
                             std::string_view profile);

struct PartitionCard {
  PartitionGeometry geometry;
  std::vector<LiveInstance> live;
};
struct PartitionChoice {
  size_t card = 0;  // index into the candidate list
  int32_t start = 0;
  bool operator==(const PartitionChoice&) const = default;
};
// Places `count` instances of `profile`, at most one per card (a Pod's allocation record holds
// one placement per card). The device plugin packs: among cards that still fit, the one whose
// live instances cover the most memory slices wins (ties: the earlier card), so siblings stay
// whole for a later large profile; within a card, choose_start. Refuses when the node cannot
// host them all.
Result<std::vector<PartitionChoice>> select_partition_placements(const std::vector<PartitionCard>& cards,
                                                                 std::string_view profile, int32_t count);

}  // namespace chaintwin::model
