// Placement arithmetic for partitioned cards (see partition_geometry.h).
#include "model/catalog/partition_geometry.h"

#include <algorithm>
#include <charconv>

#include "model/stage3/population.h"
#include "model/catalog/profile_names.h"

namespace chaintwin::model {
namespace {

struct Interval {
  int32_t start = 0;
  int32_t size = 0;
};

bool overlaps(Interval a, Interval b) { return a.start < b.start + b.size && b.start < a.start + a.size; }

std::string show(std::string_view profile, int32_t start) { return std::string(profile) + "@" + std::to_string(start); }

std::string known_profiles(const PartitionGeometry& g) {
  std::string out;
  for (const auto& p : g.profiles) out += (out.empty() ? "" : ", ") + p.published;
  return out;
}

std::string starts_text(const GeometryProfile& p) {
  std::string out;
  for (const int32_t s : p.starts) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return out;
}

// The occupied intervals of a (validated) live set.
std::vector<Interval> occupied_of(const PartitionGeometry& g, const std::vector<LiveInstance>& live) {
  std::vector<Interval> out;
  for (const auto& inst : live)
    if (const auto* p = g.find(inst.profile)) out.push_back({inst.start, p->size});
  return out;
}

int32_t live_count(const PartitionGeometry& g, const std::vector<LiveInstance>& live, const GeometryProfile& p) {
  int32_t n = 0;
  for (const auto& inst : live)
    if (g.find(inst.profile) == &p) ++n;
  return n;
}

bool media_engine_live(const PartitionGeometry& g, const std::vector<LiveInstance>& live) {
  return std::any_of(live.begin(), live.end(), [&](const auto& inst) {
    const auto* p = g.find(inst.profile);
    return p != nullptr && p->media_engine;
  });
}

// Free legal starts of p, in capability order, given the occupied intervals.
std::vector<int32_t> free_starts(const GeometryProfile& p, const std::vector<Interval>& occupied) {
  std::vector<int32_t> out;
  for (const int32_t s : p.starts) {
    const Interval slot{s, p.size};
    if (std::none_of(occupied.begin(), occupied.end(), [&](Interval o) { return overlaps(slot, o); }))
      out.push_back(s);
  }
  return out;
}

// How many more instances of p fit, per the §5 rule (live set already validated).
int32_t remaining_of(const PartitionGeometry& g, const std::vector<LiveInstance>& live,
                     const std::vector<Interval>& occupied, const GeometryProfile& p) {
  if (p.media_engine && media_engine_live(g, live)) return 0;
  const auto free = static_cast<int32_t>(free_starts(p, occupied).size());
  return std::max(0, std::min(free, p.max_instances - live_count(g, live, p)));
}

}  // namespace

const GeometryProfile* PartitionGeometry::find(std::string_view name) const {
  for (const auto& p : profiles)
    if (p.name == name) return &p;
  for (const auto& p : profiles)
    if (p.published == name) return &p;
  return nullptr;
}

const ProfileAvailability* CardPartitionView::find(std::string_view name) const {
  for (const auto& p : profiles)
    if (p.profile == name || p.published == name) return &p;
  return nullptr;
}

PartitionGeometry geometry_from_catalog(const CatalogModel& model) {
  PartitionGeometry g;
  g.memory_slices = model.memory_slices;
  for (const auto& p : model.profiles) {
    GeometryProfile gp;
    gp.name = p.vendor_name;
    gp.published = p.name;
    gp.size = p.mem_slices;
    gp.max_instances = p.max_instances;
    for (const auto& pl : p.placements) gp.starts.push_back(pl.start);
    gp.media_engine = p.media_extensions || p.name.find("+me") != std::string::npos;
    gp.offered = catalog_profile_offered(model.vendor, p);
    g.profiles.push_back(std::move(gp));
  }
  return g;
}

PartitionGeometry geometry_from_capability(std::string_view manufacturer, const AcceleratorPhysicalSliced& physical) {
  PartitionGeometry g;
  for (const auto& p : physical.profiles) {
    GeometryProfile gp;
    gp.name = p.name;
    gp.published = publish_partitioned_profile_name(manufacturer, p.name);
    gp.size = p.memory_slices;
    gp.max_instances = p.count;
    for (const auto& pl : p.placements) {
      gp.starts.push_back(pl.start);
      g.memory_slices = std::max(g.memory_slices, pl.start + pl.length);
    }
    g.profiles.push_back(std::move(gp));
  }
  return g;
}

Result<LiveInstance> parse_live_instance(std::string_view spec) {
  const size_t at = spec.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= spec.size())
    return err("'" + std::string(spec) + "' is not <profile>@<start>");
  int32_t start = 0;
  const auto digits = spec.substr(at + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), start);
  if (ec != std::errc{} || end != digits.data() + digits.size() || start < 0)
    return err("'" + std::string(spec) + "': the start is not a memory-slice index");
  return LiveInstance{std::string(spec.substr(0, at)), start};
}

