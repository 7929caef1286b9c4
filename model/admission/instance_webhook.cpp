#include "model/admission/instance_webhook.h"

#include <vector>

namespace chaintwin::model {
namespace {

// quantityx.StringMultiply: the unit quantity × n, in the unit's format ("192Gi" × 2 = "384Gi").
std::optional<Quantity> multiply(const std::string& unit, int64_t n) {
  const auto q = Quantity::parse(unit);
  if (!q.ok()) return std::nullopt;
  return Quantity::from_scaled(q->mantissa() * n, q->exponent(), q->format());
}

// quantityx.StringPercentMultiply: the unit quantity × pct / 100.
std::optional<Quantity> percent_of(const std::string& unit, int64_t pct) {
  const auto q = Quantity::parse(unit);
  if (!q.ok()) return std::nullopt;
  return Quantity::from_scaled(q->mantissa() * pct, q->exponent() - 2, q->format());
}

bool is_slice(const InstanceType& type, const InstanceResources& r) {
  return type.spec.acceleratable && (r.sliced_memory_percentage > 0 || r.sliced_cores_percentage > 0);
}

std::string invalid(std::string_view path, std::string_view value, std::string_view detail) {
  return std::string(path) + ": Invalid value: \"" + std::string(value) + "\": " + std::string(detail);
}

}  // namespace

InstanceResources default_instance_resources(const InstanceType& type, InstanceResources r, bool overcommit) {
  const auto& unit = type.spec.unit_resources;
  if (type.spec.acceleratable) {
    if (!r.accelerator) r.accelerator = 1;
    if (is_slice(type, r)) {
      if (*r.accelerator == 0) r.accelerator = 1;
      if (r.sliced_memory_percentage > 0 && r.sliced_cores_percentage == 0)
        r.sliced_cores_percentage = r.sliced_memory_percentage;
      if (r.sliced_cores_percentage > 0 && r.sliced_memory_percentage == 0)
        r.sliced_memory_percentage = r.sliced_cores_percentage;
      if (overcommit || r.cpu.is_zero())
        if (auto q = percent_of(unit.cpu, r.sliced_memory_percentage)) r.cpu = *q;
      if (overcommit || r.ram.is_zero())
        if (auto q = percent_of(unit.ram, r.sliced_memory_percentage)) r.ram = *q;
    } else {
      const int64_t cards = *r.accelerator == 0 ? 1 : *r.accelerator;
      if (overcommit || r.cpu.is_zero())
        if (auto q = multiply(unit.cpu, cards)) r.cpu = *q;
      if (overcommit || r.ram.is_zero())
        if (auto q = multiply(unit.ram, cards)) r.ram = *q;
    }
  } else {
    int64_t cpus = 1;
    if (r.cpu.is_zero())
      r.cpu = Quantity::from_int(1);
    else
      cpus = r.cpu.value_ceil();
    if (overcommit || r.ram.is_zero())
      if (auto q = multiply(unit.ram, cpus)) r.ram = *q;
  }
  return r;
}

InstanceAdmission admit_instance(const InstanceType& type, const InstanceResources& given, std::string_view name,
                                 bool overcommit) {
  InstanceAdmission out;
  out.resources = default_instance_resources(type, given, overcommit);
  const InstanceResources& r = out.resources;
  const std::string& it = type.metadata.name;
  std::vector<std::string> errs;
  const std::string cards = r.accelerator ? std::to_string(*r.accelerator) : "0";
  if (type.spec.acceleratable) {
    if (is_slice(type, r)) {
      if (r.sliced_memory_percentage < 0 || r.sliced_memory_percentage > 100)
        errs.push_back(invalid("spec.resources.acceleratorSlicedMemoryPercentage",
                               std::to_string(r.sliced_memory_percentage), "must be between 0 and 100"));
      if (r.sliced_cores_percentage < 0 || r.sliced_cores_percentage > 100)
        errs.push_back(invalid("spec.resources.acceleratorSlicedCoresPercentage",
                               std::to_string(r.sliced_cores_percentage), "must be between 0 and 100"));
      if (!r.accelerator || *r.accelerator != 1)
        errs.push_back(invalid("spec.resources.accelerator", cards, "accelerator request must be exactly 1 for a sliced request"));
    } else if (r.partitioned_profile.empty() && r.accelerator) {
      // validateExclusiveAcceleratorRequest: the whole-card view's onceMaxRequest is the cap.
      if (*r.accelerator < 0)
        errs.push_back(invalid("spec.resources.accelerator", cards, "accelerator request cannot be negative"));
      else if (*r.accelerator > type.status.accelerator.once_max_request)
        errs.push_back(invalid("spec.resources.accelerator", cards,
                               "exceeds the maximum accelerator request of instance type " + it));
    }
  } else if (r.accelerator && *r.accelerator != 0) {
    errs.push_back(invalid("spec.resources.accelerator", cards,
                           "accelerator request must not be specified for non-acceleratable instance type"));
  }
  if (r.cpu.sign() < 0)
    errs.push_back(invalid("spec.resources.cpu", r.cpu.to_string(), "CPU request cannot be negative"));
  else if (!type.spec.acceleratable && r.cpu > Quantity::from_int(type.status.cpu.once_max_request))
    errs.push_back(invalid("spec.resources.cpu", r.cpu.to_string(), "exceeds the maximum CPU request of instance type " + it));
  if (r.ram.sign() < 0) errs.push_back(invalid("spec.resources.ram", r.ram.to_string(), "RAM request cannot be negative"));
  // capResourcesToInstanceType: unit × unit count (cards for an accelerated type, else CPUs).
  int64_t units = 1;
  if (type.spec.acceleratable) {
    if (r.accelerator && *r.accelerator > 1) units = *r.accelerator;
  } else if (r.cpu.value_ceil() > 1) {
    units = r.cpu.value_ceil();
  }
  if (type.spec.acceleratable)
    if (const auto max = multiply(type.spec.unit_resources.cpu, units); max && r.cpu > *max)
      errs.push_back(invalid("spec.resources.cpu", r.cpu.to_string(),
                             "exceeds the maximum CPU " + max->to_string() + " of instance type " + it));
  if (const auto max = multiply(type.spec.unit_resources.ram, units); max && r.ram > *max)
    errs.push_back(invalid("spec.resources.ram", r.ram.to_string(),
                           "exceeds the maximum RAM " + max->to_string() + " of instance type " + it));
  if (errs.empty()) return out;
  out.allowed = false;
  out.message = "Instance.worker.gpustack.ai \"" + std::string(name) + "\" is invalid: ";
  if (errs.size() == 1) {
    out.message += errs.front();
  } else {
    out.message += "[";
    for (size_t i = 0; i < errs.size(); ++i) out.message += (i ? ", " : "") + errs[i];
    out.message += "]";
  }
  return out;
}

}  // namespace chaintwin::model
