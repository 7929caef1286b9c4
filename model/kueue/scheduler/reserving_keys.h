// The keys of the Workloads holding a quota reservation, by ClusterQueue: what the runner keeps so
// that preemption and the stop policies look only at the Workloads that can matter to them.
#pragma once

#include <map>
#include <string>
#include <unordered_set>

namespace chaintwin::model {

// One ClusterQueue's reserving Workloads, in no order: a reader that walks them sorts what it
// keeps before anything it decides can depend on the order.
using ReservingKeys = std::unordered_set<std::string>;

// ClusterQueue name → its reserving Workloads (a superset is fine for every reader).
using ReservingByQueue = std::map<std::string, ReservingKeys>;

}  // namespace chaintwin::model
