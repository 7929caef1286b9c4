// bad_text_byte (model/api/k8s_validation.h): where a text stops being UTF-8 as the API server
// keeps strings, table-driven over the forms UTF-8 forbids.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "model/api/k8s_validation.h"

using chaintwin::model::bad_text_byte;

TEST_CASE("a text is refused at its first byte that is not well-formed UTF-8, or at a NUL byte", "[k8s][utf8]") {
  struct Case {
    const char* what;
    std::string text;
    std::optional<size_t> at;
  };
  const Case cases[] = {
      {"plain ASCII", "h100-0", std::nullopt},
      {"empty", "", std::nullopt},
      {"two-, three- and four-byte forms", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", std::nullopt},
      {"the last code point U+10FFFF", "\xF4\x8F\xBF\xBF", std::nullopt},
      {"a stray continuation byte", "ab\x80", 2},
      {"0xFF never occurs", "n\xFF\xFE", 1},
      {"a sequence cut short at the end", "x\xE2\x82", 1},
      {"a lead byte followed by ASCII", "\xC3" "a", 0},
      {"an overlong '/'", "\xC0\xAF", 0},
      {"an overlong three-byte form", "\xE0\x80\xAF", 0},
      {"a UTF-16 surrogate", "\xED\xA0\x80", 0},
      {"past U+10FFFF", "\xF4\x90\x80\x80", 0},
      {"a NUL byte", std::string("node-\0a", 7), 5},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(bad_text_byte(c.text) == c.at);
  }
}

TEST_CASE("the refused byte is named by its value and offset, a NUL byte by its name", "[k8s][utf8]") {
  CHECK(chaintwin::model::bad_text_byte_text("n\xFF\xFE", 1) == "byte 0xFF at offset 1");
  CHECK(chaintwin::model::bad_text_byte_text(std::string("node-\0a", 7), 5) == "a NUL byte at offset 5");
}
