#include "sim/random_stream.h"

#include <cmath>

#include "model/fnv.h"

namespace chaintwin::sim {
namespace {

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kZ95 = 1.6448536269514722;  // the standard normal's 95th percentile

int64_t round_us(double v) { return v <= 0 ? 0 : static_cast<int64_t>(std::llround(v)); }

}  // namespace

RandomStream::RandomStream(uint64_t seed, uint64_t run, std::string_view name) {
  uint64_t x = seed ^ (run * 0x9e3779b97f4a7c15ULL) ^ model::fnv1a64_update(0xcbf29ce484222325ULL, name);
  for (auto& s : s_) s = splitmix64(x);
}

uint64_t RandomStream::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint64_t RandomStream::uniform(uint64_t bound) {
  __extension__ typedef unsigned __int128 u128;
  uint64_t x = next_u64();
  u128 m = static_cast<u128>(x) * bound;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < bound) {
    const uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      x = next_u64();
      m = static_cast<u128>(x) * bound;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

double RandomStream::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

SimTime RandomStream::exponential(SimTime mean) {
  const double u = uniform01();
  return SimTime::micros(round_us(-static_cast<double>(mean.us()) * std::log1p(-u)));
}

double RandomStream::standard_normal() {
  const double u1 = 1.0 - uniform01();  // (0, 1]
  const double u2 = uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

SimTime RandomStream::lognormal(SimTime median, SimTime p95) {
  const double mu = std::log(static_cast<double>(median.us()));
  const double sigma = p95 > median ? std::log(static_cast<double>(p95.us()) / static_cast<double>(median.us())) / kZ95 : 0.0;
  return SimTime::micros(round_us(std::exp(mu + sigma * standard_normal())));
}

}  // namespace chaintwin::sim
