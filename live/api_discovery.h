// What `chaintwin serve` answers to a client's discovery: /version, /api, /apis and each group
// version's APIResourceList, built from the table of served kinds (api_paths.h). kubectl reads
// these before any get (docs/live.md).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace chaintwin::live {

nlohmann::json version_info();
nlohmann::json core_api_versions(const std::string& server_address);
nlohmann::json api_group_list();
// The resources of one group version ("" group = core); null when the server serves none there.
nlohmann::json api_resource_list(std::string_view group, std::string_view version);
// A Kubernetes Status object for an error reply.
nlohmann::json status_error(int code, std::string_view reason, const std::string& message);

}  // namespace chaintwin::live
