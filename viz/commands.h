// What the window may ask of whoever runs the chain: play, pause, change speed, step to the next
// event, seek. The window sends commands and reads snapshots; it never touches the state itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "viz/snapshot.h"

namespace chaintwin::viz {

struct Command {
  // kExplain: explain `workload` in every snapshot from now on (Snapshot::explanation); "" stops.
  enum class Kind { kPlay, kPause, kStep, kSeek, kSpeed, kExplain };
  Command() = default;
  Command(Kind k, int64_t at = 0, double s = 0, std::string w = {}) : kind(k), at_us(at), speed(s), workload(std::move(w)) {}
  Kind kind = Kind::kPause;
  int64_t at_us = 0;  // kSeek: the simulated instant to show
  double speed = 0;   // kSpeed: simulated seconds per wall second
  std::string workload;  // kExplain: "<namespace>/<name>"
  bool operator==(const Command&) const = default;
};

class CommandSink {
 public:
  virtual ~CommandSink() = default;
  virtual void send(const Command& command) = 0;
};

// The newest finished snapshot; never blocks on the producer (null until the first is ready).
class SnapshotSource {
 public:
  virtual ~SnapshotSource() = default;
  virtual std::shared_ptr<const Snapshot> latest() const = 0;
};

}  // namespace chaintwin::viz
