#include "live/kube_api_server.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <sstream>
#include <vector>

#include "live/api_discovery.h"
#include "live/api_tables.h"
#include "live/kueue_conversion.h"
#include "live/list_options.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;
constexpr const char* kJson = "application/json";
constexpr size_t kWorkers = 96;
// kube-apiserver's --max-request-body-bytes default: a larger body is refused with 413.
constexpr size_t kMaxRequestBody = 3 * 1024 * 1024;

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream ss(path);
  std::string part;
  while (std::getline(ss, part, '/'))
    if (!part.empty()) out.push_back(part);
  return out;
}

void reply(httplib::Response& res, int code, const json& body, const char* type = kJson) {
  res.status = code;
  res.set_content(body.dump(), type);
}

void not_found(httplib::Response& res, const std::string& what) {
  reply(res, 404, status_error(404, "NotFound", what + " not found"));
}

bool wants_table(const httplib::Request& req) {
  return req.get_header_value("Accept").find("as=Table") != std::string::npos;
}

// The first value of each query parameter (kube reads the first of repeated scalar parameters).
std::map<std::string, std::string, std::less<>> first_params(const httplib::Request& req) {
  std::map<std::string, std::string, std::less<>> out;
  for (const auto& [name, value] : req.params) out.emplace(name, value);
  return out;
}

// Go's reading of the `watch` parameter: present and neither "0" nor "false" (any case).
bool watch_requested(const httplib::Request& req) {
  if (!req.has_param("watch")) return false;
  std::string v = req.get_param_value("watch");
  for (auto& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v != "0" && v != "false";
}

void bad_request(httplib::Response& res, const std::string& message) {
  reply(res, 400, status_error(400, "BadRequest", message));
}

}  // namespace

namespace {
std::unique_ptr<httplib::Server> make_server(const ServerTls* tls) {
  if (tls == nullptr) return std::make_unique<httplib::Server>();
  return std::make_unique<httplib::SSLServer>(tls->cert_file.c_str(), tls->key_file.c_str(),
                                              tls->client_ca_file.empty() ? nullptr : tls->client_ca_file.c_str());
}
}  // namespace

KubeApiServer::KubeApiServer(const ServerTls* tls) : server_(make_server(tls)) {
  // Every watch holds a worker for its whole life: a client watching every kind (the live mode
  // watches ten) must not starve the other requests, as httplib's default 8 workers would.
  server_->new_task_queue = [] { return new httplib::ThreadPool(kWorkers); };
  server_->Get(".*", [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
  const auto write = [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); };
  // A body past the limit is refused before it is read; httplib answers it, this gives the answer
  // kube's Status body.
  server_->set_payload_max_length(kMaxRequestBody);
  server_->set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
    if (res.status != 413 || !res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    res.set_content(status_error(413, "RequestEntityTooLarge",
                                 "Request entity too large: limit is " + std::to_string(kMaxRequestBody))
                        .dump(),
                    kJson);
    return httplib::Server::HandlerResponse::Handled;
  }));
  server_->Post(".*", write);
  server_->Put(".*", write);
  server_->Patch(".*", write);
  server_->Delete(".*", write);
}

KubeApiServer::~KubeApiServer() { stop(); }

void KubeApiServer::answer(const httplib::Request& req, httplib::Response& res) {
  try {
    if (req.method == "GET" || req.method == "HEAD") {
      handle(req, res);
    } else {
      handle_write(req, res);
    }
  } catch (const std::exception& e) {
    reply(res, 500, status_error(500, "InternalError", std::string("chaintwin serve: ") + e.what()));
  }
}

bool KubeApiServer::ok() const { return server_->is_valid(); }

namespace {
std::string bearer_token(const httplib::Request& req) {
  const std::string h = req.get_header_value("Authorization");
  return h.rfind("Bearer ", 0) == 0 ? h.substr(7) : "";
}
}  // namespace

