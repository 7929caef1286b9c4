// Parsing, validation and lookup of the embedded partition catalog (see mig_catalog.h).
#include "model/catalog/mig_catalog.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include <nlohmann/json.hpp>

#include "model/api/k8s_validation.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/profile_names.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

using Json = nlohmann::ordered_json;

// Reads typed fields out of one JSON object, remembering the first problem with its place.
class Reader {
 public:
  Reader(const Json& obj, std::string where) : obj_(obj), where_(std::move(where)) {}

  const Json* field(const char* key, bool required) {
    const auto it = obj_.find(key);
    if (it == obj_.end() || it->is_null()) {
      if (required) fail(std::string("missing '") + key + "'");
      return nullptr;
    }
    return &*it;
  }
  std::optional<int64_t> int_field(const char* key, bool required) {
    const Json* v = field(key, required);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number_integer()) {
      fail(std::string("'") + key + "' is not an integer");
      return std::nullopt;
    }
    return v->get<int64_t>();
  }
  int32_t int32_field(const char* key) {
    const auto v = int_field(key, true);
    if (v && (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max())) fail(std::string("'") + key + "' is out of range");
    return v ? static_cast<int32_t>(*v) : 0;
  }
  std::string string_field(const char* key, bool required) {
    const Json* v = field(key, required);
    if (v == nullptr) return "";
    if (!v->is_string()) {
      fail(std::string("'") + key + "' is not a string");
      return "";
    }
    return v->get<std::string>();
  }
  bool bool_field(const char* key) {
    const Json* v = field(key, false);
    if (v == nullptr) return false;
    if (!v->is_boolean()) {
      fail(std::string("'") + key + "' is not a boolean");
      return false;
    }
    return v->get<bool>();
  }
  void fail(std::string what) {
    if (error_.empty()) error_ = where_ + ": " + std::move(what);
  }
  const std::string& error() const { return error_; }

 private:
  const Json& obj_;
  std::string where_;
  std::string error_;
};

Result<CatalogProfile> parse_profile(const Json& obj, const std::string& where) {
  if (!obj.is_object()) return err(where + ": a profile is not an object");
  Reader r(obj, where);
  CatalogProfile p;
  p.name = r.string_field("name", true);
  p.vendor_name = r.string_field("vendor_name", false);
  if (p.vendor_name.empty()) p.vendor_name = p.name;
  if (const auto id = r.int_field("id", false)) p.id = static_cast<int32_t>(*id);
  p.g = r.int32_field("g");
  p.mem_slices = r.int32_field("mem_slices");
  p.mem_gb = r.int32_field("mem_gb");
  p.mem_mib = r.int_field("mem_mib", false);
  p.mem_mib_observed = r.int_field("mem_mib_observed", false);
  p.max_instances = r.int32_field("max_instances");
  p.media_extensions = r.bool_field("media_extensions");
  p.gpustack_published = r.bool_field("gpustack_published");
  if (const Json* placements = r.field("placements", true)) {
    if (!placements->is_array()) r.fail("'placements' is not an array");
    else
      for (const auto& pl : *placements) {
        if (!pl.is_object()) {
          r.fail("a placement is not an object");
          break;
        }
        Reader pr(pl, where + " placement");
        p.placements.push_back({pr.int32_field("start"), pr.int32_field("size")});
        if (!pr.error().empty()) r.fail(pr.error());
      }
  }
  if (!r.error().empty()) return err(r.error());
  return p;
}

Result<CatalogModel> parse_model(const std::string& key, const Json& obj) {
  const std::string where = "mig catalog: model '" + key + "'";
  if (!obj.is_object()) return err(where + " is not an object");
  Reader r(obj, where);
  CatalogModel m;
  m.key = key;
  m.vendor = r.string_field("vendor", true);
  m.memory_slices = r.int32_field("memory_slices");
  m.compute_slices = r.int32_field("compute_slices");
  m.total_memory_gb = r.int32_field("total_memory_gb");
  m.total_memory_mib = r.int_field("total_memory_mib", false);
  if (const Json* aliases = r.field("aliases", false)) {
    for (const auto& a : *aliases) {
      if (a.is_string()) m.aliases.push_back(a.get<std::string>());
      else r.fail("an alias is not a string");
    }
  }
  if (!r.error().empty()) return err(r.error());
  const Json* profiles = r.field("profiles", true);
  if (profiles == nullptr || !profiles->is_array()) return err(where + ": 'profiles' is missing or not an array");
  for (const auto& p : *profiles) {
    auto parsed = parse_profile(p, where + " profile #" + std::to_string(m.profiles.size()));
    if (!parsed) return err(parsed.error());
    m.profiles.push_back(std::move(parsed).value());
  }
  return m;
}

