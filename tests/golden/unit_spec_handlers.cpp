// Golden handlers for unit-spec.json: the preset lookup (shipped table and purpose-built ones),
// the preset pipeline from a detected product to the derived InstanceType, and the create-only
// authoring decision. Cases flagged `supersededTestExpectation` carry, in `expected`, the value of
// the table we follow (@9c359ba5); they are asserted like every other case (the runner hands the
// handler only `input` and `expected`, and the lookup runs on the shipped table).
#include <map>
#include <stdexcept>

#include "model/stage4/derived_instance_type.h"
#include "model/stage4/derived_unit_resources.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/normalize_name.h"
#include "model/stage3/pool_identity.h"
#include "model/catalog/unit_preset_table.h"
#include "model/catalog/unit_presets.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace model = chaintwin::model;

json unit_json(const model::InstanceTypeUnitResources& u) { return {{"cpu", u.cpu}, {"ram", u.ram}}; }

// A purpose-built table as the operator's test fixture composes it: the shipped tier ladder, the
// case's strip list (the shipped one when it gives none), the case's families. Variants are
// written "token->tier"; family names, which the
// lookup never reads, default to <manufacturer>-<prefix>[-<token>].
model::PresetTable purpose_built_table(const json& table) {
  const auto& shipped = model::shipped_preset_table();
  // The fixture's strip sequences when the case gives them, else the shipped ones.
  json doc{{"strip", table.contains("strip") ? table.at("strip") : json(shipped.strip)},
           {"tiers", json::object()},
           {"families", json::object()}};
  for (const auto& [name, tier] : shipped.tiers) doc["tiers"][name] = {{"cpu", tier.cpu}, {"ram", tier.ram}};
  for (const auto& [manufacturer, entries] : table.at("families").items()) {
    for (const auto& e : entries) {
      const std::string family = e.value("family", manufacturer + "-" + e.at("prefix").get<std::string>());
      json entry{{"prefix", e.at("prefix")}, {"tier", e.at("tier")}, {"family", family}};
      for (const auto& v : e.value("by", json::array())) {
        const std::string text = v.get<std::string>();
        const auto arrow = text.find("->");
        if (arrow == std::string::npos) throw std::runtime_error("variant '" + text + "' is not token->tier");
        const std::string token = text.substr(0, arrow);
        entry["by"].push_back({{"token", token}, {"tier", text.substr(arrow + 2)}, {"family", family + "-" + token}});
      }
      doc["families"][manufacturer].push_back(std::move(entry));
    }
  }
  auto parsed = model::parse_preset_table(doc);
  if (!parsed) throw std::runtime_error("purpose-built table refused: " + parsed.error());
  return std::move(parsed).value();
}

json preset_lookup(const json& in, const json&) {
  const std::string manufacturer = in.at("manufacturer");
  const std::string product = in.at("product");
  if (in.contains("normalizedKey") && model::preset_key(manufacturer, product) != in.at("normalizedKey"))
    throw std::runtime_error("lookup key is '" + model::preset_key(manufacturer, product) + "', the case records " +
                             in.at("normalizedKey").dump());
  const auto preset = in.contains("table")
                          ? model::preset_unit_resources(purpose_built_table(in.at("table")), manufacturer, product)
                          : model::preset_unit_resources(manufacturer, product);
  return {{"unitResources", {{"cpu", preset.cpu}, {"ram", preset.ram}}}};
}

GOLDEN_HANDLER(Spec("unit-spec", "PresetUnitResources").alias("lookup").in({"manufacturer", "product"}).opt({"normalizedKey", "table"}).out({"unitResources"}),
               preset_lookup)

// stripLeadingMarketing over the lookup's tokens (splitPresetTokens of the normalized key), on the
// shipped table.
GOLDEN_HANDLER(Spec("unit-spec", "stripLeadingMarketing").alias("splitPresetTokens").in({"manufacturer", "product"}).out({"tokens"}),
               [](const json& in, const json&) -> json {
                 return {{"tokens", model::preset_lookup_tokens(model::shipped_preset_table(), in.at("manufacturer").get<std::string>(),
                                                                in.at("product").get<std::string>())}};
               })

