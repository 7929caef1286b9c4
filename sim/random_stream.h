// RandomStream: one seeded stream of random numbers per (scenario seed, run, stream name), with
// our own generator (xoshiro256**, seeded through SplitMix64 and FNV-1a of the name) and our own
// distributions, so the draws are the same on every standard library. Each workload generator
// draws from its own stream: adding a generator never changes another's draws.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/sim_time.h"

namespace chaintwin::sim {

class RandomStream {
 public:
  RandomStream(uint64_t seed, uint64_t run, std::string_view name);

  uint64_t next_u64();
  // Uniform in [0, bound) without modulo bias (Lemire's method); bound > 0.
  uint64_t uniform(uint64_t bound);
  // Uniform in [0, 1) with 53 random bits.
  double uniform01();
  // Exponential with the given mean, rounded to the microsecond (inverse CDF: −mean·ln(1−u)).
  SimTime exponential(SimTime mean);
  // Log-normal given its median and 95th percentile (σ = ln(p95/median)/1.6448536269514722),
  // rounded to the microsecond; a standard normal by the Box–Muller transform.
  SimTime lognormal(SimTime median, SimTime p95);
  double standard_normal();

 private:
  uint64_t s_[4];
};

}  // namespace chaintwin::sim
