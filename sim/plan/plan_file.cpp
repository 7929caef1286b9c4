#include "sim/plan/plan_file.h"

#include "sim/plan/plan_loader.h"

namespace chaintwin::sim::plan {

model::Result<OpenedPlan> open_plan_file(const std::string& path, std::optional<SearchOptions::Mode> mode) {
  auto store = PlanStore::open_existing(path);
  if (!store) return model::err(store.error());
  const PlanIdentity& id = store->identity();
  auto loaded = load_plan_text(id.plan_text, id.plan_file,
                               id.base_file.empty() ? std::nullopt : std::optional<std::string>(id.base_text));
  if (!loaded) return model::err(path + ": the plan it holds does not load: " + loaded.error());
  OpenedPlan opened;
  opened.plan = std::make_unique<Plan>(std::move(loaded.value()));
  if (mode) opened.plan->search.mode = *mode;
  auto configs = Configurations::create(*opened.plan);
  if (!configs) return model::err(configs.error());
  opened.configs = std::make_unique<Configurations>(std::move(configs.value()));
  opened.store = std::make_unique<PlanStore>(std::move(store.value()));
  PlanDriver driver(*opened.plan, *opened.configs, *opened.store, DriverOptions{});
  auto outcome = driver.replay();
  if (!outcome) return model::err(outcome.error());
  opened.outcome = std::move(outcome.value());
  return opened;
}

}  // namespace chaintwin::sim::plan
