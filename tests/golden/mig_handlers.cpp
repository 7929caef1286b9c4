// Golden handlers for the partition (MIG) areas: the worked geometry cases (mig-cases.json),
// the embedded placement catalog (mig-profiles.json) and the profile-name rules
// (mig-profile-names.json). Thin adapters: golden JSON in, model call, JSON out.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/api/devices.h"
#include "model/api/devices_codec.h"
#include "model/catalog/mig_catalog.h"
#include "model/catalog/partition_geometry.h"
#include "model/catalog/profile_names.h"
#include "model/stage3/reject_divergent_group_profiles.h"
#include "model/stage3/sliced_detail.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;

// The value, or the refusal as an exception (the runner reports it as the case's failure).
template <typename T>
T must(m::Result<T> r) {
  if (!r) throw std::runtime_error(r.error());
  return std::move(r).value();
}

const m::CatalogModel& catalog_model(const std::string& key) {
  const auto& catalog = m::embedded_mig_catalog();
  if (!catalog) throw std::runtime_error(catalog.error());
  const auto* model = catalog->find_by_key(key);
  if (model == nullptr) throw std::runtime_error("the embedded catalog has no model '" + key + "'");
  return *model;
}

std::vector<m::LiveInstance> live_of(const json& specs) {
  std::vector<m::LiveInstance> live;
  for (const auto& s : specs) live.push_back(must(m::parse_live_instance(s.get<std::string>())));
  return live;
}

// ---- mig-cases ------------------------------------------------------------------------------

json offered_map(const m::CardPartitionView& view, bool plus_allocated) {
  json out = json::object();
  for (const auto& p : view.profiles)
    if (p.offered) out[p.published] = plus_allocated ? p.allocated_plus_remaining() : p.remaining;
  return out;
}

json card_case(const json& in, const json& want) {
  const auto geometry = m::geometry_from_catalog(catalog_model(in.at("gpu_model").get<std::string>()));
  const auto live = live_of(in.at("existing"));
  const auto view = must(m::card_partition_view(geometry, live));
  json got;
  got["expected_remaining"] = offered_map(view, false);
  got["expected_allocated_plus_remaining"] = offered_map(view, true);
  got["expected_card_partitioned_pool"] = view.pool_contribution();
  got["expected_card_pt_remaining"] = view.pt_remaining();
  got["gpustack_remaining_if_ledger_not_ready"] = offered_map(m::static_ceiling_view(geometry), false);
  if (want.contains("observed_me_variants")) {
    // Shaping only: the case names which not-offered variants it observed.
    json me = json::object();
    for (const auto& [name, _] : want.at("observed_me_variants").items()) {
      const auto* p = view.find(name);
      if (p == nullptr) throw std::runtime_error("no profile '" + name + "' on " + in.at("gpu_model").get<std::string>());
      me[name] = p->remaining;
    }
    got["observed_me_variants"] = me;
  }
  return got;
}

json node_case(const json& in) {
  const auto geometry = m::geometry_from_catalog(catalog_model(in.at("gpu_model").get<std::string>()));
  const int cards = in.at("node_gpus").get<int>();
  std::vector<m::CardPartitionView> views;
  for (int i = 0; i < cards; ++i) {
    const auto key = std::to_string(i);
    const auto live = in.at("existing_by_gpu").contains(key) ? live_of(in.at("existing_by_gpu").at(key))
                                                              : std::vector<m::LiveInstance>{};
    views.push_back(must(m::card_partition_view(geometry, live)));
  }
  const auto summary = m::summarize_partitioned_cards(views);
  json per_profile = json::object();
  for (const auto& [name, n] : summary.per_profile) per_profile[name] = n;
  return {{"expected_node",
           {{"per_profile_keys", per_profile},
            {"partitioned_pool_key", summary.pool},
            {"pt_remaining", summary.pt_remaining}}}};
}

