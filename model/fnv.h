// FNV-1a 64-bit hashing as the operator's stringx.SumByFNV64a does it: the UTF-8 bytes of
// every part fed back to back (no separator), the 64-bit sum printed big-endian as 16
// lower-case hex digits. Used for LocalQueue names and topology profiles.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace chaintwin::model {

inline constexpr uint64_t kFnv64OffsetBasis = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kFnv64Prime = 0x100000001b3ULL;

// Folds the bytes of `bytes` into a running FNV-1a-64 state (start from kFnv64OffsetBasis).
uint64_t fnv1a64_update(uint64_t state, std::string_view bytes);

// The 16-digit lower-case hex of FNV-1a-64 over the parts concatenated.
std::string sum_by_fnv64a(std::string_view first);
std::string sum_by_fnv64a(std::initializer_list<std::string_view> parts);

}  // namespace chaintwin::model
