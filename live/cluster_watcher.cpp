#include "live/cluster_watcher.h"

#include <utility>

#include <algorithm>
#include <charconv>
#include <random>

#include "live/json_members.h"
#include "sim/cluster_objects.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

std::string key_of(const json& o) {
  const json& meta = object_member(o, "metadata");
  return string_member(meta, "namespace") + "/" + string_member(meta, "name");
}

}  // namespace

ClusterWatcher::ClusterWatcher(ClusterConnection connection, ClientOptions options)
    : connection_(std::move(connection)), options_(std::move(options)) {}

ClusterWatcher::~ClusterWatcher() {
  stop_ = true;
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

model::Status ClusterWatcher::start() {
  auto client = ApiClient::create(connection_, options_);
  if (!client.ok()) return model::err(client.error());
  auto groups = (*client)->get("/apis");
  if (!groups.ok()) return model::err(groups.error());
  if (groups->status != 200) return model::err("GET /apis: HTTP " + std::to_string(groups->status));
  ResolvedResources resolved = resolve_resources(served_versions(json::parse(groups->body, nullptr, false)));
  missing_ = std::move(resolved.missing);
  kinds_ = std::move(resolved.resources);
  for (const ApiResource& r : kinds_)
    threads_.emplace_back([this, &r] {
      // A reply the watch cannot read ends one run of it: the failure is kept for the caller to
      // report, and the watch starts again (a relist) after a pause, cut short by stop.
      while (!stop_) {
        try {
          run(r);
          return;
        } catch (const std::exception& e) {
          ++reconnects_;
          note_failure("the watch of " + std::string(r.kind) + " failed and starts again: " + e.what());
        } catch (...) {
          ++reconnects_;
          note_failure("the watch of " + std::string(r.kind) + " failed and starts again");
        }
        for (int i = 0; i < 20 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  return model::Ok{};
}

void ClusterWatcher::note_failure(std::string what) {
  std::lock_guard<std::mutex> lock(failure_mutex_);
  failures_.push_back(std::move(what));
}

std::vector<std::string> ClusterWatcher::take_failures() {
  std::lock_guard<std::mutex> lock(failure_mutex_);
  return std::exchange(failures_, {});
}

void ClusterWatcher::enqueue(Item item) {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    queue_.push_back(std::move(item));
  }
  queued_.notify_all();
}

void ClusterWatcher::run(const ApiResource& r) {
  auto made = ApiClient::create(connection_, options_);
  if (!made.ok()) return;
  ApiClient& client = **made;
  std::mt19937_64 jitter(std::random_device{}());
  double backoff = 0.5;
  auto pause = [&] {  // backoff with jitter, cut short by stop
    const double wait = backoff * (0.5 + std::uniform_real_distribution<double>(0, 1)(jitter));
    backoff = std::min(backoff * 2, 30.0);
    for (double slept = 0; slept < wait && !stop_; slept += 0.05) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  };
  const std::string path = collection_path(r);
  bool first = true;
  std::string rv;
  while (!stop_) {
    if (rv.empty()) {
      auto list = client.get(path);
      if (!list.ok() || list->status != 200) {
        ++reconnects_;
        pause();
        continue;
      }
      ObservedCluster listed;
      if (!add_listed(listed, json::parse(list->body, nullptr, false), r).ok()) {
        ++reconnects_;  // not a list of objects: list again after a pause
        pause();
        continue;
      }
      rv = listed.resource_version;
      enqueue({std::string(r.kind), "LIST", std::move(listed.raw)});
      if (first) ++listed_;
      if (!first) ++relists_;
      first = false;
      if (rv.empty()) rv = "0";
    }
    bool gone = false;
    auto streamed = client.stream(
        path + "?watch=1&allowWatchBookmarks=true&timeoutSeconds=300&resourceVersion=" + rv,
        [&](const std::string& line) {
          const json e = json::parse(line, nullptr, false);
          if (!e.is_object()) return true;
          const std::string type = string_member(e, "type");
          const auto object = e.find("object");
          if (object == e.end() || !object->is_object()) return true;
          json o = *object;
          const std::string at = string_member(object_member(o, "metadata"), "resourceVersion");
          if (type == "ERROR") {
            gone = true;  // 410 Expired or any server-side watch error: relist
            return false;
          }
          if (!at.empty()) rv = at;
          if (type == "BOOKMARK") return true;
          enqueue({std::string(r.kind), type, {as_read(std::move(o), r)}});
          return true;
        },
        [&] { return stop_.load(); });
    if (stop_) break;
    if (gone) {
      rv.clear();
      continue;
    }
    if (!streamed.ok() || *streamed != 200) {
      ++reconnects_;  // the connection failed or was refused: back off, then watch again from rv
      pause();
      if (streamed.ok() && *streamed == 410) rv.clear();
      continue;
    }
    backoff = 0.5;  // a stream that ended normally (timeout, or closed by the server): watch again
    ++reconnects_;
  }
}

std::set<std::string> ClusterWatcher::drain(std::chrono::milliseconds timeout) {
  std::deque<Item> items;
  {
    std::unique_lock<std::mutex> lock(queue_mutex_);
    queued_.wait_for(lock, timeout, [&] { return !queue_.empty(); });
    items.swap(queue_);
  }
  std::set<std::string> changed;
  for (auto& item : items) {
    auto& objects = mirror_[item.kind];
    bool differs = false;
    if (item.type == "LIST") {
      std::map<std::string, json> fresh;
      for (auto& o : item.objects) {
        std::string key = key_of(o);  // before the move: json's operator= takes its argument by value
        fresh[std::move(key)] = std::move(o);
      }
      differs = fresh != objects;
      objects = std::move(fresh);
    } else if (item.type == "DELETED") {
      differs = objects.erase(key_of(item.objects[0])) > 0;
    } else if (item.type == "ADDED" || item.type == "MODIFIED") {
      json& slot = objects[key_of(item.objects[0])];
      differs = slot != item.objects[0];
      slot = std::move(item.objects[0]);  // the key was taken on the line above
    }
    if (differs) changed.insert(item.kind);
  }
  return changed;
}

std::set<std::string> ClusterWatcher::settle(std::chrono::milliseconds first, std::chrono::milliseconds quiet,
                                             std::chrono::milliseconds most) {
  std::set<std::string> changed = drain(first);
  const auto until = std::chrono::steady_clock::now() + most;
  while (!changed.empty() && std::chrono::steady_clock::now() < until) {
    const std::set<std::string> more = drain(quiet);
    if (more.empty()) break;
    changed.insert(more.begin(), more.end());
  }
  return changed;
}

bool ClusterWatcher::synced() const { return listed_ == static_cast<int>(kinds_.size()); }

model::Result<ObservedCluster> ClusterWatcher::observed() const {
  ObservedCluster out;
  out.missing = missing_;
  out.resources = kinds_;
  int64_t newest = 0;
  for (const auto& [kind, items] : mirror_)
    for (const auto& [key, o] : items) {
      out.raw.push_back(o);
      const std::string rv = string_member(object_member(o, "metadata"), "resourceVersion");
      int64_t n = 0;  // a resourceVersion that is no int64 (opaque to clients) does not count
      const auto [end, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), n);
      if (ec == std::errc{} && end == rv.data() + rv.size() && n >= 0) newest = std::max(newest, n);
      ++out.objects;
    }
  if (auto s = decode_observed(out); !s.ok()) return model::err(s.error());
  out.resource_version = std::to_string(newest);
  return out;
}

}  // namespace chaintwin::live
