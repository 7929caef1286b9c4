#include "sim/plan/plan_space.h"

#include "sim/plan/field_patch.h"
#include "sim/scenario/demand_scale.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::sim::plan {

model::Result<Configurations> Configurations::create(const Plan& plan) {
  const std::string file = plan.base.empty() ? "scenarios/default.yaml (embedded)" : plan.base;
  auto docs = parse_kubernetes_objects(plan.base_text, file);
  if (!docs) return model::err(docs.error());
  if (docs->size() != 1)
    return model::err(file + ":1: (document): expected exactly one Scenario document, found " +
                      std::to_string(docs->size()));
  Configurations c;
  c.plan_ = &plan;
  c.base_doc_ = std::move(docs->front());
  return c;
}

model::Result<Scenario> Configurations::build(const std::vector<std::pair<size_t, size_t>>& chosen) const {
  SourceObject doc = base_doc_;
  double scale_all = 1;
  std::map<std::string, double> scale_class;
  std::optional<SimTime> horizon;
  for (const auto& [v, i] : chosen) {
    const Variable& var = plan_->variables[v];
    const VariableValue& value = var.values[i];
    for (const auto& p : value.patches)
      if (auto s = apply_patch(doc.object, p); !s.ok())
        return model::err(var.where.str() + ": variable " + var.name + " = " + value.label + ": " + s.error());
    if (var.kind == Variable::Kind::kDemandScale) {
      if (var.target.empty()) scale_all *= value.demand_scale;
      else scale_class[var.target] = value.demand_scale * (scale_class.count(var.target) ? scale_class[var.target] : 1);
    }
    if (value.horizon) horizon = value.horizon;
  }
  auto s = load_scenario_document(doc);
  if (!s.ok()) return s;
  Scenario& scenario = s.value();
  if (!plan_->expectations) scenario.expectations.clear();
  if (horizon) scenario.horizon = *horizon;
  if (scale_all != 1)
    if (auto st = scale_demand(scenario, scale_all, ""); !st.ok()) return model::err(st.error());
  for (const auto& [cls, f] : scale_class)
    if (auto st = scale_demand(scenario, f, cls); !st.ok()) return model::err(st.error());
  return s;
}

model::Result<Scenario> Configurations::scenario(const Point& point) const {
  std::vector<std::pair<size_t, size_t>> chosen;
  for (size_t v = 0; v < point.size(); ++v) chosen.emplace_back(v, static_cast<size_t>(point[v]));
  return build(chosen);
}

model::Result<Scenario> Configurations::scenario_with(size_t v, size_t value) const { return build({{v, value}}); }

model::Result<Scenario> Configurations::base() const { return build({}); }

std::string Configurations::label(const Point& point) const {
  std::string out;
  for (size_t v = 0; v < point.size(); ++v)
    out += (out.empty() ? "" : " ") + plan_->variables[v].name + "=" +
           plan_->variables[v].values[static_cast<size_t>(point[v])].label;
  return out;
}

std::string Configurations::key(const Point& point) const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t v = 0; v < point.size(); ++v)
    j[plan_->variables[v].name] = plan_->variables[v].values[static_cast<size_t>(point[v])].label;
  return j.dump();
}

size_t Configurations::grid_size() const {
  size_t n = 1;
  for (const auto& v : plan_->variables) n *= v.values.size();
  return n;
}

std::vector<Point> Configurations::grid() const {
  std::vector<Point> out;
  Point p(plan_->variables.size(), 0);
  const size_t n = grid_size();
  for (size_t k = 0; k < n; ++k) {
    out.push_back(p);
    for (size_t v = p.size(); v-- > 0;) {
      if (static_cast<size_t>(++p[v]) < plan_->variables[v].values.size()) break;
      p[v] = 0;
    }
  }
  return out;
}

}  // namespace chaintwin::sim::plan
