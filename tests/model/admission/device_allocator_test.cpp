#include <catch2/catch.hpp>

#include "admission_builders.h"
#include "model/admission/device_allocator.h"

using namespace admission_test;

TEST_CASE("a slice lands on the fullest card that still fits it", "[admission][allocator]") {
  auto d = node_devices("node-a", 3);
  // card 0: 40 % free, card 1: 70 % free, card 2: untouched.
  REQUIRE(allocate_pod(d, pod("p0", {slice(60)})).ok());
  auto& r1 = d.status.groups[0].accelerators[1];
  r1.mode = DeviceAllocationMode::kSliced;
  r1.remaining = pct(70);
  r1.allocated = pct(30);
  r1.allocated_slices = 1;
  REQUIRE(row(d, 0).remaining == pct(40));

  struct Row { int32_t percent; size_t card; };
  for (const auto& [percent, card] : std::vector<Row>{{30, 0}, {50, 1}, {90, 2}}) {
    auto trial = d;
    const auto got = allocate_pod(trial, pod("p", {slice(percent)}));
    REQUIRE(got.ok());
    CHECK(got->at(0).accelerator == row(d, card).id);
    CHECK(row(trial, card).remaining == row(d, card).remaining - pct(percent));
    CHECK(row(trial, card).allocated_slices == row(d, card).allocated_slices + 1);
  }
}

TEST_CASE("a slice no card can hold is refused and changes nothing", "[admission][allocator]") {
  auto d = node_devices("node-a", 1);
  REQUIRE(allocate_pod(d, pod("p0", {slice(60)})).ok());
  const auto before = d;
  const auto got = allocate_pod(d, pod("p1", {slice(60)}));
  REQUIRE_FALSE(got.ok());
  CHECK(got.error().rfind("FailedPrecondition: ", 0) == 0);
  CHECK(d == before);
}

TEST_CASE("with the sliced allocate gate off a slice no card can hold lands on the freest card clamped at 0",
          "[admission][allocator]") {
  auto d = node_devices("node-a", 2);
  REQUIRE(allocate_pod(d, pod("p0", {slice(60)})).ok());  // card 0: 40 % left
  REQUIRE(allocate_pod(d, pod("p1", {slice(70)})).ok());  // card 1: 30 % left
  struct Row { bool gate; bool ok; size_t card; int64_t remaining; int64_t charged; };
  for (const auto& r : std::vector<Row>{{true, false, 0, pct(40), 0}, {false, true, 0, 0, pct(40)}}) {
    auto trial = d;
    const auto got = allocate_pod(trial, pod("p2", {slice(50)}), r.gate);
    REQUIRE(got.ok() == r.ok);
    CHECK(row(trial, r.card).remaining == r.remaining);
    if (!r.ok) continue;
    CHECK(got->at(0).accelerator == row(d, r.card).id);
    CHECK(got->at(0).units == r.charged);
    CHECK(row(trial, r.card).allocated_slices == 2);
    release_pod(trial, pod("p2", {slice(50)}), false);  // gives back what it took, no more
    CHECK(row(trial, r.card).remaining == pct(40));
  }
}

TEST_CASE("with terminated-Pod release off a finished slice stays charged until delete", "[admission][allocator]") {
  struct Row { bool release; int64_t after_finish; };
  for (const auto& r : std::vector<Row>{{true, kM}, {false, pct(50)}}) {
    auto d = node_devices("node-a", 1);
    const auto q = pod("slice", {slice(50)});
    REQUIRE(allocate_pod(d, q).ok());
    release_pod(d, q, false, r.release);
    CHECK(row(d, 0).remaining == r.after_finish);
    release_pod(d, q, true, r.release);
    CHECK(row(d, 0).remaining == kM);
    CHECK(row(d, 0).mode == DeviceAllocationMode::kNone);
  }
}

TEST_CASE("a Hygon card with 4 slices refuses a 5th at Allocate", "[admission][allocator]") {
  auto d = node_devices("node-h", 1, CardKind::kSliceable, "hygon", 4);
  for (int i = 0; i < 4; ++i) {
    auto p = pod("p" + std::to_string(i), {container("main", {{"hygon.com/dcu.sliced", "1"},
                                                              {"hygon.com/dcu.sliced.units", std::to_string(pct(10))}})});
    REQUIRE(allocate_pod(d, p).ok());
  }
  CHECK(row(d, 0).allocated_slices == 4);
  auto fifth = pod("p4", {container("main", {{"hygon.com/dcu.sliced", "1"}, {"hygon.com/dcu.sliced.units", "16000"}})});
  CHECK_FALSE(allocate_pod(d, fifth).ok());
}