bool KubeApiServer::authorized(const httplib::Request& req, httplib::Response& res) const {
  const std::string token = bearer_token(req);
  if (token_.empty() || token == token_ || roles_.count(token) > 0) return true;
  reply(res, 401, status_error(401, "Unauthorized", "Unauthorized"));
  return false;
}

bool KubeApiServer::permitted(const httplib::Request& req, httplib::Response& res, std::string_view group,
                              const std::string& resource, const std::string& verb, const std::string& ns) const {
  const auto role = roles_.find(bearer_token(req));
  if (role == roles_.end() || allows(role->second, std::string(group), resource, verb)) return true;
  // kube-apiserver's wording, with the role standing in for the user's name.
  reply(res, 403,
        status_error(403, "Forbidden",
                     resource + " is forbidden: User \"clusterrole:" + role->second.name + "\" cannot " + verb +
                         " resource \"" + resource + "\" in API group \"" + std::string(group) + "\" " +
                         (ns.empty() ? "at the cluster scope" : "in the namespace \"" + ns + "\"")));
  return false;
}

void KubeApiServer::set_faults(const ServerFaults& faults) {
  std::lock_guard<std::mutex> lock(fault_mutex_);
  faults_ = faults;
  fault_rng_.seed(faults.seed);
}

bool KubeApiServer::inject(double p, const char* name) {
  if (p <= 0) return false;
  std::lock_guard<std::mutex> lock(fault_mutex_);
  if (std::uniform_real_distribution<double>(0, 1)(fault_rng_) >= p) return false;
  ++injected_[name];
  return true;
}

std::string KubeApiServer::fault_counts() const {
  std::lock_guard<std::mutex> lock(fault_mutex_);
  std::string out;
  for (const auto& [name, n] : injected_) out += (out.empty() ? "" : " ") + name + "=" + std::to_string(n);
  return out.empty() ? "none" : out;
}

void KubeApiServer::publish(const model::ClusterState& state, const model::WorkloadState* workloads) {
  std::lock_guard<std::mutex> lock(mutex_);
  objects_.update(state, workloads);
}

ServedObjects KubeApiServer::served_objects() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return objects_;
}

void KubeApiServer::publish_copy(ServedObjects objects) {
  std::lock_guard<std::mutex> lock(mutex_);
  objects_ = std::move(objects);
}

model::Result<int> KubeApiServer::listen(const std::string& host, int port) {
  int bound = port;
  if (port == 0) {
    bound = server_->bind_to_any_port(host);
    if (bound <= 0) return model::err("cannot listen on " + host + ": no free port");
  } else if (!server_->bind_to_port(host, port)) {
    return model::err("cannot listen on " + host + ":" + std::to_string(port) + " (in use, or not an address of this machine)");
  }
  address_ = host + ":" + std::to_string(bound);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return bound;
}

