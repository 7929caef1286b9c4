#include "model/kueue/fair_sharing_codec.h"

#include "model/api/codec_support.h"

namespace chaintwin::model::fair_sharing_codec {

using codec::json;

std::optional<Quantity> decode_weight(const json& spec) {
  const json* fs = codec::find_member(spec, "fairSharing");
  if (fs == nullptr || fs->is_null()) return std::nullopt;
  codec::expect_object(*fs, "spec.fairSharing");
  const json* w = codec::find_member(*fs, "weight");
  if (w == nullptr || w->is_null()) return std::nullopt;
  const Quantity q = codec::as_quantity(*w, "spec.fairSharing.weight");
  if (q.sign() < 0) codec::fail("spec.fairSharing", "'" + q.to_string() + "': must be greater than or equal to 0");
  if (q.sign() > 0 && q <= Quantity::from_scaled(1, -9, Quantity::Format::kDecimalSI))
    codec::fail("spec.fairSharing", "'" + q.to_string() + "': when not 0, weight must be > 10e-9");
  return q;
}

void encode_weight(json& spec, const std::optional<Quantity>& weight) {
  if (weight) spec["fairSharing"] = {{"weight", weight->to_string()}};
}

double weight_value(const std::optional<Quantity>& weight) {
  if (!weight) return 1;
  double power = 1;
  for (int32_t e = weight->exponent() < 0 ? -weight->exponent() : weight->exponent(); e > 0; --e) power *= 10;
  const double m = static_cast<double>(weight->mantissa());
  return weight->exponent() < 0 ? m / power : m * power;
}

}  // namespace chaintwin::model::fair_sharing_codec
