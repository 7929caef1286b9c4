#include "live/kubeconfig.h"
#include "live/json_members.h"
#include "sim/input_file.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace chaintwin::live {
namespace {

constexpr uint64_t kMaxKubeconfigBytes = uint64_t{64} << 20;  // kubeconfigs, tokens and certificates are small

std::optional<std::string> read_file(const std::string& path) {
  if (!sim::input_file_problem(path, kMaxKubeconfigBytes).empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Base64 (standard alphabet, padding optional, whitespace ignored); nullopt when malformed.
std::optional<std::string> base64_decode(const std::string& in) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int value = 0, bits = -8;
  for (const char c : in) {
    if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
    const size_t pos = alphabet.find(c);
    if (pos == std::string::npos) return std::nullopt;
    value = (value << 6) + static_cast<int>(pos);
    bits += 6;
    if (bits >= 0) {
      out.push_back(static_cast<char>((value >> bits) & 0xff));
      bits -= 8;
    }
  }
  return out;
}

// A path in a kubeconfig is relative to the file that holds it.
std::string relative_to(const std::string& file, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  return (std::filesystem::path(file).parent_path() / path).string();
}

struct Named {
  YAML::Node node;
  std::string file;
};

struct Merged {
  std::map<std::string, Named> clusters, users, contexts;
  std::string current_context;
  std::vector<std::string> files;
};

model::Status merge_file(const std::string& path, Merged& m) {
  if (const std::string why = sim::input_file_problem(path, kMaxKubeconfigBytes); !why.empty())
    return model::err(path + ": the kubeconfig " + why);
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    return model::err(path + ": cannot read the kubeconfig");
  } catch (const YAML::Exception& e) {
    return model::err(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  m.files.push_back(path);
  if (!doc.IsMap()) return model::Ok{};  // an empty file adds nothing, as kubectl reads it
  auto take = [&](const char* list, const char* inner, std::map<std::string, Named>& into) -> model::Status {
    const YAML::Node items = doc[list];
    if (!items) return model::Ok{};
    if (!items.IsSequence()) return model::err(path + ": " + list + ": expected a list");
    for (size_t i = 0; i < items.size(); ++i) {
      const YAML::Node item = items[i];
      const std::string where = path + ": " + list + "[" + std::to_string(i) + "]";
      if (!item.IsMap() || !item["name"] || !item["name"].IsScalar()) return model::err(where + ".name: expected a name");
      if (!item[inner] || !item[inner].IsMap()) return model::err(where + "." + inner + ": expected a map");
      into.emplace(item["name"].as<std::string>(), Named{item[inner], path});  // the first file wins
    }
    return model::Ok{};
  };
  if (auto s = take("clusters", "cluster", m.clusters); !s.ok()) return s;
  if (auto s = take("users", "user", m.users); !s.ok()) return s;
  if (auto s = take("contexts", "context", m.contexts); !s.ok()) return s;
  if (m.current_context.empty() && doc["current-context"] && doc["current-context"].IsScalar())
    m.current_context = doc["current-context"].as<std::string>();
  return model::Ok{};
}

std::string scalar(const YAML::Node& map, const char* key) {
  const YAML::Node v = map[key];
  return v && v.IsScalar() ? v.as<std::string>() : "";
}

model::Result<ClusterConnection> in_cluster(const KubeconfigRequest& r) {
  ClusterConnection c;
  c.source = "in-cluster service account (" + r.service_account_dir + ")";
  c.server = "https://" + r.service_host + ":" + (r.service_port.empty() ? "443" : r.service_port);
  const auto token = read_file(r.service_account_dir + "/token");
  if (!token) return model::err(r.service_account_dir + "/token: cannot read the service account token");
  c.token = trim(*token);
  c.ca_file = r.service_account_dir + "/ca.crt";
  return c;
}

}  // namespace

KubeconfigRequest request_from_environment(std::optional<std::string> kubeconfig, std::optional<std::string> context) {
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v == nullptr ? "" : v);
  };
  KubeconfigRequest r;
  r.kubeconfig = std::move(kubeconfig);
  r.context = std::move(context);
  r.env_kubeconfig = env("KUBECONFIG");
  r.home = env("HOME");
  r.service_host = env("KUBERNETES_SERVICE_HOST");
  r.service_port = env("KUBERNETES_SERVICE_PORT");
  return r;
}

