#include "live/api_discovery.h"

#include <cctype>
#include <set>

#include "live/api_paths.h"
#include "live/kueue_conversion.h"
#include "live/served_objects.h"

namespace chaintwin::live {

nlohmann::json version_info() {
  return {{"major", "1"},
          {"minor", "32"},
          {"gitVersion", "v1.32.0-chaintwin"},
          {"gitCommit", ""},
          {"gitTreeState", "clean"},
          {"buildDate", "2026-01-01T00:00:00Z"},
          {"goVersion", "none"},
          {"compiler", "chaintwin"},
          {"platform", "linux/amd64"}};
}

nlohmann::json core_api_versions(const std::string& server_address) {
  return {{"kind", "APIVersions"},
          {"versions", {"v1"}},
          {"serverAddressByClientCIDRs", {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}}}};
}

std::string_view served_version(const ApiResource& r, std::string_view kueue_version) {
  return r.group == kKueueGroup ? kueue_version : r.version;
}

nlohmann::json api_group_list(std::string_view kueue_version) {
  std::set<std::pair<std::string, std::string>> groups;
  for (const auto& r : watched_resources())
    if (!r.group.empty() && served_kind(r.kind))
      groups.insert({std::string(r.group), std::string(served_version(r, kueue_version))});
  nlohmann::json list = {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", nlohmann::json::array()}};
  for (const auto& [group, version] : groups) {
    const nlohmann::json gv = {{"groupVersion", group + "/" + version}, {"version", version}};
    list["groups"].push_back({{"name", group}, {"versions", {gv}}, {"preferredVersion", gv}});
  }
  return list;
}

nlohmann::json api_resource_list(std::string_view group, std::string_view version, std::string_view kueue_version) {
  nlohmann::json resources = nlohmann::json::array();
  for (const auto& r : watched_resources()) {
    if (r.group != group || served_version(r, kueue_version) != version || !served_kind(r.kind)) continue;
    std::string singular(r.kind);
    for (char& c : singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    resources.push_back({{"name", r.resource},
                         {"singularName", singular},
                         {"namespaced", r.namespaced},
                         {"kind", r.kind},
                         {"verbs", {"get", "list", "watch"}}});
  }
  if (resources.empty()) return nullptr;
  const std::string gv = group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  return {{"kind", "APIResourceList"}, {"apiVersion", "v1"}, {"groupVersion", gv}, {"resources", resources}};
}

nlohmann::json status_error(int code, std::string_view reason, const std::string& message) {
  return {{"kind", "Status"},    {"apiVersion", "v1"},         {"metadata", nlohmann::json::object()},
          {"status", "Failure"}, {"message", message},         {"reason", reason},
          {"code", code}};
}

}  // namespace chaintwin::live
