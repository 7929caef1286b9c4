// The GUI's comparison of two finished runs (`chaintwin gui --db A --db B`): each run read back from
// its results file, reported (sim/results/report.h) and diffed (report_diff.h) as `chaintwin
// compare` does, per pool and per GPU model, into the plain CompareView the Compare panel draws;
// and a snapshot source holding that view alone.
#pragma once

#include <memory>
#include <string>

#include "model/result.h"
#include "sim/cli/gui/fixed_source.h"
#include "viz/commands.h"
#include "viz/compare_view.h"

namespace chaintwin::cli {

// The newest complete run of each file; an error names the file that cannot be read.
model::Result<viz::CompareView> compare_run_files(const std::string& a, const std::string& b);

// The comparison alone, never changing.
class CompareSource final : public FixedSource {
 public:
  explicit CompareSource(viz::CompareView view);
};

}  // namespace chaintwin::cli
