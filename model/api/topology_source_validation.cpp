// The TopologySource admission rules.
#include "model/api/topology_source_validation.h"

#include <set>

#include "model/api/go_duration.h"
#include "model/api/k8s_validation.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

void levels_problems(const std::vector<std::string>& levels, std::vector<FieldProblem>& out) {
  if (levels.empty()) {
    out.push_back({"spec.levels", "Required value: at least one level is required"});
    return;
  }
  if (levels.size() > static_cast<size_t>(kMaxTopologyLevels)) {
    out.push_back({"spec.levels", "Too many: " + std::to_string(levels.size()) + ": must have at most " +
                                      std::to_string(kMaxTopologyLevels) + " items"});
    return;
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < levels.size(); ++i) {
    const std::string path = "spec.levels[" + std::to_string(i) + "]";
    const std::string& level = levels[i];
    if (!is_qualified_name(level)) out.push_back({path, "Invalid value: " + quoted(level) + ": is not a label key"});
    if (level == keys::kHostname) out.push_back({path, "Forbidden: kubernetes.io/hostname is implicit"});
    if (!seen.insert(level).second) out.push_back({path, "Duplicate value: " + quoted(level)});
  }
}

void prefix_problems(const std::string& prefix, std::vector<FieldProblem>& out) {
  if (prefix.empty()) return;
  const std::string path = "spec.additionalWritePrefix";
  if (prefix.back() != '/' || prefix.find('/') != prefix.size() - 1) {
    out.push_back({path, "Invalid value: " + quoted(prefix) + ": must be one DNS prefix followed by a slash"});
    return;
  }
  const std::string domain = prefix.substr(0, prefix.size() - 1);
  if (!is_dns1123_subdomain(domain)) {
    out.push_back({path, "Invalid value: " + quoted(prefix) + ": must use a DNS prefix"});
    return;
  }
  for (const char* reserved : {"kubernetes.io", "k8s.io", "topology.gpustack.ai", "feature.gpustack.ai",
                               "fabric.topograph.run", "accelerator.topograph.run"}) {
    const std::string r(reserved);
    const bool under = domain.size() > r.size() && domain.compare(domain.size() - r.size() - 1, r.size() + 1, "." + r) == 0;
    if (domain == r || under) {
      out.push_back({path, "Forbidden: is reserved by Kubernetes, GPUStack, or Topograph"});
      return;
    }
  }
}

void reference_problems(const TopologySourceObjectReference& ref, const std::string& path,
                        std::vector<FieldProblem>& out) {
  if (ref.namespace_ != keys::kSystemNamespace)
    out.push_back({path + ".namespace", "Forbidden: references must be in the worker namespace"});
  if (!is_dns1123_subdomain(ref.name))
    out.push_back({path + ".name", "Invalid value: " + quoted(ref.name) + ": must be a lowercase RFC 1123 subdomain"});
}

void positive(int64_t us, const std::string& path, std::vector<FieldProblem>& out) {
  if (us <= 0) out.push_back({path, "Invalid value: " + quoted(format_go_duration(us)) + ": must be positive"});
}

// An absolute https URL without user information or a fragment (what the webhook checks of url.Parse).
bool https_url(const std::string& url) {
  const std::string scheme = "https://";
  if (url.compare(0, scheme.size(), scheme) != 0 || url.find('#') != std::string::npos) return false;
  const std::string rest = url.substr(scheme.size());
  const std::string authority = rest.substr(0, rest.find_first_of("/?"));
  return !authority.empty() && authority.find('@') == std::string::npos;
}

}  // namespace

std::vector<FieldProblem> validate_topology_source(const TopologySource& source) {
  std::vector<FieldProblem> out;
  levels_problems(source.levels, out);
  prefix_problems(source.additional_write_prefix, out);
  if (const Status s = validate_label_selector(source.node_selector); !s.ok())
    out.push_back({"spec.nodeSelector", "Invalid value: " + s.error()});
  if (source.arm.empty())
    out.push_back({"spec", "Invalid value: exactly one of nodeLabels, configMap, or webhook is required"});
  if (source.config_map) {
    const auto& c = *source.config_map;
    reference_problems(c.config_map_ref, "spec.configMap.configMapRef", out);
    if (c.key.find_first_not_of(" \t\r\n") == std::string::npos)
      out.push_back({"spec.configMap.key", "Required value: must name the snapshot key"});
    positive(c.max_staleness_us, "spec.configMap.maxStaleness", out);
  }
  if (source.webhook) {
    const auto& w = *source.webhook;
    if (!https_url(w.url))
      out.push_back({"spec.webhook.url", "Invalid value: " + quoted(w.url) +
                                             ": must be an absolute HTTPS URL without user information or a fragment"});
    positive(w.poll_interval_us, "spec.webhook.pollInterval", out);
    positive(w.timeout_us, "spec.webhook.timeout", out);
    positive(w.max_staleness_us, "spec.webhook.maxStaleness", out);
    if (w.timeout_us > w.poll_interval_us && w.poll_interval_us > 0)
      out.push_back({"spec.webhook.timeout", "Invalid value: " + quoted(format_go_duration(w.timeout_us)) +
                                                 ": must not exceed pollInterval"});
    if (w.ca_bundle_config_map_ref) reference_problems(*w.ca_bundle_config_map_ref, "spec.webhook.caBundleConfigMapRef", out);
    int credentials = 0;
    if (w.bearer_token_secret_ref) {
      ++credentials;
      reference_problems(*w.bearer_token_secret_ref, "spec.webhook.bearerTokenSecretRef", out);
    }
    if (w.tls_client_certificate_secret_ref) {
      ++credentials;
      reference_problems(*w.tls_client_certificate_secret_ref, "spec.webhook.tlsClientCertificateSecretRef", out);
    }
    if (credentials != 1)
      out.push_back({"spec.webhook", "Invalid value: exactly one of bearerTokenSecretRef or "
                                     "tlsClientCertificateSecretRef is required"});
  }
  if (source.arm == "nodeLabels" && !source.additional_write_prefix.empty())
    out.push_back({"spec.additionalWritePrefix", "Forbidden: nodeLabels is read-only"});
  return out;
}

}  // namespace chaintwin::model
