// The QueueManager against a plain reference: every Workload's place, each queue's heap order and
// counts after every step of long random sequences of add, park, unpark, pop, requeue, park_heads,
// release_inadmissible, remove and a queue's LocalQueue moving; plus the cases where the heap and
// the inadmissible set trade roles instead of moving entries.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

#include "scheduler_fixtures.h"

namespace chaintwin::model::testing {
namespace {

using Place = QueueManager::Place;

// What the QueueManager should hold: per Workload its ClusterQueue, place and queue entry.
struct Reference {
  struct Item {
    std::string cluster_queue;
    Place place = Place::kHeap;
    QueueEntry entry;
  };
  std::map<std::string, Item> items;  // by Workload key

  std::vector<std::string> in(const std::string& cq, Place place) const {
    std::vector<const Item*> found;
    for (const auto& [key, item] : items)
      if (item.cluster_queue == cq && item.place == place) found.push_back(&item);
    std::sort(found.begin(), found.end(), [](const Item* a, const Item* b) { return a->entry < b->entry; });
    std::vector<std::string> out;
    for (const Item* i : found) out.push_back(i->entry.key);
    return out;
  }
  int32_t count(const std::string& cq, std::initializer_list<Place> places) const {
    int32_t n = 0;
    for (const auto& [key, item] : items)
      if (item.cluster_queue == cq && std::find(places.begin(), places.end(), item.place) != places.end()) ++n;
    return n;
  }
};

void check_agrees(const Fixture& f, const Reference& ref, const std::vector<std::string>& cqs, const std::string& step) {
  INFO("after " << step);
  for (const auto& [key, item] : ref.items) {
    INFO("Workload " << key);
    REQUIRE(f.queues.place_of(key) == item.place);
    REQUIRE(f.queues.cluster_queue_of(key) == item.cluster_queue);
  }
  for (const auto& cq : cqs) {
    INFO("ClusterQueue " << cq);
    REQUIRE(f.queues.heap_order(cq) == ref.in(cq, Place::kHeap));
    REQUIRE(f.queues.pending(cq) ==
            ref.count(cq, {Place::kHeap, Place::kInadmissible, Place::kParked, Place::kPopped}));
    REQUIRE(f.queues.inadmissible(cq) == ref.count(cq, {Place::kInadmissible, Place::kParked}));
  }
  const QueueManager copy = f.queues;
  REQUIRE(copy == f.queues);
}

}  // namespace

TEST_CASE("the queue manager keeps every Workload where a plain reference says, through random sequences",
          "[queue_manager]") {
  for (const uint32_t seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u}) {
    INFO("seed " << seed);
    Fixture f;
    const std::vector<std::string> cqs = {"a", "b", "c"};
    for (const auto& cq : cqs) f.queue(cq, {{"f", 1}});
    Reference ref;
    std::mt19937 rng(seed);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    std::vector<QueueEntry> popped;
    int next = 0;
    for (int step = 0; step < 400; ++step) {
      const std::string cq = cqs[pick(cqs.size())];
      std::string what;
      switch (pick(9)) {
        case 0:
        case 1: {  // a new Workload, some at equal priority and time so the key decides
          const std::string name = "w" + std::to_string(next++);
          const auto priority = static_cast<int32_t>(pick(3));
          const auto created = static_cast<TimeUs>(pick(4));
          Workload& wl = f.submit(name, cq, 1, 1, created, priority);
          ref.items["default/" + name] = {cq, Place::kHeap, queue_entry(wl)};
          what = "add " + name;
          break;
        }
        case 2: {  // parked instead (Requeued=False)
          const std::string name = "w" + std::to_string(next++);
          Workload& wl = f.submit(name, cq);
          f.queues.park(f.cluster, wl);
          ref.items["default/" + name] = {cq, Place::kParked, queue_entry(wl)};
          what = "park " + name;
          break;
        }
        case 3: {
          auto head = f.queues.pop(cq);
          const auto expected = ref.in(cq, Place::kHeap);
          REQUIRE(head.has_value() == !expected.empty());
          if (head) {
            REQUIRE(head->key == expected.front());
            ref.items[head->key].place = Place::kPopped;
            popped.push_back(*head);
          }
          what = "pop " + cq;
          break;
        }
        case 4: {  // a popped head back, to the heap or to the inadmissible set
          if (popped.empty()) break;
          const std::size_t i = pick(popped.size());
          const bool inadmissible = pick(2) == 0;
          f.queues.requeue(popped[i], inadmissible);
          const auto it = ref.items.find(popped[i].key);
          if (it != ref.items.end() && it->second.place == Place::kPopped)
            it->second.place = inadmissible ? Place::kInadmissible : Place::kHeap;
          what = "requeue " + popped[i].key;
          popped.erase(popped.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
        case 5: {
          const std::size_t count = pick(4);
          auto heads = ref.in(cq, Place::kHeap);
          f.queues.park_heads(cq, count);
          for (std::size_t i = 0; i < std::min(count, heads.size()); ++i) ref.items[heads[i]].place = Place::kInadmissible;
          what = "park_heads " + cq + " " + std::to_string(count);
          break;
        }
        case 6: {
          const bool all = pick(2) == 0;
          f.queues.release_inadmissible(all ? "" : cq);
          for (auto& [key, item] : ref.items)
            if (item.place == Place::kInadmissible && (all || item.cluster_queue == cq)) item.place = Place::kHeap;
          what = all ? "release all" : "release " + cq;
          break;
        }
        case 7: {  // a queued head requeued as inadmissible in place (an idle cycle), or unparked
          const auto heads = ref.in(cq, Place::kHeap);
          const auto parked = ref.in(cq, Place::kParked);
          if (!parked.empty() && pick(2) == 0) {
            f.queues.unpark(parked.front());
            ref.items[parked.front()].place = Place::kHeap;
            what = "unpark " + parked.front();
          } else if (!heads.empty()) {
            f.queues.requeue(heads.front(), /*inadmissible=*/true);
            ref.items[heads.front()].place = Place::kInadmissible;
            what = "requeue in place " + heads.front();
          }
          break;
        }
        case 8: {
          if (ref.items.empty()) break;
          auto it = ref.items.begin();
          std::advance(it, static_cast<std::ptrdiff_t>(pick(ref.items.size())));
          f.queues.remove(it->first);
          what = "remove " + it->first;
          ref.items.erase(it);
          break;
        }
      }
      check_agrees(f, ref, cqs, what);
    }
  }
}

TEST_CASE("releasing into an empty heap and parking every head trade the sets' roles and keep the order",
          "[queue_manager]") {
  struct Row {
    const char* name;
    int heads_before;       // in the heap
    int inadmissible_before;
    bool release;           // release_inadmissible, else park_heads(all)
  };
  const std::vector<Row> rows = {
      {"release into an empty heap", 0, 4, true},
      {"release into a heap that holds fewer", 1, 4, true},
      {"release into a heap that holds more", 4, 1, true},
      {"park every head into an empty inadmissible set", 4, 0, false},
      {"park every head into a larger inadmissible set", 1, 4, false},
      {"park every head into a smaller inadmissible set", 4, 1, false},
  };
  for (const auto& row : rows) {
    SECTION(row.name) {
      Fixture f;
      f.queue("a", {{"f", 1}});
      int n = 0;
      // Interleaved timestamps, so the joined order mixes both sets.
      for (int i = 0; i < row.inadmissible_before; ++i) f.submit("w" + std::to_string(n++), "a", 1, 1, 2 * i);
      f.queues.park_heads("a", static_cast<std::size_t>(row.inadmissible_before));
      for (int i = 0; i < row.heads_before; ++i) f.submit("w" + std::to_string(n++), "a", 1, 1, 2 * i + 1);
      REQUIRE(f.queues.heap_order("a").size() == static_cast<std::size_t>(row.heads_before));
      REQUIRE(f.queues.inadmissible("a") == row.inadmissible_before);
      if (row.release) f.queues.release_inadmissible("a");
      else f.queues.park_heads("a", 100);
      const std::size_t total = static_cast<std::size_t>(row.heads_before + row.inadmissible_before);
      CHECK(f.queues.heap_order("a").size() == (row.release ? total : 0));
      CHECK(f.queues.inadmissible("a") == (row.release ? 0 : static_cast<int32_t>(total)));
      for (int i = 0; i < n; ++i)
        CHECK(f.queues.place_of("default/w" + std::to_string(i)) == (row.release ? Place::kHeap : Place::kInadmissible));
      if (row.release) {
        // Pop order is queue-order time across both former sets.
        std::vector<std::string> order;
        while (auto head = f.queues.pop("a")) order.push_back(head->key);
        std::vector<TimeUs> times;
        for (const auto& key : order) times.push_back(f.state.workloads.at(key).creation_time);
        CHECK(std::is_sorted(times.begin(), times.end()));
      }
    }
  }
}

}  // namespace chaintwin::model::testing

namespace chaintwin::model::testing {
namespace {

TEST_CASE("a refresh told the queues are unchanged leaves the queue manager as a full refresh does",
          "[queue_manager]") {
  // Random Workload traffic over three ClusterQueues, with now and then a LocalQueue pointed
  // elsewhere, a LocalQueue going away or a ClusterQueue deleted (queue changes: the next refresh is
  // a full one). Before every refresh that follows no queue change, a full refresh must find
  // nothing to move, and the short refresh must agree with it.
  for (const uint32_t seed : {11u, 12u, 13u, 14u, 15u, 16u}) {
    INFO("seed " << seed);
    Fixture f;
    const std::vector<std::string> cqs = {"a", "b", "c"};
    for (const auto& cq : cqs) f.queue(cq, {{"f", 1}});
    std::mt19937 rng(seed);
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    bool changed = false;
    int next = 0;
    int compared_short = 0;
    for (int step = 0; step < 300; ++step) {
      const std::string cq = cqs[pick(cqs.size())];
      switch (pick(8)) {
        case 0:
        case 1:
          f.submit("w" + std::to_string(next++), cq, 1, 1, static_cast<TimeUs>(pick(4)));
          break;
        case 2:
          f.queues.park(f.cluster, f.submit("w" + std::to_string(next++), cq));
          break;
        case 3:
          (void)f.queues.pop(cq);
          break;
        case 4: {
          if (f.state.workloads.empty()) break;
          const std::string key = f.state.workloads.in_key_order()[pick(f.state.workloads.size())]->first;
          f.queues.remove(key);
          f.state.workloads.erase(key);
          break;
        }
        case 5: {  // a queue change: a LocalQueue retargeted, gone, or back; or a ClusterQueue gone or back
          if (pick(4) != 0) break;
          const std::string lq = "default/lq-" + cq;
          switch (pick(3)) {
            case 0: f.cluster.local_queues[lq] = LocalQueue{meta("lq-" + cq, "default"), cqs[pick(cqs.size())], {}}; break;
            case 1: f.cluster.local_queues.erase(lq); break;
            default:
              if (f.cluster.cluster_queues.count(cq) != 0) f.cluster.cluster_queues.erase(cq);
              else f.queue(cq, {{"f", 1}});  // (refreshes fully itself)
          }
          changed = true;
          break;
        }
        default: {  // a refresh
          QueueManager full = f.queues;
          full.refresh(f.cluster);
          if (!changed) {
            INFO("step " << step);
            // Workload traffic alone keeps the indexes a refresh maintains: with no queue changed,
            // a full refresh finds nothing to move (what lets the short one skip its walks) ...
            REQUIRE(full == f.queues);
            // ... and the short refresh agrees with it.
            QueueManager short_one = f.queues;
            short_one.refresh(f.cluster, /*queues_unchanged=*/true);
            REQUIRE(short_one == full);
            ++compared_short;
          }
          // After a full refresh every tracked Workload sits in the ClusterQueue its LocalQueue
          // names now (none when that is gone): the refresh moved each LocalQueue's members.
          for (const auto* kv : f.state.workloads.in_key_order()) {
            const auto& [key, wl] = *kv;
            if (!full.contains(key)) continue;
            INFO("step " << step << ", Workload " << key);
            const auto lq = f.cluster.local_queues.find(wl.metadata.namespace_ + "/" + wl.queue_name);
            const bool resolves = lq != f.cluster.local_queues.end() && f.cluster.cluster_queues.count(lq->second.cluster_queue) != 0;
            REQUIRE(full.cluster_queue_of(key) == (resolves ? lq->second.cluster_queue : ""));
          }
          f.queues = full;
          changed = false;
        }
      }
    }
    CHECK(compared_short > 20);
  }
}

}  // namespace
}  // namespace chaintwin::model::testing
