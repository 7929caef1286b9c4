// The runner's book of Workloads (sim/runner/workload_book.h): ids handed out once per arrival,
// slots reused after a Workload retires, and an event for a retired Workload finding nothing.
#include <catch2/catch.hpp>

#include "sim/runner/workload_book.h"

using chaintwin::sim::Tracked;
using chaintwin::sim::WorkloadBook;
using chaintwin::sim::WorkloadId;

TEST_CASE("a Workload's id finds its entry until it is removed, and then never again", "[sim][workload_book]") {
  WorkloadBook book;
  WorkloadBook::Entry& a = book.add("default/a-long-name-beyond-the-small-string", 0);
  a.tracked = Tracked{};
  const int64_t a_id = a.id.packed();
  book.add("ns/b", 1);  // short keys too: the index keeps views of the keys
  for (int i = 0; i < 100; ++i) book.add("ns/w" + std::to_string(i), static_cast<size_t>(2 + i));

  REQUIRE(book.find(a_id) != nullptr);
  CHECK(book.find(a_id)->key == "default/a-long-name-beyond-the-small-string");
  CHECK(book.find("ns/b")->outcome == 1);
  CHECK(book.find("ns/w99")->outcome == 101);
  CHECK(book.tracked("default/a-long-name-beyond-the-small-string") != nullptr);
  CHECK(book.tracked("ns/b") == nullptr);  // recorded, not tracked

  book.remove(*book.find(a_id));
  CHECK(book.find(a_id) == nullptr);
  CHECK(book.find("default/a-long-name-beyond-the-small-string") == nullptr);

  // The slot is reused under a new generation: the old id still finds nothing.
  WorkloadBook::Entry& c = book.add("ns/c", 200);
  CHECK(c.id.slot == WorkloadId::unpack(a_id).slot);
  CHECK(c.id.packed() != a_id);
  CHECK(book.find(a_id) == nullptr);
  CHECK(book.find(c.id.packed())->key == "ns/c");
  CHECK(book.find("ns/b")->key == "ns/b");
}

TEST_CASE("a second arrival under a recorded name keeps its id and tracking and replaces its outcome", "[sim][workload_book]") {
  WorkloadBook book;
  WorkloadBook::Entry& first = book.add("ns/x", 0);
  first.tracked = Tracked{};
  first.tracked->epoch = 3;
  const int64_t id = first.id.packed();
  WorkloadBook::Entry& again = book.add("ns/x", 7);
  CHECK(again.id.packed() == id);
  CHECK(again.outcome == 7);
  REQUIRE(again.tracked);
  CHECK(again.tracked->epoch == 3);
}

TEST_CASE("each() visits every recorded entry once", "[sim][workload_book]") {
  WorkloadBook book;
  for (int i = 0; i < 10; ++i) book.add("ns/w" + std::to_string(i), static_cast<size_t>(i));
  book.remove(*book.find("ns/w3"));
  size_t seen = 0, sum = 0;
  book.each([&](const WorkloadBook::Entry& e) {
    ++seen;
    sum += e.outcome;
  });
  CHECK(seen == 9);
  CHECK(sum == 45 - 3);
}
