// instanceTypeScheduleLabels (instance_type.go @f130444c): the schedule discriminator labels of
// an InstanceType, from its SPEC identity (never its metadata labels) and the
// instance-type-aware-cpu-manufacturer setting. They are the labels stamped on the backing
// ClusterQueue and the ones the status's detail flavor is looked up by.
#pragma once

#include "model/api/instance_type.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

// PoolScheduleLabels(spec.acceleratable, aware, spec.generalGroup, spec.acceleratorGroup,
// spec.os, spec.arch): feature.gpustack.ai/acceleratable always, os/arch when set, the
// accelerator key when accelerated, the CPU key only when aware and not "generic".
StringMap instance_type_schedule_labels(const InstanceType& type, bool aware);

}  // namespace chaintwin::model
