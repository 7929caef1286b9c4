#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "live/kubeconfig.h"

using namespace chaintwin::live;
namespace fs = std::filesystem;

namespace {

// A folder per test process for kubeconfig files.
fs::path dir() {
  static const fs::path d = fs::temp_directory_path() / ("chaintwin-kubeconfig-" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = dir() / name;
  std::ofstream(p) << text;
  return p.string();
}

const char* kTwoContexts = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example:6443
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
- name: prod-cluster
  cluster: {server: "https://prod.example:6443", insecure-skip-tls-verify: true}
users:
- name: dev-user
  user: {token: dev-token-123}
- name: prod-user
  user:
    tokenFile: prod.token
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user}
- name: prod
  context: {cluster: prod-cluster, user: prod-user}
)";

}  // namespace

TEST_CASE("a kubeconfig's current context, or the one asked for, gives the server, trust and token", "[live][kubeconfig]") {
  const std::string file = write("two.yaml", kTwoContexts);
  write("prod.token", "prod-token-456\n");
  KubeconfigRequest r;
  r.kubeconfig = file;
  auto dev = resolve_connection(r);
  REQUIRE(dev.ok());
  CHECK(dev->context == "dev");
  CHECK(dev->server == "https://dev.example:6443");
  CHECK(dev->ca_data == "-----BEGIN CERTIFICATE-----\n");
  CHECK(dev->token == "dev-token-123");
  CHECK_FALSE(dev->insecure_skip_tls_verify);
  r.context = "prod";
  auto prod = resolve_connection(r);
  REQUIRE(prod.ok());
  CHECK(prod->server == "https://prod.example:6443");
  CHECK(prod->insecure_skip_tls_verify);
  CHECK(prod->token == "prod-token-456");  // tokenFile, relative to the kubeconfig, trimmed
}

TEST_CASE("KUBECONFIG merges its files: the first to name a context, cluster or user wins", "[live][kubeconfig]") {
  const std::string a = write("a.yaml", R"(current-context: a
clusters: [{name: c, cluster: {server: "https://first:6443"}}]
contexts: [{name: a, context: {cluster: c, user: u}}]
)");
  const std::string b = write("b.yaml", R"(current-context: b
clusters: [{name: c, cluster: {server: "https://second:6443"}}]
users: [{name: u, user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}}]
)");
  KubeconfigRequest r;
  r.env_kubeconfig = a + ":" + (dir() / "does-not-exist.yaml").string() + ":" + b;
  auto c = resolve_connection(r);
  REQUIRE(c.ok());
  CHECK(c->context == "a");
  CHECK(c->server == "https://first:6443");
  CHECK(c->client_cert_data == "CERT");
  CHECK(c->client_key_data == "KEY");
  CHECK(c->source == a + ":" + b);
}

TEST_CASE("a bad kubeconfig is refused with the file and the field, never a secret", "[live][kubeconfig]") {
  struct Row {
    const char* what;
    std::string text;
    std::optional<std::string> context;
    const char* says;
  };
  const Row rows[] = {
      {"no such context", kTwoContexts, "staging", "no context named 'staging'"},
      {"a server without a scheme",
       "current-context: x\nclusters: [{name: c, cluster: {server: \"example:6443\"}}]\ncontexts: [{name: x, context: {cluster: c}}]\n",
       std::nullopt, "server: expected http:// or https://"},
      {"a context naming a missing user",
       "current-context: x\nclusters: [{name: c, cluster: {server: \"https://h\"}}]\ncontexts: [{name: x, context: {cluster: c, user: nobody}}]\n",
       std::nullopt, "no user named 'nobody'"},
      {"bad base64 key data",
       "current-context: x\nclusters: [{name: c, cluster: {server: \"https://h\"}}]\nusers: [{name: u, user: {token: "
       "top-secret-token, client-key-data: \"!!!\"}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n",
       std::nullopt, "client-key-data: not base64"},
      {"a list that is not a list", "clusters: {name: c}\n", std::nullopt, "clusters: expected a list"},
      {"an exec plugin of an unknown API",
       "current-context: x\nclusters: [{name: c, cluster: {server: \"https://h\"}}]\nusers: [{name: u, user: {exec: {command: "
       "get-token, apiVersion: client.authentication.k8s.io/v2}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\n",
       std::nullopt, "exec.apiVersion: expected client.authentication.k8s.io/v1"},
  };
  int i = 0;
  for (const auto& row : rows) {
    INFO(row.what);
    KubeconfigRequest r;
    r.kubeconfig = write("bad" + std::to_string(i++) + ".yaml", row.text);
    r.context = row.context;
    auto c = resolve_connection(r);
    REQUIRE_FALSE(c.ok());
    CHECK_THAT(c.error(), Catch::Contains(row.says) && Catch::Contains(*r.kubeconfig));
    CHECK_THAT(c.error(), !Catch::Contains("top-secret-token"));
  }
  KubeconfigRequest none;
  CHECK_THAT(resolve_connection(none).error(), Catch::Contains("no kubeconfig"));
}

TEST_CASE("inside a Pod the service account's token and CA are used", "[live][kubeconfig]") {
  const fs::path sa = dir() / "serviceaccount";
  fs::create_directories(sa);
  std::ofstream(sa / "token") << "sa-token\n";
  KubeconfigRequest r;
  r.service_host = "10.0.0.1";
  r.service_port = "443";
  r.service_account_dir = sa.string();
  auto c = resolve_connection(r);
  REQUIRE(c.ok());
  CHECK(c->server == "https://10.0.0.1:443");
  CHECK(c->token == "sa-token");
  CHECK(c->ca_file == (sa / "ca.crt").string());
}

TEST_CASE("an exec credential plugin's ExecCredential gives the token, and secrets are redacted", "[live][kubeconfig]") {
  const std::string plugin = write("plugin.sh", R"(#!/bin/sh
case "$KUBERNETES_EXEC_INFO" in *client.authentication.k8s.io/v1*) ;; *) exit 3 ;; esac
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"'"$PREFIX"'-from-plugin"}}'
)");
  fs::permissions(plugin, fs::perms::owner_all);
  KubeconfigRequest r;
  r.kubeconfig = write("exec.yaml", "current-context: x\nclusters: [{name: c, cluster: {server: \"https://h\"}}]\n"
                                    "users: [{name: u, user: {exec: {command: " + plugin +
                                        ", apiVersion: client.authentication.k8s.io/v1, env: [{name: PREFIX, value: abc}]}}}]\n"
                                        "contexts: [{name: x, context: {cluster: c, user: u}}]\n");
  auto resolved = resolve_connection(r);
  REQUIRE(resolved.ok());
  ClusterConnection c = resolved.value();
  REQUIRE(c.exec.has_value());
  REQUIRE(run_exec_plugin(c).ok());
  CHECK(c.token == "abc-from-plugin");
  CHECK(redact(c, "Authorization: Bearer abc-from-plugin failed") == "Authorization: Bearer <redacted> failed");
  c.exec->command = (dir() / "missing-plugin").string();
  CHECK_FALSE(run_exec_plugin(c).ok());
}
