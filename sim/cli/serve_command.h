// `chaintwin serve`: a scenario's simulated cluster served as a Kubernetes API
// (live/kube_api_server.h), frozen at a time or advancing with the wall clock, until SIGINT or
// SIGTERM. Run by the command line (command_line.cpp) with the options it parsed.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/cli/flag_values.h"
#include "sim/sim_time.h"

namespace chaintwin::cli {

struct ServeCommandOptions {
  std::string scenario;  // empty: the embedded default scenario
  HostPort listen{"127.0.0.1", 8080};
  sim::SimTime at;
  bool play = false;
  double speed = 60;  // simulated seconds per wall second with --play
  std::map<std::string, double> faults;  // fault name -> probability per request
  uint64_t fault_seed = 1;
  std::string kueue_version = "v1beta2";
  std::string tls_cert, tls_key, client_ca;  // PEM files; empty: plain HTTP
  std::string token;                         // required bearer token; empty: none
  std::vector<std::pair<std::string, std::string>> roles;  // bearer token, ClusterRole file
};

int serve_command(const ServeCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
