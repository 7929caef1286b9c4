// The CSV reader of the trace importers (sim/trace/csv_reader.h): quoted fields, line breaks and
// blank lines, and the file:line of every malformed row.
#include <catch2/catch.hpp>

#include "sim/trace/csv_reader.h"

namespace {

using chaintwin::sim::parse_csv;

}  // namespace

TEST_CASE("quoted fields keep commas, doubled quotes and line breaks", "[trace][csv]") {
  const auto t = parse_csv("a,b,c\n\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\"\n3,,\"\"\n", "f.csv");
  REQUIRE(t.ok());
  REQUIRE(t->rows().size() == 2);
  CHECK(t->rows()[0].fields == std::vector<std::string>{"x,y", "say \"hi\"", "two\nlines"});
  CHECK(t->rows()[0].line == 2);
  CHECK(t->rows()[1].fields == std::vector<std::string>{"3", "", ""});
  CHECK(t->rows()[1].line == 4);  // the quoted line break counts
  CHECK(t->column("c") == 2u);
  CHECK_FALSE(t->column("d").has_value());
}

TEST_CASE("CRLF endings, blank lines and a missing final newline read like plain rows", "[trace][csv]") {
  const auto t = parse_csv("a,b\r\n1,2\r\n\r\n\n3,4", "f.csv");
  REQUIRE(t.ok());
  REQUIRE(t->rows().size() == 2);
  CHECK(t->rows()[0].fields == std::vector<std::string>{"1", "2"});
  CHECK(t->rows()[1].fields == std::vector<std::string>{"3", "4"});
  CHECK(t->rows()[1].line == 5);
  CHECK(t->where(t->rows()[1]) == "f.csv:5");
}

TEST_CASE("malformed CSV is refused with the file and line", "[trace][csv]") {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases{
      {"", "f.csv:1: empty file"},
      {"a,a\n", "f.csv:1: header column 2: column 'a' is named twice"},
      {"a,,b\n", "f.csv:1: header column 2 has no name"},
      {"a,b\n1,2\n1,2,3\n", "f.csv:3: 3 fields, but the header has 2"},
      {"a,b\n1\n", "f.csv:2: 1 fields, but the header has 2"},
      {"a,b\n1,2\n\"open,3\n", "f.csv:3: a quoted field is never closed"},
      {"a,b\n\"x\"y,2\n", "f.csv:2: unexpected 'y' after a closing quote"},
      {"a,b\nx\"y,2\n", "f.csv:2: a '\"' inside an unquoted field"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto t = parse_csv(c.text, "f.csv");
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().rfind(c.message, 0) == 0);
  }
}

TEST_CASE("only whole decimal numbers parse as integers", "[trace][csv]") {
  using chaintwin::sim::parse_csv_int;
  CHECK(parse_csv_int("12537496") == int64_t{12537496});
  CHECK(parse_csv_int("-1") == int64_t{-1});
  CHECK_FALSE(parse_csv_int("").has_value());
  CHECK_FALSE(parse_csv_int("1.5").has_value());
  CHECK_FALSE(parse_csv_int("12a").has_value());
  CHECK_FALSE(parse_csv_int(" 1").has_value());
}
