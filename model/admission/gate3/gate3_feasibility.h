// Gate 3 — the `gpustack-node-devices` AdmissionCheck's per-card fit (node_devices_admission.go).
// Kueue's credits and TAS see node totals; this decides whether a Workload's accelerator demands
// can really be placed on the cards of a node, one card at a time, using the per-card
// predicates of card_ledger.h. A shortage is always Retry (after 30 s), never Reject.
//
// The unit is a CardBudget: one node's cards plus what this evaluation already granted on them,
// so several demands (and, later, the inflight Workloads fitted before this one) never spend the
// same room twice. node_devices_feasibility() is the single-node verdict for one Workload.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/stage3/card_ledger.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {

enum class Gate3State { kReady, kRetry };
std::string_view to_string(Gate3State state);  // "Ready" / "Retry"

inline constexpr int32_t kGate3RetryAfterSeconds = 30;

// Shared requests: `count` holders (containers), each needing `cards` distinct accelerators with
// one free ownership share on each. Two holders may take shares on the same card.
struct SharedHolder {
  int32_t cards = 0;
  int32_t count = 1;
  bool operator==(const SharedHolder&) const = default;
};

// One correlated demand of a Workload on a node, per family.
struct FamilyDemand {
  ResourceFamily family = ResourceFamily::kNone;
  // Cards for exclusive/shared/sliced (each slice is one card for one container); instances for
  // partitioned (several may share a card).
  int32_t accelerators = 0;
  // The per-card units as the PodSet carries them: a slice's folded units (0 for a
  // template-built slice, which then fits any card with a free slot); 0 for the other families.
  int64_t units_per_card = 0;
  std::string profile;  // partitioned: the published profile name
  // shared: the holders; empty means one holder needing `accelerators` cards.
  std::vector<SharedHolder> shared_holders;
  // Optional scope: only cards of this accelerator key serve the demand ("" = every card).
  std::string accelerator_key;
  // The PodSets the demand was read from, named in the verdict.
  std::vector<std::string> pod_sets;
  bool operator==(const FamilyDemand&) const = default;
};

struct Gate3Verdict {
  Gate3State state = Gate3State::kReady;
  std::string message;
  int32_t retry_after_seconds = 0;  // kGate3RetryAfterSeconds on Retry
  bool ready() const { return state == Gate3State::kReady; }
  bool operator==(const Gate3Verdict&) const = default;
};

// Most constrained first: partitioned demands, then descending per-card units, then family
// (stable, so equal demands keep their order).
void sort_demands(std::vector<FamilyDemand>& demands);

// One node's cards with the room this evaluation has already granted. Grants are applied to the
// card's ledger figures (remaining, mode, hosted slices) exactly as an allocation would, so every
// later demand is judged by the same predicates against what is left. A budget reads its cards in
// place: the Devices record (or the CardLedgers) it was built from must outlive it, unchanged.
class CardBudget {
 public:
  // `scope` names the node in messages; defaults to the first card's node.
  explicit CardBudget(std::vector<CardLedger> cards, std::string scope = "");
  // The cards of a Devices record, in status order; `scope` as above.
  CardBudget(const Devices& devices, std::string scope);
  // Appends a record's cards in status order (a pool's budget: `scope` empty, so its messages
  // name the first card's node, as with a list of cards).
  void add(const Devices& devices);
  CardBudget(CardBudget&&) = default;
  CardBudget& operator=(CardBudget&&) = default;
  CardBudget(const CardBudget&) = delete;
  CardBudget& operator=(const CardBudget&) = delete;

  // Fits one demand all-or-nothing: on Ready its grants are kept, on Retry nothing changes.
  Gate3Verdict fit(const FamilyDemand& demand);
  // The cards as they stand after the grants so far (built for the caller: tests and reports).
  std::vector<CardLedger> cards() const;
  // Partition instances granted per card so far, in the order of cards().
  std::vector<int32_t> placements_given() const;
  std::string_view scope() const { return scope_; }

 private:
  // One card as the fits read it: its capability and names in place, and the ledger figures the
  // grants move (the only ones they write).
  struct Card {
    const AcceleratorStatus* capability = nullptr;
    const AcceleratorAllocation* row = nullptr;  // the ledger row as read (profiles, id)
    const std::string* node = nullptr;
    std::string_view manufacturer, group_id;
    CardFigures figures;
    int32_t allocated = 0;
    int32_t placements_given = 0;  // partition instances granted so far

    bool covers(const FamilyDemand& demand) const;
    // Applies one allocation of `units` in `mode` to the figures, as Allocate would.
    void charge(int32_t units, DeviceAllocationMode mode);
  };
  struct Saved {
    CardFigures figures;
    int32_t allocated, placements_given;
  };
  void push(const std::string* node, std::string_view manufacturer, std::string_view group_id,
            const AcceleratorStatus& capability, const AcceleratorAllocation& row);
  Gate3Verdict fit_exclusive(const FamilyDemand& d);
  Gate3Verdict fit_shared(const FamilyDemand& d);
  Gate3Verdict fit_sliced(const FamilyDemand& d);
  Gate3Verdict fit_partition(const FamilyDemand& d);
  std::string where() const;

  std::vector<CardLedger> owned_;  // the cards given by value (their storage), else empty
  std::vector<Card> cards_;
  std::vector<Saved> saved_;  // a demand's starting figures, to roll a short one back; reused
  std::string scope_;
};

// Gate 3 on one node for one Workload: sorts the demands, fits them in order and answers with the
// first that falls short, or — when all fit — the last one checked. No demand → Ready.
Gate3Verdict node_devices_feasibility(std::vector<CardLedger> cards, std::vector<FamilyDemand> demands,
                                      std::string scope = "");

}  // namespace chaintwin::model
