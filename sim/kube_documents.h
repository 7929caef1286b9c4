// Reads files of Kubernetes objects — what `kubectl get ... -o yaml|json` prints, several
// documents per file, `kind: List` expanded — into JSON objects that remember where each field
// came from, so a bad field can be reported as `file:line: field: what was expected`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"

namespace chaintwin::sim {

struct SourceObject {
  std::string file;
  int line = 0;                       // 1-based line where the object starts
  nlohmann::json object;              // the object as JSON (YAML scalars typed as YAML 1.2 core)
  std::map<std::string, int> lines;   // field path (e.g. `spec.groups[0].id`) -> 1-based line

  std::string kind() const;
  std::string name() const;
  // "file:line" of a field path, falling back to its closest recorded parent, then the object.
  std::string where(const std::string& field_path) const;
  // "Kind/name" for messages.
  std::string describe() const;
};

// Parses YAML or JSON text (multi-document) from `file_label`, expanding `kind: List`.
model::Result<std::vector<SourceObject>> parse_kubernetes_objects(const std::string& text,
                                                                  const std::string& file_label);
// Reads and parses a file; the error names the file.
model::Result<std::vector<SourceObject>> load_kubernetes_objects(const std::string& path);

// Field-path helpers shared with the codecs' error messages: `a.b`, `a[0]`, `a["x.y/z"]`.
std::string join_field(const std::string& parent, const std::string& key);
std::string join_index(const std::string& parent, size_t index);

// The names the API server requires of every object it stores: a non-empty metadata.name, a
// DNS-1123 label for a Namespace and a DNS-1123 subdomain for any other kind, a DNS-1123 label as
// metadata.namespace; the error names the file, the line and the field. chaintwin's own documents
// (apiVersion chaintwin/…) and documents without an apiVersion (no API object) pass. parse_kubernetes_objects asks it of every document.
model::Status check_object_names(const SourceObject& so);

}  // namespace chaintwin::sim
