// Comparison, DecimalComparison and WaitBound (scenario.h): the checks of `expect:` values.
#include "model/api/int128.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {
namespace {

// a op b for any ordered values, with the operators the loader accepts.
template <typename T>
bool compare(const std::string& op, const T& a, const T& b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == ">=") return a >= b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  if (op == "<") return a < b;
  return false;  // the loader never produces another operator
}

}  // namespace

bool Comparison::holds(int64_t got) const { return compare(op, got, value); }

std::string Comparison::str() const { return op == "==" ? std::to_string(value) : op + " " + std::to_string(value); }

bool DecimalComparison::holds(int64_t numerator, int64_t denominator) const {
  // numerator / denominator op mantissa / 10^scale  ⇔  numerator · 10^scale op mantissa · denominator.
  model::i128 pow10 = 1;
  for (int32_t i = 0; i < scale; ++i) pow10 *= 10;
  return compare(op, static_cast<model::i128>(numerator) * pow10, static_cast<model::i128>(mantissa) * denominator);
}

bool DecimalComparison::holds(double got) const {
  double pow10 = 1;
  for (int32_t i = 0; i < scale; ++i) pow10 *= 10;
  return compare(op, got, static_cast<double>(mantissa) / pow10);
}

std::string DecimalComparison::str() const { return op == "==" ? text : op + " " + text; }

std::string WaitBound::str() const { return op + " " + value.to_string(); }

}  // namespace chaintwin::sim
