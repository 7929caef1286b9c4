// Fuzz target: the served API's request handling (`chaintwin serve`), without a socket. The bytes
// are a small HTTP request:
//   METHOD TARGET            (GET, HEAD, POST, PUT, PATCH or DELETE; the path and query)
//   Name: value              (headers, any number)
//                            (an empty line)
//   body                     (the rest)
// parsed as httplib parses a request line (the path percent-decoded, the query into parameters)
// and answered by live::KubeApiServer::answer, what the listening server calls, on the default
// scenario's cluster at its start: a write gets a fresh server holding a copy of the published
// objects (publishing them anew cost 60 ms under ASan), reads share one (they change nothing), so
// an input's answer does not depend on the inputs before it. Every request must get an answer; a crash, a hang, a leak, an
// escaping exception or undefined behaviour is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include <httplib.h>

#include "live/kube_api_server.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace {

using chaintwin::live::KubeApiServer;

// The default scenario started (its cluster and workloads at time zero), loaded once.
const chaintwin::sim::Simulation& started_default() {
  static const std::unique_ptr<chaintwin::sim::Simulation> simulation = [] {
    auto scenario = chaintwin::sim::load_scenario_or_default("");
    if (!scenario.ok()) std::abort();
    auto s = std::make_unique<chaintwin::sim::Simulation>(std::move(scenario).value(), chaintwin::sim::RunOptions{});
    if (!s->start().ok()) std::abort();
    return s;
  }();
  return *simulation;
}

std::string_view next_line(std::string_view& rest) {
  const size_t end = rest.find('\n');
  std::string_view line = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  const std::string_view request_line = next_line(rest);
  const size_t space = request_line.find(' ');
  if (space == std::string_view::npos) return 0;
  httplib::Request req;
  req.method = std::string(request_line.substr(0, space));
  if (req.method != "GET" && req.method != "HEAD" && req.method != "POST" && req.method != "PUT" &&
      req.method != "PATCH" && req.method != "DELETE")
    return 0;  // httplib answers other methods itself
  req.target = std::string(request_line.substr(space + 1));
  const size_t query = req.target.find('?');
  req.path = httplib::detail::decode_url(req.target.substr(0, query), false);
  if (query != std::string::npos) httplib::detail::parse_query_text(req.target.substr(query + 1), req.params);
  while (!rest.empty()) {
    const std::string_view header = next_line(rest);
    if (header.empty()) break;
    const size_t colon = header.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = header.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    req.headers.emplace(std::string(header.substr(0, colon)), std::string(value));
  }
  req.body = std::string(rest);

  httplib::Response res;
  // Reads change nothing a later request sees (paging is pure): one server answers them all.
  static const std::unique_ptr<KubeApiServer> reader = [] {
    auto s = std::make_unique<KubeApiServer>();
    s->publish(started_default().cluster(), &started_default().workloads());
    return s;
  }();
  if (req.method == "GET" || req.method == "HEAD") {
    reader->answer(req, res);
    return 0;
  }
  static const chaintwin::live::ServedObjects published = reader->served_objects();
  KubeApiServer server;
  server.publish_copy(published);
  server.answer(req, res);
  return 0;
}
