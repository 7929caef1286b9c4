// The credit unit: M = 1,600,000 units per whole accelerator, so fractional shared and sliced
// charges stay integers in Kueue's int64 accounting.
#pragma once

#include <cstdint>

namespace chaintwin::model {

inline constexpr int64_t kUnitsPerAccelerator = 1'600'000;  // M, ResourceMaxUnits, CreditsPerAccelerator
inline constexpr int64_t kSharesPerAccelerator = 10;         // SharedResourceMaxSize
inline constexpr int64_t kUnitsPerShare = kUnitsPerAccelerator / kSharesPerAccelerator;  // 160,000
inline constexpr int64_t kSlicedResourceMaxSize = 512;       // power-of-two slice sizes 1..512 divide M
inline constexpr int64_t kUnitsPerMemoryPercent = kUnitsPerAccelerator / 100;  // 16,000

}  // namespace chaintwin::model
