#include "live/drift.h"

#include <algorithm>
#include <ctime>

#include "model/stage4/operator_controllers.h"
#include "model/stage4/plan.h"
#include "model/stage4/reconcile_loop.h"

namespace chaintwin::live {

model::Result<Drift> compute_drift(const model::ClusterState& observed, const std::string& now) {
  auto converged = model::converge(observed, model::operator_controllers(), now);
  if (!converged.ok()) return model::err("the operator's controllers refuse the observed cluster: " + converged.error());
  Drift out;
  // The fixpoint runs Kueue's own status and finalizer steps too (the operator's decisions read
  // them), but those writes are Kueue's to make: they are neither the operator's drift nor ours to
  // apply.
  for (auto& w : converged->writes)
    if (w.controller != "Kueue") out.writes.push_back(std::move(w));
  for (const auto& w : out.writes) {
    const auto& meta = model::metadata_of(w.object);
    out.rows.push_back({std::string(model::kind_of(w.object)),
                        meta.namespace_.empty() ? meta.name : meta.namespace_ + "/" + meta.name,
                        std::string(model::to_string(w.verb)), w.controller, w.reason});
  }
  return out;
}

std::string wall_clock_rfc3339() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string drift_table(const std::vector<DriftRow>& rows) {
  if (rows.empty()) return "no drift: the cluster is where the operator would leave it\n";
  size_t wk = 4, wn = 4, wv = 4, wc = 10;
  for (const auto& r : rows) {
    wk = std::max(wk, r.kind.size());
    wn = std::max(wn, r.name.size());
    wv = std::max(wv, r.verb.size());
    wc = std::max(wc, r.controller.size());
  }
  auto pad = [](const std::string& s, size_t w) { return s + std::string(w - s.size() + 2, ' '); };
  std::string out = pad("KIND", wk) + pad("NAME", wn) + pad("VERB", wv) + pad("CONTROLLER", wc) + "WHY\n";
  for (const auto& r : rows) out += pad(r.kind, wk) + pad(r.name, wn) + pad(r.verb, wv) + pad(r.controller, wc) + r.reason + "\n";
  out += std::to_string(rows.size()) + " write(s) the operator would make\n";
  return out;
}

nlohmann::json drift_json(const DriftRow& r) {
  return {{"kind", r.kind}, {"name", r.name}, {"verb", r.verb}, {"controller", r.controller}, {"reason", r.reason}};
}

}  // namespace chaintwin::live
