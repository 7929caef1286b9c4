// Fuzz target: the openb trace reader. The first byte picks what the rest is:
//   0  any CSV text, read by the RFC 4180 reader (sim/trace/csv_reader.h);
//   1  an openb node list, imported with a fixed small pod list;
//   2  an openb pod list, imported with a fixed small node list;
// bit 2 of the first byte imports unscheduled pods as well, bit 3 limits the import to 3 pods.
// Every input must come back imported or refused; a crash, a hang, a leak or undefined
// behaviour is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/trace/csv_reader.h"
#include "sim/trace/openb_trace.h"

namespace {

const char* const kNodes =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "openb-node-0000,64000,262144,2,P100\n"
    "openb-node-0001,96000,786432,8,V100M32\n"
    "openb-node-0002,32000,262144,0,\n";
const char* const kPods =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
    "openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0\n"
    "openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061\n"
    "openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,4975773,12902960,4975773\n"
    "openb-pod-0010,4000,8192,0,0,,BE,Failed,5000000,5000100,\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  chaintwin::sim::OpenbTraceOptions options;
  if (mode & 4) options.unscheduled = chaintwin::sim::UnscheduledPods::kInclude;
  if (mode & 8) options.limit = 3;
  switch (mode % 4) {
    case 0:
    case 3:
      (void)chaintwin::sim::parse_csv(text, "fuzz.csv");
      break;
    case 1:
      (void)chaintwin::sim::parse_openb_trace(text, "fuzz-nodes.csv", kPods, "pods.csv", options);
      break;
    case 2:
      (void)chaintwin::sim::parse_openb_trace(kNodes, "nodes.csv", text, "fuzz-pods.csv", options);
      break;
  }
  return 0;
}
