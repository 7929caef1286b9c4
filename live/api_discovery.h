// What `chaintwin serve` answers to a client's discovery: /version, /api, /apis and each group
// version's APIResourceList, built from the table of served kinds (api_paths.h). kubectl reads
// these before any get (docs/live.md).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "live/api_paths.h"

namespace chaintwin::live {

nlohmann::json version_info();
nlohmann::json core_api_versions(const std::string& server_address);
// `kueue_version` is the one version Kueue's group is served at (`serve --kueue-version`).
nlohmann::json api_group_list(std::string_view kueue_version = "v1beta2");
// The resources of one group version ("" group = core); null when the server serves none there.
nlohmann::json api_resource_list(std::string_view group, std::string_view version,
                                 std::string_view kueue_version = "v1beta2");
// The version `r` is served at: Kueue's at `kueue_version`, the others at the table's.
std::string_view served_version(const ApiResource& r, std::string_view kueue_version);
// A Kubernetes Status object for an error reply.
nlohmann::json status_error(int code, std::string_view reason, const std::string& message);

}  // namespace chaintwin::live
