// The per-accelerator view Gate 3 and the fit labels both judge: a card's reported capability
// (Devices.spec, which families it can serve) joined by accelerator id with its ledger row
// (Devices.status: mode, remaining units, hosted slices, partition profiles). The predicates
// here are the only definition of "what one card can still give"; the fit labels and the
// Gate 3 feasibility fit (gate3_feasibility.h) both read them, which is what makes a label
// admit a node exactly when Gate 3 would for a one-card Pod.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/api/devices.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {

// The figures of a ledger row the predicates below read (and Gate 3's grants move).
struct CardFigures {
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;
  int32_t remaining = 0;
  int32_t allocated_slices = 0;
  static CardFigures of(const AcceleratorAllocation& row) { return {row.mode, row.remaining, row.allocated_slices}; }
  bool operator==(const CardFigures&) const = default;
};

// The predicates on one card, as (capability, ledger figures): the only definition, which
// CardLedger's members, Gate 3's budget and the allocation-free walks (CardJoin below) all use.
bool card_serves_family(const AcceleratorStatus& capability, ResourceFamily family);
int32_t card_free_slots(const AcceleratorStatus& capability, const CardFigures& ledger);
int64_t card_free_shares(const AcceleratorStatus& capability, const CardFigures& ledger);
int64_t card_free_slice_units(const AcceleratorStatus& capability, const CardFigures& ledger);
inline int32_t card_free_slots(const AcceleratorStatus& capability, const AcceleratorAllocation& ledger) {
  return card_free_slots(capability, CardFigures::of(ledger));
}
inline int64_t card_free_shares(const AcceleratorStatus& capability, const AcceleratorAllocation& ledger) {
  return card_free_shares(capability, CardFigures::of(ledger));
}
inline int64_t card_free_slice_units(const AcceleratorStatus& capability, const AcceleratorAllocation& ledger) {
  return card_free_slice_units(capability, CardFigures::of(ledger));
}

struct CardLedger {
  std::string node;          // the Devices (= Node) name the card belongs to
  std::string manufacturer;  // of its status group
  std::string group_id;      // status group id; aKey = manufacturer-group_id
  AcceleratorStatus capability;   // spec side; zero value when the spec lists no such id
  AcceleratorAllocation ledger;   // status side, as the Device Manager wrote it

  // "<manufacturer>-<group id>", the key flavors and fit labels name a model by.
  std::string accelerator_key() const;

  // Whether the card's capability lets it serve the family at all: partitioned ⇔ physically
  // partitioned; sliced ⇔ logically sliceable; exclusive/shared ⇔ not partitioned.
  bool serves_family(ResourceFamily family) const;
  // Logical slice slots left: logicalSliced.count − allocatedSlices when sliceable, else 0.
  int32_t free_slots() const;
  // Ownership shares (160,000 units each) the card can still grant: remaining / 160,000 when it
  // is whole-capable and its mode is None or Shared, 0 otherwise.
  int64_t free_shares() const;
  // Units one more logical slice may take: remaining when the card is sliceable, its mode is
  // None or Sliced and it has a free slot; −1 when it can take no slice at all.
  int64_t free_slice_units() const;
  bool operator==(const CardLedger&) const = default;
};

// One status group's cards, in ledger order.
struct CardGroup {
  std::string manufacturer;
  std::string id;
  std::vector<CardLedger> cards;
  std::string accelerator_key() const;
};

// The join of a Devices record's status rows with their spec capability: the capability of the
// same accelerator id, searched across every spec group as the operator does (the later of two
// equal ids wins; a missing id gives the zero capability). A reader that only looks at the cards
// walks devices.status.groups itself and asks capability_of() per row, copying nothing.
class CardJoin {
 public:
  explicit CardJoin(const Devices& devices);
  const AcceleratorStatus& capability_of(std::string_view id) const;
  // The spec entry the same search finds, with its group (which names the product); nulls for an
  // id the spec does not list.
  struct SpecEntry {
    const Accelerator* accelerator = nullptr;
    const DevicesGroup* group = nullptr;
  };
  SpecEntry spec_of(std::string_view id) const;

 private:
  struct Entry {
    std::string_view id;
    SpecEntry spec;
    uint64_t fingerprint = 0;  // the id's length and last bytes: equal ids have equal prints
    bool repeated = false;     // another spec entry has the same id
  };
  // The search by id, for a row the guess below misses.
  SpecEntry search(std::string_view id) const;

  // The spec entries in spec order. A Node's cards fit inline: no allocation per join.
  boost::container::small_vector<Entry, 16> spec_;
  // Their positions sorted by id (stable), sorted on the first search that needs them: most joins
  // are read in spec order and never search.
  mutable boost::container::small_vector<uint32_t, 16> by_id_;
  // Where the next row asked for is likely to be: a reader walks the status rows in order, and
  // they are usually the spec's in the same order, so a lookup is one comparison. Only a guess:
  // a row elsewhere, a repeated id or a missing one takes the search by id.
  mutable std::size_t next_ = 0;
};

// What a card view copies of its ledger row: all of it, or what the Devices API publishes, leaving
// out the model-only bookkeeping (the charges per holder and the live partition instances, which
// the operator does not read: it reads the published counts). Gate 3 copies the published part.
enum class LedgerCopy { kWhole, kPublished };

// The same join as values: one CardGroup per status group in order.
std::vector<CardGroup> card_groups_of(const Devices& devices, LedgerCopy copy = LedgerCopy::kWhole);
// The same cards flattened, in status order.
std::vector<CardLedger> cards_of(const Devices& devices, LedgerCopy copy = LedgerCopy::kWhole);

}  // namespace chaintwin::model
