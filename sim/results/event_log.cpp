#include "sim/results/event_log.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

namespace chaintwin::sim {
namespace {

std::string two_digits(int64_t v) {
  return std::string(1, static_cast<char>('0' + v / 10)) + static_cast<char>('0' + v % 10);
}

// Backslash, newline, carriage return and tab as two-character escapes: one event, one line.
void append_escaped(std::string& out, const std::string& text) {
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
}

}  // namespace

std::string format_sim_time(SimTime t) {
  // Work on the magnitude as unsigned so that even INT64_MIN prints.
  const bool negative = t.us() < 0;
  const uint64_t mag = negative ? uint64_t{0} - static_cast<uint64_t>(t.us()) : static_cast<uint64_t>(t.us());
  const uint64_t micros = mag % 1'000'000;
  const uint64_t secs = mag / 1'000'000;
  const auto s = static_cast<int64_t>(secs % 60);
  const auto m = static_cast<int64_t>((secs / 60) % 60);
  const auto h = static_cast<int64_t>((secs / 3600) % 24);
  const uint64_t d = secs / 86400;

  std::string days = (negative ? "-" : "") + std::to_string(d);
  if (days.size() < 3) days.insert(0, 3 - days.size(), ' ');
  std::string frac = std::to_string(micros);
  frac.insert(0, 6 - frac.size(), '0');
  return days + "d" + two_digits(h) + ":" + two_digits(m) + ":" + two_digits(s) + "." + frac;
}

std::string format_log_duration(int64_t us) {
  std::string t = format_sim_time(SimTime::micros(us));
  t.erase(0, t.find_first_not_of(' '));
  const bool negative = t[0] == '-';
  if (negative) t.erase(0, 1);
  if (t.rfind("0d", 0) == 0) t.erase(0, 2);
  if (t.size() >= 7 && t.compare(t.size() - 7, 7, ".000000") == 0) t.erase(t.size() - 7);
  return negative ? "-" + t : t;
}

std::string format_event(const EventRecord& event) {
  std::string line = format_sim_time(event.at);
  line += ' ';
  std::string kind;
  append_escaped(kind, event.kind.empty() ? std::string("-") : event.kind);
  if (kind.size() < static_cast<size_t>(kEventKindWidth)) kind.append(kEventKindWidth - kind.size(), ' ');
  line += kind;
  line += ' ';
  append_escaped(line, event.object.empty() ? std::string("-") : event.object);
  if (!event.message.empty()) {
    line += "  ";
    append_escaped(line, event.message);
  }
  return line;
}

std::string format_event_log(const std::vector<EventRecord>& events) {
  std::string out;
  for (const auto& e : events) {
    out += format_event(e);
    out += '\n';
  }
  return out;
}

model::Result<EventLogWriter> EventLogWriter::open(const std::string& path) {
  if (path == "-") return EventLogWriter(nullptr, &std::cout, "<stdout>");
  auto file = std::make_unique<std::ofstream>(path, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!file->is_open()) return model::err(path + ": cannot open the event log for writing: " + std::strerror(errno));
  std::ostream* raw = file.get();
  return EventLogWriter(std::move(file), raw, path);
}

EventLogWriter::EventLogWriter(std::ostream& out, std::string name) : out_(&out), name_(std::move(name)) {}

EventLogWriter::EventLogWriter(std::unique_ptr<std::ostream> owned, std::ostream* out, std::string name)
    : owned_(std::move(owned)), out_(out), name_(std::move(name)) {}

EventLogWriter::EventLogWriter(EventLogWriter&&) noexcept = default;
EventLogWriter& EventLogWriter::operator=(EventLogWriter&&) noexcept = default;

EventLogWriter::~EventLogWriter() {
  if (out_ != nullptr) out_->flush();
}

model::Status EventLogWriter::check(const char* doing) {
  if (out_->good()) return model::Ok{};
  return model::err(name_ + ": " + doing + " the event log failed");
}

model::Status EventLogWriter::write(const EventRecord& event) {
  *out_ << format_event(event) << '\n';
  ++lines_;
  return check("writing");
}

model::Status EventLogWriter::flush() {
  out_->flush();
  return check("flushing");
}

}  // namespace chaintwin::sim
