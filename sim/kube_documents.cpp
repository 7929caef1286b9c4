#include "sim/kube_documents.h"
#include "model/api/k8s_validation.h"
#include "sim/input_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

namespace chaintwin::sim {
namespace {

using nlohmann::json;

bool plain_key(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

// YAML 1.2 core schema typing of plain scalars; quoted scalars stay strings.
json scalar_to_json(const YAML::Node& node) {
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") return s;  // quoted
  if (s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty()) return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  {
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    bool digits = i < s.size();
    for (size_t j = i; j < s.size(); ++j)
      if (!std::isdigit(static_cast<unsigned char>(s[j]))) digits = false;
    if (digits && s.size() - i <= 18) return std::stoll(s);
  }
  {
    // A float: digits with a '.' or an exponent, nothing else.
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    const bool has_marker = s.find_first_of(".eE") != std::string::npos;
    // A number past a double's range (1e400) stays text: its reader then says what is wrong with
    // it (a quantity "is too large") instead of meeting an infinity, which JSON cannot hold.
    if (end != nullptr && *end == '\0' && has_marker && s.find_first_not_of("0123456789+-.eE") == std::string::npos &&
        std::isfinite(d))
      return d;
  }
  return s;
}

// Aliases make a YAML document a graph: one that refers to itself never ends, and aliases repeated
// within each other ("billion laughs") grow without bound. Both are refused where they start.
constexpr int kMaxDepth = 200;
struct ConvertBudget {
  size_t values = 0;
  size_t max_values = 0;
};
struct ConvertRefusal {
  int line = 0;
  std::string why;
};

json convert(const YAML::Node& node, const std::string& path, std::map<std::string, int>& lines, int depth,
             ConvertBudget& budget) {
  const int line = node.Mark().line + 1;
  if (depth > kMaxDepth)
    throw ConvertRefusal{line, "nested more than " + std::to_string(kMaxDepth) + " levels deep (a YAML alias that refers to itself?)"};
  if (++budget.values > budget.max_values)
    throw ConvertRefusal{line, "expands to more than " + std::to_string(budget.max_values) +
                                   " values (YAML aliases repeated within each other?)"};
  lines[path] = line;
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      if (const auto at = model::bad_text_byte(node.Scalar()))
        throw ConvertRefusal{line, (path.empty() ? "" : path + ": ") + "not valid UTF-8 text (" + model::bad_text_byte_text(node.Scalar(), *at) + ")"};
      return scalar_to_json(node);
    case YAML::NodeType::Sequence: {
      json arr = json::array();
      size_t i = 0;
      for (const auto& item : node) arr.push_back(convert(item, join_index(path, i++), lines, depth + 1, budget));
      return arr;
    }
    case YAML::NodeType::Map: {
      json obj = json::object();
      for (const auto& kv : node) {
        const std::string key = kv.first.Scalar();
        if (const auto at = model::bad_text_byte(key))
          throw ConvertRefusal{kv.first.Mark().line + 1, (path.empty() ? "" : path + ": ") +
                                                             "a key that is not valid UTF-8 text (" + model::bad_text_byte_text(key, *at) + ")"};
        // YAML says a mapping's keys are unique; a parser keeping one of two silently hides a value.
        if (obj.contains(key))
          throw ConvertRefusal{kv.first.Mark().line + 1, join_field(path, key) + ": the key '" + key +
                                                             "' appears twice in one mapping (the line of the second)"};
        obj[key] = convert(kv.second, join_field(path, key), lines, depth + 1, budget);
      }
      return obj;
    }
  }
  return nullptr;
}

// Re-roots the recorded lines of a List item so its paths start at the item.
std::map<std::string, int> reroot(const std::map<std::string, int>& lines, const std::string& prefix) {
  std::map<std::string, int> out;
  for (const auto& [path, line] : lines) {
    if (path == prefix) {
      out[""] = line;
    } else if (path.rfind(prefix, 0) == 0) {
      std::string rest = path.substr(prefix.size());
      if (!rest.empty() && rest[0] == '.') rest = rest.substr(1);
      out[rest] = line;
    }
  }
  return out;
}

}  // namespace

// The names the API server requires of every object it stores: a non-empty metadata.name, a
// DNS-1123 label for a Namespace and a DNS-1123 subdomain for any other kind, and a DNS-1123 label
// as metadata.namespace. chaintwin's own documents (apiVersion chaintwin/…) are not API objects.
model::Status check_object_names(const SourceObject& so) {
  const json& o = so.object;
  const auto api = o.find("apiVersion");
  if (api == o.end() || !api->is_string()) return model::Ok{};  // not an API object (its reader says what it lacks)
  if (api->get<std::string>().rfind("chaintwin/", 0) == 0) return model::Ok{};
  const std::string kind = so.kind().empty() ? "an object" : "a " + so.kind();
  const auto meta = o.find("metadata");
  if (meta == o.end() || !meta->is_object())
    return model::err(so.where("metadata") + ": metadata: " + kind + " needs metadata with a name");
  const auto name = meta->find("name");
  if (name == meta->end() || !name->is_string() || name->get<std::string>().empty())
    return model::err(so.where("metadata.name") + ": metadata.name: " + kind + " needs a non-empty name");
  const std::string n = name->get<std::string>();
  if (so.kind() == "Namespace" ? !model::is_dns1123_label(n) : !model::is_dns1123_subdomain(n))
    return model::err(so.where("metadata.name") + ": metadata.name: '" + n + "' is not a valid name for " + kind +
                      (so.kind() == "Namespace" ? " (expected a DNS-1123 label: lowercase letters, digits and '-', at most 63 characters)"
                                                : " (expected a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', at most 253 characters)"));
  const auto ns = meta->find("namespace");
  if (ns != meta->end() && (!ns->is_string() || !model::is_dns1123_label(ns->get<std::string>())))
    return model::err(so.where("metadata.namespace") + ": metadata.namespace: '" + (ns->is_string() ? ns->get<std::string>() : ns->dump()) +
                      "' is not a valid Namespace name (expected a DNS-1123 label)");
  // Labels and annotation keys as the API server validates them (ValidateObjectMeta).
  // (The types are the decoders' to judge: only string values are looked at here.)
  for (const char* map : {"labels", "annotations"}) {
    const auto m = meta->find(map);
    if (m == meta->end() || !m->is_object()) continue;
    const std::string field = std::string("metadata.") + map;
    for (const auto& [k, v] : m->items()) {
      const std::string path = field + "[\"" + k + "\"]";
      const std::string at = so.where(join_field(field, k)) + ": " + so.describe() + ": " + path + ": ";
      if (const std::string why = model::label_key_problem(k); !why.empty())
        return model::err(at + "not a valid key: " + why);
      if (v.is_string() && std::string_view(map) == "labels")
        if (const std::string why = model::label_value_problem(v.get<std::string>()); !why.empty())
          return model::err(at + "'" + v.get<std::string>() + "' is not a valid label value: " + why);
    }
  }
  return model::Ok{};
}

std::string join_field(const std::string& parent, const std::string& key) {
  if (plain_key(key)) return parent.empty() ? key : parent + "." + key;
  return parent + "[\"" + key + "\"]";
}

std::string join_index(const std::string& parent, size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string SourceObject::kind() const {
  return object.is_object() && object.contains("kind") && object["kind"].is_string() ? object["kind"].get<std::string>() : "";
}

std::string SourceObject::name() const {
  if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object()) return "";
  const auto& m = object["metadata"];
  return m.contains("name") && m["name"].is_string() ? m["name"].get<std::string>() : "";
}

std::string SourceObject::describe() const {
  const std::string k = kind().empty() ? "object" : kind();
  return name().empty() ? k : k + "/" + name();
}

// `a["b"]` -> `a.b` when b is a plain key, so codec paths and recorded paths agree.
std::string canonical_path(const std::string& path) {
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
    if (path.compare(i, 2, "[\"") == 0) {
      const size_t end = path.find("\"]", i + 2);
      if (end == std::string::npos) break;
      const std::string key = path.substr(i + 2, end - i - 2);
      out = join_field(out, key);
      i = end + 2;
    } else {
      out += path[i++];
    }
  }
  if (i < path.size()) out += path.substr(i);
  return out;
}

