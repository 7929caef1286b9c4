// Device inventory: builds the objects a real node publishes for a given hardware description —
// the Devices record the Device Manager writes (capability in spec, a fresh ledger in status),
// the pool tokens the device plugin registers with kubelet, and the Node with the labels NFD
// and the Device Manager put on it. Called by the scenario loader (cluster.nodes generators,
// add-node) and by the runner for set-partitioning (the Device Manager's re-detection).
//
// Everything here is what happens BEFORE the operator's worker runs: no managed mark, no
// general keys, no counting keys, no fit labels — stage 3 (model/stage3/stage3.h) derives those.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"
#include "model/result.h"

namespace chaintwin::model {

// Cards of one inventory put into one mode at detection time; cards not named stay whole and
// logically sliceable.
struct CardPartitioning {
  std::vector<int32_t> cards;          // indexes within the inventory, 0-based
  bool mig = true;                     // false: logical (whole / sliceable)
  std::vector<std::string> instances;  // pre-carved on each card: "3g.40gb@0", or "3g.40gb" (first free slot)
};

// One accelerator model on a node.
struct AcceleratorInventory {
  std::string manufacturer;  // manufacturer key, e.g. "nvidia"
  std::string product;       // e.g. "NVIDIA H100 80GB HBM3"
  int32_t count = 0;         // cards
  int64_t memory_mib = 0;    // nominal VRAM per card (the `.memory` label); 0: from the product table
  int64_t reported_memory_mib = 0;  // Devices spec memory (what NVML reports); 0: product table, else memory_mib
  uint32_t cores = 0;                // 0: from the product table
  std::string family;                // "": from the product table
  std::string compute_capability;    // "": from the product table
  std::vector<CardPartitioning> partitioning;
};

// Facts about a few well-known products (so a scenario can name only the product).
struct ProductFacts {
  int64_t memory_mib = 0;           // nominal
  int64_t reported_memory_mib = 0;  // as NVML reports it
  uint32_t cores = 0;
  std::string family;
  std::string compute_capability;
};
std::optional<ProductFacts> known_product(const std::string& manufacturer, const std::string& product);

// A deterministic card UUID for `node`'s card `index`: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
// from FNV-1a-64 of the node name and index.
std::string card_uuid(const std::string& node, uint32_t index);

// The Devices record for `node` with one group per inventory (card indexes numbered across the
// inventories in order). Capability: MIG cards get the catalog profiles (model/catalog/mig_catalog.h),
// logical cards the manufacturer's slice count. Ledger: every card free (remaining M), MIG cards
// with their per-profile counts published, pre-carved instances charged (mode Partitioned).
// Refuses unknown manufacturers, a MIG card on a model without MIG, a profile the card does not
// offer, overlapping or illegal instances, card indexes out of range or named twice.
Result<Devices> make_devices(const std::string& node, const AcceleratorInventory& inv);
Result<Devices> make_devices(const std::string& node, const std::vector<AcceleratorInventory>& invs);

// The Device Manager's re-detection after an administrator flips the mode of `cards` (node-wide
// indexes): capability rewritten in place (catalog profiles or logical slices), the ledger rows
// of those cards reset to free. Cards already in the target mode are left untouched. Refuses a
// card index the record does not have, a card that is in use (the vendor tool refuses a mode
// change on a busy card), and MIG on a model without MIG.
Status set_card_partitioning(Devices& devices, const std::vector<int32_t>& cards, bool mig);

// The ledger as the device plugin publishes it when no Pod holds anything on the node: every row
// of `devices.status` back to free (a partitioned card with no live instance, its per-profile counts
// recomputed from its capability). Rows whose card is not in the spec are left as they are.
Devices with_free_ledger(Devices devices);

// The pool tokens the device plugin registers (kubelet copies them into Node capacity and
// allocatable), per manufacturer: `<base>` = healthy whole-capable cards, `<base>.shared` = 10 per
// such card, `<base>.sliced` = Σ logical slice count, `<base>.partitioned` = Σ (allocated + the
// largest per-profile free count) per partitioned card (present, possibly 0, when the model can
// partition), `device.gpustack.ai/<m>.visibility` = every card.
ResourceList device_plugin_capacity(const Devices& devices);

// A node as a generator describes it.
struct NodeSpec {
  std::string name;
  std::string os = "linux";
  std::string arch = "amd64";
  std::string cpu_vendor;  // cpu-model.vendor_id, e.g. "AMD", "Intel"
  std::string cpu_name;    // feature.gpustack.ai/cpu-name annotation
  std::string cpu_family;  // cpu-model.family label (optional)
  std::string cpu_model;   // cpu-model.id label (optional)
  Quantity cpu = Quantity::from_int(8);
  Quantity memory = Quantity::from_int_binary(int64_t{32} << 30);
  Quantity pods = Quantity::from_int(110);
  StringMap labels;       // extra labels (topology, …); they win over generated ones
  StringMap annotations;  // extra annotations
  bool unschedulable = false;
  std::vector<AcceleratorInventory> accelerators;
};

// The Node kubelet, NFD and the Device Manager publish for `spec`, with `devices` (the record
// make_devices built for it, or nullptr for a CPU node) for the accelerator labels and pools.
Node make_node(const NodeSpec& spec, const Devices* devices);

}  // namespace chaintwin::model
