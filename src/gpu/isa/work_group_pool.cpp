// gpu/isa/work_group_pool.cpp - a fixed set of threads, started on first use, running one launch's workers.
#include "gpu/isa/work_group_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
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
  const std::function<void(unsigned, GroupClaims&)>* body = nullptr;
  GroupClaims* claims = nullptr;

  void thread_main(unsigned worker) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      wake.wait(lock, [&] { return generation != seen && worker <= wanted; });
      seen = generation;
      const auto* run = body;
      GroupClaims* c = claims;
      lock.unlock();
      (*run)(worker, *c);
      lock.lock();
      if (--running == 0) done.notify_one();
    }
  }
};

WorkGroupPool::State* WorkGroupPool::state() {
  if (state_ == nullptr) {
    state_ = new State;  // never freed: its threads live as long as the process
    // A child of fork() has none of the threads: it starts its own (the old state is left).
    static const int registered = pthread_atfork(nullptr, nullptr, [] { global().state_ = nullptr; });
    (void)registered;
  }
  return state_;
}

void WorkGroupPool::run(unsigned workers, GroupClaims& claims,
                        const std::function<void(unsigned, GroupClaims&)>& body) {
  workers = static_cast<unsigned>(std::min<uint64_t>(std::max(workers, 1u), std::max<uint64_t>(claims.groups(), 1)));
  if (workers <= 1) return body(0, claims);
  static std::mutex make;
  State* s;
  {
    std::lock_guard<std::mutex> lock(make);
    s = state();
  }
  std::unique_lock<std::mutex> busy(s->busy, std::try_to_lock);
  if (!busy.owns_lock()) return body(0, claims);
  {
    std::lock_guard<std::mutex> lock(s->mu);
    while (s->threads.size() + 1 < workers) {
      const unsigned id = static_cast<unsigned>(s->threads.size()) + 1;
      s->threads.emplace_back([s, id] { s->thread_main(id); });
      s->threads.back().detach();
    }
    s->body = &body;
    s->claims = &claims;
    s->wanted = workers - 1;
    s->running = workers - 1;
    ++s->generation;
  }
  s->wake.notify_all();
  body(0, claims);
  std::unique_lock<std::mutex> lock(s->mu);
  s->done.wait(lock, [s] { return s->running == 0; });
  s->body = nullptr;
  s->claims = nullptr;
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
