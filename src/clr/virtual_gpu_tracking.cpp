// clr/virtual_gpu_tracking.cpp - commands in flight: their kernarg slices and
// completion signals, given back once the command completed; waits (see virtual_gpu.h).
#include <hsa/hsa_ext_amd.h>
#include <sched.h>

#include <cstdio>
#include <string>
#include <utility>

#include "clr/device.h"
#include "clr/signal_pool.h"
#include "clr/virtual_gpu.h"
#include "common/prefetch.h"
#include "common/trace.h"

namespace rocref::clr {
namespace {

uint64_t wait_slice_ticks() {
  static const uint64_t ticks = [] {
    uint64_t frequency = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency);
    return frequency == 0 ? uint64_t{2'000'000} : frequency / 500;  // 2 ms
  }();
  return ticks;
}

std::string hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

}  // namespace

VirtualGpu::~VirtualGpu() {
  synchronize();
  // After a queue error some commands never complete: the queue goes first, so
  // nothing reads their slices or signals when they are given back.
  if (queue_) hsa_queue_destroy(queue_);
  std::lock_guard lock(mutex_);
  for (const Pending& p : pending_) give_back_locked(p);
  pending_.clear();
  if (kernarg_base_) hsa_amd_memory_pool_free(kernarg_base_);
}

hsa_status_t VirtualGpu::completion_signal(Pending* pending) {
  {
    std::lock_guard lock(mutex_);
    reclaim_completed_locked();  // steady state: the previous command's signal is free again
  }
  bool reused = false;
  if (hsa_status_t s = pool().acquire(1, &pending->signal, &reused); s != HSA_STATUS_SUCCESS) return s;
  ROCREF_TRACE_EVENT(trace::Layer::Clr, reused ? "completion signal reused (pool)" : "completion signal created",
                     "handle=" + hex(pending->signal.handle) + " value=1");
  return HSA_STATUS_SUCCESS;
}

void VirtualGpu::record_slice_locked(const KernargRing::Slice& slice, size_t size, void** address, Pending* pending) {
  pending->slice = slice.ticket;
  pending->slice_address = slice.address;
  *address = slice.address;
  ++stats_.slices;
  if (slice.reused) ++stats_.reused;
  stats_.wraps = ring_->wraps();
  ROCREF_TRACE_EVENT(trace::Layer::Clr, slice.reused ? "kernarg slice reused (ring)" : "kernarg slice (ring)",
                     "offset=" + std::to_string(slice.offset) + " size=" + std::to_string(size) +
                         " live slices=" + std::to_string(ring_->live_slices()) +
                         " ring=" + std::to_string(ring_->capacity()) + " bytes");
}