GOLDEN_HANDLER(Spec("mig-cases", "card and node partition view")
                   .alias("cardPartitionView").alias("summarizePartitionedCards")
                   .in({"id", "gpu_model", "source"})
                   .opt({"existing", "scope", "node_gpus", "existing_by_gpu"})
                   .out({"expected_remaining", "expected_allocated_plus_remaining", "expected_card_partitioned_pool",
                         "expected_card_pt_remaining", "gpustack_remaining_if_ledger_not_ready", "observed_me_variants",
                         "expected_node"})
                   .prose({"id", "gpu_model", "existing", "scope", "node_gpus", "existing_by_gpu", "derivation", "source",
                           "confidence", "note_ledger"}),
               [](const json& in, const json& want) -> json {
                 return in.value("scope", "") == "node" ? node_case(in) : card_case(in, want);
               })

// ---- mig-profiles ---------------------------------------------------------------------------

// The embedded entry, with every field the typed tables model re-serialized from them (only
// where the entry has the field), so a lossy parse shows up as a difference.
json reserialized_entry(const m::CatalogModel& model) {
  const json doc = json::parse(m::data::kMigProfilesJson);
  json entry = doc.at(model.key);
  entry["vendor"] = model.vendor;
  entry["aliases"] = model.aliases;
  entry["memory_slices"] = model.memory_slices;
  entry["compute_slices"] = model.compute_slices;
  entry["total_memory_gb"] = model.total_memory_gb;
  if (model.total_memory_mib) entry["total_memory_mib"] = *model.total_memory_mib;
  auto& profiles = entry.at("profiles");
  if (profiles.size() != model.profiles.size()) throw std::runtime_error("profile count changed while parsing");
  for (size_t i = 0; i < model.profiles.size(); ++i) {
    const auto& p = model.profiles[i];
    auto& e = profiles[i];
    const auto set = [&](const char* key, const json& value) {
      if (e.contains(key)) e[key] = value;
    };
    e["name"] = p.name;
    set("vendor_name", p.vendor_name);
    if (p.id) set("id", *p.id);
    e["g"] = p.g;
    e["mem_slices"] = p.mem_slices;
    e["mem_gb"] = p.mem_gb;
    if (p.mem_mib) set("mem_mib", *p.mem_mib);
    if (p.mem_mib_observed) set("mem_mib_observed", *p.mem_mib_observed);
    e["max_instances"] = p.max_instances;
    json placements = json::array();
    for (const auto& pl : p.placements) placements.push_back({{"start", pl.start}, {"size", pl.length}});
    e["placements"] = placements;
    set("media_extensions", p.media_extensions);
    e["gpustack_published"] = p.gpustack_published;
    const auto key = m::catalog_profile_key(model.vendor, p);
    set("gpustack_resource", m::catalog_profile_offered(model.vendor, p) ? json(key) : json(nullptr));
  }
  return entry;
}

GOLDEN_HANDLER(Spec("mig-profiles", "placement catalog model").alias("validateCatalogModel")
                   .in({"key", "entry"})
                   .out({"vendor", "aliases", "memory_slices", "compute_slices", "compute_units", "total_memory_gb",
                         "total_memory_mib", "profiles"})
                   .prose({"sources", "notes"}),
               [](const json& in, const json&) -> json {
                 const auto& model = catalog_model(in.at("key").get<std::string>());
                 must(m::validate_catalog_model(model));
                 return reserialized_entry(model);
               })

// ---- detector catalogs (deriveSlicedProfiles) ---------------------------------------------------

// The capability a detector reports for one card of a catalog model: its offered profiles in the
// detector's order with their static ceilings, and count = the largest.
GOLDEN_HANDLER(Spec("mig-profile-names", "deriveSlicedProfiles").alias("detectorPhysicalSliced")
                   .in({"catalogModel"}).out({"profiles", "count"}),
               [](const json& in, const json&) -> json {
                 const auto sliced = m::detector_physical_sliced(catalog_model(in.at("catalogModel").get<std::string>()));
                 json profiles = json::array();
                 for (const auto& p : sliced.profiles) profiles.push_back({{"name", p.name}, {"count", p.count}});
                 return {{"profiles", profiles}, {"count", sliced.count}};
               })

