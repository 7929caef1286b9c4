// Apply mode: sends the operator's writes (drift.h) to the cluster, as the operator would make
// them — create with POST, Node labels and Node status.capacity as JSON merge patches, every other
// update as a replace carrying the resourceVersion it was planned on (so a change in between is a
// 409 Conflict, not a lost update) and every field of the object the model does not read (so the
// replace wipes nothing it does not own), status through the status subresource, delete with DELETE —
// each with fieldManager=chaintwin, and dryRun=All when asked. It stops at the first refusal: the
// caller re-reads the cluster and plans again.
#pragma once

#include <string>
#include <vector>

#include "live/api_client.h"
#include "live/cluster_reader.h"
#include "model/cluster_state.h"
#include "model/stage4/plan.h"

namespace chaintwin::live {

struct ApplyReport {
  int64_t sent = 0;        // requests that changed (or, dry run, would change) the cluster
  bool conflict = false;   // stopped on a 409: re-read and re-plan
  std::string stopped;     // why it stopped early ("" when every write went through)
};

// `observed` is the cluster the writes were planned on: its state gives Nodes' current labels and
// capacity; its objects as sent give the fields a replace must keep (unknown_fields.h).
ApplyReport apply_writes(ApiClient& client, const ObservedCluster& observed, const std::vector<model::Write>& writes,
                         bool dry_run);

}  // namespace chaintwin::live
