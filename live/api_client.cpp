#include "live/api_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <thread>

namespace chaintwin::live {
namespace {

size_t append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// Reads a Retry-After header (seconds) into an int64_t.
size_t read_retry_after(char* data, size_t size, size_t count, void* out) {
  const std::string line(data, size * count);
  constexpr std::string_view name = "retry-after:";
  if (line.size() > name.size()) {
    std::string head = line.substr(0, name.size());
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (head == name) *static_cast<int64_t*>(out) = std::atoll(line.c_str() + name.size());
  }
  return size * count;
}

struct HeaderList {
  curl_slist* list = nullptr;
  ~HeaderList() { curl_slist_free_all(list); }
  void add(const std::string& h) { list = curl_slist_append(list, h.c_str()); }
};

}  // namespace

ApiClient::ApiClient(ClusterConnection connection, ClientOptions options)
    : connection_(std::move(connection)), options_(std::move(options)), tokens_(options_.burst),
      refilled_(std::chrono::steady_clock::now()), jitter_(std::random_device{}()) {
  static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
  (void)initialised;
  curl_ = curl_easy_init();
}

ApiClient::~ApiClient() {
  if (curl_ != nullptr) curl_easy_cleanup(static_cast<CURL*>(curl_));
}

model::Result<std::unique_ptr<ApiClient>> ApiClient::create(ClusterConnection connection, ClientOptions options) {
  if (auto s = run_exec_plugin(connection); !s.ok()) return model::err(s.error());
  std::unique_ptr<ApiClient> client(new ApiClient(std::move(connection), std::move(options)));
  if (client->curl_ == nullptr) return model::err("libcurl: cannot create a handle");
  return client;
}

void ApiClient::wait_for_token() {
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    tokens_ = std::min<double>(options_.burst,
                               tokens_ + std::chrono::duration<double>(now - refilled_).count() * options_.qps);
    refilled_ = now;
    if (tokens_ >= 1) {
      tokens_ -= 1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>((1 - tokens_) / options_.qps));
  }
}

void ApiClient::prepare(const std::string& url) {
  CURL* h = static_cast<CURL*>(curl_);
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_blob ca{nullptr, 0, CURL_BLOB_NOCOPY}, cert{nullptr, 0, CURL_BLOB_NOCOPY}, key{nullptr, 0, CURL_BLOB_NOCOPY};  // libcurl copies the struct; the data stays in connection_
  if (connection_.insecure_skip_tls_verify) {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (!connection_.ca_data.empty()) {
    ca.data = connection_.ca_data.data();
    ca.len = connection_.ca_data.size();
    curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &ca);
  } else if (!connection_.ca_file.empty()) {
    curl_easy_setopt(h, CURLOPT_CAINFO, connection_.ca_file.c_str());
  }
  if (!connection_.client_cert_data.empty()) {
    cert.data = connection_.client_cert_data.data();
    cert.len = connection_.client_cert_data.size();
    curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cert);
    curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
  } else if (!connection_.client_cert_file.empty()) {
    curl_easy_setopt(h, CURLOPT_SSLCERT, connection_.client_cert_file.c_str());
  }
  if (!connection_.client_key_data.empty()) {
    key.data = connection_.client_key_data.data();
    key.len = connection_.client_key_data.size();
    curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &key);
    curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
  } else if (!connection_.client_key_file.empty()) {
    curl_easy_setopt(h, CURLOPT_SSLKEY, connection_.client_key_file.c_str());
  }
}

