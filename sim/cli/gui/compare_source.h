// The GUI's comparison of two finished runs (`chaintwin gui --db A --db B`): each run read back from
// its results file, reported (sim/results/report.h) and diffed (report_diff.h) as `chaintwin
// compare` does, per pool and per GPU model, into the plain CompareView the Compare panel draws;
// and a snapshot source holding that view alone.
#pragma once

#include <memory>
#include <string>

#include "model/result.h"
#include "viz/commands.h"
#include "viz/compare_view.h"

namespace chaintwin::cli {

// The newest complete run of each file; an error names the file that cannot be read.
model::Result<viz::CompareView> compare_run_files(const std::string& a, const std::string& b);

// One snapshot that never changes: the comparison alone. Commands are ignored: it has no clock.
class CompareSource final : public viz::SnapshotSource, public viz::CommandSink {
 public:
  explicit CompareSource(viz::CompareView view);
  std::shared_ptr<const viz::Snapshot> latest() const override { return snapshot_; }
  void send(const viz::Command&) override {}

 private:
  std::shared_ptr<const viz::Snapshot> snapshot_;
};

}  // namespace chaintwin::cli