model::Result<ClusterConnection> resolve_connection(const KubeconfigRequest& r) {
  std::vector<std::string> files;
  if (r.kubeconfig) {
    files.push_back(*r.kubeconfig);
  } else if (!r.env_kubeconfig.empty()) {
    std::stringstream ss(r.env_kubeconfig);
    std::string part;
    while (std::getline(ss, part, ':'))
      if (!part.empty()) files.push_back(part);
  } else if (!r.home.empty() && std::filesystem::exists(r.home + "/.kube/config")) {
    files.push_back(r.home + "/.kube/config");
  } else if (!r.service_host.empty()) {
    return in_cluster(r);
  } else {
    return model::err("no kubeconfig: give --kubeconfig FILE, set KUBECONFIG, create ~/.kube/config, or run in a Pod");
  }
  Merged m;
  for (const auto& f : files) {
    // KUBECONFIG may name files that do not exist (kubectl skips them); --kubeconfig may not.
    if (!r.kubeconfig && !std::filesystem::exists(f)) continue;
    if (auto s = merge_file(f, m); !s.ok()) return model::err(s.error());
  }
  std::string sources;
  for (const auto& f : m.files) sources += (sources.empty() ? "" : ":") + f;
  if (sources.empty()) return model::err("KUBECONFIG names no file that exists: " + r.env_kubeconfig);
  const std::string context = r.context.value_or(m.current_context);
  if (context.empty()) return model::err(sources + ": no current-context; give --context NAME");
  const auto ctx = m.contexts.find(context);
  if (ctx == m.contexts.end()) return model::err(sources + ": no context named '" + context + "'");
  const std::string cluster_name = scalar(ctx->second.node, "cluster"), user_name = scalar(ctx->second.node, "user");
  const auto cl = m.clusters.find(cluster_name);
  if (cl == m.clusters.end())
    return model::err(ctx->second.file + ": context '" + context + "': no cluster named '" + cluster_name + "'");
  ClusterConnection c;
  c.context = context;
  c.source = sources;
  const YAML::Node& cn = cl->second.node;
  c.server = scalar(cn, "server");
  if (c.server.empty()) return model::err(cl->second.file + ": cluster '" + cluster_name + "': server: expected a URL");
  if (c.server.rfind("https://", 0) != 0 && c.server.rfind("http://", 0) != 0)
    return model::err(cl->second.file + ": cluster '" + cluster_name + "': server: expected http:// or https://, got '" +
                      c.server + "'");
  c.ca_file = relative_to(cl->second.file, scalar(cn, "certificate-authority"));
  if (const std::string data = scalar(cn, "certificate-authority-data"); !data.empty()) {
    const auto decoded = base64_decode(data);
    if (!decoded) return model::err(cl->second.file + ": cluster '" + cluster_name + "': certificate-authority-data: not base64");
    c.ca_data = *decoded;
  }
  c.insecure_skip_tls_verify = scalar(cn, "insecure-skip-tls-verify") == "true";
  if (user_name.empty()) return c;  // anonymous
  const auto us = m.users.find(user_name);
  if (us == m.users.end()) return model::err(ctx->second.file + ": context '" + context + "': no user named '" + user_name + "'");
  const YAML::Node& un = us->second.node;
  const std::string where = us->second.file + ": user '" + user_name + "': ";
  c.token = scalar(un, "token");
  if (const std::string tf = relative_to(us->second.file, scalar(un, "tokenFile")); c.token.empty() && !tf.empty()) {
    const auto t = read_file(tf);
    if (!t) return model::err(where + "tokenFile: cannot read " + tf);
    c.token = trim(*t);
  }
  c.client_cert_file = relative_to(us->second.file, scalar(un, "client-certificate"));
  c.client_key_file = relative_to(us->second.file, scalar(un, "client-key"));
  for (const auto& [field, into] : {std::pair{"client-certificate-data", &c.client_cert_data},
                                    std::pair{"client-key-data", &c.client_key_data}}) {
    if (const std::string data = scalar(un, field); !data.empty()) {
      const auto decoded = base64_decode(data);
      if (!decoded) return model::err(where + field + ": not base64");
      *into = *decoded;
    }
  }
  if (const YAML::Node exec = un["exec"]; exec && exec.IsMap()) {
    ExecCredentialPlugin p;
    p.command = scalar(exec, "command");
    p.api_version = scalar(exec, "apiVersion");
    if (p.command.empty()) return model::err(where + "exec.command: expected a command");
    if (p.api_version != "client.authentication.k8s.io/v1" && p.api_version != "client.authentication.k8s.io/v1beta1")
      return model::err(where + "exec.apiVersion: expected client.authentication.k8s.io/v1, got '" + p.api_version + "'");
    // An argument that is no string, or an env entry that is no mapping, is refused with its line
    // (read as a string, yaml-cpp threw out of the reader; the values are never shown).
    const auto at = [&](const YAML::Node& n, const std::string& field) {
      return us->second.file + ":" + std::to_string(n.Mark().line + 1) + ": user '" + user_name + "': " + field;
    };
    if (const YAML::Node args = exec["args"]; args && args.IsSequence())
      for (size_t i = 0; i < args.size(); ++i) {
        const std::string field = "exec.args[" + std::to_string(i) + "]";
        if (!args[i].IsScalar()) return model::err(at(args[i], field) + ": expected a string");
        p.args.push_back(args[i].as<std::string>());
      }
    if (const YAML::Node env = exec["env"]; env && env.IsSequence())
      for (size_t i = 0; i < env.size(); ++i) {
        const std::string field = "exec.env[" + std::to_string(i) + "]";
        if (!env[i].IsMap()) return model::err(at(env[i], field) + ": expected a mapping with name and value");
        p.env.emplace_back(scalar(env[i], "name"), scalar(env[i], "value"));
      }
    c.exec = p;
  }
  return c;
}

