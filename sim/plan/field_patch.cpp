#include "sim/plan/field_patch.h"

namespace chaintwin::sim::plan {
namespace {

// The name a list entry goes by: `name`, else `namePrefix`, else `metadata.name`.
std::string entry_name(const nlohmann::json& entry) {
  if (!entry.is_object()) return "";
  for (const char* key : {"name", "namePrefix"})
    if (const auto it = entry.find(key); it != entry.end() && it->is_string()) return it->get<std::string>();
  if (const auto m = entry.find("metadata"); m != entry.end() && m->is_object())
    if (const auto n = m->find("name"); n != m->end() && n->is_string()) return n->get<std::string>();
  return "";
}

std::string entries_listed(const nlohmann::json& list) {
  std::string out;
  for (const auto& e : list) {
    const std::string n = entry_name(e);
    if (!n.empty()) out += (out.empty() ? "" : ", ") + n;
  }
  return out.empty() ? "none with a name" : out;
}

}  // namespace

model::Result<std::vector<PathStep>> parse_field_path(const std::string& path) {
  std::vector<PathStep> steps;
  size_t i = 0;
  const auto bad = [&](const std::string& why) {
    return model::err("field path '" + path + "': " + why);
  };
  if (path.empty()) return bad("empty (expected e.g. cluster.nodes[h100-0].count)");
  while (i < path.size()) {
    if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string::npos) return bad("'[' at " + std::to_string(i + 1) + " is not closed");
      std::string inner = path.substr(i + 1, close - i - 1);
      if (inner.empty()) return bad("empty [] at " + std::to_string(i + 1));
      PathStep step;
      if (inner.size() >= 2 && inner.front() == '"' && inner.back() == '"') {
        step.kind = PathStep::Kind::kKey;
        step.text = inner.substr(1, inner.size() - 2);
      } else if (inner.find_first_not_of("0123456789") == std::string::npos && inner.size() < 10) {
        step.kind = PathStep::Kind::kIndex;
        step.index = static_cast<size_t>(std::stoul(inner));
      } else {
        step.kind = PathStep::Kind::kSelector;
        step.text = inner;
      }
      steps.push_back(step);
      i = close + 1;
      if (i < path.size() && path[i] == '.') {
        ++i;
        if (i == path.size()) return bad("ends with '.'");
      }
      continue;
    }
    size_t end = i;
    while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
    if (end == i) return bad("empty field name at " + std::to_string(i + 1));
    steps.push_back(PathStep{PathStep::Kind::kKey, path.substr(i, end - i), 0});
    i = end;
    if (i < path.size() && path[i] == '.') {
      ++i;
      if (i == path.size()) return bad("ends with '.'");
    }
  }
  return steps;
}

void merge_patch(nlohmann::json& target, const nlohmann::json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = nlohmann::json::object();
  for (const auto& item : patch.items()) {
    if (item.value().is_null()) target.erase(item.key());
    else merge_patch(target[item.key()], item.value());
  }
}

model::Status apply_patch(nlohmann::json& document, const FieldPatch& patch) {
  auto steps = parse_field_path(patch.path);
  if (!steps) return model::err(steps.error());
  nlohmann::json* at = &document;
  std::string walked;
  for (size_t k = 0; k < steps->size(); ++k) {
    const PathStep& s = (*steps)[k];
    const bool last = k + 1 == steps->size();
    const std::string here = walked.empty() ? "the document" : walked;
    if (s.kind == PathStep::Kind::kIndex) {
      if (!at->is_array()) return model::err(patch.path + ": " + here + " is not a list");
      if (s.index >= at->size())
        return model::err(patch.path + ": " + here + " has " + std::to_string(at->size()) + " entries (no [" +
                          std::to_string(s.index) + "])");
      walked += "[" + std::to_string(s.index) + "]";
      at = &(*at)[s.index];
    } else if (s.kind == PathStep::Kind::kSelector && at->is_array()) {
      nlohmann::json* found = nullptr;
      for (auto& e : *at)
        if (entry_name(e) == s.text) {
          if (found != nullptr)
            return model::err(patch.path + ": " + here + " has more than one entry named '" + s.text + "'");
          found = &e;
        }
      if (found == nullptr)
        return model::err(patch.path + ": " + here + " has no entry named '" + s.text + "' (entries: " +
                          entries_listed(*at) + ")");
      walked += "[" + s.text + "]";
      at = found;
    } else {
      if (at->is_null()) *at = nlohmann::json::object();
      if (!at->is_object()) return model::err(patch.path + ": " + here + " is not a mapping");
      walked += (walked.empty() ? "" : ".") + s.text;
      if (!at->contains(s.text) && !last) (*at)[s.text] = nlohmann::json::object();
      if (last && patch.value.is_null()) {
        at->erase(s.text);
        return model::Ok{};
      }
      at = &(*at)[s.text];
    }
  }
  if (at->is_object() && patch.value.is_object()) merge_patch(*at, patch.value);
  else *at = patch.value;
  return model::Ok{};
}

}  // namespace chaintwin::sim::plan
