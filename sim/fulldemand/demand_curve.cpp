#include "sim/fulldemand/demand_curve.h"

namespace chaintwin::sim {

int64_t round_half_even(int64_t numerator, int64_t denominator) {
  const int64_t q = numerator / denominator, r = numerator % denominator;
  if (2 * r > denominator || (2 * r == denominator && q % 2 == 1)) return q + 1;
  return q;
}

void DemandCurve::add(int64_t arrived_milli, int64_t allocated_milli, int64_t idle_milli, int64_t fragment,
                      int64_t fragment_scale) {
  const auto bucket = static_cast<size_t>(round_half_even(arrived_milli * 100, capacity_));
  if (buckets_.size() <= bucket) buckets_.resize(bucket + 1);
  Sums& s = buckets_[bucket];
  const double fragment_milli = static_cast<double>(fragment) / static_cast<double>(fragment_scale);
  ++s.lines;
  s.allocated += 100.0 * static_cast<double>(allocated_milli) / static_cast<double>(capacity_);
  s.fragment += 100.0 * fragment_milli / static_cast<double>(capacity_);
  s.ratio += idle_milli > 0 ? 100.0 * fragment_milli / static_cast<double>(idle_milli) : 0.0;
}

std::vector<CurvePoint> DemandCurve::points() const {
  std::vector<CurvePoint> out;
  for (size_t b = 0; b < buckets_.size(); ++b) {
    Sums s = buckets_[b];
    if (s.lines == 0) {
      for (const size_t n : {b - 1, b + 1}) {
        if (n >= buckets_.size()) continue;  // past the last bucket, or b − 1 wrapped below 0
        s.lines += buckets_[n].lines;
        s.allocated += buckets_[n].allocated;
        s.fragment += buckets_[n].fragment;
        s.ratio += buckets_[n].ratio;
      }
    }
    if (s.lines == 0) continue;
    const auto lines = static_cast<double>(s.lines);
    out.push_back({static_cast<int32_t>(b), s.allocated / lines, s.fragment / lines, s.ratio / lines});
  }
  return out;
}

}  // namespace chaintwin::sim