// Lower-case letters and digits only, parenthesised remarks dropped when asked, a leading
// vendor or bus word ignored: "NVIDIA H100 80GB HBM3" and "h100-80gb-hbm3" compare equal.
std::string lookup_form(std::string_view s, bool drop_remarks) {
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (drop_remarks && c == '(') ++depth;
    else if (drop_remarks && c == ')' && depth > 0) --depth;
    else if (depth == 0 && std::isalnum(static_cast<unsigned char>(c)))
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  for (std::string_view word : {"nvidia", "pci"}) {
    if (out.size() > word.size() && out.compare(0, word.size(), word) == 0) {
      out.erase(0, word.size());
      break;
    }
  }
  return out;
}

}  // namespace

bool CatalogProfile::is_media_or_graphics_variant() const {
  return media_extensions || name.find('+') != std::string::npos ||
         vendor_name.find('+') != std::string::npos;
}

int64_t CatalogProfile::memory_mib() const {
  if (mem_mib) return *mem_mib;
  if (mem_mib_observed) return *mem_mib_observed;
  return int64_t{mem_gb} * 1024;
}

const CatalogProfile* CatalogModel::find_profile(std::string_view name) const {
  for (const auto& p : profiles)
    if (p.name == name || p.vendor_name == name) return &p;
  return nullptr;
}

std::string CatalogModel::profile_names() const {
  std::string out;
  for (const auto& p : profiles) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

Result<MigCatalog> MigCatalog::parse(std::string_view json_text) {
  const Json doc = Json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded()) return err("mig catalog: not valid JSON");
  if (!doc.is_object()) return err("mig catalog: the document is not an object keyed by model");
  MigCatalog catalog;
  for (const auto& [key, value] : doc.items()) {
    auto model = parse_model(key, value);
    if (!model) return err(model.error());
    if (const auto ok = validate_catalog_model(*model); !ok) return err(ok.error());
    catalog.models_.push_back(std::move(model).value());
  }
  const auto& models = catalog.models_;
  for (std::size_t i = 0; i < models.size(); ++i) catalog.forms_.emplace_back(lookup_form(models[i].key, false), i);
  for (const bool drop_remarks : {false, true})
    for (std::size_t i = 0; i < models.size(); ++i)
      for (const auto& alias : models[i].aliases) catalog.forms_.emplace_back(lookup_form(alias, drop_remarks), i);
  return catalog;
}

const CatalogModel* MigCatalog::find_by_key(std::string_view key) const {
  for (const auto& m : models_)
    if (m.key == key) return &m;
  return nullptr;
}

const CatalogModel* MigCatalog::find(std::string_view key_or_product) const {
  if (const auto* exact = find_by_key(key_or_product)) return exact;
  const std::string wanted = lookup_form(key_or_product, false);
  if (wanted.empty()) return nullptr;
  for (const auto& [form, model] : forms_)
    if (form == wanted) return &models_[model];
  return nullptr;
}

const Result<MigCatalog>& embedded_mig_catalog() {
  static const Result<MigCatalog> catalog = MigCatalog::parse(data::kMigProfilesJson);
  return catalog;
}

const CatalogModel* find_catalog_model(std::string_view key_or_product) {
  const auto& catalog = embedded_mig_catalog();
  return catalog ? catalog->find(key_or_product) : nullptr;
}

std::string catalog_profile_key(std::string_view manufacturer, const CatalogProfile& profile) {
  if (profile.vendor_name.empty()) return "";
  if (const auto names = resource_names_for(manufacturer); names && !names->partitioned_profile_prefix.empty())
    return partitioned_profile_resource_name(manufacturer, profile.vendor_name);
  // A manufacturer the followed knowns.go gives no partition kind (Hygon; newer docs publish
  // hygon.com/dcu.partitioned.mig-*): the key it would get under the kind "mig".
  const auto m = find_manufacturer(manufacturer);
  if (!m) return "";
  std::string key = std::string(m->resource_base) + std::string(kPartitionedSuffix) + ".mig-" +
                    publish_partitioned_profile_name(manufacturer, profile.vendor_name);
  return is_qualified_name(key) ? key : "";
}

bool catalog_profile_offered(std::string_view manufacturer, const CatalogProfile& profile) {
  if (profile.is_media_or_graphics_variant()) return false;
  if (profile.placements.empty() || profile.placements.front().length <= 0) return false;
  return !catalog_profile_key(manufacturer, profile).empty();
}

