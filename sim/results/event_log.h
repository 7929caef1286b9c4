// The event log: one line per EventRecord, the simulated time first, so two runs of the same
// scenario and seed can be compared with diff. format_event() is the single definition of a line;
// EventLogWriter streams lines to a file or stdout while the runner simulates (the runner and
// `chaintwin run --events` call it; golden event-log tests compare format_event_log()).
//
// A line:   "  0d02:00:03.000000 QuotaReserved Workload team-a/chat-0001  <message>"
//           time (19 chars, see format_sim_time) ' ' kind (left-aligned, 13 chars) ' ' object
//           and, when there is one, two spaces and the message. Newlines, tabs and backslashes
//           in the object or message are escaped (\n, \t, \\) so one event is always one line.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "model/result.h"
#include "sim/results/run_record.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

inline constexpr int kEventKindWidth = 13;  // "QuotaReserved", the longest kind

// Exact simulated time as days, hours, minutes, seconds and microseconds: "  0d02:00:03.000000".
// Days right-aligned in 3 columns (fixed width 19 up to 999 days); negative times get a '-'.
std::string format_sim_time(SimTime t);

// A duration inside an event's message ("runs 00:20:00"): exact, "[<d>d]HH:MM:SS[.ffffff]" —
// "00:01:30", "1d02:00:00", "00:00:00.250000" (format_sim_time without zero days and without a
// zero fraction). Reports print durations for people instead (duration_text.h).
std::string format_log_duration(int64_t us);

// One event as one log line (no trailing newline).
std::string format_event(const EventRecord& event);

// Every event, each line ending in '\n'.
std::string format_event_log(const std::vector<EventRecord>& events);

// Streams event lines to a file (replaced), to stdout ("-"), or to a caller's stream.
class EventLogWriter {
 public:
  // Opens (truncates) `path`, or stdout when path is "-". Refuses with the file and the reason.
  static model::Result<EventLogWriter> open(const std::string& path);
  // Writes to a stream the caller owns and keeps alive (tests, in-memory logs).
  explicit EventLogWriter(std::ostream& out, std::string name = "<stream>");

  EventLogWriter(EventLogWriter&&) noexcept;
  EventLogWriter& operator=(EventLogWriter&&) noexcept;
  ~EventLogWriter();

  model::Status write(const EventRecord& event);
  model::Status flush();
  int64_t lines_written() const { return lines_; }

 private:
  EventLogWriter(std::unique_ptr<std::ostream> owned, std::ostream* out, std::string name);
  model::Status check(const char* doing);

  std::unique_ptr<std::ostream> owned_;
  std::ostream* out_ = nullptr;
  std::string name_;
  int64_t lines_ = 0;
};

}  // namespace chaintwin::sim