TEST_CASE("a shared grant takes distinct cards and is refused on too few", "[admission][allocator]") {
  auto d = node_devices("node-a", 2, CardKind::kWholeOnly);
  const auto two = allocate_pod(d, pod("p0", {shared(2)}));
  REQUIRE(two.ok());
  REQUIRE(two->size() == 2);
  CHECK(two->at(0).accelerator != two->at(1).accelerator);
  CHECK(row(d, 0).remaining == kM - kM / 10);
  CHECK(row(d, 1).mode == DeviceAllocationMode::kShared);
  const auto before = d;
  CHECK_FALSE(allocate_pod(d, pod("p1", {shared(3)})).ok());
  CHECK(d == before);
}

TEST_CASE("ten holders fill a card's shares and an eleventh is refused", "[admission][allocator]") {
  auto d = node_devices("node-a", 1, CardKind::kWholeOnly);
  for (int i = 0; i < 10; ++i) REQUIRE(allocate_pod(d, pod("p" + std::to_string(i), {shared(1)})).ok());
  CHECK(row(d, 0).remaining == 0);
  CHECK_FALSE(allocate_pod(d, pod("p10", {shared(1)})).ok());
}

TEST_CASE("a card held in one mode refuses another", "[admission][allocator]") {
  auto d = node_devices("node-a", 1);
  REQUIRE(allocate_pod(d, pod("s", {slice(10)})).ok());
  CHECK_FALSE(allocate_pod(d, pod("x", {exclusive(1)})).ok());
  CHECK_FALSE(allocate_pod(d, pod("h", {shared(1)})).ok());
}

TEST_CASE("exclusive takes whole free cards and all-or-nothing", "[admission][allocator]") {
  auto d = node_devices("node-a", 3, CardKind::kWholeOnly);
  REQUIRE(allocate_pod(d, pod("h", {shared(1)})).ok());  // card 0 now shared
  const auto two = allocate_pod(d, pod("x", {exclusive(2)}));
  REQUIRE(two.ok());
  CHECK(two->at(0).accelerator == row(d, 1).id);
  CHECK(two->at(1).accelerator == row(d, 2).id);
  CHECK(row(d, 1).remaining == 0);
  CHECK(row(d, 1).mode == DeviceAllocationMode::kExclusive);
  CHECK_FALSE(allocate_pod(d, pod("y", {exclusive(1)})).ok());
}

TEST_CASE("partitions pack onto the fullest card at legal starts", "[admission][allocator]") {
  auto d = node_devices("node-m", 2, CardKind::kH100Mig);
  const auto a = allocate_pod(d, pod("a", {partition("3g.40gb")}));
  REQUIRE(a.ok());
  CHECK(a->at(0).accelerator == row(d, 0).id);
  CHECK(a->at(0).start == 0);
  CHECK(a->at(0).length == 4);
  const auto b = allocate_pod(d, pod("b", {partition("1g.10gb")}));
  REQUIRE(b.ok());
  CHECK(b->at(0).accelerator == row(d, 0).id);  // packed beside the 3g, not on the empty card
  CHECK(b->at(0).start == 4);
  const auto c = allocate_pod(d, pod("c", {partition("3g.40gb")}));
  REQUIRE(c.ok());
  CHECK(c->at(0).accelerator == row(d, 1).id);  // card 0 has no free 3g start left
  CHECK(row(d, 0).mode == DeviceAllocationMode::kPartitioned);
  CHECK(row(d, 0).instances.size() == 2);
  bool saw_7g = false;
  for (const auto& p : row(d, 0).remaining_profiles)
    if (p.name == "7g.80gb") {
      saw_7g = true;
      CHECK(p.count == 0);
    }
  CHECK(saw_7g);
}

TEST_CASE("a finished slice is released at once but a finished partition stays until delete", "[admission][allocator]") {
  auto d = node_devices("node-m", 1, CardKind::kH100Mig);
  auto s = node_devices("node-a", 1);
  const auto p = pod("part", {partition("3g.40gb")}, "node-m");
  const auto q = pod("slice", {slice(50)});
  REQUIRE(allocate_pod(d, p).ok());
  REQUIRE(allocate_pod(s, q).ok());

  release_pod(d, p, false);
  release_pod(s, q, false);
  CHECK(row(d, 0).instances.size() == 1);
  CHECK(row(d, 0).mode == DeviceAllocationMode::kPartitioned);
  CHECK(row(s, 0).remaining == kM);
  CHECK(row(s, 0).mode == DeviceAllocationMode::kNone);

  release_pod(d, p, false);  // idempotent
  CHECK(row(d, 0).instances.size() == 1);
  release_pod(d, p, true);
  CHECK(row(d, 0).instances.empty());
  CHECK(row(d, 0).mode == DeviceAllocationMode::kNone);
}

