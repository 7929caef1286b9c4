// Which Nodes NodeProfile (stage 3) looks at in each pass of the fixpoint over every Node
// (sync_chain with no Nodes given: the start, a full resync). NodeProfile reads a Node, its
// Devices record and the Settings, nothing else, so once it has looked at every Node it only needs
// to look again at the Nodes whose Node or Devices record was written since: in the previous pass
// (after it ran, or by itself), or earlier in the current one. Any other Node would give what it
// gave last time, which is already applied.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/stage4/plan.h"

namespace chaintwin::sim {

class NodeProfileScope {
 public:
  // The Nodes to look at now (nullopt: every Node, the first time), given the writes applied so
  // far in the current pass.
  std::optional<std::set<std::string>> next(const std::vector<model::Write>& this_pass);
  // A pass ended, having applied `writes`.
  void pass_done(const std::vector<model::Write>& writes);

  // The Node a write touches as NodeProfile reads it (a Node or Devices record), or null.
  static const std::string* node_written(const model::Write& w);

 private:
  bool looked_at_all_ = false;
  std::set<std::string> written_last_pass_;
};

}  // namespace chaintwin::sim
