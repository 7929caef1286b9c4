#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <unistd.h>

#include "sim/results/event_log.h"

using chaintwin::sim::EventLogWriter;
using chaintwin::sim::EventRecord;
using chaintwin::sim::format_event;
using chaintwin::sim::format_event_log;
using chaintwin::sim::format_log_duration;
using chaintwin::sim::format_sim_time;
using chaintwin::sim::SimTime;

namespace {

EventRecord event(SimTime at, std::string kind, std::string object, std::string message = "") {
  EventRecord e;
  e.at = at;
  e.kind = std::move(kind);
  e.object = std::move(object);
  e.message = std::move(message);
  return e;
}

}  // namespace

TEST_CASE("a duration in an event message is exact and drops zero days and a zero fraction", "[event_log]") {
  struct Row {
    int64_t us;
    const char* printed;
  };
  const Row rows[] = {{0, "00:00:00"},
                      {90'000'000, "00:01:30"},
                      {250'000, "00:00:00.250000"},
                      {93'600'000'000, "1d02:00:00"},
                      {86'400'000'001, "1d00:00:00.000001"},
                      {-5'000'000, "-00:00:05"}};
  for (const auto& r : rows) CHECK(format_log_duration(r.us) == std::string(r.printed));
}

TEST_CASE("simulated time prints exactly as days, clock time and microseconds in fixed width", "[event_log]") {
  struct Row {
    int64_t us;
    const char* printed;
  };
  const Row rows[] = {
      {0, "  0d00:00:00.000000"},
      {1, "  0d00:00:00.000001"},
      {7'203'000'000, "  0d02:00:03.000000"},
      {86'399'999'999, "  0d23:59:59.999999"},
      {86'400'000'000, "  1d00:00:00.000000"},
      {3 * 86'400'000'000 + 250'000, "  3d00:00:00.250000"},
      {999 * 86'400'000'000 + 61'000'001, "999d00:01:01.000001"},
      {1000 * 86'400'000'000, "1000d00:00:00.000000"},
      {-1'500'000, " -0d00:00:01.500000"},
  };
  for (const auto& r : rows) {
    INFO(r.us);
    CHECK(format_sim_time(SimTime::micros(r.us)) == r.printed);
  }
  CHECK(format_sim_time(SimTime::micros(INT64_MIN)) == "-106751991d04:00:54.775808");
}

TEST_CASE("an event line is time, kind padded to 13 columns, object and then the message", "[event_log]") {
  struct Row {
    EventRecord e;
    const char* line;
  };
  const Row rows[] = {
      {event(SimTime::seconds(7203), "QuotaReserved", "Workload team-a/chat-0001",
             "Quota reserved in ClusterQueue gpustack--x, wait time since queued was 3s"),
       "  0d02:00:03.000000 QuotaReserved Workload team-a/chat-0001  Quota reserved in ClusterQueue gpustack--x, "
       "wait time since queued was 3s"},
      {event(SimTime::millis(1), "arrival", "Workload team-a/chat-0002"),
       "  0d00:00:00.001000 arrival       Workload team-a/chat-0002"},
      {event(SimTime::seconds(0), "action", "", "remove-node h100-1"),
       "  0d00:00:00.000000 action        -  remove-node h100-1"},
      {event(SimTime::seconds(0), "check", "Workload a/b", "line one\nline two\ttab \\ slash"),
       "  0d00:00:00.000000 check         Workload a/b  line one\\nline two\\ttab \\\\ slash"},
  };
  for (const auto& r : rows) CHECK(format_event(r.e) == r.line);
}

TEST_CASE("the log writer streams one line per event and counts them", "[event_log]") {
  std::ostringstream out;
  EventLogWriter writer(out);
  const std::vector<EventRecord> events{event(SimTime::seconds(1), "arrival", "Workload a/w1"),
                                        event(SimTime::seconds(2), "Admitted", "Workload a/w1", "ok")};
  for (const auto& e : events) REQUIRE(writer.write(e).ok());
  REQUIRE(writer.flush().ok());
  CHECK(writer.lines_written() == 2);
  CHECK(out.str() == format_event_log(events));
  CHECK(out.str() ==
        "  0d00:00:01.000000 arrival       Workload a/w1\n"
        "  0d00:00:02.000000 Admitted      Workload a/w1  ok\n");
}

TEST_CASE("the log writer writes a file and names the file when it cannot", "[event_log]") {
  const std::string path = "/tmp/chaintwin-event-log-test-" + std::to_string(::getpid()) + ".log";
  {
    auto writer = EventLogWriter::open(path);
    REQUIRE(writer.ok());
    REQUIRE(writer.value().write(event(SimTime::seconds(5), "Finished", "Workload a/w1")).ok());
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "  0d00:00:05.000000 Finished      Workload a/w1\n");
  ::unlink(path.c_str());

  const auto bad = EventLogWriter::open("/nonexistent-dir/x.log");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rfind("/nonexistent-dir/x.log: cannot open the event log for writing", 0) == 0);
}