Status validate_catalog_model(const CatalogModel& model) {
  const std::string where = "mig catalog: model '" + model.key + "'";
  if (model.memory_slices <= 0 || model.compute_slices <= 0)
    return err(where + ": memory and compute slices must be positive");
  if (model.profiles.empty()) return err(where + ": no profiles");
  for (size_t i = 0; i < model.profiles.size(); ++i) {
    const auto& p = model.profiles[i];
    const std::string at = where + " profile '" + p.name + "'";
    if (p.name.empty()) return err(where + ": a profile has no name");
    for (size_t j = 0; j < i; ++j)
      if (model.profiles[j].name == p.name || model.profiles[j].vendor_name == p.vendor_name)
        return err(at + ": the name is listed twice");
    if (p.g <= 0 || p.g > model.compute_slices)
      return err(at + ": " + std::to_string(p.g) + " compute slices on a " +
                 std::to_string(model.compute_slices) + "-slice card");
    if (p.mem_slices <= 0 || p.mem_slices > model.memory_slices)
      return err(at + ": " + std::to_string(p.mem_slices) + " memory slices on a " +
                 std::to_string(model.memory_slices) + "-slice card");
    if (p.placements.empty()) return err(at + ": no legal placement");
    for (size_t k = 0; k < p.placements.size(); ++k) {
      const auto& pl = p.placements[k];
      const std::string slot = std::to_string(pl.start) + ":" + std::to_string(pl.length);
      if (pl.length != p.mem_slices)
        return err(at + ": placement " + slot + " is not " + std::to_string(p.mem_slices) + " slices long");
      if (pl.start < 0 || pl.start + pl.length > model.memory_slices)
        return err(at + ": placement " + slot + " leaves the card's " + std::to_string(model.memory_slices) +
                   " memory slices");
      if (k > 0) {
        const auto& prev = p.placements[k - 1];
        if (pl.start <= prev.start) return err(at + ": placements are not in ascending start order");
        if (prev.start + prev.length > pl.start)
          return err(at + ": its own placements " + std::to_string(prev.start) + ":" + std::to_string(prev.length) +
                     " and " + slot + " overlap");
      }
    }
    const auto slots = static_cast<int32_t>(p.placements.size());
    if (p.max_instances < 1 || p.max_instances > slots)
      return err(at + ": max_instances " + std::to_string(p.max_instances) + " is not between 1 and its " +
                 std::to_string(slots) + " placements");
    if (!p.is_media_or_graphics_variant() && p.max_instances != slots)
      return err(at + ": max_instances " + std::to_string(p.max_instances) + " differs from its " +
                 std::to_string(slots) + " disjoint placements");
    if (p.gpustack_published != catalog_profile_offered(model.vendor, p))
      return err(at + ": gpustack_published says " + (p.gpustack_published ? "true" : "false") +
                 " but the detector rules say otherwise");
  }
  return Ok{};
}

AcceleratorPhysicalSliced catalog_physical_sliced(const CatalogModel& model) {
  AcceleratorPhysicalSliced out;
  for (const auto& p : model.profiles) {
    if (!catalog_profile_offered(model.vendor, p)) continue;
    const bool seen = std::any_of(out.profiles.begin(), out.profiles.end(),
                                  [&](const auto& q) { return q.name == p.vendor_name; });
    if (seen) continue;
    out.profiles.push_back({p.vendor_name, p.memory_mib(), p.g, p.placements.front().length, p.max_instances,
                            p.placements});
    out.count = std::max(out.count, p.max_instances);
  }
  return out;
}

AcceleratorStatus catalog_accelerator_status(const CatalogModel& model) {
  AcceleratorStatus status;
  status.physical_sliced = catalog_physical_sliced(model);
  return status;
}

int32_t detector_profile_rank(const CatalogModel& model, const CatalogProfile& profile) {
  constexpr int32_t kCatalogOrder = 0;
  if (model.vendor != "nvidia") return kCatalogOrder;
  // NVML_GPU_INSTANCE_PROFILE_* indices: 1_SLICE 0, 2_SLICE 1, 3_SLICE 2, 4_SLICE 3, 7_SLICE 4,
  // 8_SLICE 5, 6_SLICE 6, 1_SLICE_REV1 7, 2_SLICE_REV1 8, 1_SLICE_REV2 9.
  if (profile.media_extensions) return profile.g == 2 ? 8 : 7;
  if (profile.g == 1) {
    int32_t smallest = profile.mem_slices;
    for (const auto& p : model.profiles)
      if (p.g == 1 && !p.media_extensions) smallest = std::min(smallest, p.mem_slices);
    return profile.mem_slices == smallest ? 0 : 9;
  }
  switch (profile.g) {
    case 2: return 1;
    case 3: return 2;
    case 4: return 3;
    case 7: return 4;
    case 8: return 5;
    case 6: return 6;
    default: return 10;
  }
}

AcceleratorPhysicalSliced detector_physical_sliced(const CatalogModel& model) {
  std::vector<const CatalogProfile*> order;
  for (const auto& p : model.profiles) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [&](const CatalogProfile* a, const CatalogProfile* b) {
    return detector_profile_rank(model, *a) < detector_profile_rank(model, *b);
  });
  AcceleratorPhysicalSliced out;
  for (const CatalogProfile* p : order) {
    if (!catalog_profile_offered(model.vendor, *p)) continue;
    const bool seen = std::any_of(out.profiles.begin(), out.profiles.end(),
                                  [&](const auto& q) { return q.name == p->vendor_name; });
    if (seen) continue;
    out.profiles.push_back({p->vendor_name, p->memory_mib(), p->g, p->placements.front().length, p->max_instances,
                            p->placements});
    out.count = std::max(out.count, p->max_instances);
  }
  return out;
}

}  // namespace chaintwin::model
