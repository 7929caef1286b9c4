// WorkloadBook: the runner's records of the Workloads it was given, by a dense id handed out when
// one arrives. An entry holds the Workload's key, where its outcome sits in the RunRecord and, while
// the runner tracks it, what the model does not hold (Tracked: its run time, epoch and Pods).
//
// Events about a Workload carry its id, not its key: handling one is an array index, not a hash
// of the name. A slot is reused once its Workload retired; its generation moves then, so an event
// still queued for the earlier Workload finds nothing (find(EventRef) is null). Names are looked up
// (find(key)) only where they come in: the model's transitions and admissions, timeline actions.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/flat_string_index.h"
#include "model/slot_table.h"
#include "model/workload/workload.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

// Per-Workload bookkeeping the model does not hold, while the runner tracks the Workload.
struct Tracked {
  std::string generator;
  SimTime duration;            // from admission to completion
  SimTime pod_deletion_delay;  // from completion to Pod deletion
  int64_t epoch = 0;           // bumped at every eviction; stale events are dropped
  std::string deployment;      // replicas of one ModelDeployment share it ("" when alone)
  // Where the Pods created for the current admission are in WorkloadState::pods: every erase of a
  // Pod takes its slot out of here too, so each slot names the Pod it was given for.
  std::vector<model::SlotTable<model::Pod>::Slot> pods;
  std::string last_pending;       // last Pending message logged
};

// A Workload's slot and the generation of the slot when the Workload got it.
struct WorkloadId {
  uint32_t slot = 0;
  uint32_t generation = 0;
  // Packed into one integer, as events carry it (SimEvent::index), and back.
  int64_t packed() const { return static_cast<int64_t>((uint64_t{generation} << 32) | slot); }
  static WorkloadId unpack(int64_t packed) {
    return {static_cast<uint32_t>(static_cast<uint64_t>(packed) & 0xffffffffu),
            static_cast<uint32_t>(static_cast<uint64_t>(packed) >> 32)};
  }
};

class WorkloadBook {
 public:
  struct Entry {
    std::string key;
    size_t outcome = 0;            // index into RunRecord::workloads
    std::optional<Tracked> tracked;  // set while the runner tracks the Workload
    WorkloadId id;
  };

  // Records `key` with its outcome's index, untracked (the caller sets `tracked`). A key recorded
  // before keeps its id, entry and tracking; only the outcome index is replaced, as a second
  // arrival under the same name replaces the first's outcome.
  Entry& add(const std::string& key, size_t outcome);
  // The entry of `key`, or null when it was never recorded or was removed.
  Entry* find(std::string_view key);
  // The entry `packed` (a WorkloadId::packed()) names, or null when its slot was freed since.
  Entry* find(int64_t packed);
  // The tracked record of `key`, or null when it is not tracked.
  Tracked* tracked(std::string_view key);
  // Forgets `entry`; its slot is reused by a later add() under a new generation.
  void remove(Entry& entry);

  // Every recorded entry, in no particular order (a walk whose order shows sorts first).
  template <typename F>
  void each(F&& f) {
    for (Entry& e : slots_)
      if (in_use(e)) f(e);
  }

 private:
  static bool in_use(const Entry& e) { return !e.key.empty(); }

  std::deque<Entry> slots_;  // a deque: an Entry (and the view of its key) stays put as slots are added
  std::vector<uint32_t> free_;                            // slots of removed entries
  model::FlatStringIndex<uint32_t> by_key_;  // views into slots_[i].key
};

}  // namespace chaintwin::sim
