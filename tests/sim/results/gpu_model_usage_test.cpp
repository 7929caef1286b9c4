// GpuModelUsage (sim/results/gpu_model_usage.h): per-GPU-model cards, allocated credits and FGD
// fragmentation over time, kept per node incrementally; every expected number worked out by hand.
#include <catch2/catch.hpp>

#include <deque>
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/device_manager/device_inventory.h"
#include "sim/results/gpu_model_usage.h"

using chaintwin::model::Devices;
using chaintwin::sim::CardFree;
using chaintwin::sim::fragmented_credits;
using chaintwin::sim::GpuModelSample;
using chaintwin::sim::GpuModelSummary;
using chaintwin::sim::GpuModelUsage;
using chaintwin::sim::node_model_figures;
using chaintwin::sim::SimTime;
using chaintwin::sim::TypicalRequest;

namespace {

constexpr int64_t kM = 1'600'000;
const std::string kT4 = "nvidia-tesla-t4";
const std::string kV100 = "nvidia-tesla-v100-sxm2-32gb";

// A node with `count` cards of one product, every card free; the ledger is then edited by hand.
Devices node_of(const std::string& name, int32_t count, const std::string& product = "Tesla T4") {
  chaintwin::model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = product;
  inv.count = count;
  inv.memory_mib = 16 * 1024;
  auto d = chaintwin::model::make_devices(name, inv);
  REQUIRE(d.ok());
  return std::move(d).value();
}

// Sets card `index`'s remaining credits (the ledger's `remaining`).
void set_remaining(Devices& d, size_t index, int64_t remaining) {
  d.status.groups.at(0).accelerators.at(index).remaining = static_cast<int32_t>(remaining);
}

// Every model's totals counted afresh over `cluster` (node name → Devices): the tracker's oracle.
std::map<std::string, GpuModelSample> counted_afresh(const std::map<std::string, Devices>& cluster,
                                                     const std::map<std::string, TypicalRequest>& typical) {
  std::map<std::string, GpuModelSample> out;
  for (const auto& [name, devices] : cluster)
    for (const auto& [key, f] : node_model_figures(devices, typical)) {
      out[key].cards += f.cards;
      out[key].allocated += f.allocated;
      out[key].fragmented += f.fragmented;
    }
  return out;
}

const GpuModelSummary& summary_of(const std::vector<GpuModelSummary>& all, const std::string& key) {
  for (const auto& s : all)
    if (s.gpu_model == key) return s;
  FAIL("no summary for " << key);
  return all.front();
}

}  // namespace