model::Status run_exec_plugin(ClusterConnection& c) {
  if (!c.exec) return model::Ok{};
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (const char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  };
  std::string line;
  for (const auto& [k, v] : c.exec->env) line += k + "=" + quote(v) + " ";
  line += quote(c.exec->command);
  for (const auto& a : c.exec->args) line += " " + quote(a);
  // The plugin reads KUBERNETES_EXEC_INFO; it gets the apiVersion and no cluster info.
  line = "KUBERNETES_EXEC_INFO=" + quote(R"({"apiVersion":")" + c.exec->api_version +
                                         R"(","kind":"ExecCredential","spec":{"interactive":false}})") + " " + line;
  std::FILE* pipe = popen(line.c_str(), "r");
  if (pipe == nullptr) return model::err("exec credential plugin '" + c.exec->command + "': cannot start it");
  std::string out;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int rc = pclose(pipe);
  if (rc != 0) return model::err("exec credential plugin '" + c.exec->command + "' failed (exit status " + std::to_string(rc) + ")");
  const auto j = nlohmann::json::parse(out, nullptr, false);
  if (j.is_discarded() || !j.contains("status") || !j["status"].is_object())
    return model::err("exec credential plugin '" + c.exec->command + "': its output is not an ExecCredential with a status");
  const auto& st = j["status"];
  c.token = string_member(st, "token");
  c.client_cert_data = string_member(st, "clientCertificateData");
  c.client_key_data = string_member(st, "clientKeyData");
  if (c.token.empty() && c.client_cert_data.empty())
    return model::err("exec credential plugin '" + c.exec->command + "': its ExecCredential has neither a token nor a client certificate");
  return model::Ok{};
}

std::string redact(const ClusterConnection& c, std::string text) {
  for (const std::string* secret : {&c.token, &c.client_key_data}) {
    if (secret->size() < 4) continue;
    for (size_t at = text.find(*secret); at != std::string::npos; at = text.find(*secret, at))
      text.replace(at, secret->size(), "<redacted>");
  }
  return text;
}

}  // namespace chaintwin::live
