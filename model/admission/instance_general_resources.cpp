#include "model/admission/instance_general_resources.h"

namespace chaintwin::model {
namespace {

constexpr int64_t kGi = 1LL << 30;

// unit × cards, or unit × percentage ÷ 100 rounded up (in the unit's smallest step: milli-cores
// for CPU, bytes for RAM).
int64_t sized(int64_t unit, const InstanceAcceleratorHold& hold) {
  if (hold.sliced_memory_percentage > 0) return (unit * hold.sliced_memory_percentage + 99) / 100;
  return unit * (hold.cards > 0 ? hold.cards : 1);
}

}  // namespace

Quantity overcommit_cpu_request(const Quantity& limit, bool acceleratable) {
  const int64_t base = acceleratable ? kAcceleratedCpuOvercommitMilli : kGeneralCpuOvercommitMilli;
  return Quantity::from_milli(base * limit.value_ceil());
}

Quantity overcommit_memory_request(const Quantity& limit) {
  return Quantity::from_int_binary(kRamOvercommitBytes * (limit.value_ceil() / kGi));
}

Result<InstanceGeneralResources> instance_general_resources(const InstanceType& it,
                                                            const InstanceAcceleratorHold& hold,
                                                            bool overcommit) {
  if (!it.spec.acceleratable)
    return err("InstanceType '" + it.metadata.name + "' is not acceleratable: its Pods are sized by their own CPU");
  const auto cpu = Quantity::parse(it.spec.unit_resources.cpu);
  if (!cpu) return err("spec.unitResources.cpu: invalid CPU unit of instance type " + it.metadata.name + ": " + cpu.error());
  const auto ram = Quantity::parse(it.spec.unit_resources.ram);
  if (!ram) return err("spec.unitResources.ram: invalid RAM unit of instance type " + it.metadata.name + ": " + ram.error());
  InstanceGeneralResources out;
  out.cpu_limit = Quantity::from_milli(sized(cpu->milli_value_ceil(), hold));
  out.memory_limit = Quantity::from_int_binary(sized(ram->value_ceil(), hold));
  if (overcommit) {
    out.cpu_request = overcommit_cpu_request(out.cpu_limit, true);
    out.memory_request = overcommit_memory_request(out.memory_limit);
  } else {
    out.cpu_request = out.cpu_limit;
    out.memory_request = out.memory_limit;
  }
  return out;
}

}  // namespace chaintwin::model
