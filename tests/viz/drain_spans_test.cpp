#include <catch2/catch.hpp>

#include "viz/drain_spans.h"

using namespace chaintwin::viz;

TEST_CASE("a hold's cause is read from the operator's write that set it", "[viz][drains]") {
  struct Row {
    const char* reason;
    const char* action;
    const char* cause;
  };
  const Row rows[] = {
      {"update by InstanceType: spec.inactive=true: hold the queue", "", "admin Hold"},
      {"update by NodeQueue: the queue is being deleted: hold and drain so Kueue evicts its workloads", "",
       "queue deleted"},
      {"create by InstanceType: no backing ClusterQueue: create it held with the empty-plan-hold marker", "",
       "empty plan (new pool)"},
      {"update by NodeQueue: the plan drops flavors Kueue may still hold quota on: save the stop policy, hold and drain",
       "Node node-a remove-node: the Node leaves", "flavor lost (migration)"},
      {"update by NodeQueue: the plan drops flavors Kueue may still hold quota on: save the stop policy, hold and drain",
       "Setting default set-setting: profile awareness on", "profile migration"},
      {"update by NodeQueue: fill the resource groups from 1 live flavor(s)", "", ""},
  };
  for (const auto& row : rows) {
    INFO(row.reason);
    CHECK(drain_cause(row.reason, row.action) == row.cause);
  }
}

TEST_CASE("drain spans run from the sample that leaves None to the one that returns, with the write that caused them",
          "[viz][drains]") {
  PoolSeries s{"q", "credits.gpustack.ai/nvidia", {}};
  auto add = [&](int64_t at, StopPolicy p) {
    SeriesPoint pt;
    pt.at_us = at;
    pt.stop_policy = p;
    s.points.push_back(pt);
  };
  add(0, StopPolicy::kNone);
  add(100, StopPolicy::kHold);
  add(150, StopPolicy::kHoldAndDrain);
  add(200, StopPolicy::kNone);
  add(300, StopPolicy::kHold);
  // A second series of the same queue (its cpu) adds no span of its own.
  PoolSeries cpu = s;
  cpu.resource = "cpu";
  const std::vector<EventRow> events = {
      {100, "action", "InstanceType q", "set-inactive: spec.inactive=true"},
      {100, "write", "ClusterQueue q", "update by InstanceType: spec.inactive=true: hold the queue"},
      {100, "write", "ClusterQueue q", "update-status by Kueue: ClusterQueue q is inactive (Stopped)"},
      {300, "write", "ClusterQueue q", "update by NodeQueue: the queue is being deleted: hold and drain"},
      {300, "write", "ClusterQueue other", "update by InstanceType: spec.inactive=true: hold the queue"},
  };
  const auto spans = drain_spans({s, cpu}, events, {}, 400);
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].from_us == 100);
  CHECK(spans[0].to_us == std::optional<int64_t>(150));  // Hold became HoldAndDrain: a new span
  CHECK(spans[0].stop_policy == StopPolicy::kHold);
  CHECK(spans[0].cause == "admin Hold");
  CHECK(spans[0].detail.find("(after: InstanceType q set-inactive") != std::string::npos);
  CHECK(spans[1].from_us == 150);
  CHECK(spans[1].to_us == std::optional<int64_t>(200));
  CHECK(spans[1].stop_policy == StopPolicy::kHoldAndDrain);
  CHECK(spans[2].from_us == 300);
  CHECK_FALSE(spans[2].to_us.has_value());
  CHECK(spans[2].cause == "queue deleted");
}

TEST_CASE("a hold starts at the operator's write, before Kueue's next status report samples it", "[viz][drains]") {
  PoolSeries s{"q", "cpu", {}};
  SeriesPoint p0;
  p0.at_us = 0;
  s.points.push_back(p0);
  const std::vector<EventRow> events = {
      {50, "write", "ClusterQueue q", "update by NodeQueue: the plan drops flavors Kueue may still hold quota on"}};
  PoolRow now;
  now.cluster_queue = "q";
  now.stop_policy = StopPolicy::kHoldAndDrain;
  // Not sampled yet: the queue's policy now opens the span, from the write.
  const auto open = drain_spans({s}, events, {now}, 60);
  REQUIRE(open.size() == 1);
  CHECK(open[0].from_us == 50);
  CHECK_FALSE(open[0].to_us.has_value());
  CHECK(open[0].cause == "flavor lost (migration)");
  // Sampled at the report (70): the span still starts at the write.
  SeriesPoint p1;
  p1.at_us = 70;
  p1.stop_policy = StopPolicy::kHoldAndDrain;
  s.points.push_back(p1);
  const auto sampled = drain_spans({s}, events, {now}, 80);
  REQUIRE(sampled.size() == 1);
  CHECK(sampled[0].from_us == 50);
}

TEST_CASE("of several writes at the hold's instant, the one that says why the queue is held is its cause",
          "[viz][drains]") {
  PoolSeries s{"q", "cpu", {}};
  SeriesPoint before, held;
  held.at_us = 10;
  held.stop_policy = StopPolicy::kHoldAndDrain;
  s.points = {before, held};
  const std::vector<EventRow> events = {
      {10, "write", "ClusterQueue q", "update by NodeQueue: the plan drops flavors Kueue may still hold quota on: hold and drain"},
      {10, "write", "ClusterQueue q", "update by NodeQueue: the drained, stopped queue switches to the new flavor plan"}};
  const auto spans = drain_spans({s}, events, {}, 20);
  REQUIRE(spans.size() == 1);
  CHECK(spans[0].cause == "flavor lost (migration)");
  CHECK(spans[0].detail.find("drops flavors") != std::string::npos);
}
