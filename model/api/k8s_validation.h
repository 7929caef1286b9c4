// Kubernetes name validation (k8s.io/apimachinery/pkg/util/validation): qualified names
// (label keys, extended resource names), label values and DNS-1123 names.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace chaintwin::model {

// The longest a label value, a qualified name's name part or a DNS-1123 label may be.
inline constexpr std::size_t kMaxLabelLength = 63;

// [prefix/]name with name ≤ 63 chars matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] and the
// optional prefix a DNS-1123 subdomain (≤ 253 chars).
bool is_qualified_name(std::string_view value);
// ≤ 63 chars, empty or ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
bool is_label_value(std::string_view value);
// Lower-case RFC 1123 subdomain: ≤ 253 chars, [a-z0-9]([-a-z0-9]*[a-z0-9])? joined by '.'.
bool is_dns1123_subdomain(std::string_view value);
// Lower-case RFC 1123 label: ≤ 63 chars, [a-z0-9]([-a-z0-9]*[a-z0-9])?.
bool is_dns1123_label(std::string_view value);

// Why a value is not what the predicates above accept, in kube-apiserver's words (the message after
// `Invalid value: "x": `), or "" when it is.
std::string dns1123_subdomain_problem(std::string_view value);
std::string dns1123_label_problem(std::string_view value);
std::string label_key_problem(std::string_view key);  // a qualified name
std::string label_value_problem(std::string_view value);

// The offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
// (overlong forms, surrogates and code points past U+10FFFF included), or of the first NUL byte;
// nullopt when the text is clean. The API server keeps strings as UTF-8 JSON; a name that is not
// cannot be written anywhere.
std::optional<size_t> bad_text_byte(std::string_view value);
// That byte in words: "byte 0xFF at offset 1", "a NUL byte at offset 3".
std::string bad_text_byte_text(std::string_view value, size_t at);

}  // namespace chaintwin::model
