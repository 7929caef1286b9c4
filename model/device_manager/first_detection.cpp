#include "model/device_manager/first_detection.h"

#include <string>

#include "model/device_manager/device_inventory.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {

Node node_before_first_detection(Node detected, const Devices& devices) {
  auto& labels = detected.metadata.labels;
  for (auto it = labels.begin(); it != labels.end();) {
    if (it->first.rfind(std::string(keys::kAcceleratablePrefix), 0) == 0 || it->first == keys::kAcceleratable)
      it = labels.erase(it);
    else
      ++it;
  }
  for (const auto& [key, q] : device_plugin_capacity(devices)) {
    detected.status.capacity.erase(key);
    detected.status.allocatable.erase(key);
  }
  return detected;
}

}  // namespace chaintwin::model
