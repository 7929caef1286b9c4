// What a run has left behind, in the GUI's terms: the pool samples grouped into series, the
// event log as rows (with each Workload's own steps), the Workload outcomes as rows. Kept by the
// GUI's sources and extended as the run goes, so a snapshot never re-reads the whole record.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "sim/results/run_record.h"
#include "viz/snapshot.h"

namespace chaintwin::cli {

class RunHistory {
 public:
  // The samples from `pool_series[consumed..]` on.
  void add_pool_samples(const std::deque<sim::PoolSample>& pool_series);
  void add_event(const sim::EventRecord& e);
  // Workload rows from the outcomes (queue, last Pending message and its gate, rejections) with
  // each one's steps; the caller then fills the phase from the live state.
  std::vector<viz::WorkloadRow> workload_rows(const std::deque<sim::WorkloadOutcome>& outcomes) const;

  const std::vector<viz::PoolSeries>& series() const { return series_; }
  const std::vector<viz::EventRow>& events() const { return events_; }
  // The scenario's expectations as judged so far (the event log's `expect` lines), in time order.
  const std::vector<viz::EventRow>& expectations() const { return expectations_; }
  // The newest `n` events.
  std::vector<viz::EventRow> last_events(size_t n) const;

 private:
  size_t consumed_ = 0;
  std::vector<viz::PoolSeries> series_;
  std::map<std::string, size_t> series_index_;  // "<queue>|<resource>"
  std::vector<viz::EventRow> events_;
  std::vector<viz::EventRow> expectations_;
  std::map<std::string, std::vector<viz::WorkloadStep>> steps_;  // by Workload key
};

}  // namespace chaintwin::cli
