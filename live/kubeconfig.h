// Where the cluster is and who we are, found the way kubectl finds it: --kubeconfig, else every
// file of KUBECONFIG (merged: the first file that names a cluster, user or context wins, and the
// first current-context), else ~/.kube/config, else the in-cluster service account of a Pod.
// Authentication by bearer token, token file, client certificate and key (file or data) or an
// exec credential plugin (client.authentication.k8s.io/v1); trust by CA file or data, or
// insecure-skip-tls-verify (the caller warns). Secrets are never part of an error message.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/result.h"

namespace chaintwin::live {

struct ExecCredentialPlugin {
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string api_version;  // client.authentication.k8s.io/v1 (v1beta1 is accepted too)
};

struct ClusterConnection {
  std::string context;  // the context used ("" in-cluster)
  std::string server;   // https://host:port
  std::string ca_file, ca_data;  // PEM (data already base64-decoded)
  bool insecure_skip_tls_verify = false;
  std::string token;             // bearer token (from token, tokenFile or the service account)
  std::string client_cert_file, client_cert_data, client_key_file, client_key_data;
  std::optional<ExecCredentialPlugin> exec;
  std::string source;  // which file(s) or "in-cluster service account"
};

struct KubeconfigRequest {
  std::optional<std::string> kubeconfig;  // --kubeconfig
  std::optional<std::string> context;     // --context
  std::string env_kubeconfig;             // $KUBECONFIG
  std::string home;                       // $HOME
  // In-cluster: $KUBERNETES_SERVICE_HOST/PORT and the service-account folder.
  std::string service_host, service_port;
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";
};

// The request as this process's environment (KUBECONFIG, HOME, the in-cluster variables) and the
// command line's --kubeconfig and --context make it.
KubeconfigRequest request_from_environment(std::optional<std::string> kubeconfig, std::optional<std::string> context);

// Resolves the connection; the error names the file and the field, never a secret.
model::Result<ClusterConnection> resolve_connection(const KubeconfigRequest& request);

// Runs an exec credential plugin and fills token or client certificate data from its
// ExecCredential status.
model::Status run_exec_plugin(ClusterConnection& connection);

// `text` with every occurrence of the connection's secrets replaced by "<redacted>".
std::string redact(const ClusterConnection& connection, std::string text);

}  // namespace chaintwin::live
