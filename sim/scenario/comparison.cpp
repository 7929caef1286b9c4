// Comparison (scenario.h): a counter check such as ">= 480".
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

bool Comparison::holds(int64_t got) const {
  if (op == "==") return got == value;
  if (op == "!=") return got != value;
  if (op == ">=") return got >= value;
  if (op == "<=") return got <= value;
  if (op == ">") return got > value;
  if (op == "<") return got < value;
  return false;  // the loader never produces another operator
}

std::string Comparison::str() const { return op == "==" ? std::to_string(value) : op + " " + std::to_string(value); }

}  // namespace chaintwin::sim
