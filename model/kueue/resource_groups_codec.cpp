#include "model/kueue/resource_groups_codec.h"

#include "model/api/codec_support.h"

namespace chaintwin::model::resource_groups_codec {
namespace {

using codec::json;

Quantity required_quantity(const json& o, std::string_view key, const std::string& parent) {
  auto q = optional_quantity(o, key, parent);
  if (!q) codec::fail(codec::member_path(parent, key), "is required");
  return *q;
}

}  // namespace

json encode_resource_groups(const std::vector<ResourceGroup>& groups) {
  json out = json::array();
  for (const auto& g : groups) {
    json flavors = json::array();
    for (const auto& f : g.flavors) {
      json resources = json::array();
      for (const auto& r : f.resources) {
        json o{{"name", r.name}, {"nominalQuota", r.nominal_quota.to_string()}};
        if (r.borrowing_limit) o["borrowingLimit"] = r.borrowing_limit->to_string();
        if (r.lending_limit) o["lendingLimit"] = r.lending_limit->to_string();
        resources.push_back(std::move(o));
      }
      flavors.push_back({{"name", f.name}, {"resources", std::move(resources)}});
    }
    out.push_back({{"coveredResources", g.covered_resources}, {"flavors", std::move(flavors)}});
  }
  return out;
}


std::optional<Quantity> optional_quantity(const json& o, std::string_view key, const std::string& parent) {
  const json* v = codec::find_member(o, key);
  if (v == nullptr) return std::nullopt;
  const std::string path = codec::member_path(parent, key);
  Quantity q = codec::as_quantity(*v, path);
  // Kueue's ClusterQueue webhook refuses a negative quota or limit (validateResourceQuantity).
  if (q.sign() < 0) codec::fail(path, "'" + q.to_string() + "' must be greater than or equal to 0");
  return q;
}

std::vector<ResourceGroup> decode_resource_groups(const json& spec) {
  std::vector<ResourceGroup> out;
  const json& groups = codec::read_array(spec, "resourceGroups", "spec");
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const std::string gp = codec::index_path("spec.resourceGroups", gi);
    codec::expect_object(groups[gi], gp);
    ResourceGroup g;
    g.covered_resources = codec::read_string_list(groups[gi], "coveredResources", gp);
    const json& flavors = codec::read_array(groups[gi], "flavors", gp);
    for (std::size_t fi = 0; fi < flavors.size(); ++fi) {
      const std::string fp = codec::index_path(codec::member_path(gp, "flavors"), fi);
      codec::expect_object(flavors[fi], fp);
      FlavorQuotas f;
      f.name = codec::read_string(flavors[fi], "name", fp);
      const json& resources = codec::read_array(flavors[fi], "resources", fp);
      for (std::size_t ri = 0; ri < resources.size(); ++ri) {
        const std::string rp = codec::index_path(codec::member_path(fp, "resources"), ri);
        codec::expect_object(resources[ri], rp);
        ResourceQuota r;
        r.name = codec::read_string(resources[ri], "name", rp);
        r.nominal_quota = required_quantity(resources[ri], "nominalQuota", rp);
        r.borrowing_limit = optional_quantity(resources[ri], "borrowingLimit", rp);
        r.lending_limit = optional_quantity(resources[ri], "lendingLimit", rp);
        f.resources.push_back(std::move(r));
      }
      g.flavors.push_back(std::move(f));
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace chaintwin::model::resource_groups_codec
