// Integers read as kube-apiserver reads query parameters and resourceVersions (Go's
// strconv.ParseInt / ParseUint in base 10, 64 bits): an optional sign (ParseInt only), then digits,
// nothing else; out of range is an error. The errors use Go's wording, which kube-apiserver passes
// on to clients ("strconv.ParseInt: parsing \"abc\": invalid syntax"). Pure; used by the list
// options, the label selector's Gt/Lt and the continue token.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/result.h"

namespace chaintwin::live {

model::Result<int64_t> go_parse_int(std::string_view text);
model::Result<uint64_t> go_parse_uint(std::string_view text);
// Go's %q of a string, enough for what the API server quotes back: "a\"b" with \\, \", \n, \t and
// \xNN for other control bytes.
std::string go_quote(std::string_view text);

}  // namespace chaintwin::live