std::string SourceObject::where(const std::string& field_path) const {
  std::string p = canonical_path(field_path);
  while (true) {
    const auto it = lines.find(p);
    if (it != lines.end()) return file + ":" + std::to_string(it->second);
    if (p.empty()) break;
    const size_t cut = p.find_last_of(".[");
    p = cut == std::string::npos ? "" : p.substr(0, cut);
  }
  return file + ":" + std::to_string(line);
}

namespace {

// yaml-cpp 0.7's LoadAll never returns on a stream where a document would begin with a token no
// node can begin with (a lone `,`: jbeder/yaml-cpp#1040, fixed upstream after 0.8 by #1319): its
// parser reports an empty document at that token again and again, keeping each one, until memory
// runs out. This pass walks the documents without building them and stops at the first document
// that starts where the one before it started (every other document consumes a token).
struct StuckDocument {
  YAML::Mark mark;
};
class DocumentStarts : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (started_ && mark.pos == last_.pos) throw StuckDocument{mark};
    started_ = true;
    last_ = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  bool started_ = false;
  YAML::Mark last_;
};

}  // namespace

model::Result<std::vector<SourceObject>> parse_kubernetes_objects(const std::string& text,
                                                                  const std::string& file_label) {
  std::vector<YAML::Node> docs;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts starts;
    while (parser.HandleNextDocument(starts)) {
    }
    docs = YAML::LoadAll(text);
  } catch (const StuckDocument& s) {
    const size_t at = static_cast<size_t>(s.mark.pos);
    const std::string token = at < text.size() ? std::string(1, text[at]) : std::string("the end");
    return model::err(file_label + ":" + std::to_string(s.mark.line + 1) + ": not valid YAML or JSON: '" + token +
                      "' at column " + std::to_string(s.mark.column + 1) +
                      " cannot begin a document (expected a value, a mapping or a list)");
  } catch (const YAML::Exception& e) {
    return model::err(file_label + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML or JSON: " + e.msg);
  }
  std::vector<SourceObject> out;
  // Room for every value the text spells out several times over, not for aliases multiplying it.
  ConvertBudget budget{0, std::max<size_t>(1'000'000, 4 * text.size())};
  for (const auto& doc : docs) {
    if (doc.IsNull()) continue;
    std::map<std::string, int> lines;
    json obj;
    try {
      obj = convert(doc, "", lines, 0, budget);
    } catch (const ConvertRefusal& r) {
      return model::err(file_label + ":" + std::to_string(r.line) + ": " + r.why);
    }
    const int line = doc.Mark().line + 1;
    if (!obj.is_object())
      return model::err(file_label + ":" + std::to_string(line) + ": expected a Kubernetes object (a mapping with apiVersion and kind)");
    if (obj.contains("kind") && obj["kind"] == "List" ) {
      if (!obj.contains("items") || !obj["items"].is_array())
        return model::err(file_label + ":" + std::to_string(line) + ": kind List needs an items list");
      for (size_t i = 0; i < obj["items"].size(); ++i) {
        const std::string prefix = join_index("items", i);
        SourceObject so{file_label, lines.count(prefix) ? lines[prefix] : line, obj["items"][i], reroot(lines, prefix)};
        if (!so.object.is_object())
          return model::err(so.where("") + ": List item " + std::to_string(i) + " is not an object");
        if (auto named = check_object_names(so); !named.ok()) return model::err(named.error());
        out.push_back(std::move(so));
      }
      continue;
    }
    SourceObject so{file_label, line, std::move(obj), std::move(lines)};
    if (auto named = check_object_names(so); !named.ok()) return model::err(named.error());
    out.push_back(std::move(so));
  }
  return out;
}

model::Result<std::vector<SourceObject>> load_kubernetes_objects(const std::string& path) {
  if (const std::string why = input_file_problem(path); !why.empty()) return model::err(path + ": " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_kubernetes_objects(ss.str(), path);
}

}  // namespace chaintwin::sim