TEST_CASE("a finished MetaX slice stays charged until the Pod is deleted", "[admission][allocator]") {
  auto d = node_devices("node-x", 1, CardKind::kSliceable, "metax", 16);
  const auto p = pod("m", {container("main", {{"metax-tech.com/gpu.sliced", "1"},
                                               {"metax-tech.com/gpu.sliced.units", "800000"}})});
  REQUIRE(allocate_pod(d, p).ok());
  release_pod(d, p, false);
  CHECK(row(d, 0).remaining == kM / 2);
  release_pod(d, p, true);
  CHECK(row(d, 0).remaining == kM);
}

TEST_CASE("allocate then release returns every ledger row to its seeded state", "[admission][allocator]") {
  struct Case { const char* what; Devices seeded; Pod p; };
  const std::vector<Case> cases = {
      {"exclusive", node_devices("node-a", 2, CardKind::kWholeOnly), pod("x", {exclusive(2)})},
      {"shared", node_devices("node-a", 2, CardKind::kWholeOnly), pod("h", {shared(2)})},
      {"slice", node_devices("node-a", 2), pod("s", {slice(30)})},
      {"partition", node_devices("node-m", 1, CardKind::kH100Mig), pod("m", {partition("1g.10gb")}, "node-m")},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    auto d = c.seeded;
    const auto& p = c.p;
    REQUIRE(allocate_pod(d, p).ok());
    CHECK_FALSE(d == c.seeded);
    release_pod(d, p, false);
    release_pod(d, p, true);
    release_pod(d, p, true);
    CHECK(d == c.seeded);
    CHECK(row(d, 0).remaining == kM);
    CHECK(row(d, 0).mode == DeviceAllocationMode::kNone);
  }
}

TEST_CASE("a release takes only its own Pod's charges, whatever the other holders' names share with it",
          "[admission][allocator]") {
  // Holders are "<namespace>/<pod>/<container>": names that extend the released Pod's, end as it
  // does, or differ only before its last characters keep their charges.
  const std::vector<std::string> others = {"p-10", "p-1x", "q-1", "p-", "p-11", "xp-1", "p-1-1", "p"};
  for (const std::string& released : {std::string("p-1"), std::string("p-1-1"), std::string("p")}) {
    INFO(released);
    auto d = node_devices("node-a", 1, CardKind::kWholeOnly);
    REQUIRE(allocate_pod(d, pod(released, {shared(1)})).ok());
    auto seeded = node_devices("node-a", 1, CardKind::kWholeOnly);
    int held = 0;
    for (const auto& o : others) {
      if (o == released) continue;
      REQUIRE(allocate_pod(d, pod(o, {shared(1)})).ok());
      REQUIRE(allocate_pod(seeded, pod(o, {shared(1)})).ok());
      ++held;
    }
    CHECK(release_pod(d, pod(released, {shared(1)}), true));
    CHECK(d == seeded);  // every other holder's charge is still there, and only theirs
    CHECK(static_cast<int>(row(d, 0).charges.size()) == held);
  }
}

TEST_CASE("a retried Allocate gets the same grant back", "[admission][allocator]") {
  auto d = node_devices("node-a", 2);
  const auto p = pod("s", {slice(30)});
  const auto first = allocate_pod(d, p);
  const auto once = d;
  const auto again = allocate_pod(d, p);
  REQUIRE(first.ok());
  REQUIRE(again.ok());
  CHECK(*first == *again);
  CHECK(d == once);
}

