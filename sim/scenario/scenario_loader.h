// Loads a scenario file (chaintwin/v1, docs/scenario-format.md) into a checked Scenario: the
// cluster as real objects (generators expanded through model/device_manager/device_inventory.h, inline and
// included Kubernetes objects decoded with read_cluster_objects), the workload sources, the
// timeline sorted by time and the expectations. Strict: unknown fields, wrong types and
// impossible values are refused with `file:line: field.path: what was wrong (what was
// expected)`. Called by the CLI (which prints the message and exits 2) and the runner.
#pragma once

#include <string>

#include "model/result.h"
#include "sim/kube_documents.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

// Reads `path` (YAML or JSON); included files and traces resolve relative to it.
model::Result<Scenario> load_scenario(const std::string& path);
// Parses `text` as if read from `name_for_messages` (also the base for relative paths).
model::Result<Scenario> load_scenario_text(const std::string& text, const std::string& name_for_messages);
// Loads one already-parsed scenario document (as parse_kubernetes_objects reads it); messages
// name doc.file and the lines its line map records (a field added since falls back to its
// closest recorded parent). The plan command loads its patched configurations this way.
model::Result<Scenario> load_scenario_document(const SourceObject& doc);
// The scenario file `path`, or the embedded default scenario when `path` is empty (what every
// command that takes an optional SCENARIO runs).
model::Result<Scenario> load_scenario_or_default(const std::string& path);

}  // namespace chaintwin::sim
