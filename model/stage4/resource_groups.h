// A ClusterQueue's quota from its pool's ResourceFlavors (node_queue.go: the flavor list of
// Reconcile, buildResourceGroups, parseResourceFlavorCount, parseResourceFlavorCapacity,
// droppedFlavorReferences): which flavors feed a queue, their per-node count and pooled
// capacity, the order Kueue tries them in and the one resource group they form.
// Callers: the NodeQueue reconciler and its topology validation.
#pragma once

#include "model/catalog/label_keys.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/kueue/kueue_objects.h"
#include "model/cluster_state.h"

namespace chaintwin::model {

using keys::kClusterQueueResType;
using keys::kResourceFlavorResType;

// The systemmeta note `name` of an object (annotation note.gpustack.ai/<name>), "" when absent.
std::string note_of(const ObjectMeta& meta, std::string_view name);

// The live operator flavors of a pool: every ResourceFlavor labelled resource.gpustack.ai/type=nodes
// whose labels contain pool_flavor_selector(queue_labels), minus those being deleted; in name order.
// nullopt when the queue labels give no selector (the queue is not a pool queue).
std::optional<std::vector<ResourceFlavor>> live_pool_flavors(const ClusterState& state, const StringMap& queue_labels);

// parseResourceFlavorCount: the per-node count from spec.nodeLabels[<own key>.count], where the own
// key is a "true" label under acceleratable.feature.gpustack.ai/ on an accelerated flavor (label
// feature.gpustack.ai/acceleratable=true) or general.feature.gpustack.ai/ otherwise; the first
// (in key order) whose count parses above zero. 0 when none.
int64_t resource_flavor_count(const ResourceFlavor& rf);

// parseResourceFlavorCapacity: the pooled capacity (nodes × count) from the flavor's own
// metadata label <own key>.capacity, chosen the same way. 0 when none.
int64_t resource_flavor_capacity(const ResourceFlavor& rf);

// Smallest per-node count first, then name, so Kueue packs small nodes first.
void sort_by_per_node_count(std::vector<ResourceFlavor>& flavors);

// buildResourceGroups over flavors already in order: one group covering
// credits.gpustack.ai/<manufacturer> (nominal = capacity × M) when accelerated, else cpu (nominal =
// capacity); a flavor with capacity <= 0 is skipped; no borrowing or lending limit. Empty when no
// flavor has capacity.
std::vector<ResourceGroup> build_resource_groups(const std::vector<ResourceFlavor>& ordered, bool acceleratable,
                                                 std::string_view manufacturer);

// droppedFlavorReferences: flavors `current` references that `desired` does not, in `current`'s order.
std::vector<std::string> dropped_flavor_references(const std::vector<ResourceGroup>& current,
                                                   const std::vector<ResourceGroup>& desired);

}  // namespace chaintwin::model