TEST_CASE("fragmentation counts the free credits of cards that cannot take the typical request", "[gpu_model_usage]") {
  struct Row {
    const char* what;
    std::vector<CardFree> cards;
    TypicalRequest request;
    int64_t fragmented;
  };
  const std::vector<Row> rows{
      {"a 46 % slice: only the 500,000 left on a card is too small",
       {{kM, true}, {500'000, true}, {0, true}, {736'000, true}}, {736'000, 1}, 500'000},
      {"a 46 % slice on a node where no card fits: all its free credits",
       {{500'000, true}, {300'000, true}}, {736'000, 1}, 800'000},
      {"one whole card: a half-used card is a fragment, a free card is not",
       {{kM, true}, {800'000, true}}, {kM, 1}, 800'000},
      {"two whole cards with two free: only the partly used card",
       {{kM, true}, {kM, true}, {800'000, true}, {0, true}}, {kM, 2}, 800'000},
      {"two whole cards with one free: the free card is stranded too",
       {{kM, true}, {800'000, true}, {400'000, true}}, {kM, 2}, 2'800'000},
      {"four whole cards on a free four-card node: nothing",
       {{kM, true}, {kM, true}, {kM, true}, {kM, true}}, {kM, 4}, 0},
      {"eight whole cards on a free four-card node: every card",
       {{kM, true}, {kM, true}, {kM, true}, {kM, true}}, {kM, 8}, 4 * kM},
      {"an unhealthy free card cannot take a 10 % slice",
       {{kM, false}, {400'000, true}}, {160'000, 1}, kM},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    CHECK(fragmented_credits(row.cards, row.request) == row.fragmented);
  }
}

TEST_CASE("a node's figures split its cards by accelerator key with the product and allocation", "[gpu_model_usage]") {
  Devices d = node_of("t4-0", 2);
  set_remaining(d, 0, 800'000);
  const auto figures = node_model_figures(d, {{kT4, TypicalRequest{960'000, 1}}});
  REQUIRE(figures.size() == 1);
  const auto& f = figures.at(kT4);
  CHECK(f.product == "Tesla T4");
  CHECK(f.manufacturer == "nvidia");
  CHECK(f.cards == 2);
  CHECK(f.allocated == 800'000);
  CHECK(f.fragmented == 800'000);
  CHECK(node_model_figures(d, {}).at(kT4).fragmented == 0);  // no typical request: not measured
}

TEST_CASE("two nodes updated independently give the same totals as recomputing from scratch", "[gpu_model_usage]") {
  const std::map<std::string, TypicalRequest> typical{{kT4, {736'000, 1}}, {kV100, {kM, 2}}};
  std::map<std::string, Devices> cluster{{"a", node_of("a", 4)}, {"b", node_of("b", 2)},
                                         {"v", node_of("v", 4, "Tesla V100-SXM2-32GB")}};
  GpuModelUsage usage;
  for (const auto& [key, request] : typical) usage.set_typical_request(key, request);
  for (const auto& [name, d] : cluster) usage.on_node(SimTime(), name, &d);

  struct Step {
    const char* node;
    size_t card;
    int64_t remaining;
  };
  const std::vector<Step> steps{{"a", 0, 500'000}, {"b", 1, 0},       {"v", 2, 0},   {"a", 3, 864'000},
                                {"v", 0, 800'000}, {"b", 1, kM},      {"a", 0, kM},  {"v", 2, kM},
                                {"b", 0, 100'000}, {"a", 1, 736'000}, {"v", 1, 0}};
  int64_t t = 0;
  for (const auto& step : steps) {
    Devices& d = cluster.at(step.node);
    set_remaining(d, step.card, step.remaining);
    usage.on_node(SimTime::seconds(++t), step.node, &d);
    const std::map<std::string, GpuModelSample> scratch = counted_afresh(cluster, typical);
    for (const auto& [key, expected] : scratch) {
      INFO("after step " << t << ", " << key);
      const GpuModelSample got = usage.totals(key);
      CHECK(got.cards == expected.cards);
      CHECK(got.allocated == expected.allocated);
      CHECK(got.fragmented == expected.fragmented);
    }
  }
  // Spot check by hand at the end: a = {1.6M, 736k, 1.6M, 864k}, b = {100k, 1.6M}.
  const GpuModelSample t4 = usage.totals(kT4);
  CHECK(t4.cards == 6);
  CHECK(t4.allocated == (kM - 736'000) + (kM - 864'000) + (kM - 100'000));
  CHECK(t4.fragmented == 100'000);
  // v = {800k, 0, 1.6M, 1.6M}: two free cards host two whole cards; the 800k card is the fragment.
  CHECK(usage.totals(kV100).fragmented == 800'000);
}

TEST_CASE("a node whose models, health or products change keeps the totals and figures a fresh count gives",
          "[gpu_model_usage]") {
  const std::map<std::string, TypicalRequest> typical{{kT4, {736'000, 1}}, {kV100, {kM, 2}}};
  // Node "a" starts with 4 T4 cards; each step edits its Devices, then the tracker is told.
  Devices a = node_of("a", 4);
  const Devices v100 = node_of("x", 2, "Tesla V100-SXM2-32GB");
  struct Step {
    const char* what;
    void (*edit)(Devices&, const Devices&);
  };
  const std::vector<Step> steps{
      {"a card partly taken", [](Devices& d, const Devices&) { set_remaining(d, 0, 500'000); }},
      {"a card marked unhealthy",
       [](Devices& d, const Devices&) { d.spec.groups.at(0).accelerators.at(1).status.unhealthy = true; }},
      {"a second model's group added",
       [](Devices& d, const Devices& other) {
         d.spec.groups.push_back(other.spec.groups.at(0));
         d.status.groups.push_back(other.status.groups.at(0));
       }},
      {"a card of the second model taken",
       [](Devices& d, const Devices&) { d.status.groups.at(1).accelerators.at(0).remaining = 0; }},
      {"the spec group renamed (the product)", [](Devices& d, const Devices&) { d.spec.groups.at(0).name = "T4 renamed"; }},
      {"the first model's group listed twice",
       [](Devices& d, const Devices&) { d.status.groups.push_back(d.status.groups.at(0)); }},
      {"back to one group of each model", [](Devices& d, const Devices&) { d.status.groups.pop_back(); }},
      {"the second model's group gone",
       [](Devices& d, const Devices&) {
         d.spec.groups.pop_back();
         d.status.groups.pop_back();
       }},
      {"a card given back", [](Devices& d, const Devices&) { set_remaining(d, 0, kM); }},
  };
  GpuModelUsage usage;
  for (const auto& [key, request] : typical) usage.set_typical_request(key, request);
  usage.on_node(SimTime(), "a", &a);
  int64_t t = 0;
  for (const auto& step : steps) {
    INFO(step.what);
    step.edit(a, v100);
    usage.on_node(SimTime::seconds(++t), "a", &a);
    const auto fresh = node_model_figures(a, typical);
    for (const std::string& key : {kT4, kV100}) {
      INFO(key);
      const auto f = fresh.find(key);
      const GpuModelSample got = usage.totals(key);
      CHECK(got.cards == (f == fresh.end() ? 0 : f->second.cards));
      CHECK(got.allocated == (f == fresh.end() ? 0 : f->second.allocated));
      CHECK(got.fragmented == (f == fresh.end() ? 0 : f->second.fragmented));
    }
  }
  // Spot check by hand: 4 T4 cards, all free, one unhealthy: its 1.6M credits are fragmented.
  CHECK(usage.totals(kT4).cards == 4);
  CHECK(usage.totals(kT4).allocated == 0);
  CHECK(usage.totals(kT4).fragmented == kM);
  CHECK(node_model_figures(a, typical).at(kT4).product == "T4 renamed");
}

TEST_CASE("allocation, utilization and fragmentation means are weighted by time over the model's span",
          "[gpu_model_usage]") {
  // One 2-card T4 node, typical request a 60 % slice (960,000 credits):
  //  0h–1h free {1.6M, 1.6M}  allocated 0     fragmented 0
  //  1h–3h free {0.8M, 1.6M}  allocated 0.8M  fragmented 0.8M (card 0 too small, card 1 fits)
  //  3h–4h free {0,    0.8M}  allocated 2.4M  fragmented 0.8M (no card fits: all free credits)
  // ∫allocated = 0.8M×2h + 2.4M×1h = 4.0M·h → mean 1.0M over 4h; ∫capacity = 3.2M×4h = 12.8M·h.
  // ∫fragmented = 0.8M×3h = 2.4M·h; ∫free = 3.2M×1h + 2.4M×2h + 0.8M×1h = 8.8M·h.
  GpuModelUsage usage;
  usage.set_typical_request(kT4, {960'000, 1});
  Devices d = node_of("t4-0", 2);
  usage.on_node(SimTime::hours(0), "t4-0", &d);
  set_remaining(d, 0, 800'000);
  usage.on_node(SimTime::hours(1), "t4-0", &d);
  set_remaining(d, 0, 0);
  set_remaining(d, 1, 800'000);
  usage.on_node(SimTime::hours(3), "t4-0", &d);
  usage.on_node(SimTime::hours(3) + SimTime::seconds(1), "t4-0", &d);  // nothing changed: no sample

  CHECK(usage.series().size() == 3);
  const auto all = usage.summaries(SimTime::hours(4));
  REQUIRE(all.size() == 1);
  const GpuModelSummary& m = all.front();
  CHECK(m.gpu_model == kT4);
  CHECK(m.product == "Tesla T4");
  CHECK(m.typical_credits_per_card == 960'000);
  CHECK(m.typical_cards == 1);
  CHECK(m.span_us == SimTime::hours(4).us());
  CHECK(m.cards == 2);
  CHECK(m.peak_cards == 2);
  CHECK(m.mean_allocated == Approx(1'000'000.0));
  CHECK(m.peak_allocated == 2'400'000);
  CHECK(m.final_allocated == 2'400'000);
  CHECK(*m.mean_utilization == Approx(4.0 / 12.8));
  CHECK(*m.peak_utilization == Approx(0.75));
  CHECK(*m.final_allocation == Approx(0.75));
  CHECK(m.final_free == 800'000);
  CHECK(m.final_fragmented == 800'000);
  CHECK(*m.mean_fragmentation == Approx(2.4 / 8.8));
  CHECK(*m.final_fragmentation == Approx(1.0));

  SECTION("a run that stops at 2h sees only the first two steps") {
    const GpuModelSummary early = usage.summaries(SimTime::hours(2)).front();
    CHECK(early.mean_allocated == Approx(400'000.0));  // 0.8M × 1h / 2h
    CHECK(early.peak_allocated == 800'000);
    CHECK(*early.mean_fragmentation == Approx(0.8 / (3.2 + 2.4)));
  }
}

TEST_CASE("a multi-card typical request strands the free cards of nodes with too few of them", "[gpu_model_usage]") {
  // Two 4-card V100 nodes, typical request two whole cards. Node p keeps 2 free cards (the two
  // partly used cards are fragments); node q keeps 1 free card (all its free credits are).
  GpuModelUsage usage;
  usage.set_typical_request(kV100, {kM, 2});
  Devices p = node_of("p", 4, "Tesla V100-SXM2-32GB");
  Devices q = node_of("q", 4, "Tesla V100-SXM2-32GB");
  set_remaining(p, 0, 400'000);
  set_remaining(p, 1, 0);
  set_remaining(q, 0, 0);
  set_remaining(q, 1, 0);
  set_remaining(q, 2, 1'200'000);
  usage.on_node(SimTime(), "p", &p);
  usage.on_node(SimTime(), "q", &q);
  const GpuModelSample t = usage.totals(kV100);
  CHECK(t.cards == 8);
  CHECK(t.allocated == (kM - 400'000) + kM + kM + kM + (kM - 1'200'000));
  CHECK(t.fragmented == 400'000 + (1'200'000 + kM));
  const GpuModelSummary m = usage.summaries(SimTime::hours(1)).front();
  // free = 0.4M + 3.2M + 1.2M + 1.6M = 6.4M, fragmented 3.2M.
  CHECK(m.final_free == 6'400'000);
  CHECK(*m.final_fragmentation == Approx(0.5));
}

TEST_CASE("a node that leaves takes its cards and credits out of the totals", "[gpu_model_usage]") {
  GpuModelUsage usage;
  Devices a = node_of("a", 2);
  Devices b = node_of("b", 2);
  set_remaining(b, 0, 0);
  usage.on_node(SimTime::hours(0), "a", &a);
  usage.on_node(SimTime::hours(0), "b", &b);
  usage.on_node(SimTime::hours(1), "b", nullptr);
  usage.on_node(SimTime::hours(1), "b", nullptr);  // gone twice: no change
  CHECK(usage.totals(kT4).cards == 2);
  CHECK(usage.totals(kT4).allocated == 0);
  CHECK(usage.series().size() == 2);
  const GpuModelSummary m = usage.summaries(SimTime::hours(2)).front();
  CHECK(m.cards == 2);
  CHECK(m.peak_cards == 4);
  CHECK(m.peak_allocated == kM);
  CHECK(m.mean_allocated == Approx(kM / 2.0));               // 1.6M for 1h of 2h
  CHECK(*m.mean_utilization == Approx(1.6 / (6.4 + 3.2)));   // ∫capacity = 6.4M·h + 3.2M·h
  CHECK(*m.final_allocation == Approx(0.0));
  CHECK_FALSE(m.mean_fragmentation.has_value());  // no typical request
  CHECK(m.typical_cards == 0);

  SECTION("the last node leaving leaves a model with no cards and no final allocation") {
    usage.on_node(SimTime::hours(2), "a", nullptr);
    const GpuModelSummary gone = usage.summaries(SimTime::hours(3)).front();
    CHECK(gone.cards == 0);
    CHECK_FALSE(gone.final_allocation.has_value());
  }
}

TEST_CASE("several changes at one instant leave one sample with the last values", "[gpu_model_usage]") {
  GpuModelUsage usage;
  Devices a = node_of("a", 1);
  usage.on_node(SimTime(), "a", &a);
  set_remaining(a, 0, 0);
  usage.on_node(SimTime::hours(1), "a", &a);  // a peak that lasts no time is no state of the run
  set_remaining(a, 0, kM);
  usage.on_node(SimTime::hours(1), "a", &a);
  REQUIRE(usage.series().size() == 2);
  CHECK(usage.series().back().allocated == 0);
  CHECK(usage.summaries(SimTime::hours(2)).front().peak_allocated == 0);
}

TEST_CASE("a typical request set after the nodes joined recomputes their fragmentation", "[gpu_model_usage]") {
  GpuModelUsage usage;
  Devices a = node_of("a", 2);
  set_remaining(a, 0, 500'000);
  usage.on_node(SimTime(), "a", &a);
  CHECK(usage.totals(kT4).fragmented == 0);
  usage.set_typical_request(kT4, {736'000, 1}, SimTime::hours(1));
  CHECK(usage.totals(kT4).fragmented == 500'000);
  CHECK(usage.series().back().at == SimTime::hours(1));
  CHECK(summary_of(usage.summaries(SimTime::hours(2)), kT4).final_fragmented == 500'000);
}

TEST_CASE("an InstanceType names its accelerator group as the GPU model and CPU types none", "[gpu_model_usage]") {
  chaintwin::model::InstanceType gpu, cpu;
  gpu.metadata.name = "t4";
  gpu.spec.acceleratable = true;
  gpu.spec.accelerator_group = kT4;
  cpu.metadata.name = "cpu";
  cpu.spec.accelerator_group = "ignored";
  CHECK(chaintwin::sim::gpu_model_of_instance_type(gpu) == kT4);
  CHECK(chaintwin::sim::gpu_model_of_instance_type(cpu).empty());

  std::deque<chaintwin::sim::WorkloadOutcome> w(4);
  w[0].instance_type = "t4";
  w[1].instance_type = "cpu";
  w[2].instance_type = "unknown";
  w[3].instance_type = "t4";
  w[3].gpu_model = "kept";
  chaintwin::sim::fill_gpu_models(w, {{"t4", gpu}, {"cpu", cpu}});
  CHECK(w[0].gpu_model == kT4);
  CHECK(w[1].gpu_model.empty());
  CHECK(w[2].gpu_model.empty());
  CHECK(w[3].gpu_model == "kept");
}

TEST_CASE("nodes that leave and join in any order keep the totals a fresh count gives, sampled in model order",
          "[gpu_model_usage]") {
  // Five node names over two models; each step a node joins (with one model or both), leaves, or
  // has a card taken or given back; midway the T4's typical request is set. After every step the
  // totals are those of a count over the nodes present, and the series' last samples at one
  // instant name the models in key order.
  const std::map<std::string, TypicalRequest> typical_late{{kT4, {736'000, 1}}};
  std::map<std::string, TypicalRequest> typical{{kV100, {kM, 2}}};
  std::map<std::string, Devices> present;
  GpuModelUsage usage;
  usage.set_typical_request(kV100, typical.at(kV100));
  uint64_t seed = 99;
  int joins = 0, leaves = 0, rejoins = 0;
  std::set<std::string> ever;
  for (int step = 1; step <= 400; ++step) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::string name = "n" + std::to_string((seed >> 33) % 5);
    const auto it = present.find(name);
    if (step == 200) {
      usage.set_typical_request(kT4, typical_late.at(kT4), SimTime::seconds(step));
      typical.insert(typical_late.begin(), typical_late.end());
    }
    if (it == present.end()) {
      Devices d = (seed >> 40) % 2 ? node_of(name, 4) : node_of(name, 2, "Tesla V100-SXM2-32GB");
      if ((seed >> 41) % 3 == 0) {  // both models on one node, the V100 group listed first
        const Devices other = node_of(name, 2, "Tesla V100-SXM2-32GB");
        d = node_of(name, 3);
        d.spec.groups.insert(d.spec.groups.begin(), other.spec.groups.at(0));
        d.status.groups.insert(d.status.groups.begin(), other.status.groups.at(0));
      }
      rejoins += ever.count(name) ? 1 : 0;
      ever.insert(name);
      ++joins;
      present[name] = d;
      usage.on_node(SimTime::seconds(step), name, &present[name]);
    } else if ((seed >> 42) % 4 == 0) {
      present.erase(it);
      ++leaves;
      usage.on_node(SimTime::seconds(step), name, nullptr);
    } else {
      auto& card = it->second.status.groups.back().accelerators.at(0);
      card.remaining = card.remaining == kM ? static_cast<int32_t>((seed >> 44) % kM) : static_cast<int32_t>(kM);
      usage.on_node(SimTime::seconds(step), name, &it->second);
    }
    std::map<std::string, GpuModelSample> scratch = counted_afresh(present, typical);
    for (const std::string& key : {kT4, kV100}) {
      INFO("step " << step << ", " << key);
      const GpuModelSample got = usage.totals(key);
      CHECK(got.cards == scratch[key].cards);
      CHECK(got.allocated == scratch[key].allocated);
      CHECK(got.fragmented == scratch[key].fragmented);
    }
    // The samples of this instant, in the order the totals moved: by key.
    std::vector<std::string> now;
    for (auto s = usage.series().rbegin(); s != usage.series().rend() && s->at == SimTime::seconds(step); ++s)
      now.insert(now.begin(), s->gpu_model.str());
    CHECK(std::is_sorted(now.begin(), now.end()));
  }
  CHECK(joins > 20);
  CHECK(leaves > 20);
  CHECK(rejoins > 10);
}
