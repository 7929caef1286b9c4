// The text and JSON forms of an ExplainResult.
#include "sim/explain/explain_report.h"

#include <cstdio>
#include <sstream>

#include "model/credits.h"
#include "sim/results/duration_text.h"
#include "sim/results/event_log.h"

namespace chaintwin::sim {

namespace {

constexpr size_t kHoldersInText = 20;  // the ones holding most of what it is short of come first

std::string decimal(int64_t value, int64_t per_unit) {
  char buf[64];
  const double v = static_cast<double>(value) / static_cast<double>(per_unit);
  if (value % per_unit == 0) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(value / per_unit));
  else std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string clock(SimTime t) { return format_log_duration(t.us()); }
std::string span(SimTime d) { return duration_text(d.us(), DurationPrecision::kSeconds); }

std::string mode_text(model::DeviceAllocationMode m) {
  const std::string s(model::to_string(m));
  return s.empty() ? "None" : s;
}

void path_text(std::ostringstream& o, const WorkloadStory& s, SimTime at) {
  const GatePath& p = s.path;
  o << "\n  Path through the gates";
  if (p.arrived) o << " (arrived at " << clock(*p.arrived) << ")";
  o << "\n";
  if (p.visits.empty()) {
    o << "    no event of it is in the log up to " << clock(at) << "\n";
    return;
  }
  for (const auto& v : p.visits) {
    const SimTime end = v.to ? *v.to : at;
    o << "    " << clock(v.from) << "  " << (v.running ? std::string("running") : std::string(model::gate_title(v.gate)));
    o << "  " << span(end - v.from) << "  " << (v.to ? v.outcome : std::string("(here now)")) << "\n";
  }
  o << "    time at each gate:";
  for (const auto& [g, d] : p.time_at) o << " " << model::gate_id(g) << " " << span(d) << ";";
  o << " running " << span(p.running_for) << "\n";
  if (p.reason_changes > 1) {
    o << "    Kueue's reason for keeping it changed " << p.reason_changes << " times (";
    bool first = true;
    for (const auto& [kind, n] : p.reasons) {
      o << (first ? "" : ", ") << kind << " " << n;
      first = false;
    }
    o << ")\n";
  }
  if (p.retries > 0) o << "    gpustack-node-devices Retry verdicts: " << p.retries << "\n";
  if (p.evictions > 0) o << "    evictions: " << p.evictions << "\n";
}

void quota_text(std::ostringstream& o, const model::Explanation& ex) {
  if (ex.quota.empty()) return;
  o << "\n  Quota of ClusterQueue " << ex.cluster_queue << " (what it asks beside what is free)\n";
  for (const auto& l : ex.quota) {
    o << "    " << l.flavor << "  " << l.resource << ": nominal " << plain_amount(l.resource, l.nominal) << ", reserved "
      << plain_amount(l.resource, l.reserved) << ", free " << plain_amount(l.resource, l.free()) << "; needs "
      << plain_amount(l.resource, l.need) << (l.short_of() ? "  ← short by " + plain_amount(l.resource, l.need - l.free()) : "")
      << (l.need > l.nominal ? "  (more than the nominal quota)" : "") << "\n";
  }
}

void holders_text(std::ostringstream& o, const model::Explanation& ex) {
  if (ex.holders.empty()) return;
  o << "\n  Who holds the quota (" << ex.holders.size() << " Workload" << (ex.holders.size() == 1 ? "" : "s") << ")\n";
  size_t shown = 0;
  for (const auto& h : ex.holders) {
    if (shown++ == kHoldersInText) {
      o << "    … and " << ex.holders.size() - kHoldersInText << " more (-o json lists every one)\n";
      break;
    }
    o << "    " << h.workload << "  priority " << h.priority << ", " << (h.admitted ? "admitted" : "quota reserved");
    if (ex.pods_read) o << " since " << format_log_duration(h.reserved_since);  // (the API does not carry it)
    o << ":";
    for (const auto& held : h.held) o << " " << plain_amount(held.resource, held.amount) << " of " << held.resource << " in " << held.flavor << ";";
    o << "\n";
  }
}

void nodes_text(std::ostringstream& o, const model::Explanation& ex) {
  if (ex.nodes.empty()) return;
  o << "\n  Nodes its flavors select" << (ex.pods_read ? " (who occupies them)" : " (the ledgers; who occupies them is not read)") << "\n";
  for (const auto& n : ex.nodes) {
    o << "    " << n.node << " (flavor " << n.flavor << ")" << (n.schedulable ? "" : " cordoned or terminating")
      << ": ";
    if (!n.cards_verdict.empty())
      o << "cards " << (n.cards_take_it ? "take it (" : "do not take it (") << n.cards_verdict << "); ";
    if (ex.pods_read)
      o << "cpu " << plain_amount("cpu", n.cpu_requested) << " of " << plain_amount("cpu", n.cpu_allocatable) << " requested, memory "
        << plain_amount("memory", n.memory_requested) << " of " << plain_amount("memory", n.memory_allocatable) << "\n";
    else
      o << "cpu " << plain_amount("cpu", n.cpu_allocatable) << ", memory " << plain_amount("memory", n.memory_allocatable) << " allocatable\n";
    for (const auto& c : n.cards) {
      o << "      card " << c.index << " " << c.accelerator_key << (c.partitioned ? " MIG" : "") << " mode " << mode_text(c.mode)
        << ", " << decimal(c.remaining, model::kUnitsPerAccelerator) << " card free";
      if (c.slots > 0) o << ", slice slots " << c.free_slots << " of " << c.slots << " free";
      if (c.charges.empty() && ex.pods_read) o << ", idle";
      o << "\n";
      for (const auto& ch : c.charges)
        o << "        " << ch.workload << " (" << ch.pod << ") " << mode_text(ch.mode)
          << (ch.profile.empty() ? "" : " " + ch.profile) << " " << ch.units << " units\n";
    }
    std::string others;
    for (const auto& w : n.workloads) others += (others.empty() ? "" : ", ") + w;
    if (!others.empty()) o << "      Pods of: " << others << "\n";
  }
}

void search_text(std::ostringstream& o, const WorkloadStory& s, const ExplainResult& r) {
  if (!s.searched) return;
  o << "\n  What would admit it (checked by simulation from " << clock(r.at) << ", within " << span(r.within) << ")\n";
  if (s.admitted_unchanged) {
    o << "    nothing: the queue admits it on its own " << span(*s.admitted_unchanged - r.at) << " later\n";
    return;
  }
  for (size_t i = 0; i < s.tried.size(); ++i) {
    const auto& v = s.tried[i];
    o << "    " << (v.admitted_at ? "yes" : " no") << "  " << v.change.summary;
    if (!v.error.empty()) o << " — the run refused it: " << v.error;
    else if (v.admitted_at && !v.change.move_to_namespace.empty()) o << " — admitted at " << clock(*v.admitted_at);
    else if (v.admitted_at) o << " — admitted " << span(*v.admitted_at - r.at) << " later";
    else o << " — not admitted within " << span(r.within);
    if (s.smallest && *s.smallest == i) o << "   ← the smallest change";
    o << "\n";
  }
  if (s.smallest && !s.tried[*s.smallest].change.move_to_namespace.empty()) {
    o << "    in the scenario: the workload class " << s.generator << " gets namespace: "
      << s.tried[*s.smallest].change.move_to_namespace << "\n";
  } else if (s.smallest) {
    o << "    as timeline entries:\n";
    std::istringstream lines(change_as_timeline(s.tried[*s.smallest].change, r.at));
    for (std::string line; std::getline(lines, line);) o << "    " << line << "\n";
  }
  if (!s.nothing_short_of.empty()) o << "    nothing short of " << s.nothing_short_of << "\n";
}

void story_text(std::ostringstream& o, const WorkloadStory& s, const ExplainResult& r) {
  const model::Explanation& ex = s.explanation;
  o << "Workload " << ex.workload;
  if (!ex.local_queue.empty())
    o << "  (LocalQueue " << ex.local_queue << " → ClusterQueue " << (ex.cluster_queue.empty() ? "none" : ex.cluster_queue)
      << ", priority " << ex.priority << ")";
  o << "\n";
  const model::WaitingPlace& p = ex.place;
  if (s.rejected) {
    o << "  Refused at " << model::gate_title(model::Gate::kGate1) << ": " << s.reject_message << "\n";
  } else if (p.standing == model::WorkloadStanding::kWaiting) {
    o << "  Held at " << model::gate_title(p.gate) << "\n    " << p.condition << ": " << p.reason << "\n";
    // The state keeps no check message once Kueue evicted it for a Retry: the log has it.
    if (p.gate == model::Gate::kGate3 && !s.path.visits.empty() && !s.path.visits.back().last_reason.empty() &&
        s.path.visits.back().last_reason != p.reason)
      o << "    the last verdict: " << s.path.visits.back().last_reason << "\n";
    if (!ex.cluster_queue.empty()) o << "    " << ex.queue_waiting << " Workload(s) wait in the ClusterQueue";
    if (ex.queue_position > 0) o << "; " << ex.queue_position - 1 << " of them come before it in Kueue's order (priority, then age)";
    if (!ex.cluster_queue.empty()) o << "\n";
    for (const auto& note : ex.notes) o << "    note: " << note << "\n";
  } else if (p.standing == model::WorkloadStanding::kRunning) {
    o << "  Running: admitted, " << ex.pods_running << " of " << ex.pods_wanted << " Pod(s) running\n";
  } else if (p.standing == model::WorkloadStanding::kAdmitted) {
    o << "  Admitted (its Pods were not read)\n";
  } else if (p.standing == model::WorkloadStanding::kFinished) {
    o << "  Finished\n";
  } else {
    o << "  Not in the cluster at " << clock(r.at) << " (finished and its Pods deleted)\n";
  }
  if (r.live_server.empty()) path_text(o, s, r.at);
  if (p.standing == model::WorkloadStanding::kWaiting) {
    quota_text(o, ex);
    holders_text(o, ex);
    nodes_text(o, ex);
  }
  if (s.loop) {
    o << "\n  Retry loop: " << s.loop->retries << " gpustack-node-devices Retry verdicts, " << s.loop->on_node << " of them on node "
      << s.loop->node << ".";
    if (s.loop->fit_pin_off) {
      o << " The fit pin is off (workload-fit-affinity: false): Kueue keeps placing it on " << s.loop->node
        << " by quota and topology alone, and Gate 3 keeps refusing it there.\n";
      o << "    The setting that ends it is workload-fit-affinity: true. The Workload webhook pins a Workload when it\n"
        << "    is created, so it cures Workloads created after it is set; this one stays unpinned.";
      if (s.loop->cure_checked)
        o << "\n    Checked: with the setting true from " << clock(s.loop->cure_from) << " (just before it was created), it "
          << (s.loop->cure_admitted_at ? "passes all five gates at " + clock(*s.loop->cure_admitted_at)
                                       : std::string("still does not pass by ") + clock(r.at + r.within));
    }
    o << "\n";
  }
  search_text(o, s, r);
}

nlohmann::json change_json(const Change& c, SimTime at) {
  return {{"kind", c.kind}, {"summary", c.summary}, {"timeline", change_as_timeline(c, at)}};
}

}  // namespace

std::string plain_amount(const std::string& resource, int64_t amount) {
  if (resource.rfind("credits.gpustack.ai/", 0) == 0) return decimal(amount, model::kUnitsPerAccelerator) + " cards";
  if (resource == "cpu") return decimal(amount, 1000) + " cores";
  if (resource == "memory") return decimal(amount, int64_t{1} << 30) + " GiB";
  return std::to_string(amount);
}

std::string explain_text(const ExplainResult& r) {
  std::ostringstream o;
  if (!r.live_server.empty()) o << "Live cluster " << r.live_server << "\n";
  else o << "At " << clock(r.at) << " in scenario " << r.scenario_name << " (seed " << r.seed << ")\n";
  if (r.stories.empty()) o << "\nNo Workload waits.\n";
  for (const auto& s : r.stories) {
    o << "\n";
    story_text(o, s, r);
  }
  if (!r.note.empty()) o << "\n" << r.note << "\n";
  return o.str();
}

nlohmann::json explain_json(const ExplainResult& r) {
  nlohmann::json out = {{"scenario", r.scenario_name}, {"seed", r.seed}, {"at_us", r.at.us()}, {"within_us", r.within.us()}};
  if (!r.live_server.empty()) out = {{"server", r.live_server}};
  if (!r.note.empty()) out["note"] = r.note;
  out["workloads"] = nlohmann::json::array();
  for (const auto& s : r.stories) {
    const model::Explanation& ex = s.explanation;
    nlohmann::json w = {{"workload", ex.workload}, {"localQueue", ex.local_queue}, {"clusterQueue", ex.cluster_queue},
                        {"priority", ex.priority}, {"standing", s.rejected ? "rejected" : std::string(model::workload_standing_name(ex.place.standing))},
                        {"queuePosition", ex.queue_position}, {"queueWaiting", ex.queue_waiting},
                        {"podsWanted", ex.pods_wanted}, {"podsRunning", ex.pods_running}};
    if (s.rejected) w["rejectMessage"] = s.reject_message;
    if (ex.place.standing == model::WorkloadStanding::kWaiting)
      w["heldAt"] = {{"gate", model::gate_id(ex.place.gate)}, {"title", model::gate_title(ex.place.gate)},
                     {"condition", ex.place.condition}, {"reason", ex.place.reason}, {"node", ex.place.node}};
    nlohmann::json visits = nlohmann::json::array();
    for (const auto& v : s.path.visits) {
      nlohmann::json j = {{"gate", v.running ? std::string("running") : std::string(model::gate_id(v.gate))}, {"from_us", v.from.us()},
                          {"outcome", v.outcome}, {"lastReason", v.last_reason}};
      j["to_us"] = v.to ? nlohmann::json(v.to->us()) : nlohmann::json(nullptr);
      visits.push_back(std::move(j));
    }
    nlohmann::json time_at = nlohmann::json::object();
    for (const auto& [g, d] : s.path.time_at) time_at[std::string(model::gate_id(g))] = d.us();
    w["path"] = {{"visits", visits}, {"time_us", time_at}, {"running_us", s.path.running_for.us()},
                 {"reasonChanges", s.path.reason_changes}, {"reasons", s.path.reasons}, {"retries", s.path.retries}, {"evictions", s.path.evictions},
                 {"retriesByNode", s.path.retries_by_node}};
    nlohmann::json quota = nlohmann::json::array();
    for (const auto& l : ex.quota)
      quota.push_back({{"flavor", l.flavor}, {"resource", l.resource}, {"nominal", l.nominal}, {"reserved", l.reserved},
                       {"free", l.free()}, {"need", l.need}, {"short", l.short_of()}});
    w["quota"] = quota;
    nlohmann::json holders = nlohmann::json::array();
    for (const auto& h : ex.holders) {
      nlohmann::json held = nlohmann::json::array();
      for (const auto& x : h.held) held.push_back({{"flavor", x.flavor}, {"resource", x.resource}, {"amount", x.amount}});
      holders.push_back({{"workload", h.workload}, {"priority", h.priority}, {"admitted", h.admitted},
                         {"reservedSince_us", h.reserved_since}, {"held", held}});
    }
    w["holders"] = holders;
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& n : ex.nodes) {
      nlohmann::json cards = nlohmann::json::array();
      for (const auto& c : n.cards) {
        nlohmann::json charges = nlohmann::json::array();
        for (const auto& ch : c.charges)
          charges.push_back({{"workload", ch.workload}, {"pod", ch.pod}, {"mode", mode_text(ch.mode)}, {"units", ch.units}, {"profile", ch.profile}});
        cards.push_back({{"index", c.index}, {"acceleratorKey", c.accelerator_key}, {"mode", mode_text(c.mode)}, {"mig", c.partitioned},
                         {"remaining", c.remaining}, {"freeSlots", c.free_slots}, {"slots", c.slots}, {"charges", charges}});
      }
      nodes.push_back({{"node", n.node}, {"flavor", n.flavor}, {"schedulable", n.schedulable}, {"cpuAllocatable", n.cpu_allocatable},
                       {"cpuRequested", n.cpu_requested}, {"memoryAllocatable", n.memory_allocatable},
                       {"memoryRequested", n.memory_requested}, {"cards", cards}, {"workloads", n.workloads},
                       {"cardsTakeIt", n.cards_take_it}, {"cardsVerdict", n.cards_verdict}});
    }
    w["nodes"] = nodes;
    w["notes"] = ex.notes;
    if (s.loop)
      w["retryLoop"] = {{"retries", s.loop->retries}, {"node", s.loop->node}, {"onNode", s.loop->on_node},
                        {"fitPinOff", s.loop->fit_pin_off}, {"cureSetting", "workload-fit-affinity"},
                        {"cureChecked", s.loop->cure_checked}, {"cureFrom_us", s.loop->cure_from.us()},
                        {"cureAdmitted_us", s.loop->cure_admitted_at ? nlohmann::json(s.loop->cure_admitted_at->us()) : nlohmann::json(nullptr)}};
    if (s.searched) {
      nlohmann::json tried = nlohmann::json::array();
      for (const auto& v : s.tried) {
        nlohmann::json j = change_json(v.change, r.at);
        j["admitted_us"] = v.admitted_at ? nlohmann::json(v.admitted_at->us()) : nlohmann::json(nullptr);
        if (!v.error.empty()) j["error"] = v.error;
        tried.push_back(std::move(j));
      }
      w["whatWouldAdmit"] = {{"admittedWithoutChange_us", s.admitted_unchanged ? nlohmann::json(s.admitted_unchanged->us()) : nlohmann::json(nullptr)},
                             {"tried", tried},
                             {"smallest", s.smallest ? nlohmann::json(*s.smallest) : nlohmann::json(nullptr)},
                             {"nothingShortOf", s.nothing_short_of}};
    }
    out["workloads"].push_back(std::move(w));
  }
  return out;
}

}  // namespace chaintwin::sim
