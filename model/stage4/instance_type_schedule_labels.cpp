// instanceTypeScheduleLabels (instance_type.go @f130444c).
#include "model/stage4/instance_type_schedule_labels.h"

#include "model/stage3/pool_identity.h"

namespace chaintwin::model {

StringMap instance_type_schedule_labels(const InstanceType& type, bool aware) {
  return pool_schedule_labels(type.spec.acceleratable, aware, type.spec.general_group, type.spec.accelerator_group,
                              type.spec.os, type.spec.arch);
}

}  // namespace chaintwin::model