Status validate_instances(const PartitionGeometry& geometry, const std::vector<LiveInstance>& live) {
  int32_t media = 0;
  for (size_t i = 0; i < live.size(); ++i) {
    const auto& inst = live[i];
    const auto* p = geometry.find(inst.profile);
    if (p == nullptr)
      return err("unknown partition profile '" + inst.profile + "' (known: " + known_profiles(geometry) + ")");
    if (std::find(p->starts.begin(), p->starts.end(), inst.start) == p->starts.end())
      return err(show(inst.profile, inst.start) + ": " + p->published + " cannot start at memory slice " +
                 std::to_string(inst.start) + " (legal starts: " + starts_text(*p) + ")");
    for (size_t j = 0; j < i; ++j) {
      const auto* q = geometry.find(live[j].profile);
      if (overlaps({inst.start, p->size}, {live[j].start, q->size}))
        return err(show(inst.profile, inst.start) + " overlaps " + show(live[j].profile, live[j].start) +
                   " (memory slices [" + std::to_string(inst.start) + "," + std::to_string(inst.start + p->size) +
                   ") and [" + std::to_string(live[j].start) + "," + std::to_string(live[j].start + q->size) + "))");
    }
    if (live_count(geometry, live, *p) > p->max_instances)
      return err(std::to_string(live_count(geometry, live, *p)) + " instances of " + p->published +
                 " exceed its limit of " + std::to_string(p->max_instances) + " per card");
    if (p->media_engine && ++media > 1)
      return err(show(inst.profile, inst.start) + ": a card has one media engine set, already taken by another +me instance");
  }
  return Ok{};
}

// Appends one profile's availability to a card's view; offered profiles count toward the card's
// totals, its largest remaining and its ceiling.
static void add_profile(CardPartitionView& view, const GeometryProfile& p, int32_t allocated, int32_t remaining) {
  if (p.offered) {
    view.allocated_total += allocated;
    view.max_remaining = std::max(view.max_remaining, remaining);
    view.ceiling = std::max(view.ceiling, p.max_instances);
  }
  view.profiles.push_back({p.name, p.published, p.offered, allocated, remaining});
}

Result<CardPartitionView> card_partition_view(const PartitionGeometry& geometry, const std::vector<LiveInstance>& live) {
  if (const auto ok = validate_instances(geometry, live); !ok) return err(ok.error());
  const auto occupied = occupied_of(geometry, live);
  CardPartitionView view;
  for (const auto& p : geometry.profiles) {
    add_profile(view, p, live_count(geometry, live, p), remaining_of(geometry, live, occupied, p));
  }
  return view;
}

CardPartitionView static_ceiling_view(const PartitionGeometry& geometry) {
  CardPartitionView view;
  view.from_ledger = false;
  for (const auto& p : geometry.profiles) {
    view.profiles.push_back({p.name, p.published, p.offered, 0, p.max_instances});
    if (p.offered) {
      view.max_remaining = std::max(view.max_remaining, p.max_instances);
      view.ceiling = std::max(view.ceiling, p.max_instances);
    }
  }
  return view;
}