void KubeApiServer::stop() {
  stopping_ = true;
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

namespace {

// A request path, split the way the API server routes it.
struct ApiPath {
  const ApiResource* resource = nullptr;  // null: discovery or not found (see `error`)
  std::string ns, name, subresource;
  std::string error;  // what was not found
};

ApiPath parse_api_path(const std::vector<std::string>& p, const std::string& path, std::string_view kueue_version) {
  ApiPath out;
  std::string group, version;
  size_t rest = 0;
  if (p.size() >= 2 && p[0] == "api") {
    version = p[1];
    rest = 2;
  } else if (p.size() >= 3 && p[0] == "apis") {
    group = p[1];
    version = p[2];
    rest = 3;
  } else {
    out.error = "the path " + path;
    return out;
  }
  std::string resource;
  size_t at = rest;
  if (p.size() >= rest + 3 && p[rest] == "namespaces") {
    out.ns = p[rest + 1];
    at = rest + 2;
  }
  if (at >= p.size()) {  // a group version's own path (/api/v1): discovery, which is only read (found by fuzzing)
    out.error = "the path " + path;
    return out;
  }
  resource = p[at];
  if (p.size() > at + 1) out.name = p[at + 1];
  if (p.size() > at + 2) out.subresource = p[at + 2];
  if (p.size() > at + 3 || (!out.subresource.empty() && out.subresource != "status")) {
    out.error = "the subresource " + path;
    return out;
  }
  for (const auto& candidate : watched_resources())
    if (candidate.group == group && served_version(candidate, kueue_version) == version && candidate.resource == resource &&
        served_kind(candidate.kind))
      out.resource = &candidate;
  if (out.resource == nullptr) out.error = "the resource " + resource + " in " + (group.empty() ? version : group + "/" + version);
  else if (!out.resource->namespaced && !out.ns.empty()) {
    out.error = "the cluster-scoped resource " + resource + " in a namespace";
    out.resource = nullptr;
  }
  return out;
}

}  // namespace

void KubeApiServer::handle(const httplib::Request& req, httplib::Response& res) {
  ++requests_;
  if (inject(faults_.slow, "slow")) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  if (inject(faults_.throttle, "throttle")) {
    res.set_header("Retry-After", "1");
    return reply(res, 429, status_error(429, "TooManyRequests", "injected: too many requests, retry after 1 s"));
  }
  const std::vector<std::string> p = split_path(req.path);
  if (p.size() == 1 && (p[0] == "healthz" || p[0] == "readyz" || p[0] == "livez")) {
    res.set_content("ok", "text/plain");
    return;
  }
  if (!authorized(req, res)) return;
  if (p.size() == 1 && p[0] == "version") return reply(res, 200, version_info());
  if (p.size() == 1 && p[0] == "api") return reply(res, 200, core_api_versions(address_));
  if (p.size() == 1 && p[0] == "apis") return reply(res, 200, api_group_list(kueue_version_));
  if ((p.size() == 2 && p[0] == "api") || (p.size() == 3 && p[0] == "apis")) {
    const std::string group = p[0] == "api" ? "" : p[1], version = p.back();
    const json list = api_resource_list(group, version, kueue_version_);
    if (list.is_null()) return not_found(res, "the group version " + (group.empty() ? version : group + "/" + version));
    return reply(res, 200, list);
  }
  const ApiPath a = parse_api_path(p, req.path, kueue_version_);
  if (a.resource == nullptr) return not_found(res, a.error);
  const std::string verb = !a.name.empty() ? "get" : watch_requested(req) ? "watch" : "list";
  const std::string resource = std::string(a.resource->resource) + (a.subresource.empty() ? "" : "/" + a.subresource);
  if (!permitted(req, res, a.resource->group, resource, verb, a.ns)) return;
  if (!a.name.empty()) {
    // kube answers a get with such a resourceVersion 500 (docs/fidelity.md); the client's mistake is a 400.
    if (auto rv = parse_resource_version(req.get_param_value("resourceVersion")); !rv) return bad_request(res, rv.error());
    std::lock_guard<std::mutex> lock(mutex_);
    const auto o = objects_.get(a.resource->kind, a.ns, a.name);
    if (!o) return not_found(res, std::string(a.resource->resource) + " \"" + a.name + "\"");
    return reply(res, 200, outgoing(*o));
  }
  auto options = parse_list_options(first_params(req), a.resource->kind, a.resource->namespaced);
  if (!options) return bad_request(res, options.error());
  if (options->watch) return serve_watch(req, res, *a.resource, a.ns, *options);
  serve_collection(req, res, *a.resource, a.ns, *options);
}

void KubeApiServer::handle_write(const httplib::Request& req, httplib::Response& res) {
  ++requests_;
  if (inject(faults_.slow, "slow")) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  if (inject(faults_.throttle, "throttle")) {
    res.set_header("Retry-After", "1");
    return reply(res, 429, status_error(429, "TooManyRequests", "injected: too many requests, retry after 1 s"));
  }
  if (!authorized(req, res)) return;
  if (!writable_) return reply(res, 405, status_error(405, "MethodNotAllowed", "chaintwin serve --play is read-only: the simulation owns the cluster"));
  const ApiPath a = parse_api_path(split_path(req.path), req.path, kueue_version_);
  if (a.resource == nullptr) return not_found(res, a.error);
  const std::string verb = req.method == "POST" ? "create" : req.method == "PUT" ? "update" : req.method == "PATCH" ? "patch" : "delete";
  const std::string resource = std::string(a.resource->resource) + (a.subresource.empty() ? "" : "/" + a.subresource);
  if (!permitted(req, res, a.resource->group, resource, verb, a.ns)) return;
  const bool dry_run = req.get_param_value("dryRun") == "All";
  const bool status = a.subresource == "status";
  if (req.method != "DELETE" && inject(faults_.conflict, "conflict"))
    return reply(res, 409, status_error(409, "Conflict", "injected: the object has been modified; please apply your changes to the latest version and try again"));
  if (inject(faults_.error, "error")) return reply(res, 500, status_error(500, "InternalError", "injected: an internal error, nothing stored"));
  const std::string kind(a.resource->kind);
  ServedObjects::WriteResult w;
  json body;
  if (req.body.size() > kMaxRequestBody)  // a chunked body is not held to httplib's limit
    return reply(res, 413, status_error(413, "RequestEntityTooLarge", "Request entity too large: limit is " + std::to_string(kMaxRequestBody)));
  if (req.method != "DELETE") {
    body = json::parse(req.body, nullptr, false);
    if (body.is_discarded()) return reply(res, 400, status_error(400, "BadRequest", "the request body is not JSON"));
    body = kueue_to_v1beta2(std::move(body));  // kept in v1beta2 whatever the served version
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (req.method == "POST") {
      if (!a.name.empty()) return reply(res, 405, status_error(405, "MethodNotAllowed", "POST goes to a collection"));
      w = objects_.create(kind, a.ns, std::move(body), dry_run);
    } else if (a.name.empty()) {
      return reply(res, 405, status_error(405, "MethodNotAllowed", req.method + " needs an object"));
    } else if (req.method == "PUT") {
      w = objects_.replace(kind, a.ns, a.name, std::move(body), status, dry_run);
    } else if (req.method == "PATCH") {
      const std::string type = req.get_header_value("Content-Type");
      if (type.find("application/merge-patch+json") == std::string::npos)
        return reply(res, 415, status_error(415, "UnsupportedMediaType", "only application/merge-patch+json patches are served, not " + type));
      w = objects_.merge_patch(kind, a.ns, a.name, body, status, dry_run);
    } else {
      w = objects_.remove(kind, a.ns, a.name, dry_run);
    }
    if (w.code < 300 && !dry_run) ++writes_;
  }
  if (w.code >= 300) return reply(res, w.code, w.status.is_null() ? status_error(w.code, w.reason, w.message) : w.status);
  reply(res, w.code, outgoing(std::move(w.object)));
}

json KubeApiServer::outgoing(json object) const {
  return kueue_version_ == "v1beta1" ? kueue_to_v1beta1(std::move(object)) : object;
}

void KubeApiServer::serve_collection(const httplib::Request& req, httplib::Response& res, const ApiResource& r,
                                     const std::string& ns, const ListOptions& options) {
  std::optional<std::vector<json>> all;
  int64_t at = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    at = options.continue_from ? options.continue_from->resource_version : objects_.resource_version();
    all = options.continue_from ? objects_.list_at(r.kind, ns, at) : objects_.list(r.kind, ns);
  }
  if (!all)
    return reply(res, 410,
                 status_error(410, "Expired",
                              "The provided continue parameter is too old to display a consistent list result. You can "
                              "start a new list without the continue parameter."));
  const std::string kind(r.kind);
  const Page page = take_page(
      *all, [&](const json& o) { return options.selects(selectable_of(kind, o)); },
      options.continue_from ? std::optional<ObjectKey>(options.continue_from->after) : std::nullopt, options.limit);
  const std::string rv = std::to_string(at);
  json meta = {{"resourceVersion", rv}};
  if (page.last) {
    meta["continue"] = encode_continue({at, *page.last});
    // As kube: the count only when nothing was selected out (it cannot know it otherwise).
    if (options.selects_everything()) meta["remainingItemCount"] = page.remaining;
  }
  if (wants_table(req)) {
    json table = object_table(r.kind, page.items, rv);
    table["metadata"] = meta;
    return reply(res, 200, table, "application/json;as=Table;v=v1;g=meta.k8s.io");
  }
  json items = json::array();
  for (const auto& o : page.items) items.push_back(outgoing(o));
  const std::string version(served_version(r, kueue_version_));
  const std::string api_version = r.group.empty() ? version : std::string(r.group) + "/" + version;
  reply(res, 200, {{"kind", std::string(r.kind) + "List"}, {"apiVersion", api_version}, {"metadata", meta}, {"items", items}});
}

