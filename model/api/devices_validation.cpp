#include "model/api/devices_validation.h"

#include <map>

#include <set>

#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/mig_catalog.h"
#include "model/stage3/node_keys.h"
#include "model/catalog/profile_names.h"

namespace chaintwin::model {
namespace {

std::string known_manufacturer_list() {
  std::string out;
  for (const auto& m : known_manufacturers()) out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

std::string idx(const std::string& parent, size_t i) { return parent + "[" + std::to_string(i) + "]"; }

void check_manufacturer(const std::string& manufacturer, const std::string& path, std::vector<FieldProblem>& out) {
  if (!find_manufacturer(manufacturer))
    out.push_back({path, "unknown manufacturer '" + manufacturer + "' (known: " + known_manufacturer_list() + ")"});
}

std::string offered_list(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

std::vector<FieldProblem> validate_devices(const Devices& devices) {
  std::vector<FieldProblem> out;
  // Card indexes: the Device Manager numbers the cards it finds on a node 0..N-1, once each.
  size_t cards = 0;
  for (const auto& group : devices.spec.groups) cards += group.accelerators.size();
  std::map<uint32_t, std::string> seen_index;
  for (size_t g = 0; g < devices.spec.groups.size(); ++g)
    for (size_t a = 0; a < devices.spec.groups[g].accelerators.size(); ++a) {
      const uint32_t index = devices.spec.groups[g].accelerators[a].index;
      const std::string path = idx(idx("spec.groups", g) + ".accelerators", a) + ".index";
      if (index >= cards)
        out.push_back({path, "card index " + std::to_string(index) + " on a node of " + std::to_string(cards) +
                                 " card(s) (expected 0.." + std::to_string(cards == 0 ? 0 : cards - 1) + ")"});
      else if (const auto [it, fresh] = seen_index.emplace(index, path); !fresh)
        out.push_back({path, "card index " + std::to_string(index) + " is already " + it->second});
    }
  // Spec side: manufacturers, and partition profiles against the accelerator model's catalog.
  for (size_t g = 0; g < devices.spec.groups.size(); ++g) {
    const auto& group = devices.spec.groups[g];
    const std::string gpath = idx("spec.groups", g);
    check_manufacturer(group.manufacturer, gpath + ".manufacturer", out);
    const CatalogModel* model = find_catalog_model(group.name);
    for (size_t a = 0; a < group.accelerators.size(); ++a) {
      const auto& acc = group.accelerators[a];
      const std::string apath = idx(gpath + ".accelerators", a) + ".status";
      if (acc.status.logical_sliced.count < 0)
        out.push_back({apath + ".logicalSliced.count", "negative count " + std::to_string(acc.status.logical_sliced.count)});
      if (acc.status.physical_sliced.count < 0)
        out.push_back({apath + ".physicalSliced.count", "negative count " + std::to_string(acc.status.physical_sliced.count)});
      const auto& profiles = acc.status.physical_sliced.profiles;
      for (size_t p = 0; p < profiles.size(); ++p) {
        const std::string ppath = idx(apath + ".physicalSliced.profiles", p);
        if (profiles[p].count < 0) out.push_back({ppath + ".count", "negative count " + std::to_string(profiles[p].count)});
        if (model != nullptr && model->find_profile(profiles[p].name) == nullptr)
          out.push_back({ppath + ".name", "unknown MIG profile '" + profiles[p].name + "' for " + group.name +
                                              " (known: " + model->profile_names() + ")"});
      }
    }
  }
  // Status side: the ledger may only name profiles its card offers.
  for (size_t g = 0; g < devices.status.groups.size(); ++g) {
    const auto& lg = devices.status.groups[g];
    const std::string gpath = idx("status.groups", g);
    check_manufacturer(lg.manufacturer, gpath + ".manufacturer", out);
    const DevicesGroup* spec_group = nullptr;
    for (const auto& sg : devices.spec.groups)
      if (sg.id == lg.id && sg.manufacturer == lg.manufacturer) spec_group = &sg;
    for (size_t a = 0; a < lg.accelerators.size(); ++a) {
      const auto& row = lg.accelerators[a];
      const std::string apath = idx(gpath + ".accelerators", a);
      if (row.allocated_slices < 0)
        out.push_back({apath + ".allocatedSlices", "negative count " + std::to_string(row.allocated_slices)});
      const Accelerator* card = nullptr;
      if (spec_group != nullptr)
        for (const auto& acc : spec_group->accelerators)
          if (acc.id == row.id) card = &acc;
      if (card == nullptr) continue;  // the operator tolerates ledger rows it cannot join
      std::set<std::string> offered;
      for (const auto& p : card->status.physical_sliced.profiles) offered.insert(p.name);
      const auto check_list = [&](const std::vector<AcceleratorProfileCount>& list, const std::string& field) {
        for (size_t i = 0; i < list.size(); ++i) {
          const std::string p = idx(apath + "." + field, i);
          if (list[i].count < 0) out.push_back({p + ".count", "negative count " + std::to_string(list[i].count)});
          if (!offered.count(list[i].name))
            out.push_back({p + ".name", "profile '" + list[i].name + "' is not offered by accelerator " + row.id +
                                            " (it offers: " + offered_list(offered) + ")"});
        }
      };
      check_list(row.allocated_profiles, "allocatedProfiles");
      check_list(row.remaining_profiles, "remainingProfiles");
    }
  }
  return out;
}

// No server holds more accelerators than this; a count above it is a typo or hostile input.
constexpr int64_t kMostCardsOnANode = 1024;

std::vector<FieldProblem> validate_node(const Node& node) {
  std::vector<FieldProblem> out;
  const std::string prefix(keys::kAcceleratablePrefix);
  for (const auto& [key, value] : node.metadata.labels) {
    if (key.rfind(prefix, 0) != 0) continue;
    const std::string path = "metadata.labels[\"" + key + "\"]";
    if (key.size() > 6 && key.compare(key.size() - 6, 6, ".count") == 0) {
      const auto n = go_atoi(value);
      if (!n) out.push_back({path, "expected a card count, got '" + value + "'"});
      else if (*n < 0) out.push_back({path, "negative count " + value});
      else if (*n > kMostCardsOnANode)
        out.push_back({path, "count " + value + " is more cards than a node holds (at most " + std::to_string(kMostCardsOnANode) + ")"});
    } else if (key.size() > 7 && key.compare(key.size() - 7, 7, ".memory") == 0) {
      const auto q = Quantity::parse(value);
      if (!q.ok()) out.push_back({path, q.error() + " (expected per-card VRAM such as 24Gi)"});
    }
  }
  return out;
}

}  // namespace chaintwin::model