// isMediaOrGraphicsVariant: whether a raw profile name is a media-engine or graphics variant
// ("+me", "+me.all", "+gfx"), which the detectors drop. The model answers it on a catalog profile;
// the case's name is given as both its published and its driver spelling.
GOLDEN_HANDLER(Spec("mig-profile-names", "isMediaOrGraphicsVariant").in({"profile"}).out({"variant"}),
               [](const json& in, const json&) -> json {
                 m::CatalogProfile p;
                 p.name = in.at("profile").get<std::string>();
                 p.vendor_name = p.name;
                 return {{"variant", p.is_media_or_graphics_variant()}};
               })

// ---- mig-profile-names ----------------------------------------------------------------------

std::string str(const json& in, const char* key) { return in.value(key, std::string()); }

json profile_of(const std::optional<m::ParsedProfileKey>& parsed) {
  return {{"profile", parsed ? parsed->profile : ""}, {"ok", parsed.has_value()}};
}

GOLDEN_HANDLER(Spec("mig-profile-names", "PublishPartitionedProfileName").in({"manufacturer", "profile"}).out({"published"}), [](const json& in, const json&) -> json {
  return {{"published", m::publish_partitioned_profile_name(str(in, "manufacturer"), str(in, "profile"))}};
})

GOLDEN_HANDLER(Spec("mig-profile-names", "VendorPartitionedProfileName").in({"manufacturer", "profile"}).out({"vendor"}), [](const json& in, const json&) -> json {
  return {{"vendor", m::vendor_partitioned_profile_name(str(in, "manufacturer"), str(in, "profile"))}};
})

GOLDEN_HANDLER(Spec("mig-profile-names", "NormalizePartitionedProfileName").in({"raw"}).out({"normalized"}), [](const json& in, const json&) -> json {
  return {{"normalized", m::normalize_partitioned_profile_name(str(in, "raw"))}};
})

GOLDEN_HANDLER(Spec("mig-profile-names", "NormalizePartitionedProfileName").setup("round trip through the profile key").in({"manufacturer", "raw"}).out({"normalized", "key", "PartitionedProfileOf"}).must({"key"}),
               [](const json& in, const json&) -> json {
                 const auto normalized = m::normalize_partitioned_profile_name(str(in, "raw"));
                 const auto key = m::partitioned_profile_resource_name(str(in, "manufacturer"), normalized);
                 const auto parsed = m::partitioned_profile_of(key);
                 return {{"normalized", normalized},
                         {"key", key},
                         {"PartitionedProfileOf", json::array({parsed ? parsed->profile : "", parsed.has_value()})}};
               })

GOLDEN_HANDLER(Spec("mig-profile-names", "GetAcceleratablePartitionedProfileResourceName").setup("round trip at the name boundary").in({"manufacturer", "vendorName"}).out({"key", "PartitionedProfileOf(key)", "keyFromPublished", "VendorPartitionedProfileOf(key)"}),
               [](const json& in, const json&) -> json {
                 const auto manufacturer = str(in, "manufacturer");
                 const auto key = m::partitioned_profile_resource_name(manufacturer, str(in, "vendorName"));
                 const auto published = m::partitioned_profile_of(key);
                 const auto vendor = m::vendor_partitioned_profile_of(key);
                 const std::string profile = published ? published->profile : "";
                 return {{"key", key},
                         {"PartitionedProfileOf(key)", profile},
                         {"keyFromPublished", m::partitioned_profile_resource_name(manufacturer, profile)},
                         {"VendorPartitionedProfileOf(key)", vendor ? vendor->profile : ""}};
               })

