// Which Nodes NodeProfile (stage 3) looks at in each pass of the fixpoint over every Node
// (sync_chain with no Nodes given: the start, a full resync). NodeProfile reads a Node, its
// Devices record and the Settings, nothing else, so once it has looked at every Node it only needs
// to look again at the Nodes whose Node or Devices record was written since: in the previous pass
// (after it ran), or earlier in the current one. Any other Node would give what it gave last time,
// which is already applied.
//
// Two kinds of write do not count (blind_to):
// - stage 3's own: its derivation settles a Node in one look (the labels it writes are the ones it
//   derived the capacity keys from, and the capacity it writes is what it derives again from
//   them), so a Node that only it wrote since would give nothing;
// - NodeTopology's topology-profile label on a Node, and the NodeDevices controller's mirror of it
//   onto the Node's Devices record: each writes that one label alone, and stage 3 reads neither
//   that label key nor any label of a Devices record (it reads the record's cards).
// Both are the simulator's claims, not the operator's code, and --verify checks them: sync_chain
// looks at the skipped Nodes anyway (skipped()) and fails if any plans a write.
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
  std::optional<std::set<std::string>> next(const std::vector<model::WriteReceipt>& this_pass);
  // A pass ended, having applied `writes`.
  void pass_done(const std::vector<model::WriteReceipt>& writes);
  // The Nodes the last next() left out because only writes stage 3 is blind to touched them since.
  const std::set<std::string>& skipped() const { return skipped_; }

  // The Node a write touches as NodeProfile reads it (a Node or Devices record), or null.
  static const std::string* node_written(const model::WriteReceipt& w);
  // Whether the write leaves stage 3 nothing new to derive (see above).
  static bool blind_to(const model::WriteReceipt& w);

 private:
  bool looked_at_all_ = false;
  std::set<std::string> written_last_pass_;        // by writes stage 3 reads
  std::set<std::string> blind_written_last_pass_;  // by writes it is blind to
  std::set<std::string> skipped_;
};

}  // namespace chaintwin::sim
