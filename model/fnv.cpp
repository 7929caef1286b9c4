#include "model/fnv.h"

namespace chaintwin::model {
namespace {

std::string to_hex16(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = kDigits[v & 0xFU];
    v >>= 4;
  }
  return out;
}

}  // namespace

uint64_t fnv1a64_update(uint64_t state, std::string_view bytes) {
  for (const char c : bytes) {
    state ^= static_cast<uint64_t>(static_cast<unsigned char>(c));
    state *= kFnv64Prime;
  }
  return state;
}

std::string sum_by_fnv64a(std::string_view first) { return to_hex16(fnv1a64_update(kFnv64OffsetBasis, first)); }

std::string sum_by_fnv64a(std::initializer_list<std::string_view> parts) {
  uint64_t state = kFnv64OffsetBasis;
  for (const auto part : parts) state = fnv1a64_update(state, part);
  return to_hex16(state);
}

}  // namespace chaintwin::model
