// A Kubernetes API client over libcurl: HTTPS with the connection's trust and credentials
// (kubeconfig.h), a client-side rate limit (QPS with a burst, as client-go's), timeouts, a user
// agent, and retries of 429 (honouring Retry-After) and 5xx with exponential backoff and jitter.
// Errors say what failed, with every secret redacted.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "live/kubeconfig.h"
#include "model/result.h"

namespace chaintwin::live {

struct ClientOptions {
  double qps = 20;       // sustained requests per second
  int burst = 40;        // requests allowed at once
  long timeout_seconds = 30;
  int attempts = 6;              // tries of one request on 429, 5xx (and, for GET, transport errors)
  double backoff_seconds = 0.2;  // the first retry's wait, doubled each time, with jitter
  std::string user_agent = "chaintwin/0.1.0";
};

struct ApiResponse {
  long status = 0;
  std::string body;
  int64_t retry_after_seconds = 0;  // the Retry-After header, 0 when absent
};

class ApiClient {
 public:
  // Runs the exec credential plugin when the connection has one.
  static model::Result<std::unique_ptr<ApiClient>> create(ClusterConnection connection, ClientOptions options);
  ~ApiClient();
  ApiClient(const ApiClient&) = delete;
  ApiClient& operator=(const ApiClient&) = delete;

  // GET server + path; an HTTP error status is a response, not an error (the caller reads it).
  model::Result<ApiResponse> get(const std::string& path, const std::string& accept = "application/json");
  // Any method, with a JSON body of `content_type` (POST, PUT, PATCH, DELETE).
  model::Result<ApiResponse> send(const std::string& method, const std::string& path, const std::string& body,
                                  const std::string& content_type, const std::string& accept = "application/json");
  // A streaming GET (a watch): `on_line` gets every complete line of the body as it arrives and
  // returns false to stop; `stop` is polled and ends the stream when it returns true. The HTTP
  // status, or the transport error (a stream the server closes is a normal end).
  model::Result<long> stream(const std::string& path, const std::function<bool(const std::string&)>& on_line,
                             const std::function<bool()>& stop);
  const ClusterConnection& connection() const { return connection_; }
  int64_t requests() const { return requests_; }
  int64_t retries() const { return retries_; }

 private:
  ApiClient(ClusterConnection connection, ClientOptions options);
  void wait_for_token();
  // Sets the URL and the TLS trust and client credentials on the handle for one request.
  void prepare(const std::string& url);
  model::Result<ApiResponse> send_once(const std::string& method, const std::string& path, const std::string& body,
                                       const std::string& content_type, const std::string& accept);

  ClusterConnection connection_;
  ClientOptions options_;
  void* curl_ = nullptr;  // CURL*
  double tokens_;
  std::chrono::steady_clock::time_point refilled_;
  int64_t requests_ = 0;
  int64_t retries_ = 0;
  std::mt19937_64 jitter_;  // backoff jitter: wall-clock behaviour, not part of any result
};

}  // namespace chaintwin::live