void KubeApiServer::serve_watch(const httplib::Request&, httplib::Response& res, const ApiResource& r,
                                const std::string& ns, const ListOptions& options) {
  int64_t since = options.since;
  bool initial = since == 0;
  const bool gone = !initial && inject(faults_.gone, "gone");
  const bool drop = inject(faults_.drop, "drop");
  const bool bookmarks = options.bookmarks;
  const int64_t timeout_s = options.timeout_seconds.value_or(300);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(std::clamp<int64_t>(timeout_s, 0, 86400));
  const std::string kind(r.kind);
  res.set_chunked_content_provider(kJson, [this, kind, ns, since, initial, bookmarks, deadline, gone, drop, options](
                                              size_t, httplib::DataSink& sink) mutable {
    auto send = [&](const json& event) {
      const std::string line = event.dump() + "\n";
      return sink.write(line.data(), line.size());
    };
    if (gone) {
      send({{"type", "ERROR"}, {"object", status_error(410, "Expired", "injected: too old resource version: " + std::to_string(since))}});
      sink.done();
      return true;
    }
    if (initial) {
      // A watch from "0" first lists what is there as ADDED events.
      std::vector<json> items;
      int64_t at = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        items = objects_.list(kind, ns);
        at = objects_.resource_version();
      }
      for (const auto& o : items)
        if (options.selects(selectable_of(kind, o)) && !send({{"type", "ADDED"}, {"object", outgoing(o)}})) return false;
      since = at;
      initial = false;
    }
    if (drop) {  // injected: the connection ends without a word after the first events
      sink.done();
      return true;
    }
    auto last_bookmark = std::chrono::steady_clock::now();
    while (!stopping_ && std::chrono::steady_clock::now() < deadline) {
      std::optional<std::vector<WatchEvent>> events;
      int64_t now_rv = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        events = objects_.events_since(kind, ns, since);
        now_rv = objects_.resource_version();
      }
      if (!events) {
        send({{"type", "ERROR"},
              {"object", status_error(410, "Expired", "too old resource version: " + std::to_string(since))}});
        sink.done();
        return true;
      }
      for (const auto& e : *events) {
        since = e.resource_version;
        // With a selector, an object that starts matching is ADDED and one that stops is DELETED.
        const bool now = options.selects(selectable_of(kind, e.object));
        const bool was = e.type != "ADDED" && (e.before ? options.selects(*e.before) : now);
        std::string type = e.type;
        if (e.type == "DELETED") {
          if (!was) continue;
        } else if (now && !was) {
          type = "ADDED";
        } else if (!now && was) {
          type = "DELETED";
        } else if (!now) {
          continue;
        }
        if (!send({{"type", type}, {"object", outgoing(e.object)}})) return false;
      }
      since = std::max(since, now_rv);
      if (bookmarks && std::chrono::steady_clock::now() - last_bookmark > std::chrono::seconds(5)) {
        if (!send({{"type", "BOOKMARK"},
                   {"object", {{"kind", kind}, {"metadata", {{"resourceVersion", std::to_string(since)}}}}}}))
          return false;
        last_bookmark = std::chrono::steady_clock::now();
      }
      if (!sink.is_writable()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    sink.done();
    return true;
  });
}

}  // namespace chaintwin::live
