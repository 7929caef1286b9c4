// Name sanitizers of the operator (pkg/device/helper.go, pkg/kubemeta): NormalizeName turns a
// device or CPU product name into a label-safe slug, ConstructGroupID derives a Devices group id
// (and so the aKey) from it, SanitizeLabelValue makes any string a valid label value, and the
// binary-SI formatter writes VRAM the way the `.memory` node label carries it.
// Callers: node_keys (gKey, accelerator labels), the Devices builders.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace chaintwin::model {

// The CPU-name cruft strip NormalizeName applies first when asked: cut at " @ ", drop
// (R)/(r)/(TM)/(tm), drop leading "Genuine " / "<n>st|nd|rd|th Gen " runs, trim Unicode
// space, drop one trailing " CPU" then one trailing " Processor", then a trailing
// " <n>-core(s)" (any case). "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz" -> "Intel Xeon Platinum 8358".
std::string strip_cpu_name_cruft(std::string_view name);

// NormalizeName(name, prefix, maxLength, stripCruft): lower-cases A-Z, keeps a-z 0-9, maps
// ' ' to '-', keeps '-' '_' '.' except first or after another separator, drops everything
// else; whenever the slug so far is exactly as long as `prefix` and equals it ignoring case it
// is cleared (so the vendor prefix never leads); stops at `max_length` characters (no limit
// when <= 0); drops one trailing separator. "NVIDIA GeForce RTX 4090", "nvidia" -> "geforce-rtx-4090".
std::string normalize_name(std::string_view name, std::string_view prefix, int max_length, bool strip_cpu_cruft);

// kubemeta.SanitizeLabelValue: keeps letters (any case) and digits, maps ' ' to '-', keeps
// '-' '_' '.' except first or doubled, at most 63 characters, one trailing separator dropped.
// "Tesla T4" -> "Tesla-T4".
std::string sanitize_label_value(std::string_view value);

// quantityx.FormatBinarySI of `mib` MiB: the largest binary unit the value reaches, rounded
// half up ("15360" -> "15Gi", "43238" -> "42Gi", "512" -> "512Mi", 0 -> "0").
std::string format_binary_si_mib(uint64_t mib);

// The memory suffix of a group id: "0g" for 0, "1g" under 1 GiB, else the binary-SI form
// lower-cased without its final 'i' ("15Gi" -> "15g", "1Ti" -> "1t").
std::string format_group_memory(uint64_t mib);

// ConstructGroupID: NormalizeName(product, manufacturer, 63 - len(manufacturer) - 1, false),
// and with `with_memory` (GPUSTACK_DEVICES_GROUP_ID_WITH_MEMORY=true) a 7-character smaller
// budget and a "-<memory>" suffix.
std::string construct_group_id(std::string_view manufacturer, std::string_view product, uint64_t memory_mib = 0,
                               bool with_memory = false);

// aKey = "<manufacturer>-<group id>".
std::string accelerator_key(std::string_view manufacturer, std::string_view group_id);
// Whether `key` is accelerator_key(manufacturer, group_id), compared in place (nothing built).
bool is_accelerator_key(std::string_view key, std::string_view manufacturer, std::string_view group_id);

}  // namespace chaintwin::model
