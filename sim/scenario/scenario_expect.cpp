// expect: what must hold at a time — one subject per entry and the checks that subject has.
#include <algorithm>
#include <set>

#include "model/catalog/manufacturer.h"
#include "sim/scenario/scenario_fields.h"
#include "sim/scenario/scenario_sections.h"

namespace chaintwin::sim::scenario_detail {
namespace {

// "onceMaxRequest/remaining", two non-negative integers.
std::string read_view(const Val& v) {
  const std::string s = as_string(v, "\"onceMaxRequest/remaining\" such as \"5/5\"");
  const size_t slash = s.find('/');
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 18 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (slash == std::string::npos || !digits(s.substr(0, slash)) || !digits(s.substr(slash + 1)))
    fail(v, "'" + s + "' is not a status reading (expected \"onceMaxRequest/remaining\" such as \"5/5\")");
  return s;
}

// {key: "value" | null} (null: must be absent), for Node labels and ClusterQueue annotations.
std::map<std::string, std::optional<std::string>> read_presence_map(const Val& m, const std::string& what) {
  if (!m.is_object()) fail(m, "expected a mapping {" + what + ": value or null}");
  std::map<std::string, std::optional<std::string>> out;
  for (const auto& item : m.json->items()) {
    const Val lv = m.at(item.key());
    if (lv.is_null()) out[item.key()] = std::nullopt;
    else out[item.key()] = as_string(lv, "a string (quote numbers), or null for must-be-absent");
  }
  return out;
}

// {type: "Status" | "Status/Reason"}, for ClusterQueue and TopologySource conditions.
std::map<std::string, std::string> read_conditions(const Val& c) {
  if (!c.is_object()) fail(c, "expected a mapping {conditionType: \"Status\" or \"Status/Reason\"}");
  std::map<std::string, std::string> out;
  for (const auto& item : c.json->items()) {
    const Val cv = c.at(item.key());
    const std::string want = as_string(cv, "\"Status\" or \"Status/Reason\", e.g. \"False/Migrating\"");
    const std::string status = want.substr(0, want.find('/'));
    if (status != "True" && status != "False" && status != "Unknown")
      fail(cv, "'" + want + "' is not a condition reading (expected True, False or Unknown, then /Reason)");
    out[item.key()] = want;
  }
  return out;
}

// Checks that belong to each subject.
const std::map<std::string, std::vector<std::string>>& checks_of() {
  static const std::map<std::string, std::vector<std::string>> m{
      {"clusterQueue", {"stopPolicy", "nominalCredits", "annotations", "conditions"}},
      {"node", {"capacity", "allocatable", "labels"}},
      {"instanceType", {"status", "phase"}},
      {"resourceFlavor", {"exists", "terminating"}},
      {"devices", {"exists", "cards"}},
      {"instance", {"stop", "phase"}},
      {"topologySource", {"conditions", "messages", "lastSuccessfulRevision", "nodeFeatures"}},
      {"workloads", {}},
      {"slo", {}},
  };
  return m;
}

Expectation read_expectation(const Val& v, const Scenario& scenario, const std::set<std::string>& generators) {
  expect_keys(v, scenario_fields_at("Expectation"), "an expectation");
  Expectation e;
  e.where = v.ref();
  const Val at = req(v, "at", "a time such as 1h, or end");
  if (at.is_string() && at.json->get<std::string>() == "end") {
    e.at = std::nullopt;
  } else {
    e.at = as_duration(at);
    if (*e.at > scenario.horizon) fail(at, e.at->to_string() + " is after the horizon (" + scenario.horizon.to_string() + ")");
  }
  std::string subject;
  for (const auto& [s, checks] : checks_of())
    if (v.has(s.c_str())) {
      if (!subject.empty()) fail(v.at(s), "an expectation has exactly one subject (also given: " + subject + ")");
      subject = s;
    }
  if (subject.empty())
    fail(v, "missing subject (expected one of clusterQueue, node, instanceType, resourceFlavor, devices, instance, "
            "topologySource, workloads, slo)");
  const auto& allowed = checks_of().at(subject);
  for (const auto& item : v.json->items()) {
    const std::string& k = item.key();
    if (k == "at" || k == subject) continue;
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      fail(v.at(k), "not a check of a " + subject + " expectation (expected: " +
                        (!allowed.empty()        ? join(allowed)
                         : subject == "workloads" ? std::string("counters inside workloads")
                                                  : std::string("checks inside slo")) +
                        ")");
  }
  if (subject == "slo") {
    if (e.at) fail(at, "an SLO is judged on the whole run (expected at: end)");
    e.slo = read_slo(v.at("slo"), scenario);
    return e;
  }
  if (subject == "workloads") {
    e.workloads = true;
    const Val w = v.at("workloads");
    expect_keys(w, scenario_fields_at("WorkloadCounters"), "workload counters");
    for (const auto& item : w.json->items()) {
      if (item.key() == "name") {
        e.workload_name = as_string(w.at("name"));
        if (!generators.count(e.workload_name))
          fail(w.at("name"), "no workload generator named '" + e.workload_name + "'");
      } else if (item.key() == "rejectedMessage") {
        e.rejected_message = as_string(w.at("rejectedMessage"));
      } else {
        e.counters[item.key()] = as_comparison(w.at(item.key()));
      }
    }
    if (e.counters.empty() && !e.rejected_message)
      fail(w, "expected at least one counter (admitted, running, pending, ...)");
    return e;
  }
  const Val subj = v.at(subject);
  const std::string name = as_string(subj, "the " + subject + "'s name");
  if (allowed.size() > 0 && v.json->size() == 2) fail(v, "nothing to check (expected one of: " + join(allowed) + ")");
  if (subject == "clusterQueue") {
    e.cluster_queue = name;
    if (const auto s = opt(v, "stopPolicy")) e.stop_policy = as_choice(*s, {"None", "Hold", "HoldAndDrain"});
    if (const auto n = opt(v, "nominalCredits")) {
      if (!n->is_object()) fail(*n, "expected a mapping {manufacturer: credits}");
      for (const auto& item : n->json->items()) {
        if (!model::find_manufacturer(item.key()))
          fail(n->at(item.key()), "unknown manufacturer '" + item.key() + "' (expected e.g. nvidia, amd, ascend)");
        e.nominal_credits[item.key()] = as_int(n->at(item.key()), 0);
      }
    }
    if (const auto a = opt(v, "annotations")) e.annotations = read_presence_map(*a, "annotation");
    if (const auto c = opt(v, "conditions")) e.conditions = read_conditions(*c);
  } else if (subject == "topologySource") {
    e.topology_source = name;
    if (!scenario.cluster.topology_sources.count(name))
      fail(subj, "no TopologySource '" + name + "' in the cluster");
    if (const auto c = opt(v, "conditions")) e.conditions = read_conditions(*c);
    if (const auto m = opt(v, "messages")) {
      if (!m->is_object()) fail(*m, "expected a mapping {conditionType: \"message\"}");
      e.condition_messages = as_string_map(*m);
    }
    if (const auto r = opt(v, "lastSuccessfulRevision")) e.last_successful_revision = as_string(*r);
    if (const auto n = opt(v, "nodeFeatures")) e.node_features = as_int(*n, 0);
  } else if (subject == "node") {
    e.node = name;
    if (const auto c = opt(v, "capacity")) {
      if (!c->is_object()) fail(*c, "expected a mapping {resource: quantity}");
      for (const auto& item : c->json->items()) {
        const Val q = c->at(item.key());
        if (q.is_null()) e.capacity_absent.insert(item.key());
        else e.capacity[item.key()] = as_quantity(q).to_string();
      }
    }
    if (const auto a = opt(v, "allocatable")) {
      if (!a->is_object()) fail(*a, "expected a mapping {resource: quantity or null}");
      for (const auto& item : a->json->items()) {
        const Val q = a->at(item.key());
        if (q.is_null()) e.allocatable[item.key()] = std::nullopt;
        else e.allocatable[item.key()] = as_quantity(q).to_string();
      }
    }
    if (const auto l = opt(v, "labels")) e.labels = read_presence_map(*l, "label");
  } else if (subject == "instance") {
    if (name.find('/') == std::string::npos || name.front() == '/' || name.back() == '/')
      fail(subj, "'" + name + "' is not <namespace>/<name> (an Instance is named as its Workload, e.g. default/run-0)");
    e.instance = name;
    if (const auto x = opt(v, "stop")) e.stop = as_bool(*x);
    if (const auto p = opt(v, "phase"))
      e.phase = as_choice(*p, {"Starting", "Stopping", "Stopped", "Ready", "Deleting"});
  } else if (subject == "devices") {
    e.devices = name;
    if (const auto x = opt(v, "exists")) e.exists = as_bool(*x);
    if (const auto n = opt(v, "cards")) e.cards = as_int(*n, 0);
  } else if (subject == "resourceFlavor") {
    e.resource_flavor = name;
    if (const auto x = opt(v, "exists")) e.exists = as_bool(*x);
    if (const auto t = opt(v, "terminating")) e.terminating = as_bool(*t);
  } else {
    e.instance_type = name;
    if (const auto s = opt(v, "status")) {
      expect_keys(*s, scenario_fields_at("InstanceTypeStatus"), "status views");
      for (const auto& item : s->json->items()) e.status[item.key()] = read_view(s->at(item.key()));
    }
    if (const auto p = opt(v, "phase")) e.phase = as_choice(*p, {"Active", "Inactive", "Draining", "Activating"});
  }
  return e;
}

}  // namespace

std::vector<Expectation> read_expectations(const Val& list, const Scenario& scenario) {
  std::set<std::string> generators;
  for (const auto& w : scenario.workloads) generators.insert(w.name);
  std::vector<Expectation> out;
  for (const auto& v : as_list(list, "expectations")) out.push_back(read_expectation(v, scenario, generators));
  return out;
}

}  // namespace chaintwin::sim::scenario_detail
