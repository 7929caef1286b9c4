#include <functional>
#include <string>

#include <catch2/catch.hpp>

#include "model/api/topology_source_validation.h"

using namespace chaintwin::model;

namespace {

TopologySource valid_config_map() {
  TopologySource s;
  s.metadata.name = "inv";
  s.levels = {"topology.gpustack.ai/zone", "topology.gpustack.ai/rack"};
  s.arm = "configMap";
  s.config_map = TopologySourceConfigMap{{"gpustack-system", "topology-inventory"}, "snapshot.yaml", 600'000'000};
  return s;
}

TopologySource valid_webhook() {
  TopologySource s = valid_config_map();
  s.arm = "webhook";
  s.config_map.reset();
  s.webhook = TopologySourceWebhook{};
  s.webhook->url = "https://topology-inventory.gpustack-system.svc/snapshot";
  s.webhook->poll_interval_us = 60'000'000;
  s.webhook->timeout_us = 10'000'000;
  s.webhook->max_staleness_us = 300'000'000;
  s.webhook->bearer_token_secret_ref = TopologySourceObjectReference{"gpustack-system", "topology-inventory-token"};
  return s;
}

}  // namespace

TEST_CASE("admission accepts the documented configMap, webhook and nodeLabels sources", "[topology_source_validation]") {
  CHECK(validate_topology_source(valid_config_map()).empty());
  CHECK(validate_topology_source(valid_webhook()).empty());
  TopologySource prefixed = valid_config_map();
  prefixed.additional_write_prefix = "topology.example.com/";
  CHECK(validate_topology_source(prefixed).empty());
  TopologySource labels = valid_config_map();
  labels.arm = "nodeLabels";
  labels.config_map.reset();
  CHECK(validate_topology_source(labels).empty());
}

TEST_CASE("admission refuses what the operator's TopologySource webhook refuses", "[topology_source_validation]") {
  struct Row {
    const char* what;
    std::function<TopologySource()> make;
    FieldProblem first;
  };
  const Row rows[] = {
      {"no levels", [] { auto s = valid_config_map(); s.levels.clear(); return s; },
       {"spec.levels", "Required value: at least one level is required"}},
      {"seventeen levels",
       [] {
         auto s = valid_config_map();
         s.levels.clear();
         for (int i = 0; i < 17; ++i) s.levels.push_back("topology.gpustack.ai/l" + std::to_string(i));
         return s;
       },
       {"spec.levels", "Too many: 17: must have at most 16 items"}},
      {"a level listed twice",
       [] { auto s = valid_config_map(); s.levels.push_back("topology.gpustack.ai/zone"); return s; },
       {"spec.levels[2]", R"(Duplicate value: "topology.gpustack.ai/zone")"}},
      {"the hostname as a level",
       [] { auto s = valid_config_map(); s.levels.push_back("kubernetes.io/hostname"); return s; },
       {"spec.levels[2]", "Forbidden: kubernetes.io/hostname is implicit"}},
      {"a level that is not a label key", [] { auto s = valid_config_map(); s.levels = {"not a key"}; return s; },
       {"spec.levels[0]", R"(Invalid value: "not a key": is not a label key)"}},
      {"a prefix without its slash",
       [] { auto s = valid_config_map(); s.additional_write_prefix = "topology.example.com"; return s; },
       {"spec.additionalWritePrefix", R"(Invalid value: "topology.example.com": must be one DNS prefix followed by a slash)"}},
      {"a reserved prefix",
       [] { auto s = valid_config_map(); s.additional_write_prefix = "rack.topology.gpustack.ai/"; return s; },
       {"spec.additionalWritePrefix", "Forbidden: is reserved by Kubernetes, GPUStack, or Topograph"}},
      {"a prefix on a nodeLabels source",
       [] {
         auto s = valid_config_map();
         s.arm = "nodeLabels";
         s.config_map.reset();
         s.additional_write_prefix = "topology.example.com/";
         return s;
       },
       {"spec.additionalWritePrefix", "Forbidden: nodeLabels is read-only"}},
      {"no arm", [] { auto s = valid_config_map(); s.arm.clear(); s.config_map.reset(); return s; },
       {"spec", "Invalid value: exactly one of nodeLabels, configMap, or webhook is required"}},
      {"a ConfigMap outside the worker namespace",
       [] { auto s = valid_config_map(); s.config_map->config_map_ref.namespace_ = "default"; return s; },
       {"spec.configMap.configMapRef.namespace", "Forbidden: references must be in the worker namespace"}},
      {"no snapshot key", [] { auto s = valid_config_map(); s.config_map->key = " "; return s; },
       {"spec.configMap.key", "Required value: must name the snapshot key"}},
      {"no maxStaleness", [] { auto s = valid_config_map(); s.config_map->max_staleness_us = 0; return s; },
       {"spec.configMap.maxStaleness", R"(Invalid value: "0s": must be positive)"}},
      {"a plain http URL",
       [] { auto s = valid_webhook(); s.webhook->url = "http://inventory/snapshot"; return s; },
       {"spec.webhook.url",
        R"(Invalid value: "http://inventory/snapshot": must be an absolute HTTPS URL without user information or a fragment)"}},
      {"credentials in the URL",
       [] { auto s = valid_webhook(); s.webhook->url = "https://user:pw@inventory/snapshot"; return s; },
       {"spec.webhook.url",
        R"(Invalid value: "https://user:pw@inventory/snapshot": must be an absolute HTTPS URL without user information or a fragment)"}},
      {"a timeout longer than the poll interval",
       [] { auto s = valid_webhook(); s.webhook->timeout_us = 120'000'000; return s; },
       {"spec.webhook.timeout", R"(Invalid value: "2m0s": must not exceed pollInterval)"}},
      {"two credentials",
       [] {
         auto s = valid_webhook();
         s.webhook->tls_client_certificate_secret_ref = TopologySourceObjectReference{"gpustack-system", "cert"};
         return s;
       },
       {"spec.webhook", "Invalid value: exactly one of bearerTokenSecretRef or tlsClientCertificateSecretRef is required"}},
      {"no credential", [] { auto s = valid_webhook(); s.webhook->bearer_token_secret_ref.reset(); return s; },
       {"spec.webhook", "Invalid value: exactly one of bearerTokenSecretRef or tlsClientCertificateSecretRef is required"}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const auto problems = validate_topology_source(r.make());
    REQUIRE_FALSE(problems.empty());
    CHECK(problems.front() == r.first);
  }
}
