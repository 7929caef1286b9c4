// Which Nodes NodeProfile (stage 3) looks at in each pass of the fixpoint over every Node
// (sync_chain with no Nodes given: the start, a full resync). NodeProfile reads a Node, its
// Devices record and the Settings, nothing else, so once it has looked at every Node it only needs
// to look again at the Nodes whose Node or Devices record was written since: in the previous pass
// (after it ran), or earlier in the current one. Any other Node would give what it gave last time,
// which is already applied.
//
// Stage 3's own writes do not count: its derivation settles a Node in one look (the labels it
// writes are the ones it derived the capacity keys from, and the capacity it writes is what it
// derives again from them), so a Node that only it wrote since would give nothing. That is the
// simulator's claim, not the operator's code, and --verify checks it: sync_chain looks at the
// skipped Nodes anyway (skipped()) and fails if any plans a write.
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
  // The Nodes the last next() left out because only stage 3's own writes touched them since.
  const std::set<std::string>& skipped() const { return skipped_; }

  // The Node a write touches as NodeProfile reads it (a Node or Devices record), or null.
  static const std::string* node_written(const model::Write& w);
  // Whether stage 3 itself made the write (its presence labels, or kubelet's mirror of its capacity).
  static bool own_write(const model::Write& w);

 private:
  void note(const std::vector<model::Write>& writes, std::set<std::string>& others, std::set<std::string>& own) const;

  bool looked_at_all_ = false;
  std::set<std::string> written_last_pass_;        // by anyone but stage 3
  std::set<std::string> own_written_last_pass_;    // by stage 3 alone
  std::set<std::string> skipped_;
};

}  // namespace chaintwin::sim