hsa_status_t VirtualGpu::launch_resources(size_t size, size_t align, void** address, Pending* pending,
                                          std::unique_lock<Monitor>& lock) {
  if (size != 0 && (align == 0 || (align & (align - 1)) != 0)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  {
    // Steady state: the previous launch's slice is free again; its signal goes back to the
    // pool after this launch's doorbell (submit_locked), and the one before it is reused now.
    // Probing the oldest command's signal reads the line the GPU decrements next: with more
    // than one command in flight each probe costs the GPU a transfer, so a launch then probes
    // every kProbeEvery-th time, or when the ring or the pool runs short.
    const bool probe = pending_.size() <= 1 || ++launches_unprobed_ % kProbeEvery == 0;
    if (probe) retire_completed_locked();
    std::optional<KernargRing::Slice> slice;
    if (size != 0) slice = ring_->allocate(size, align);  // nullopt: full, or larger than the ring
    if (size != 0 && !slice && !probe) {
      retire_completed_locked();
      slice = ring_->allocate(size, align);
    }
    if (size == 0 || slice) {
      if (slice) record_slice_locked(*slice, size, address, pending);
      // The pool's lock nests inside this one, as when give_back_locked releases. Nothing
      // free: with commands just retired (their signals go back after the doorbell) the pool
      // grows by one, which the steady state needs (two signals in turn); else completed
      // commands are looked for before a new signal reaches the KFD.
      bool reused = true;
      if (!pool().acquire_free(1, &pending->signal)) {
        if (retired_.empty()) reclaim_completed_locked();
        if (hsa_status_t s = pool().acquire(1, &pending->signal, &reused); s != HSA_STATUS_SUCCESS) {
          give_back_locked(*pending);
          return s;
        }
      }
      ROCREF_TRACE_EVENT(trace::Layer::Clr, reused ? "completion signal reused (pool)" : "completion signal created",
                         "handle=" + hex(pending->signal.handle) + " value=1");
      return HSA_STATUS_SUCCESS;
    }
  }
  // A one-off, or a full ring to wait on: the general path, its own locks (none held while it waits).
  give_back_retired_locked();
  lock.unlock();
  hsa_status_t s = size != 0 ? kernarg_for(size, align, address, pending) : HSA_STATUS_SUCCESS;
  if (s == HSA_STATUS_SUCCESS) {
    s = completion_signal(pending);
    if (s != HSA_STATUS_SUCCESS) give_back(*pending);
  }
  lock.lock();
  return s;
}

hsa_status_t VirtualGpu::kernarg_for(size_t size, size_t align, void** address, Pending* pending) {
  if (align == 0 || (align & (align - 1)) != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!ring_->fits(size, align)) return one_off_kernarg(size, align, address, pending);
  for (;;) {
    hsa_signal_t oldest{0};
    {
      std::lock_guard lock(mutex_);
      reclaim_completed_locked();
      if (std::optional<KernargRing::Slice> slice = ring_->allocate(size, align)) {
        record_slice_locked(*slice, size, address, pending);
        return HSA_STATUS_SUCCESS;
      }
      // Full: the oldest submitted dispatch holding a slice frees the first bytes.
      for (const Pending& p : pending_) {
        if (p.slice) {
          oldest = p.signal;
          break;
        }
      }
      if (oldest.handle != 0) {
        pool().retain(oldest);  // waited on without the lock
        ++stats_.full_waits;
      }
    }
    if (hsa_status_t e = error(); e != HSA_STATUS_SUCCESS) {
      if (oldest.handle != 0) pool().release(oldest);
      return e;
    }
    if (oldest.handle == 0) {
      sched_yield();  // the live slices belong to launches other threads have not submitted yet
      continue;
    }
    ROCREF_TRACE_EVENT(trace::Layer::Clr, "kernarg ring full: waiting for the oldest dispatch",
                       "signal=" + hex(oldest.handle));
    const hsa_status_t s = wait_signal(oldest);
    pool().release(oldest);
    if (s != HSA_STATUS_SUCCESS) return s;
  }
}

hsa_status_t VirtualGpu::one_off_kernarg(size_t size, size_t align, void** address, Pending* pending) {
  // Larger than the whole ring: an allocation of its own, freed when the dispatch completed.
  if (hsa_status_t s = hsa_amd_memory_pool_allocate(device_.kernarg_pool(), size, 0, address);
      s != HSA_STATUS_SUCCESS) {
    return s;
  }
  if ((reinterpret_cast<uintptr_t>(*address) & (align - 1)) != 0) {  // beyond the pool's page alignment
    hsa_amd_memory_pool_free(*address);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  pending->one_off = *address;
  {
    std::lock_guard lock(mutex_);
    ++stats_.one_offs;
  }
  ROCREF_TRACE_EVENT(trace::Layer::Clr, "kernarg one-off allocation",
                     "size=" + std::to_string(size) + " exceeds the " + std::to_string(ring_->capacity()) +
                         "-byte ring");
  return HSA_STATUS_SUCCESS;
}

void VirtualGpu::reclaim_completed_locked() {
  retire_completed_locked();
  give_back_retired_locked();
}

void VirtualGpu::retire_completed_locked() {
  // Packets carry the barrier bit, so they complete in order: reclaim from the
  // front, and stop at the first one still running.
  while (!pending_.empty() && hsa_signal_load_scacquire(pending_.front().signal) < 1) {
    Pending& p = pending_.front();
    if (p.slice) ring_->release(*std::exchange(p.slice, std::nullopt));
    retired_.push_back(p);
    pending_.pop_front();
  }
}

// Out of line: bench/hip/launch_profile.py counts it apart from the launch up to its doorbell.
[[gnu::noinline]] void VirtualGpu::after_doorbell_locked() { give_back_retired_locked(); }

void VirtualGpu::give_back_retired_locked() {
  for (const Pending& p : retired_) give_back_locked(p);
  retired_.clear();
}

void VirtualGpu::give_back_locked(const Pending& p) {
  // The next launch takes this slice and this signal again (the ring and the pool hand out
  // what came back last) and writes both; the GPU model read them last. Asked for now, the
  // lines come back while the host returns and builds the next packet, not at its doorbell.
  if (p.slice_address != nullptr) prefetch_for_write(p.slice_address);
  if (p.signal.handle != 0) prefetch_for_write(reinterpret_cast<const void*>(static_cast<uintptr_t>(p.signal.handle)));
  if (p.slice) ring_->release(*p.slice);
  if (p.one_off) hsa_amd_memory_pool_free(p.one_off);
  if (p.signal.handle != 0) pool().release(p.signal);
  if (p.dependency.handle != 0) pool().release(p.dependency);
}

void VirtualGpu::give_back(const Pending& p) {
  std::lock_guard lock(mutex_);
  give_back_locked(p);
}

hsa_status_t VirtualGpu::wait_signal(hsa_signal_t signal) {
  while (hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_LT, 1, wait_slice_ticks(), HSA_WAIT_STATE_BLOCKED) >= 1) {
    if (hsa_status_t e = error(); e != HSA_STATUS_SUCCESS) return e;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualGpu::synchronize() {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "VirtualGpu::synchronize", "");
  hsa_signal_t last{0};
  {
    std::lock_guard lock(mutex_);
    reclaim_completed_locked();
    if (pending_.empty()) return error();  // nothing in flight: no wait, nothing left to reclaim
    // Held while waited on without the lock: another thread's reclaim must not reuse it.
    if (pool().retain(pending_.back().signal)) last = pending_.back().signal;
  }
  if (last.handle == 0) return error();
  // What the completed commands hold goes back at the next launch (after its doorbell), at
  // idle() or kernarg_stats(): not here, where the caller waits for the return.
  const hsa_status_t s = wait_signal(last);
  pool().release(last);
  return s != HSA_STATUS_SUCCESS ? s : error();
}

bool VirtualGpu::idle() {
  std::lock_guard lock(mutex_);
  reclaim_completed_locked();
  return pending_.empty() || error() != HSA_STATUS_SUCCESS;
}

KernargStats VirtualGpu::kernarg_stats() {
  std::lock_guard lock(mutex_);
  reclaim_completed_locked();  // live: not yet seen complete
  KernargStats s = stats_;
  s.live_slices = ring_->live_slices();
  return s;
}

}  // namespace rocref::clr