// The test fixtures' node: linux/amd64, CPU key "generic".
model::NodeFlavor fixture_flavor() {
  model::NodeFlavor f;
  f.general_key = "generic";
  f.os = "linux";
  f.arch = "amd64";
  return f;
}

// An accelerated pool from its aKey. The manufacturer is the aKey's leading manufacturer key; a
// case that records no product label gets the aKey's group id (what a detector reporting the
// bare chip name would label).
model::NodeFlavor accelerated_flavor(const std::string& akey, const json& product) {
  model::NodeFlavor f = fixture_flavor();
  const auto dash = akey.find('-');
  if (dash == std::string::npos || !model::find_manufacturer(akey.substr(0, dash)))
    throw std::runtime_error("aKey '" + akey + "' does not start with a known manufacturer");
  f.acceleratable = true;
  f.manufacturer = akey.substr(0, dash);
  f.accelerator_key = akey;
  f.product = product.is_string() ? product.get<std::string>() : akey.substr(dash + 1);
  return f;
}

GOLDEN_HANDLER(Spec("unit-spec", "NodeFlavorReconciler").setup("preset pipeline: detected product to derived InstanceType").in({"manufacturer", "detectedProduct", "productLabel(sanitized, <=63)"}).opt({"memoryMiB"}).out({"unitResources", "localStorage", "derivedInstanceTypeName(aware=false)"}), [](const json& in, const json&) -> json {
  const std::string manufacturer = in.at("manufacturer");
  const std::string detected = in.at("detectedProduct");
  // aKey = manufacturer-ConstructGroupID(detected product); the preset reads the product label.
  const std::string akey = model::accelerator_key(manufacturer, model::construct_group_id(manufacturer, detected));
  const auto flavor = accelerated_flavor(akey, in.at("productLabel(sanitized, <=63)"));
  const auto d = model::decide_derived_instance_type(flavor, model::Settings{}, nullptr);
  if (d.action != model::AuthorAction::kCreate) throw std::runtime_error("expected a create: " + d.reason);
  return {{"unitResources", unit_json(d.instance_type.spec.unit_resources)},
          {"localStorage", d.instance_type.spec.local_storage},
          {"derivedInstanceTypeName(aware=false)", d.instance_type.metadata.name}};
})

json instance_type_json(const model::InstanceType& it) {
  const auto& s = it.spec;
  return {{"name", it.metadata.name},
          {"labels", it.metadata.labels},
          {"spec",
           {{"acceleratorGroup", s.accelerator_group},
            {"generalGroup", s.general_group},
            {"acceleratable", s.acceleratable},
            {"os", s.os},
            {"arch", s.arch},
            {"displayName", s.display_name},
            {"inactive", s.inactive},
            {"unitResources", unit_json(s.unit_resources)},
            {"localStorage", s.local_storage}}}};
}

// Keeps the keys `want` asks about (the spec is asserted field by field in the operator test).
json project(const json& full, const json& want) {
  json out = json::object();
  for (const auto& [key, value] : want.items())
    if (full.contains(key)) out[key] = (key == "spec") ? project(full.at(key), value) : full.at(key);
  return out;
}

