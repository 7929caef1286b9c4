// Per-GPU-model step functions (cards, allocated and fragmented credits), kept incrementally per
// node, and their summaries.
#include "sim/results/gpu_model_usage.h"

#include <boost/container/small_vector.hpp>

#include <algorithm>

#include "model/credits.h"
#include "model/api/int128.h"
#include "model/normalize_name.h"
#include "model/stage3/card_ledger.h"

namespace chaintwin::sim {
namespace {

using model::i128;
constexpr int64_t kM = model::kUnitsPerAccelerator;

double ratio(i128 numerator, i128 denominator) {
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

}  // namespace

int64_t fragmented_credits(const std::vector<CardFree>& cards, const TypicalRequest& request) {
  int64_t fitting = 0, free_total = 0, free_not_fitting = 0;
  for (const CardFree& card : cards) {
    free_total += card.free;
    if (card.healthy && card.free >= request.credits_per_card) ++fitting;
    else free_not_fitting += card.free;
  }
  return fitting >= request.cards ? free_not_fitting : free_total;
}

namespace {

// Adds one status group's cards to `f`, the figures of its GPU model. Each row's spec entry (the
// product, the health) is the last one naming its id, as the card join finds it.
// Returns the product its first listed card names (null when none is listed); the caller sets it.
const std::string* add_cards(NodeModelFigures& f, const model::DevicesAllocationGroup& status_group,
                             const model::CardJoin& join) {
  const std::string* product = nullptr;
  for (const auto& row : status_group.accelerators) {
    const model::CardJoin::SpecEntry spec = join.spec_of(row.id);
    if (product == nullptr && spec.group != nullptr) product = &spec.group->name;
    const int64_t free = std::clamp<int64_t>(row.remaining, 0, kM);
    ++f.cards;
    f.allocated += kM - free;
    f.card_free.push_back({free, spec.group == nullptr || !spec.accelerator->status.unhealthy});
  }
  return product;
}

void add_status_group(NodeModelFigures& f, const model::DevicesAllocationGroup& status_group,
                      const model::CardJoin& join) {
  if (f.manufacturer.empty()) f.manufacturer = status_group.manufacturer;
  const std::string* product = add_cards(f, status_group, join);
  if (f.product.empty() && product != nullptr) f.product = *product;
}

// What the figures of `key` get once every group is in: the product falls back to the key, and
// the fragmentation is measured against the model's typical request when it has one.
void finish_figures(const std::string& key, NodeModelFigures& f, const TypicalRequest* typical) {
  if (f.product.empty()) f.product = key;
  if (typical != nullptr) f.fragmented = fragmented_credits(f.card_free, *typical);
}

}  // namespace

std::map<std::string, NodeModelFigures> node_model_figures(const model::Devices& devices,
                                                           const std::map<std::string, TypicalRequest>& typical) {
  const model::CardJoin join(devices);
  std::map<std::string, NodeModelFigures> out;
  for (const auto& status_group : devices.status.groups)
    add_status_group(out[model::accelerator_key(status_group.manufacturer, status_group.id)], status_group, join);
  for (auto& [key, f] : out) {
    const auto t = typical.find(key);
    finish_figures(key, f, t == typical.end() ? nullptr : &t->second);
  }
  return out;
}

std::string gpu_model_of_instance_type(const model::InstanceType& instance_type) {
  return instance_type.spec.acceleratable ? instance_type.spec.accelerator_group : std::string();
}

void fill_gpu_models(std::deque<WorkloadOutcome>& workloads,
                     const std::map<std::string, model::InstanceType>& instance_types) {
  for (auto& w : workloads) {
    if (!w.gpu_model.empty()) continue;
    if (const auto it = instance_types.find(w.instance_type); it != instance_types.end())
      w.gpu_model = gpu_model_of_instance_type(it->second);
  }
}

std::vector<GpuModelSummary> summarize_gpu_models(const std::deque<GpuModelSample>& series, SimTime end,
                                                  const std::map<std::string, TypicalRequest>& typical,
                                                  const std::map<std::string, GpuModelNames>& names) {
  std::map<std::string, std::vector<const GpuModelSample*>> by_model;
  for (const auto& s : series) by_model[s.gpu_model].push_back(&s);
  std::vector<GpuModelSummary> out;
  for (auto& [model_key, samples] : by_model) {
    std::stable_sort(samples.begin(), samples.end(),
                     [](const GpuModelSample* a, const GpuModelSample* b) { return a->at < b->at; });
    GpuModelSummary m;
    m.gpu_model = model_key;
    if (const auto n = names.find(model_key); n != names.end()) {
      m.product = n->second.product;
      m.manufacturer = n->second.manufacturer;
    }
    const auto t = typical.find(model_key);
    if (t != typical.end()) {
      m.typical_credits_per_card = t->second.credits_per_card;
      m.typical_cards = t->second.cards;
    }
    i128 allocated = 0, capacity = 0, fragmented = 0, free = 0;
    const GpuModelSample* last = nullptr;
    for (size_t i = 0; i < samples.size(); ++i) {
      const GpuModelSample& s = *samples[i];
      if (s.at > end) break;  // after the run stopped: not a state the run reached
      const int64_t to = std::min(i + 1 < samples.size() ? samples[i + 1]->at.us() : end.us(), end.us());
      const int64_t width = std::max<int64_t>(0, to - s.at.us());
      const int64_t cap = s.cards * kM;
      allocated += static_cast<i128>(s.allocated) * width;
      capacity += static_cast<i128>(cap) * width;
      fragmented += static_cast<i128>(s.fragmented) * width;
      free += static_cast<i128>(cap - s.allocated) * width;
      m.peak_cards = std::max(m.peak_cards, s.cards);
      m.peak_allocated = std::max(m.peak_allocated, s.allocated);
      if (cap > 0) {
        const double u = ratio(s.allocated, cap);
        if (!m.peak_utilization || u > *m.peak_utilization) m.peak_utilization = u;
      }
      last = &s;
    }
    if (last == nullptr) continue;  // the model first appeared after the end
    m.span_us = std::max<int64_t>(0, end.us() - samples.front()->at.us());
    if (m.span_us > 0) m.mean_allocated = ratio(allocated, m.span_us);
    if (capacity > 0) m.mean_utilization = ratio(allocated, capacity);
    m.cards = last->cards;
    m.final_allocated = last->allocated;
    m.final_free = last->cards * kM - last->allocated;
    if (m.cards > 0) m.final_allocation = ratio(m.final_allocated, m.cards * kM);
    if (m.typical_cards > 0) {
      m.final_fragmented = last->fragmented;
      if (free > 0) m.mean_fragmentation = ratio(fragmented, free);
      if (m.final_free > 0) m.final_fragmentation = ratio(m.final_fragmented, m.final_free);
    }
    out.push_back(std::move(m));
  }
  return out;
}

uint32_t GpuModelUsage::model_id(std::string_view gpu_model) {
  if (const uint32_t* known = model_ids_.find(gpu_model)) return *known;
  const auto id = static_cast<uint32_t>(models_.size());
  models_.push_back(Model{InternedName(gpu_model), std::nullopt, Totals{}, std::nullopt});
  model_ids_.try_emplace(gpu_model, id);
  return id;
}

void GpuModelUsage::set_typical_request(const std::string& gpu_model, TypicalRequest request, SimTime now) {
  const uint32_t id = model_id(gpu_model);
  models_[id].typical = request;
  int64_t fragmented = 0;
  for (auto& models : nodes_)  // a sum: the nodes' order does not matter
    for (auto& [model, f] : models)
      if (model == id) {
        f.fragmented = fragmented_credits(f.card_free, request);
        fragmented += f.fragmented;
      }
  Totals& total = models_[id].totals;
  if (fragmented == total.fragmented) return;
  total.fragmented = fragmented;
  sample(now, id);
}

GpuModelUsage::NodeModels::const_iterator GpuModelUsage::find_in(const NodeModels& list, uint32_t model) {
  return std::find_if(list.begin(), list.end(), [&](const NodeModel& m) { return m.model == model; });
}

GpuModelUsage::NodeModels GpuModelUsage::figures_of(const model::Devices& devices) {
  const model::CardJoin join(devices);
  NodeModels out;
  for (const auto& status_group : devices.status.groups) {
    const uint32_t id = model_id(model::accelerator_key(status_group.manufacturer, status_group.id));
    auto at = out.begin() + (find_in(out, id) - out.cbegin());
    if (at == out.end()) {  // in aKey order
      const std::string& key = models_[id].name;
      const auto after = std::find_if(out.begin(), out.end(),
                                      [&](const NodeModel& m) { return key < models_[m.model].name.str(); });
      at = out.insert(after, NodeModel{id, {}});
    }
    add_status_group(at->figures, status_group, join);
  }
  for (auto& [id, f] : out) finish_figures(models_[id].name, f, models_[id].typical ? &*models_[id].typical : nullptr);
  return out;
}

bool GpuModelUsage::refresh(NodeModels& figures, const model::Devices& devices) const {
  if (figures.empty() || devices.status.groups.size() != figures.size()) return false;
  boost::container::small_vector<NodeModel*, 4> slots;  // by status group
  for (const auto& group : devices.status.groups) {
    // A Node holds a model or two: found by comparing the key's parts, no key built.
    const auto it = std::find_if(figures.begin(), figures.end(), [&](const NodeModel& m) {
      return model::is_accelerator_key(models_[m.model].name.str(), group.manufacturer, group.id);
    });
    if (it == figures.end()) return false;
    if (std::find(slots.begin(), slots.end(), &*it) != slots.end()) return false;  // a model in two groups: rebuilt
    slots.push_back(&*it);
  }
  const model::CardJoin join(devices);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Model& m = models_[slots[i]->model];
    NodeModelFigures& f = slots[i]->figures;
    const model::DevicesAllocationGroup& group = devices.status.groups[i];
    f.cards = f.allocated = f.fragmented = 0;
    f.card_free.clear();  // keeps its storage
    const std::string* product = add_cards(f, group, join);
    // The names as add_status_group gives them, written only when they moved.
    if (f.manufacturer != group.manufacturer) f.manufacturer = group.manufacturer;
    const std::string& named = product != nullptr ? *product : m.name.str();  // finish_figures' fallback
    if (f.product != named) f.product = named;
    finish_figures(m.name, f, m.typical ? &*m.typical : nullptr);
  }
  return true;
}

void GpuModelUsage::on_node(SimTime now, const std::string& node, const model::Devices* devices) {
  const uint32_t* slot = node_slots_.find(node);
  if (devices != nullptr && slot != nullptr) {
    // The same models: each one's totals move by what its figures moved, in model order.
    NodeModels& figures = nodes_[*slot];
    boost::container::small_vector<Totals, 4> before;
    for (const auto& [id, f] : figures) before.push_back(totals_of(f));
    if (refresh(figures, *devices)) {
      std::size_t i = 0;
      for (const auto& [id, f] : figures) apply(now, id, before[i++], totals_of(f));
      return;
    }
  }
  NodeModels after;
  if (devices != nullptr) after = figures_of(*devices);
  if (slot == nullptr && after.empty()) return;  // none before, none now
  if (slot == nullptr) {
    uint32_t fresh;
    if (!free_slots_.empty()) {
      fresh = free_slots_.back();
      free_slots_.pop_back();
    } else {
      fresh = static_cast<uint32_t>(nodes_.size());
      nodes_.emplace_back();
    }
    slot = node_slots_.try_emplace(node, fresh).first;
  }
  const uint32_t at = *slot;  // (the index's values move on an erase)
  NodeModels& before = nodes_[at];
  for (const auto& [id, figures] : before) {
    const auto a = find_in(after, id);
    apply(now, id, totals_of(figures), a == after.end() ? Totals{} : totals_of(a->figures));
  }
  for (const auto& [id, figures] : after) {
    if (find_in(before, id) == before.end()) apply(now, id, Totals{}, totals_of(figures));
    const std::string& key = models_[id].name;
    if (!names_.contains(key)) names_.emplace(key, GpuModelNames{figures.product, figures.manufacturer});
  }
  if (after.empty()) {
    nodes_[at].clear();
    free_slots_.push_back(at);
    node_slots_.erase(node);
  } else {
    before = std::move(after);
  }
}

GpuModelUsage::Totals GpuModelUsage::totals_of(const NodeModelFigures& f) {
  return {f.cards, f.allocated, f.fragmented};
}

void GpuModelUsage::apply(SimTime now, uint32_t model, const Totals& before, const Totals& after) {
  Model& m = models_[model];
  const Totals old = m.totals;
  m.totals.cards += after.cards - before.cards;
  m.totals.allocated += after.allocated - before.allocated;
  m.totals.fragmented += after.fragmented - before.fragmented;
  if (!(m.totals == old) || !m.last_sample) sample(now, model);
}

void GpuModelUsage::sample(SimTime now, uint32_t model) {
  Model& m = models_[model];
  const GpuModelSample s{now, m.name, m.totals.cards, m.totals.allocated, m.totals.fragmented};
  if (m.last_sample && series_[*m.last_sample].at == now) {
    series_[*m.last_sample] = s;  // several changes at one instant: the last values hold
    return;
  }
  m.last_sample = series_.size();
  series_.push_back(s);
}

GpuModelSample GpuModelUsage::totals(const std::string& gpu_model) const {
  GpuModelSample s;
  s.gpu_model = gpu_model;
  if (const uint32_t* id = model_ids_.find(gpu_model)) {
    const Totals& t = models_[*id].totals;
    s.cards = t.cards;
    s.allocated = t.allocated;
    s.fragmented = t.fragmented;
  }
  return s;
}

std::vector<GpuModelSummary> GpuModelUsage::summaries(SimTime end) const {
  std::map<std::string, TypicalRequest> typical;
  for (const Model& m : models_)
    if (m.typical) typical.emplace(m.name, *m.typical);
  return summarize_gpu_models(series_, end, typical, names_);
}

}  // namespace chaintwin::sim
