#include <catch2/catch.hpp>

#include "model/stage4/cpu_detail_note.h"

using namespace chaintwin::model;

TEST_CASE("an unreported CPU gives a cache-only InstanceTypeCPU and a generic InstanceTypeAcceleratorCPU", "[cpu_detail]") {
  const CpuDetail d = extract_general_detail(Node{});
  CHECK(cpu_detail_note(d, false) == R"({"cache":{}})");
  CHECK(cpu_detail_note(d, true) == R"({"manufacturer":"generic","cache":{}})");
}

TEST_CASE("the cpuDetail fields follow the Go struct order and skip empty values", "[cpu_detail]") {
  Node n;
  n.metadata.labels["feature.node.kubernetes.io/cpu-model.vendor_id"] = "AMD";
  n.metadata.annotations = {{"feature.gpustack.ai/cpu-name", "AMD EPYC 7R32"},
                            {"feature.gpustack.ai/cpu-family", "25"},
                            {"feature.gpustack.ai/cpu-physical-cores", "48"},
                            {"feature.gpustack.ai/cpu-logical-cores", "96"},
                            {"feature.gpustack.ai/cpu-hz", "@cpu.model.hz"},
                            {"feature.gpustack.ai/cpu-cache-l3", "128MiB"},
                            {"feature.gpustack.ai/cpu-cache-l1d", "32KiB"}};
  const CpuDetail d = extract_general_detail(n);
  CHECK(cpu_detail_note(d, false) ==
        R"({"physicalCores":"48","logicalCores":"96","cache":{"l1d":"32KiB","l3":"128MiB"}})");
  CHECK(cpu_detail_note(d, true) ==
        R"({"manufacturer":"amd","product":"AMD EPYC 7R32","family":"25","physicalCores":"48","logicalCores":"96","cache":{"l1d":"32KiB","l3":"128MiB"}})");
}

TEST_CASE("strings are escaped as Go's encoding/json escapes them", "[cpu_detail]") {
  CHECK(go_json_string("a<b>&c") == R"("a\u003cb\u003e\u0026c")");
  CHECK(go_json_string("q\"\\\n\t") == R"("q\"\\\n\t")");
  CHECK(go_json_string(std::string("\x01", 1)) == R"("\u0001")");
  CHECK(go_json_string("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
  CHECK(go_json_string("bad\xff") == R"("bad\ufffd")");
  CHECK(go_json_string("\xe2\x80\xa8") == R"("\u2028")");
}
