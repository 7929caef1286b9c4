// Partition profile names across the publish boundary (pkg/nodefeature/knowns.go).
//
// Below the boundary (Devices, on-disk markers, vendor library calls) a profile keeps the
// vendor's spelling; above it (node keys, InstanceType inventory, Pod requests) it is published.
// Only separator-less manufacturers (T-Head) differ: `4g48gb` publishes as `4g.48gb`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chaintwin::model {

// Lower-cased last whitespace-separated field: "MIG 1c.12g" -> "1c.12g"; blank -> "".
std::string normalize_partitioned_profile_name(std::string_view raw);
// Vendor -> published ("4g48gb" -> "4g.48gb" for thead); idempotent; other input unchanged.
std::string publish_partitioned_profile_name(std::string_view manufacturer, std::string_view profile);
// Published -> vendor ("4g.48gb" -> "4g48gb" for thead); idempotent; other input unchanged.
std::string vendor_partitioned_profile_name(std::string_view manufacturer, std::string_view profile);

// `<base>.partitioned.<kind>-<published>`, or "" when the manufacturer has no partition kind,
// the profile is empty, or the key would not be a valid qualified name (e.g. `+me`, > 63 chars).
std::string partitioned_profile_resource_name(std::string_view manufacturer, std::string_view vendor_profile);

// The published profile a per-profile key names, when the key has a known base, that base's
// kind, and a non-empty tail.
struct ParsedProfileKey {
  std::string manufacturer;
  std::string profile;  // as written in the key (published)
};
std::optional<ParsedProfileKey> partitioned_profile_of(std::string_view resource_name);
// The same, translated back to the vendor spelling.
std::optional<ParsedProfileKey> vendor_partitioned_profile_of(std::string_view resource_name);

}  // namespace chaintwin::model
