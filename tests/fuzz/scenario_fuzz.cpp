// Fuzz target: the scenario loader. The bytes are a scenario file's text, loaded by the same code
// `chaintwin run` and `chaintwin check` load a scenario file with (sim::load_scenario reads the
// file and hands its text to what load_scenario_text calls). Every input must come back as a
// scenario or as a refusal; a crash, a hang, a leak or undefined behaviour is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/scenario/scenario_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Relative includes resolve next to this name: the walkthroughs' folder, whose scenarios include
  // their cluster files (four-node-cluster.yaml, h100-mig-config-*.yaml).
  auto scenario = chaintwin::sim::load_scenario_text(text, CHAINTWIN_SOURCE_DIR "/scenarios/walkthroughs/fuzz-input.yaml");
  (void)scenario;
  return 0;
}
