#include "model/kueue/cohort_codec.h"

#include "model/api/codec_support.h"
#include "model/api/object_meta_codec.h"
#include "model/kueue/fair_sharing_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/kueue/resource_groups_codec.h"

namespace chaintwin::model {

using codec::json;

json encode_cohort(const Cohort& cohort) {
  json spec = json::object();
  if (!cohort.spec.parent_name.empty()) spec["parentName"] = cohort.spec.parent_name;
  if (!cohort.spec.resource_groups.empty())
    spec["resourceGroups"] = resource_groups_codec::encode_resource_groups(cohort.spec.resource_groups);
  fair_sharing_codec::encode_weight(spec, cohort.spec.fair_sharing_weight);
  return {{"apiVersion", kKueueApiVersion}, {"kind", "Cohort"}, {"metadata", encode_object_meta(cohort.metadata)},
          {"spec", std::move(spec)}};
}

Result<Cohort> decode_cohort(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kKueueApiVersion, kKueueApiVersionV1beta1}, "Cohort");
    Cohort c;
    if (const json* m = codec::find_member(doc, "metadata")) c.metadata = codec::decode_object_meta_at(*m, "metadata");
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      c.spec.parent_name = codec::read_string(*spec, "parentName", "spec");
      if (!c.spec.parent_name.empty() && c.spec.parent_name == c.metadata.name)
        codec::fail("spec.parentName", "'" + c.spec.parent_name + "' names this Cohort itself (a cohort cannot be its own parent)");
      c.spec.resource_groups = resource_groups_codec::decode_resource_groups(*spec);
      c.spec.fair_sharing_weight = fair_sharing_codec::decode_weight(*spec);
      // Kueue's webhook: borrowingLimit and lendingLimit only on a Cohort with a parent.
      if (c.spec.parent_name.empty())
        for (std::size_t g = 0; g < c.spec.resource_groups.size(); ++g)
          for (std::size_t f = 0; f < c.spec.resource_groups[g].flavors.size(); ++f)
            for (std::size_t r = 0; r < c.spec.resource_groups[g].flavors[f].resources.size(); ++r) {
              const ResourceQuota& q = c.spec.resource_groups[g].flavors[f].resources[r];
              const std::string at = "spec.resourceGroups[" + std::to_string(g) + "].flavors[" + std::to_string(f) +
                                     "].resources[" + std::to_string(r) + "]";
              if (q.borrowing_limit) codec::fail(at + ".borrowingLimit", "must be nil when parentName is empty");
              if (q.lending_limit) codec::fail(at + ".lendingLimit", "must be nil when parentName is empty");
            }
    }
    return c;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