namespace {

struct StreamState {
  std::string pending;
  const std::function<bool(const std::string&)>* on_line;
  const std::function<bool()>* stop;
  bool stopped = false;
};

size_t stream_lines(char* data, size_t size, size_t count, void* user) {
  auto* st = static_cast<StreamState*>(user);
  st->pending.append(data, size * count);
  size_t at = 0;
  for (size_t nl = st->pending.find('\n'); nl != std::string::npos; nl = st->pending.find('\n', at)) {
    const std::string line = st->pending.substr(at, nl - at);
    at = nl + 1;
    if (!line.empty() && !(*st->on_line)(line)) {
      st->stopped = true;
      return 0;  // ends the transfer
    }
  }
  st->pending.erase(0, at);
  return size * count;
}

int stream_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* st = static_cast<StreamState*>(user);
  if ((*st->stop)()) {
    st->stopped = true;
    return 1;
  }
  return 0;
}

}  // namespace

model::Result<long> ApiClient::stream(const std::string& path, const std::function<bool(const std::string&)>& on_line,
                                      const std::function<bool()>& stop) {
  wait_for_token();
  ++requests_;
  CURL* h = static_cast<CURL*>(curl_);
  curl_easy_reset(h);
  const std::string url = connection_.server + path;
  StreamState st{"", &on_line, &stop};
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, stream_lines);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &st);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, stream_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &st);
  curl_easy_setopt(h, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  // No overall timeout: the server ends a watch at its timeoutSeconds; a silent dead peer is
  // caught by a low-speed limit (no byte for 90 s; the server sends bookmarks more often).
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 90L);
  HeaderList headers;
  headers.add("Accept: application/json");
  if (!connection_.token.empty()) headers.add("Authorization: Bearer " + connection_.token);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.list);
  prepare(url);
  const CURLcode rc = curl_easy_perform(h);
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (rc != CURLE_OK && !st.stopped) return model::err(redact(connection_, "watch " + url + ": " + curl_easy_strerror(rc)));
  return status;
}

model::Result<ApiResponse> ApiClient::get(const std::string& path, const std::string& accept) {
  return send("GET", path, "", "", accept);
}

model::Result<ApiResponse> ApiClient::send(const std::string& method, const std::string& path, const std::string& body,
                                           const std::string& content_type, const std::string& accept) {
  // 429 (after its Retry-After) and 5xx are tried again with exponential backoff and jitter. A
  // write retried this way cannot apply twice: replaces carry a resourceVersion (a second one is a
  // 409), a second create is a 409 AlreadyExists, and merge patches are idempotent.
  model::Result<ApiResponse> last = model::err("no attempt");
  for (int attempt = 0; attempt < options_.attempts; ++attempt) {
    last = send_once(method, path, body, content_type, accept);
    const bool retry = last.ok() ? (last->status == 429 || last->status >= 500) : method == "GET";
    if (!retry || attempt + 1 == options_.attempts) return last;
    ++retries_;
    double wait = options_.backoff_seconds * static_cast<double>(1 << attempt);
    wait *= 0.5 + std::uniform_real_distribution<double>(0, 1)(jitter_);  // jitter: 0.5x to 1.5x
    if (last.ok() && last->retry_after_seconds > 0) wait = std::max(wait, static_cast<double>(last->retry_after_seconds));
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(wait, 30.0)));
  }
  return last;
}

model::Result<ApiResponse> ApiClient::send_once(const std::string& method, const std::string& path, const std::string& body,
                                                const std::string& content_type, const std::string& accept) {
  wait_for_token();
  ++requests_;
  CURL* h = static_cast<CURL*>(curl_);
  curl_easy_reset(h);
  ApiResponse out;
  const std::string url = connection_.server + path;
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &out.body);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, read_retry_after);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &out.retry_after_seconds);
  curl_easy_setopt(h, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_TIMEOUT, options_.timeout_seconds);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  HeaderList headers;
  headers.add("Accept: " + accept);
  if (method != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
    if (method != "DELETE" || !body.empty()) {
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
      headers.add("Content-Type: " + content_type);
    }
  }
  if (!connection_.token.empty()) headers.add("Authorization: Bearer " + connection_.token);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.list);
  prepare(url);
  const CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK)
    return model::err(redact(connection_, method + " " + url + ": " + curl_easy_strerror(rc)));
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
  return out;
}

}  // namespace chaintwin::live
