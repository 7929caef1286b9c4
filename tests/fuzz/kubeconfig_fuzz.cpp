// Fuzz target: the kubeconfig reader. The bytes are a kubeconfig file's text, written to a file of
// a private temporary folder and resolved as `--kubeconfig FILE` resolves it
// (live::resolve_connection: the file read, clusters, users and contexts merged, the current
// context's server, trust and credentials). The exec credential plugin is never run. Every input
// must come back as a connection or a refusal; a crash, a hang, a leak or undefined behaviour is
// a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "live/kubeconfig.h"

namespace {

struct TempFolder {
  std::string dir;
  TempFolder() {
    char pattern[] = "/tmp/chaintwin-kubeconfig-fuzz.XXXXXX";
    if (mkdtemp(pattern) == nullptr) std::abort();
    dir = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

const std::string& kubeconfig_path() {
  static const TempFolder folder;
  static const std::string path = folder.dir + "/config";
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = kubeconfig_path();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  chaintwin::live::KubeconfigRequest request;
  request.kubeconfig = path;
  auto connection = chaintwin::live::resolve_connection(request);
  if (connection.ok()) (void)chaintwin::live::redact(*connection, "a message naming no secret");
  return 0;
}