GOLDEN_HANDLER(Spec("unit-spec", "authorDerivedInstanceType").opt({"aKey", "aware", "existing", "existingUnit", "gKey", "product", "thenDeleted"}).out({"instanceType"}), [](const json& in, const json& want) -> json {
  model::Settings settings;  // derived-from-node on, CPU awareness as the case says
  settings.instance_type_aware_cpu_manufacturer = in.value("aware", false);
  model::NodeFlavor flavor = fixture_flavor();
  if (in.contains("aKey")) flavor = accelerated_flavor(in.at("aKey"), in.value("product", json()));
  if (in.contains("gKey")) flavor.general_key = in.at("gKey");

  std::map<std::string, model::InstanceType> store;  // the cluster's InstanceTypes by name
  const auto reconcile = [&] {
    const auto id = model::derived_instance_type_identity(flavor, settings.instance_type_aware_cpu_manufacturer);
    const auto found = store.find(id.name);
    const auto d = model::decide_derived_instance_type(flavor, settings, found == store.end() ? nullptr : &found->second);
    if (d.action == model::AuthorAction::kCreate) store[d.instance_type.metadata.name] = d.instance_type;
    return d.instance_type;
  };

  if (in.contains("existing")) {  // an admin-made type already sits under the derived name
    const json& e = in.at("existing");
    model::InstanceType admin;
    admin.metadata.name = e.at("name");
    admin.spec.general_group = "generic";
    admin.spec.os = "linux";
    admin.spec.arch = "amd64";
    admin.spec.unit_resources = {e.at("unitResources").at("cpu"), e.at("unitResources").at("ram")};
    admin.spec.local_storage = e.at("localStorage");
    store[admin.metadata.name] = admin;
  }

  json got = instance_type_json(reconcile());
  const std::string marker(model::keys::kScheduleDerivedFromNode);
  got["derivedMarkerAdded"] = got.at("labels").contains(marker);
  if (flavor.acceleratable) {
    // The feature-key label derives from the spec and is never stamped on the type.
    const std::string feature = std::string(model::keys::kAcceleratablePrefix) + flavor.accelerator_key;
    got["notStamped"] = got.at("labels").contains(feature) ? feature + " label stamped"
                                                           : feature + " label (derives from spec)";
  }
  if (in.contains("existingUnit")) {  // stand in for a type authored before presets existed
    const std::string name = got.at("name");
    store.at(name).spec.unit_resources = {in.at("existingUnit").at("cpu"), in.at("existingUnit").at("ram")};
    got["afterReconcile"] = unit_json(reconcile().spec.unit_resources);
    if (in.value("thenDeleted", false)) {
      store.erase(name);
      got["afterDeleteAndReconcile"] = unit_json(reconcile().spec.unit_resources);
    }
  }
  return {{"instanceType", project(got, want.at("instanceType"))}};
})

// loadUnitResourcesPresets: the strict decode and load-time validation of a preset table
// (validateTiers, validateStrip, validateFamilies, validateFamilyEntry, claimPresetFamily,
// validatePresetPrefixesDisjoint, validatePresetSequence, validatePresetToken,
// parsePresetUnitCPU/RAM). Answers whether the table loads and, when refused, where: the
// operator's error names the place before ": " (tiers[small].cpu, strip["tesla"],
// families[nvidia][a100].by["80gb"].token, ...).
GOLDEN_HANDLER(Spec("unit-spec", "loadUnitResourcesPresets").alias("preset table validators").alias("validate").in({"table"}).out({"ok", "refusedAt"}), [](const json& in, const json&) -> json {
  const auto table = model::parse_preset_table(in.at("table"));
  if (table) return {{"ok", true}, {"refusedAt", nullptr}};
  const std::string& e = table.error();
  const auto colon = e.find(": ");
  return {{"ok", false}, {"refusedAt", colon == std::string::npos ? e : e.substr(0, colon)}};
})

// derivedUnitResources (node_flavor.go): the unit CPU / RAM of a derived InstanceType from the
// pool's flavor — fixed for a non-accelerated pool, the product's preset for an accelerated one
// (shipped table); localStorage is derivedLocalStorage, the same for every derived type.
GOLDEN_HANDLER(Spec("unit-spec", "derivedUnitResources").in({"acceleratable", "manufacturer", "product"}).out({"unitCpu", "unitRam", "localStorage"}), [](const json& in, const json&) -> json {
  model::NodeFlavor flavor;
  flavor.acceleratable = in.at("acceleratable").get<bool>();
  flavor.manufacturer = in.at("manufacturer").get<std::string>();
  flavor.product = in.at("product").get<std::string>();
  const auto unit = model::derived_unit_resources(flavor);
  return {{"unitCpu", unit.cpu}, {"unitRam", unit.ram}, {"localStorage", std::string(model::kDerivedLocalStorage)}};
});

}  // namespace
