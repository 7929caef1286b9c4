// Which snapshot something was computed for, so a panel can keep what it computed from one snapshot
// between frames and compute again only for a new one. The address alone is not enough (a freed
// snapshot's address can come back), so the instant and the event count go with it.
#pragma once

#include <cstdint>

#include "viz/snapshot.h"

namespace chaintwin::viz {

struct SnapshotStamp {
  const Snapshot* snapshot = nullptr;
  int64_t now_us = -1, events = -1;
  static SnapshotStamp of(const Snapshot& s) { return {&s, s.now_us, s.events}; }
  bool operator==(const SnapshotStamp&) const = default;
};

}  // namespace chaintwin::viz
