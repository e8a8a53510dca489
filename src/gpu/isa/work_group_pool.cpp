// gpu/isa/work_group_pool.cpp - a fixed set of threads, started on first use, claiming work-groups from one counter.
#include "gpu/isa/work_group_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace rocref::gpu::isa {

struct WorkGroupPool::State {
  std::mutex busy;  // held by the launch that uses the threads
  std::mutex mu;    // guards the fields below
  std::condition_variable wake, done;
  std::vector<std::thread> threads;
  uint64_t generation = 0;  // one per launch handed to the threads
  unsigned wanted = 0;      // threads taking part in this launch (worker ids 1..wanted)
  unsigned running = 0;     // of those, still in the launch
  bool quit = false;
  // The launch: groups are claimed from `next`; `stop` is the first failing group so far.
  const std::function<bool(unsigned, uint64_t)>* body = nullptr;
  uint64_t groups = 0;
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> stop{0};

  void claim_all(unsigned worker) {
    for (;;) {
      const uint64_t g = next.fetch_add(1, std::memory_order_relaxed);
      if (g >= groups || g >= stop.load(std::memory_order_relaxed)) return;
      if (!(*body)(worker, g)) {
        uint64_t seen = stop.load(std::memory_order_relaxed);
        while (g < seen && !stop.compare_exchange_weak(seen, g, std::memory_order_relaxed)) {
        }
      }
    }
  }

  void thread_main(unsigned worker) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      wake.wait(lock, [&] { return quit || (generation != seen && worker <= wanted); });
      if (quit) return;
      seen = generation;
      lock.unlock();
      claim_all(worker);
      lock.lock();
      if (--running == 0) done.notify_one();
    }
  }
};

WorkGroupPool::~WorkGroupPool() {
  if (state_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->quit = true;
  }
  state_->wake.notify_all();
  for (std::thread& t : state_->threads) t.join();
  delete state_;
}

WorkGroupPool::State* WorkGroupPool::state() {
  if (state_ == nullptr) {
    state_ = new State;
    // A child of fork() has none of the threads: it starts its own (the old state is left).
    static const int registered = pthread_atfork(nullptr, nullptr, [] { global().state_ = nullptr; });
    (void)registered;
  }
  return state_;
}

uint64_t WorkGroupPool::run(unsigned workers, uint64_t groups, const std::function<bool(unsigned, uint64_t)>& body) {
  workers = static_cast<unsigned>(std::min<uint64_t>(std::max(workers, 1u), groups));
  auto run_here = [&] {
    for (uint64_t g = 0; g < groups; ++g) {
      if (!body(0, g)) return g;
    }
    return groups;
  };
  if (workers <= 1) return run_here();
  static std::mutex make;
  State* s;
  {
    std::lock_guard<std::mutex> lock(make);
    s = state();
  }
  std::unique_lock<std::mutex> busy(s->busy, std::try_to_lock);
  if (!busy.owns_lock()) return run_here();
  {
    std::lock_guard<std::mutex> lock(s->mu);
    while (s->threads.size() + 1 < workers) {
      const unsigned id = static_cast<unsigned>(s->threads.size()) + 1;
      s->threads.emplace_back([s, id] { s->thread_main(id); });
    }
    s->body = &body;
    s->groups = groups;
    s->next.store(0, std::memory_order_relaxed);
    s->stop.store(groups, std::memory_order_relaxed);
    s->wanted = workers - 1;
    s->running = workers - 1;
    ++s->generation;
  }
  s->wake.notify_all();
  s->claim_all(0);
  std::unique_lock<std::mutex> lock(s->mu);
  s->done.wait(lock, [s] { return s->running == 0; });
  s->body = nullptr;
  return s->stop.load(std::memory_order_relaxed);
}

unsigned WorkGroupPool::configured_workers() noexcept {
  static const unsigned workers = [] {
    if (const char* v = std::getenv("ROCREF_GPU_WORKERS"); v != nullptr && *v != '\0') {
      char* end = nullptr;
      const unsigned long n = std::strtoul(v, &end, 10);
      if (*end == '\0' && n >= 1 && n <= 256) return static_cast<unsigned>(n);
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return workers;
}

WorkGroupPool& WorkGroupPool::global() {
  static WorkGroupPool* pool = new WorkGroupPool;  // never destroyed: dispatches may run during exit
  return *pool;
}

}  // namespace rocref::gpu::isa
