// What the window may ask of whoever runs the chain: play, pause, change speed, step to the next
// event, seek. The window sends commands and reads snapshots; it never touches the state itself.
#pragma once

#include <cstdint>
#include <memory>

#include "viz/snapshot.h"

namespace chaintwin::viz {

struct Command {
  enum class Kind { kPlay, kPause, kStep, kSeek, kSpeed };
  Kind kind = Kind::kPause;
  int64_t at_us = 0;  // kSeek: the simulated instant to show
  double speed = 0;   // kSpeed: simulated seconds per wall second
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
