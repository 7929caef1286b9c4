#include "sim/cli/gui/plan_view_source.h"

#include <utility>

namespace chaintwin::cli {

viz::PlanView plan_view_from_charts(const std::string& name, const std::vector<std::string>& summary,
                                    const std::vector<sim::plot::Chart>& charts) {
  viz::PlanView view;
  view.plan_name = name;
  view.summary = summary;
  for (size_t i = 0; i < charts.size(); ++i) {
    sim::plot::Image image = sim::plot::render(charts[i]);
    view.plots.push_back({charts[i].title.empty() ? "plot " + std::to_string(i + 1) : charts[i].title, image.width,
                          image.height, std::move(image.rgba)});
  }
  return view;
}

namespace {
std::shared_ptr<const viz::Snapshot> plan_snapshot(viz::PlanView view) {
  auto s = std::make_shared<viz::Snapshot>();
  s->scenario = view.plan_name;
  s->source = "plan";
  s->finished = true;
  s->plan_only = true;
  s->plan = std::make_shared<const viz::PlanView>(std::move(view));
  return s;
}
}  // namespace

PlanSource::PlanSource(viz::PlanView view) : FixedSource(plan_snapshot(std::move(view))) {}

}  // namespace chaintwin::cli
