# Turns a text file into a C++ source defining `extern const std::string_view SYMBOL`.
# Used so model/ ships its data tables without reading files at run time.
# NAMESPACE defaults to chaintwin::model::data.
if(NOT NAMESPACE)
  set(NAMESPACE "chaintwin::model::data")
endif()
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hex_len)
math(EXPR byte_count "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
string(REGEX REPLACE "(([^,]*,){24})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT}; do not edit.\n#include <string_view>\n"
  "namespace ${NAMESPACE} {\n"
  "static const char k${SYMBOL}Bytes[] = {\n${bytes}'\\0'};\n"
  "extern const std::string_view ${SYMBOL}{k${SYMBOL}Bytes, ${byte_count}};\n"
  "}  // namespace ${NAMESPACE}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
