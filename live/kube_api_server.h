// A Kubernetes API server over a ClusterState: what `chaintwin serve` runs so that kubectl and the
// live mode can use a simulated cluster like a real one: /version, discovery (/api, /apis, each
// group version's resources), list and get of every served kind (cluster-wide and per namespace),
// Table replies for `kubectl get`, watch (?watch=1) from a resourceVersion with bookmarks and 410
// Gone when the version is older than the kept history, and writes — create (POST), replace (PUT),
// JSON merge patch (PATCH), delete — on objects and their status subresource, with 409 Conflict on
// a stale resourceVersion and dryRun=All. Lists and watches take labelSelector and fieldSelector,
// lists limit and continue (list_options.h); refusals carry kube-apiserver's codes and Status bodies
// (400 for bad parameters or a body naming another object, 422 for invalid objects, 413 past 3 MiB). publish() folds a new simulated state in; requests read
// it under a lock and never wait on the simulation.
#pragma once

#include <atomic>
#include <map>
#include <random>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "live/cluster_role.h"
#include "live/list_options.h"
#include "live/served_objects.h"
#include "model/result.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace chaintwin::live {

// Faults the server injects, each a probability per request of its kind (for tests of clients):
// writes refused with 409 (conflict) or 500 (error) before anything is stored, any request
// answered 429 with Retry-After: 1 (throttle) or delayed half a second (slow), a watch from a
// resourceVersion answered 410 Gone (gone), a watch stream closed after its first events (drop).
struct ServerFaults {
  double conflict = 0, error = 0, throttle = 0, slow = 0, gone = 0, drop = 0;
  uint64_t seed = 1;
  bool any() const { return conflict + error + throttle + slow + gone + drop > 0; }
};

// HTTPS for the served API (`serve --tls-cert/--tls-key`), with client certificates required and
// checked against `client_ca_file` when one is given (as an API server's --client-ca-file).
struct ServerTls {
  std::string cert_file, key_file, client_ca_file;
};

class KubeApiServer {
 public:
  // Plain HTTP; with `tls`, HTTPS (files read now: check ok() before listen()).
  explicit KubeApiServer(const ServerTls* tls = nullptr);
  // Whether the server could be set up (with TLS: whether the certificate and key loaded).
  bool ok() const;
  ~KubeApiServer();
  KubeApiServer(const KubeApiServer&) = delete;
  KubeApiServer& operator=(const KubeApiServer&) = delete;

  // Folds in a new state (objects that changed get a new resourceVersion and a watch event).
  void publish(const model::ClusterState& state, const model::WorkloadState* workloads = nullptr);
  // The objects served now, as a copy; publish_copy serves such a copy in place of what is served.
  // Many servers of one cluster without encoding it for each (the served API's fuzz target gives
  // every write a fresh server).
  ServedObjects served_objects() const;
  void publish_copy(ServedObjects objects);
  // Binds host:port (port 0: any free port) and serves on a thread; the bound port, or why not.
  model::Result<int> listen(const std::string& host, int port);
  void stop();
  // Answers one request as the listening server does once httplib has parsed it (GET and HEAD
  // read; POST, PUT, PATCH and DELETE write; an exception becomes a 500), without a socket: the
  // entry of the fuzz target (tests/fuzz/). httplib's own refusals (413 past the body limit, an
  // unknown method) happen before it.
  void answer(const httplib::Request& req, httplib::Response& res);
  // Writes are refused (405) unless allowed: a playing simulation owns its cluster.
  void set_writable(bool writable) { writable_ = writable; }
  void set_faults(const ServerFaults& faults);
  // The one version Kueue's group is served at: "v1beta2" (default) or "v1beta1", as a cluster with
  // Kueue up to v0.14 serves it. Objects are kept in v1beta2 and converted at the edge
  // (kueue_conversion.h), both ways. Set before listen().
  void set_kueue_version(std::string version) { kueue_version_ = std::move(version); }
  // Every request but /healthz, /readyz and /livez must carry `Authorization: Bearer <token>`, else
  // 401 Unauthorized (as an API server with a static token). Empty: no check. Set before listen().
  void set_required_token(std::string token) { token_ = std::move(token); }
  // A request bearing `token` may do only what `role` allows (403 Forbidden otherwise), as RBAC
  // would for a user bound to that ClusterRole; the token is also accepted where one is required.
  // Requests without such a token are not restricted. Set before listen().
  void add_role(std::string token, ClusterRole role) { roles_.emplace(std::move(token), std::move(role)); }
  // How many faults of each kind were injected: "conflict=3 error=1 ...".
  std::string fault_counts() const;
  int64_t requests() const { return requests_; }
  int64_t writes() const { return writes_; }  // writes stored (dry runs and refusals not counted)

 private:
  void handle(const httplib::Request& req, httplib::Response& res);
  void handle_write(const httplib::Request& req, httplib::Response& res);
  void serve_collection(const httplib::Request& req, httplib::Response& res, const ApiResource& r, const std::string& ns,
                        const ListOptions& options);
  void serve_watch(const httplib::Request& req, httplib::Response& res, const ApiResource& r, const std::string& ns,
                   const ListOptions& options);

  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::string address_;
  mutable std::mutex mutex_;
  ServedObjects objects_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> requests_{0};
  std::atomic<int64_t> writes_{0};
  std::atomic<bool> writable_{true};
  std::string kueue_version_ = "v1beta2";
  std::string token_;
  std::map<std::string, ClusterRole> roles_;  // bearer token → its role
  // False (and a 401 sent) when a token is required and the request does not carry one it knows.
  bool authorized(const httplib::Request& req, httplib::Response& res) const;
  // False (and a 403 sent) when the request's token has a role that does not allow `verb` on the
  // resource ("nodes" or "nodes/status") of `group` in namespace `ns`.
  bool permitted(const httplib::Request& req, httplib::Response& res, std::string_view group, const std::string& resource,
                 const std::string& verb, const std::string& ns) const;
  // An object on its way out: in the served Kueue version.
  nlohmann::json outgoing(nlohmann::json object) const;
  // Draws a fault of probability p (under fault_mutex_); counts it by name.
  bool inject(double p, const char* name);
  ServerFaults faults_;
  mutable std::mutex fault_mutex_;
  std::mt19937_64 fault_rng_{1};
  std::map<std::string, int64_t> injected_;
};

}  // namespace chaintwin::live
