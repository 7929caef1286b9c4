// Checks a Devices record and its Node against what a real Device Manager could publish, so bad
// input is refused with the field and the reason instead of producing a wrong chain: unknown
// manufacturers, partition profiles the accelerator model cannot offer, ledger rows naming
// profiles the card does not offer, and negative or malformed counts on the Node's labels.
#pragma once

#include <string>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"

namespace chaintwin::model {

struct FieldProblem {
  std::string path;     // field path inside the object, e.g. `spec.groups[0].manufacturer`
  std::string message;  // what is wrong and what was expected
  bool operator==(const FieldProblem&) const = default;
};

// Problems in a Devices record, in field order; empty when it is usable.
std::vector<FieldProblem> validate_devices(const Devices& devices);

// Problems in the chain-relevant labels of a Node: accelerator `.count` labels must be
// non-negative integers, `.memory` labels quantities.
std::vector<FieldProblem> validate_node(const Node& node);

}  // namespace chaintwin::model
