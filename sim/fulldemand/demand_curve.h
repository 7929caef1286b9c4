// The paper's curves over arrived demand (docs/research/openb-paper-procedure.md §3, its
// experiments/analysis/merge_*_discrete.py): after every submitted pod — placed or not — one line
// with the GPU demand arrived so far (the pod included), the GPU allocated, the idle GPU and its
// fragment. A line falls in bucket round(arrived / capacity × 100) (half to even); a bucket's value
// is the mean over its lines, and an empty bucket takes the mean over the lines of its two
// neighbours. Values are percent of the cluster's GPU capacity, except the fragment ratio (percent
// of the idle GPU).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace chaintwin::sim {

struct CurvePoint {
  int32_t bucket = 0;              // arrived demand, % of capacity
  double allocated_percent = 0;    // GPU allocated / capacity
  double fragment_percent = 0;     // fragmented idle GPU / capacity
  double fragment_ratio = 0;       // fragmented idle GPU / idle GPU
};

class DemandCurve {
 public:
  explicit DemandCurve(int64_t capacity_milli) : capacity_(capacity_milli) {}
  // One line. `fragment` is in milli-GPU times `fragment_scale` (model/placement/fragmentation.h).
  void add(int64_t arrived_milli, int64_t allocated_milli, int64_t idle_milli, int64_t fragment,
           int64_t fragment_scale);
  // Buckets 0 .. the last line's, each with a value (a bucket with no line of its own or of a
  // neighbour is left out).
  std::vector<CurvePoint> points() const;

 private:
  struct Sums {
    int64_t lines = 0;
    double allocated = 0, fragment = 0, ratio = 0;
  };
  int64_t capacity_;
  std::vector<Sums> buckets_;
};

// round(numerator / denominator) with ties to the even integer; both > 0 or numerator 0.
int64_t round_half_even(int64_t numerator, int64_t denominator);

}  // namespace chaintwin::sim
