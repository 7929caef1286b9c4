// `chaintwin gui`: the Dear ImGui window over a scenario run, or a PNG of it (--screenshot).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "live/api_client.h"
#include "live/kubeconfig.h"

namespace chaintwin::cli {

int gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `chaintwin live --gui`: the window over a live cluster (live_source.h) until it is closed.
int live_gui(const live::ClusterConnection& connection, const live::ClientOptions& options,
             const std::optional<std::string>& screenshot, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
