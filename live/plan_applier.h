// Apply mode: sends the operator's writes (drift.h) to the cluster, as the operator would make
// them — create with POST, Node labels and Node status.capacity as JSON merge patches, every other
// update as a replace carrying the resourceVersion it was planned on (so a change in between is a
// 409 Conflict, not a lost update), status through the status subresource, delete with DELETE —
// each with fieldManager=chaintwin, and dryRun=All when asked. It stops at the first refusal: the
// caller re-reads the cluster and plans again.
#pragma once

#include <string>
#include <vector>

#include "live/api_client.h"
#include "model/stage4/cluster_state.h"
#include "model/stage4/plan.h"

namespace chaintwin::live {

struct ApplyReport {
  int64_t sent = 0;        // requests that changed (or, dry run, would change) the cluster
  bool conflict = false;   // stopped on a 409: re-read and re-plan
  std::string stopped;     // why it stopped early ("" when every write went through)
};

// `observed` is the state the writes were planned on (for Nodes' current labels and capacity).
ApplyReport apply_writes(ApiClient& client, const model::ClusterState& observed, const std::vector<model::Write>& writes,
                         bool dry_run);

}  // namespace chaintwin::live
