#include "model/catalog/profile_names.h"

#include <cctype>
#include <string>
#include <vector>

#include "model/api/k8s_validation.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool separatorless(std::string_view manufacturer) {
  const auto m = find_manufacturer(manufacturer);
  return m && m->separatorless_profiles;
}

// Matches ^([0-9]+)g([0-9]+)gb$ (dotted = false) or ^([0-9]+)g\.([0-9]+)gb$ (dotted = true),
// returning the two numbers.
std::optional<std::pair<std::string_view, std::string_view>> match_geometry(std::string_view s, bool dotted) {
  size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == 0 || i >= s.size() || s[i] != 'g') return std::nullopt;
  const std::string_view first = s.substr(0, i);
  ++i;
  if (dotted) {
    if (i >= s.size() || s[i] != '.') return std::nullopt;
    ++i;
  }
  const size_t second_start = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == second_start || s.substr(i) != "gb") return std::nullopt;
  return std::make_pair(first, s.substr(second_start, i - second_start));
}

}  // namespace

std::string normalize_partitioned_profile_name(std::string_view raw) {
  size_t end = raw.size();
  while (end > 0 && is_space(raw[end - 1])) --end;
  size_t start = end;
  while (start > 0 && !is_space(raw[start - 1])) --start;
  std::string out(raw.substr(start, end - start));
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string publish_partitioned_profile_name(std::string_view manufacturer, std::string_view profile) {
  if (!separatorless(manufacturer)) return std::string(profile);
  if (const auto g = match_geometry(profile, false))
    return std::string(g->first) + "g." + std::string(g->second) + "gb";
  return std::string(profile);
}

std::string vendor_partitioned_profile_name(std::string_view manufacturer, std::string_view profile) {
  if (!separatorless(manufacturer)) return std::string(profile);
  if (const auto g = match_geometry(profile, true))
    return std::string(g->first) + "g" + std::string(g->second) + "gb";
  return std::string(profile);
}

std::string partitioned_profile_resource_name(std::string_view manufacturer, std::string_view vendor_profile) {
  const auto names = resource_names_for(manufacturer);
  if (!names || names->partitioned_profile_prefix.empty() || vendor_profile.empty()) return "";
  const std::string key = names->partitioned_profile_prefix + publish_partitioned_profile_name(manufacturer, vendor_profile);
  return is_qualified_name(key) ? key : "";
}

std::optional<ParsedProfileKey> partitioned_profile_of(std::string_view resource_name) {
  // "<resource base>.partitioned.<partition kind>-" of every manufacturer that partitions, built
  // once: this runs for every resource name a request or a capacity list carries.
  struct Prefix {
    std::string_view manufacturer;
    std::string text;
  };
  static const std::vector<Prefix> kPrefixes = [] {
    std::vector<Prefix> out;
    for (const auto& m : known_manufacturers())
      if (!m.partition_kind.empty())
        out.push_back({m.name, std::string(m.resource_base) + std::string(kPartitionedSuffix) + "." +
                                   std::string(m.partition_kind) + "-"});
    return out;
  }();
  for (const auto& [manufacturer, prefix] : kPrefixes)
    if (resource_name.size() > prefix.size() && resource_name.substr(0, prefix.size()) == prefix)
      return ParsedProfileKey{std::string(manufacturer), std::string(resource_name.substr(prefix.size()))};
  return std::nullopt;
}

std::optional<ParsedProfileKey> vendor_partitioned_profile_of(std::string_view resource_name) {
  auto parsed = partitioned_profile_of(resource_name);
  if (parsed) parsed->profile = vendor_partitioned_profile_name(parsed->manufacturer, parsed->profile);
  return parsed;
}

}  // namespace chaintwin::model
