#include "sim/cli/gui/compare_source.h"

#include "sim/results/report.h"
#include "sim/results/report_diff.h"
#include "sim/results/run_file_reader.h"

namespace chaintwin::cli {
namespace {

std::string run_label(const std::string& path, const sim::RunInfo& info) {
  return path + ": scenario " + info.scenario_name + ", seed " + std::to_string(info.seed) + ", ended at " +
         info.ended_at.to_string() + " of " + info.horizon.to_string() + " (" + std::to_string(info.events) + " events)";
}

std::vector<viz::CompareRow> rows_of(const std::vector<sim::RowDiff>& rows) {
  std::vector<viz::CompareRow> out;
  for (const auto& r : rows) {
    viz::CompareRow row;
    for (const auto& k : r.key) row.key += (row.key.empty() ? "" : " ") + k;
    row.in_a = r.in_a;
    row.in_b = r.in_b;
    for (const auto& f : r.figures)
      row.figures.push_back({f.name, sim::figure_value_text(f, true), sim::figure_value_text(f, false),
                             sim::figure_difference_text(f, r), f.differs()});
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

model::Result<viz::CompareView> compare_run_files(const std::string& a, const std::string& b) {
  auto run_a = sim::read_run_file(a, std::nullopt);
  if (!run_a.ok()) return model::err(run_a.error());
  auto run_b = sim::read_run_file(b, std::nullopt);
  if (!run_b.ok()) return model::err(run_b.error());
  const sim::ReportDiff d = sim::diff_reports(sim::build_report(run_a->record), sim::build_report(run_b->record));
  viz::CompareView view;
  view.a = run_label(a, d.a);
  view.b = run_label(b, d.b);
  view.pools = rows_of(d.pools);
  view.gpu_models = rows_of(d.gpu_models);
  return view;
}

namespace {
std::shared_ptr<const viz::Snapshot> compare_snapshot(viz::CompareView view) {
  auto s = std::make_shared<viz::Snapshot>();
  s->source = "compare";
  s->compare = std::make_shared<const viz::CompareView>(std::move(view));
  s->finished = true;
  return s;
}
}  // namespace

CompareSource::CompareSource(viz::CompareView view) : FixedSource(compare_snapshot(std::move(view))) {}

}  // namespace chaintwin::cli