GOLDEN_HANDLER(Spec("mig-profile-names", "VendorPartitionedProfileOf").in({"key"}).out({"profile", "ok"}), [](const json& in, const json&) -> json {
  return profile_of(m::vendor_partitioned_profile_of(str(in, "key")));
})

GOLDEN_HANDLER(Spec("mig-profile-names", "PartitionedProfileOf").in({"key"}).out({"profile", "ok"}), [](const json& in, const json&) -> json {
  return profile_of(m::partitioned_profile_of(str(in, "key")));
})

json profile_key(const json& in, const json&) {
  return {{"key", m::partitioned_profile_resource_name(str(in, "manufacturer"), str(in, "profile"))}};
}
GOLDEN_HANDLER(Spec("mig-profile-names", "GetAcceleratablePartitionedProfileResourceName").alias("partitionedProfileResourceName").in({"manufacturer", "profile"}).out({"key"}), profile_key)

GOLDEN_HANDLER(Spec("mig-profile-names", "AggregateAcceleratorSlicedDetail").in({"accelerators"}).out({"acceleratorSlicedDetail"}), [](const json& in, const json&) -> json {
  std::vector<m::Accelerator> cards;
  for (const auto& a : in.at("accelerators")) {
    m::Accelerator card;
    card.status.logical_sliced.count = a.value("logical", 0);
    card.status.logical_sliced.cores_percentage_overcommit = a.value("overcommit", false);
    card.status.physical_sliced.count = a.value("physical", 0);
    for (const auto& p : a.at("profiles")) {
      m::AcceleratorPhysicalSlicedProfile profile;
      profile.name = p.at("name").get<std::string>();
      profile.count = p.value("count", 0);
      profile.memory_mib = p.value("memoryMib", int64_t{0});
      card.status.physical_sliced.profiles.push_back(profile);
    }
    cards.push_back(card);
  }
  const auto detail = m::aggregate_accelerator_sliced_detail(cards);
  json profiles = json::array();
  for (const auto& p : detail.physical.profiles) {
    json row = {{"name", p.name}, {"count", p.count}};
    if (p.memory_mib != 0) row["memoryMib"] = p.memory_mib;  // omitempty
    profiles.push_back(row);
  }
  return {{"acceleratorSlicedDetail",
           {{"logical",
             {{"coresPercentageOvercommit", detail.logical.cores_percentage_overcommit},
              {"count", detail.logical.count}}},
            {"physical", {{"count", detail.physical.count}, {"profiles", profiles}}}}}};
})

// rejectDivergentGroupProfiles on one group: each card's status is the Devices CRD's
// (spec.groups[].accelerators[].status, read through the codec); the answer is what the Go test
// asserts — each card's surviving profile names and physicalSliced.count, and how many names
// were withheld (one reason each).
GOLDEN_HANDLER(Spec("mig-profile-names", "rejectDivergentGroupProfiles").in({"group"}).out({"accelerators", "rejected"}), [](const json& in, const json&) -> json {
  const json& g = in.at("group");
  m::DevicesGroup group;
  group.id = g.value("id", std::string());
  for (const auto& a : g.at("accelerators")) {
    m::Accelerator card;
    card.id = a.at("id").get<std::string>();
    card.status = must(m::decode_accelerator_status(a.value("status", json::object())));
    group.accelerators.push_back(std::move(card));
  }
  const auto rejected = m::reject_divergent_group_profiles(group);
  json cards = json::array();
  for (const auto& card : group.accelerators) {
    json names = json::array();
    for (const auto& p : card.status.physical_sliced.profiles) names.push_back(p.name);
    cards.push_back({{"id", card.id}, {"profiles", names}, {"count", card.status.physical_sliced.count}});
  }
  return {{"accelerators", cards}, {"rejected", rejected.size()}};
})

}  // namespace
