// A snapshot source for a window without a clock (a capacity plan's, two runs compared): one
// snapshot that never changes. Commands are ignored: there is nothing to play, seek or explain.
#pragma once

#include <memory>
#include <utility>

#include "viz/commands.h"

namespace chaintwin::cli {

class FixedSource : public viz::SnapshotSource, public viz::CommandSink {
 public:
  std::shared_ptr<const viz::Snapshot> latest() const override { return snapshot_; }
  void send(const viz::Command&) override {}

 protected:
  explicit FixedSource(std::shared_ptr<const viz::Snapshot> snapshot) : snapshot_(std::move(snapshot)) {}

 private:
  std::shared_ptr<const viz::Snapshot> snapshot_;
};

}  // namespace chaintwin::cli
