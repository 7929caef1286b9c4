// The partition (MIG) catalog shipped inside the binary: per accelerator model, its memory and
// compute slices and every GPU-instance profile with its legal placements, as recorded in
// model/data/mig-profiles.json (embedded at build time). Scenario loaders use it to give a
// simulated card its capability; partition_geometry.h computes what stays free from it.
//
// The tables are parsed once and never change. Profiles keep both spellings: `name` is the
// published one (node keys, Pod requests), `vendor_name` the driver's (Devices, ledger).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/api/devices.h"
#include "model/result.h"

namespace chaintwin::model {

namespace data {
// model/data/mig-profiles.json, embedded by cmake/embed_text.cmake.
extern const std::string_view kMigProfilesJson;
}  // namespace data

struct CatalogProfile {
  std::string name;         // published spelling, e.g. "3g.40gb", "4g.48gb"
  std::string vendor_name;  // driver spelling, e.g. "3g.40gb", "4g48gb"
  std::optional<int32_t> id;  // the driver's GI profile id (per GPU family, never a key)
  int32_t g = 0;              // compute slices (the driver's slice count)
  int32_t mem_slices = 0;     // memory slices = placement length
  int32_t mem_gb = 0;         // the GB in the name
  std::optional<int64_t> mem_mib;           // documented MiB, when recorded
  std::optional<int64_t> mem_mib_observed;  // MiB seen in nvidia-smi output, when recorded
  int32_t max_instances = 0;                // the driver's InstanceCount on an empty card
  std::vector<AcceleratorPlacement> placements;  // legal placements, ascending start
  bool media_extensions = false;                 // a +me variant
  bool gpustack_published = false;               // the catalog's claim that gpustack offers it

  // A media-engine or graphics variant ("+me", "+me.all", "+gfx"), which gpustack never offers.
  bool is_media_or_graphics_variant() const;
  // MiB to record as the Devices profile's memoryMib: documented MiB, else observed MiB, else
  // the name's GB × 1024 (an approximation; NVML reports slightly less).
  int64_t memory_mib() const;
};

struct CatalogModel {
  std::string key;     // catalog key, e.g. "H100-80GB"
  std::string vendor;  // manufacturer key, e.g. "nvidia", "thead", "hygon"
  std::vector<std::string> aliases;
  int32_t memory_slices = 0;
  int32_t compute_slices = 0;
  int32_t total_memory_gb = 0;
  std::optional<int64_t> total_memory_mib;
  std::vector<CatalogProfile> profiles;  // catalog order

  // By published or vendor spelling; nullptr when the model has no such profile.
  const CatalogProfile* find_profile(std::string_view name) const;
  // "1g.10gb, 1g.20gb, ..." — for refusal messages.
  std::string profile_names() const;
};

class MigCatalog {
 public:
  // Parses and validates a catalog document; refuses with the first problem found.
  static Result<MigCatalog> parse(std::string_view json_text);

  const std::vector<CatalogModel>& models() const { return models_; }
  // Exact catalog key.
  const CatalogModel* find_by_key(std::string_view key) const;
  // A catalog key, an alias or a product name ("NVIDIA H100 80GB HBM3" → H100-80GB), compared
  // case-, space- and punctuation-insensitively, a leading "NVIDIA"/"PCI" ignored. Exact keys
  // win over aliases; among equals the earlier catalog entry wins.
  const CatalogModel* find(std::string_view key_or_product) const;

 private:
  std::vector<CatalogModel> models_;
  // The compared forms find() tries, in its order (every key, then every alias as written, then
  // every alias without its remarks), each with its model's index: made once, at parse.
  std::vector<std::pair<std::string, std::size_t>> forms_;
};

// The catalog embedded in the binary, parsed on first use.
const Result<MigCatalog>& embedded_mig_catalog();
// Shorthand for embedded_mig_catalog()->find(); nullptr when unknown or the catalog is broken.
const CatalogModel* find_catalog_model(std::string_view key_or_product);

// Checks a model's tables: placements inside the card, of the profile's length, ascending and
// mutually disjoint; max_instances between 1 and the placement count, equal to it for a plain
// profile; the published flag agreeing with catalog_profile_offered.
Status validate_catalog_model(const CatalogModel& model);

// The per-profile node key `<base>.partitioned.<kind>-<published>`, or "" when the name cannot
// be published. A known manufacturer without a partition kind in the followed knowns.go
// (Hygon) gets the kind "mig", as the newer docs show (hygon.com/dcu.partitioned.mig-2g.15gb).
std::string catalog_profile_key(std::string_view manufacturer, const CatalogProfile& profile);

// Whether gpustack's detectors would keep this profile in the inventory: not a media/graphics
// variant, at least one legal placement, and a name that yields a per-profile key.
bool catalog_profile_offered(std::string_view manufacturer, const CatalogProfile& profile);

// The Devices-spec capability a detector would report for one card of this model:
// offered profiles in catalog order (vendor names, memoryMib, computeSlices, memorySlices,
// count = max_instances, placements), count = the largest per-profile count.
AcceleratorPhysicalSliced catalog_physical_sliced(const CatalogModel& model);
// The whole per-card status: partition mode, so no logical slices.
AcceleratorStatus catalog_accelerator_status(const CatalogModel& model);

// The position a detector reports an offered profile at. NVIDIA's detector probes the GPU-instance
// profile ids NVML enumerates, in NVML's index order — 1, 2, 3, 4, 7, 8 and 6 compute slices, then
// the media (+me) variants it drops, then the one-slice profile with twice the memory (REV2:
// 1g.20gb on an 80 GB card, 1g.10gb on a 40 GB one) — and keeps the first record of each name
// (deriveSlicedProfiles). Other vendors' detectors report the driver's own list, taken here in
// catalog order. Smaller comes first; equal ranks keep catalog order.
int32_t detector_profile_rank(const CatalogModel& model, const CatalogProfile& profile);
// catalog_physical_sliced with its profiles in detector order: a card's capability as the
// operator's capacity and instance-type tests build it (static per-profile ceilings, count = the
// largest). H100 80GB / A100 80GB: 1g.10gb 7, 2g.20gb 3, 3g.40gb 2, 4g.40gb 1, 7g.80gb 1,
// 1g.20gb 4; A100 40GB: 1g.5gb 7, 2g.10gb 3, 3g.20gb 2, 4g.20gb 1, 7g.40gb 1, 1g.10gb 4.
AcceleratorPhysicalSliced detector_physical_sliced(const CatalogModel& model);

}  // namespace chaintwin::model
