#include "model/kueue/scheduler/node_match.h"

#include <algorithm>
#include <charconv>

namespace chaintwin::model {
namespace {

std::optional<int64_t> parse_int(const std::string& s) {
  int64_t v = 0;
  const auto* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || ptr != end || s.empty()) return std::nullopt;
  return v;
}

bool term_matches(const NodeSelectorTerm& term, const StringMap& labels, const std::string& node_name) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions)
    if (!matches_requirement(r, labels)) return false;
  for (const auto& f : term.match_fields) {
    if (f.key != "metadata.name") return false;
    if (!matches_requirement(NodeSelectorRequirement{"metadata.name", f.op, f.values},
                             StringMap{{"metadata.name", node_name}}))
      return false;
  }
  return true;
}

}  // namespace

bool matches_node_selector(const StringMap& selector, const StringMap& labels) {
  for (const auto& [k, v] : selector) {
    const auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  return true;
}

bool matches_requirement(const NodeSelectorRequirement& r, const StringMap& labels) {
  const auto it = labels.find(r.key);
  const bool has = it != labels.end();
  const auto in_values = [&] { return has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end(); };
  if (r.op == "In") return in_values();
  if (r.op == "NotIn") return !in_values();
  if (r.op == "Exists") return has;
  if (r.op == "DoesNotExist") return !has;
  if (r.op == "Gt" || r.op == "Lt") {
    if (!has || r.values.size() != 1) return false;
    const auto label = parse_int(it->second);
    const auto bound = parse_int(r.values.front());
    if (!label || !bound) return false;
    return r.op == "Gt" ? *label > *bound : *label < *bound;
  }
  return false;
}

bool matches_required_affinity(const std::vector<NodeSelectorTerm>& terms, const StringMap& labels,
                               const std::string& node_name) {
  if (terms.empty()) return true;
  return std::any_of(terms.begin(), terms.end(),
                     [&](const NodeSelectorTerm& t) { return term_matches(t, labels, node_name); });
}

bool matches_flavor_labels(const StringMap& node_selector, const std::vector<NodeSelectorTerm>& terms,
                           const std::set<std::string>& label_keys, const StringMap& flavor_labels) {
  StringMap selector;
  for (const auto& [k, v] : node_selector)
    if (label_keys.count(k) != 0) selector[k] = v;
  if (!matches_node_selector(selector, flavor_labels)) return false;
  std::vector<NodeSelectorTerm> reduced;
  for (const auto& t : terms) {
    NodeSelectorTerm r;
    for (const auto& e : t.match_expressions)
      if (label_keys.count(e.key) != 0) r.match_expressions.push_back(e);
    if (r.match_expressions.empty()) return true;  // this term now matches any flavor
    reduced.push_back(std::move(r));
  }
  return matches_required_affinity(reduced, flavor_labels);
}

bool tolerates(const Toleration& t, const Taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.operator_ == "Exists") return true;
  if (t.key.empty()) return false;  // an empty key needs Exists
  return t.value == taint.value;
}

std::optional<Taint> first_untolerated_taint(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations) {
  for (const auto& taint : taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    const bool ok = std::any_of(tolerations.begin(), tolerations.end(), [&](const Toleration& t) { return tolerates(t, taint); });
    if (!ok) return taint;
  }
  return std::nullopt;
}

std::string taint_string(const Taint& t) {
  return t.value.empty() ? t.key + ":" + t.effect : t.key + "=" + t.value + ":" + t.effect;
}

}  // namespace chaintwin::model