Result<CardPartitionView> card_view_from_ledger(const PartitionGeometry& geometry, const AcceleratorAllocation* row) {
  if (!partition_ledger_ready(row)) return static_ceiling_view(geometry);
  if (!row->instances.empty()) {
    // The simulator's own rows carry their live instances: recompute by placement.
    std::vector<LiveInstance> live;
    for (const auto& inst : row->instances) {
      const auto* p = geometry.find(inst.profile);
      if (p != nullptr && inst.placement.length != 0 && inst.placement.length != p->size)
        return err("ledger row " + row->id + ": " + show(inst.profile, inst.placement.start) + " spans " +
                   std::to_string(inst.placement.length) + " memory slices, but " + p->published + " spans " +
                   std::to_string(p->size));
      live.push_back({inst.profile, inst.placement.start});
    }
    auto view = card_partition_view(geometry, live);
    if (!view) return err("ledger row " + row->id + ": " + view.error());
    return view;
  }
  // A row read from a cluster is read as the operator reads it: its published per-profile counts (vendor
  // spelling); a profile it does not list holds nothing and has no room.
  auto count_in = [](const std::vector<AcceleratorProfileCount>& list, const std::string& name) -> int32_t {
    for (const auto& pc : list)
      if (pc.name == name) return pc.count;
    return 0;
  };
  for (const auto& list : {&row->allocated_profiles, &row->remaining_profiles})
    for (const auto& pc : *list)
      if (geometry.find(pc.name) == nullptr)
        return err("ledger row " + row->id + ": profile '" + pc.name + "' is not offered by this card (known: " +
                   known_profiles(geometry) + ")");
  CardPartitionView view;
  for (const auto& p : geometry.profiles) {
    add_profile(view, p, count_in(row->allocated_profiles, p.name), count_in(row->remaining_profiles, p.name));
  }
  return view;
}

NodePartitionSummary summarize_partitioned_cards(const std::vector<CardPartitionView>& cards) {
  NodePartitionSummary s;
  for (const auto& card : cards) {
    for (const auto& p : card.profiles)
      if (p.offered) s.per_profile[p.published] += p.allocated_plus_remaining();
    s.pool += card.pool_contribution();
    s.pt_remaining += card.pt_remaining();
    s.pt_capacity += card.ceiling;
    if (card.max_remaining > 0) s.once_max_request = 1;
  }
  return s;
}

Result<int32_t> choose_start(const PartitionGeometry& geometry, const std::vector<LiveInstance>& live,
                             std::string_view profile) {
  const auto* p = geometry.find(profile);
  if (p == nullptr)
    return err("unknown partition profile '" + std::string(profile) + "' (known: " + known_profiles(geometry) + ")");
  if (const auto ok = validate_instances(geometry, live); !ok) return err(ok.error());
  if (live_count(geometry, live, *p) >= p->max_instances)
    return err(p->published + ": the card already holds its limit of " + std::to_string(p->max_instances));
  if (p->media_engine && media_engine_live(geometry, live))
    return err(p->published + ": the card's media engines are taken by another +me instance");
  const auto free = free_starts(*p, occupied_of(geometry, live));
  if (free.empty())
    return err(p->published + ": every legal start (" + starts_text(*p) + ") overlaps a live instance");
  return free.front();
}

Result<std::vector<PartitionChoice>> select_partition_placements(const std::vector<PartitionCard>& cards,
                                                                 std::string_view profile, int32_t count) {
  std::vector<PartitionChoice> choices;
  std::vector<bool> used(cards.size(), false);
  std::string last_reason = "no partitioned card";
  for (int32_t k = 0; k < count; ++k) {
    bool found = false;
    PartitionChoice best;
    int32_t best_occupied = 0;
    for (size_t i = 0; i < cards.size(); ++i) {
      if (used[i]) continue;
      const auto start = choose_start(cards[i].geometry, cards[i].live, profile);
      if (!start) {
        last_reason = "card " + std::to_string(i) + ": " + start.error();
        continue;
      }
      int32_t occupied = 0;
      for (const auto& o : occupied_of(cards[i].geometry, cards[i].live)) occupied += o.size;
      if (!found || occupied > best_occupied) {
        found = true;
        best = {i, *start};
        best_occupied = occupied;
      }
    }
    if (!found)
      return err("cannot place " + std::to_string(count) + " × " + std::string(profile) + " (placed " +
                 std::to_string(k) + "; last refusal: " + last_reason + ")");
    used[best.card] = true;
    choices.push_back(best);
  }
  return choices;
}

}  // namespace chaintwin::model
