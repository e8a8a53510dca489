// gpu/isa/agent_cache.cpp - the agent's write-back L2 (see agent_cache.h, spec/adversarial-gpu.md GPU-GRAIN-*).
#include "gpu/isa/agent_cache.h"

#include <algorithm>
#include <cstring>

#include "gpu/isa/isa_mutant.h"

namespace rocref::gpu::isa {
namespace {

// Every live cache, for the unmap listener; never destroyed (memory may be unmapped during exit).
struct Registry {
  std::mutex mu;
  std::vector<AgentCache*> all;
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

void on_unmap(const MemoryAccess* memory, uint64_t va, uint64_t size) noexcept {
  std::lock_guard<std::mutex> lock(registry().mu);
  for (AgentCache* c : registry().all) c->drop(memory, va, size);
}

uint64_t byte_mask(uint64_t offset, uint64_t size) {
  const uint64_t bits = size >= 64 ? ~uint64_t{0} : (uint64_t{1} << size) - 1;
  return bits << offset;
}

}  // namespace

AgentCache::AgentCache(uint64_t seed) : state_(seed ^ 0x4c325f6361636865ull) {  // a stream of its own
  std::lock_guard<std::mutex> lock(registry().mu);
  registry().all.push_back(this);
  g_unmap_listener.store(&on_unmap, std::memory_order_release);
}

AgentCache::~AgentCache() {
  std::lock_guard<std::mutex> lock(registry().mu);
  auto& all = registry().all;
  all.erase(std::remove(all.begin(), all.end(), this), all.end());
}

uint32_t AgentCache::below(uint32_t n) noexcept {  // splitmix64
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>((z ^ (z >> 31)) % n);
}

void AgentCache::flush(Line& l) noexcept {
  for (uint64_t d = l.dirty; d != 0; d &= d - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(d));
    l.host[i] = l.data[i];
  }
  l.dirty = 0;
}

void AgentCache::evict(size_t index) noexcept {
  flush(*lines_[index]);
  index_.erase(lines_[index]->key);
  if (index + 1 != lines_.size()) {
    std::swap(lines_[index], lines_.back());
    index_[lines_[index]->key] = index;
  }
  retired_.push_back(std::move(lines_.back()));  // a pointer into it may still be in use
  lines_.pop_back();
}

AgentCache::Line& AgentCache::line_for(const Key& key, uint8_t* host) {
  if (auto it = index_.find(key); it != index_.end()) return *lines_[it->second];
  // A fill may evict another line (seeded), and always does when the cache is full.
  if (!lines_.empty() && (lines_.size() >= kCapacity || below(8) == 0)) {
    evict(below(static_cast<uint32_t>(lines_.size())));
  }
  auto line = std::make_unique<Line>();
  line->key = key;
  line->host = host;
  index_[key] = lines_.size();
  lines_.push_back(std::move(line));
  return *lines_.back();
}

void* AgentCache::access(MemoryAccess& memory, uint64_t va, void* host, size_t size, Access mode) noexcept {
  if (host == nullptr || size == 0 || mode == Access::Execute) return host;
  if (memory.grain(va) == Grain::Fine && !isa_mutant_active(IsaMutant::FineGrainCached)) return host;
  const uint64_t first = va & ~(kLineBytes - 1);
  const uint64_t offset = va - first;
  std::lock_guard<std::mutex> lock(mu_);
  // The engines are stepped by one thread and an instruction uses each pointer before its next
  // access: lines retired before this access are no one's now (a long dispatch keeps none).
  retired_.clear();
  if (offset + size > kLineBytes) {  // across lines: the access goes to memory, the lines leave first
    drop_written_back(memory, va, size);
    return host;
  }
  try {
    Line& l = line_for(Key{&memory, first}, static_cast<uint8_t*>(host) - offset);
    const uint64_t mask = byte_mask(offset, size);
    for (uint64_t m = mask & ~l.valid; m != 0; m &= m - 1) {  // bytes not held yet: from memory
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(m));
      l.data[i] = l.host[i];
    }
    l.valid |= mask;
    if (mode != Access::Read) {
      if (isa_mutant_active(IsaMutant::L2WritesThrough)) return host;  // the line's bytes stay memory's
      l.dirty |= mask;
    }
    return l.data + offset;
  } catch (...) {  // out of memory for a line: the access is coherent instead
    return host;
  }
}

void AgentCache::drop_written_back(MemoryAccess& memory, uint64_t va, size_t size) noexcept {
  for (uint64_t a = va & ~(kLineBytes - 1); a < va + size; a += kLineBytes) {
    if (auto it = index_.find(Key{&memory, a}); it != index_.end()) evict(it->second);
  }
}

void AgentCache::write_back() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& l : lines_) flush(*l);
  retired_.clear();
}

void AgentCache::acquire_system() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  retired_.clear();
  for (size_t i = 0; i < lines_.size();) {
    Line& l = *lines_[i];
    if (l.dirty == 0) {  // nothing of the agent's own: forget the line
      index_.erase(l.key);
      if (i + 1 != lines_.size()) {
        std::swap(lines_[i], lines_.back());
        index_[lines_[i]->key] = i;
      }
      lines_.pop_back();
      continue;
    }
    l.valid = l.dirty;  // the agent's unwritten bytes stay; the rest is re-read
    ++i;
  }
}

void AgentCache::write_back_invalidate() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& l : lines_) flush(*l);
  lines_.clear();
  index_.clear();
  retired_.clear();
}

void AgentCache::drop(const MemoryAccess* memory, uint64_t va, uint64_t size) noexcept {
  if (isa_mutant_active(IsaMutant::UnmapKeepsL2Lines)) return;
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t end = va + size < va ? ~uint64_t{0} : va + size;
  for (size_t i = 0; i < lines_.size();) {
    const Key k = lines_[i]->key;
    if (k.memory != memory || k.line + kLineBytes <= va || k.line >= end) {
      ++i;
      continue;
    }
    index_.erase(k);
    if (i + 1 != lines_.size()) {
      std::swap(lines_[i], lines_.back());
      index_[lines_[i]->key] = i;
    }
    retired_.push_back(std::move(lines_.back()));  // discarded unwritten: the memory may be freed next
    lines_.pop_back();
  }
}

size_t AgentCache::lines() const noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  return lines_.size();
}

size_t AgentCache::dirty_lines() const noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<size_t>(std::count_if(lines_.begin(), lines_.end(), [](const auto& l) { return l->dirty != 0; }));
}

}  // namespace rocref::gpu::isa