TEST_CASE("a refused Allocate leaves the ledger as it was, whatever the family and however many containers claim",
          "[admission][allocator]") {
  // allocate_pod grants a lone claiming container on the ledger itself and several on a copy; both
  // must leave a refused Pod's ledger untouched, and a granted one charged exactly once.
  struct Row {
    const char* name;
    CardKind kind;
    int cards;
    std::vector<Container> fill;    // granted first
    std::vector<Container> refuse;  // then refused
  };
  const std::vector<Row> rows = {
      {"one exclusive container, no whole card left", CardKind::kWholeOnly, 1, {exclusive(1)}, {exclusive(1)}},
      {"one shared container, too few cards", CardKind::kWholeOnly, 1, {}, {shared(2)}},
      {"one slice container, no card with the units", CardKind::kSliceable, 1, {slice(60)}, {slice(60)}},
      {"one partition container, no free placement", CardKind::kH100Mig, 1, {partition("7g.80gb")}, {partition("1g.10gb")}},
      {"two containers, the second refused", CardKind::kWholeOnly, 2, {},
       {exclusive(1, "a"), exclusive(2, "b")}},
      {"two slice containers, the second refused", CardKind::kSliceable, 1, {},
       {slice(60, "a"), slice(60, "b")}},
  };
  for (const auto& row_case : rows) {
    SECTION(row_case.name) {
      auto d = node_devices("node-a", row_case.cards, row_case.kind);
      if (!row_case.fill.empty()) REQUIRE(allocate_pod(d, pod("first", row_case.fill)).ok());
      const auto before = d;
      const auto got = allocate_pod(d, pod("second", row_case.refuse));
      REQUIRE_FALSE(got.ok());
      CHECK(d == before);
    }
  }
}

TEST_CASE("release reports a move exactly when the ledger changed", "[admission][allocator]") {
  struct Step {
    bool deleted;
    bool release_terminated;
  };
  struct Case {
    const char* what;
    Devices seeded;
    Pod p;
    std::vector<Step> steps;  // applied in order after the allocation
  };
  const Step finish{false, true}, finish_kept{false, false}, del{true, true};
  const std::vector<Case> cases = {
      {"exclusive: released at the finish, nothing left at deletion", node_devices("node-a", 2, CardKind::kWholeOnly),
       pod("x", {exclusive(2)}), {finish, finish, del, del}},
      {"slice with terminated-Pod release off: kept at the finish", node_devices("node-a", 1), pod("s", {slice(30)}),
       {finish_kept, del, del}},
      {"partition: kept at the finish, released at deletion", node_devices("node-m", 1, CardKind::kH100Mig),
       pod("m", {partition("1g.10gb")}, "node-m"), {finish, del, del}},
      {"MetaX slice: kept at the finish", node_devices("node-x", 1, CardKind::kSliceable, "metax", 16),
       pod("mx", {container("main", {{"metax-tech.com/gpu.sliced", "1"}, {"metax-tech.com/gpu.sliced.units", "800000"}})}),
       {finish, del}},
      {"a Pod that holds nothing here", node_devices("node-a", 1), pod("other", {slice(30)}), {finish, del}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Devices d = c.seeded;
    if (std::string(c.what) != "a Pod that holds nothing here") REQUIRE(allocate_pod(d, c.p).ok());
    for (std::size_t i = 0; i < c.steps.size(); ++i) {
      INFO("step " << i);
      const Devices before = d;
      const bool moved = release_pod(d, c.p, c.steps[i].deleted, c.steps[i].release_terminated);
      CHECK(moved == !(d == before));
    }
    CHECK(d == c.seeded);  // every case ends released
  }
}

TEST_CASE("Allocate reads each ledger row's card from the spec by id: unlisted and unhealthy cards are never granted, "
          "and a repeated id takes its last spec entry",
          "[admission][allocator]") {
  struct Row {
    const char* what;
    bool repeat_healthy;  // the extra spec entry for card 2's id is healthy (else unhealthy)
    size_t granted;       // the row a one-card exclusive grant lands on
    bool two_fit;         // whether a two-card exclusive grant fits
  };
  for (const auto& r : std::vector<Row>{
           {"the last entry of a repeated id is unhealthy", false, 3, false},
           {"the last entry of a repeated id is healthy", true, 2, true},
       }) {
    SECTION(r.what) {
      auto d = node_devices("node-a", 4, CardKind::kWholeOnly);
      auto& spec = d.spec.groups[0].accelerators;
      spec[0].status.unhealthy = true;                       // card 0: unhealthy
      d.status.groups[0].accelerators[1].id = "not-in-spec";  // card 1's row names no spec card
      spec[2].status.unhealthy = r.repeat_healthy;  // card 2's first spec entry says the opposite ...
      Accelerator last = spec[2];
      last.status.unhealthy = !r.repeat_healthy;  // ... of its last one, which decides
      spec.push_back(last);
      auto one = d;
      const auto got = allocate_pod(one, pod("x", {exclusive(1)}));
      REQUIRE(got.ok());
      CHECK(got->at(0).accelerator == row(d, r.granted).id);
      auto two = d;
      CHECK(allocate_pod(two, pod("y", {exclusive(2)})).ok() == r.two_fit);
      auto three = d;
      CHECK_FALSE(allocate_pod(three, pod("z", {exclusive(3)})).ok());
    }
  }
}
