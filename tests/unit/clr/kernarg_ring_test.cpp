// tests/unit/clr/kernarg_ring_test.cpp - the kernarg ring: alignment, wrap, reuse only after release, full ring.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "clr/kernarg_ring.h"

namespace {

using rocref::clr::KernargRing;

// A 4 KiB-aligned buffer, as the kernarg pool hands out.
struct Buffer {
  explicit Buffer(size_t bytes) : storage(bytes + 4096) {
    const auto p = reinterpret_cast<uintptr_t>(storage.data());
    base = reinterpret_cast<uint8_t*>((p + 4095) & ~uintptr_t{4095});
  }
  std::vector<uint8_t> storage;
  uint8_t* base;
};

size_t offset(const Buffer& b, const KernargRing::Slice& s) { return static_cast<uint8_t*>(s.address) - b.base; }

TEST(KernargRing, SlicesAreSixteenByteAlignedAndRoundedUp) {
  Buffer b(1024);
  KernargRing ring(b.base, 1024);
  auto a = ring.allocate(1, 1);
  auto c = ring.allocate(17, 4);
  auto d = ring.allocate(8, 8);
  ASSERT_TRUE(a && c && d);
  EXPECT_EQ(offset(b, *a), 0u);
  EXPECT_EQ(offset(b, *c), 16u);  // 1 byte still takes a 16-byte granule
  EXPECT_EQ(offset(b, *d), 48u);  // 17 bytes take two
  for (const auto& s : {*a, *c, *d}) EXPECT_EQ(reinterpret_cast<uintptr_t>(s.address) % 16, 0u);
}

TEST(KernargRing, LargerAlignmentIsHonoured) {
  Buffer b(4096);
  KernargRing ring(b.base, 4096);
  ASSERT_TRUE(ring.allocate(16, 16));
  auto s64 = ring.allocate(24, 64);
  auto s256 = ring.allocate(16, 256);
  ASSERT_TRUE(s64 && s256);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(s64->address) % 64, 0u);
  EXPECT_EQ(offset(b, *s64), 64u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(s256->address) % 256, 0u);
  EXPECT_EQ(offset(b, *s256), 256u);
}

TEST(KernargRing, AlignmentIsOfTheAddressNotTheOffset) {
  Buffer b(1024 + 64);
  KernargRing ring(b.base + 16, 1024);  // a base only 16-byte aligned
  auto s = ring.allocate(16, 64);
  ASSERT_TRUE(s);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(s->address) % 64, 0u);
  EXPECT_EQ(s->offset, 48u);
}

TEST(KernargRing, BadAlignmentAndOversizeAreRefused) {
  Buffer b(256);
  KernargRing ring(b.base, 256);
  EXPECT_FALSE(ring.fits(16, 0));
  EXPECT_FALSE(ring.fits(16, 24));
  EXPECT_FALSE(ring.allocate(16, 24));
  EXPECT_TRUE(ring.fits(256, 16));
  EXPECT_FALSE(ring.fits(257, 16));
  EXPECT_FALSE(ring.allocate(257, 16));
  EXPECT_FALSE(ring.fits(SIZE_MAX, 16));
  EXPECT_EQ(ring.live_slices(), 0u);
}

TEST(KernargRing, FullRingRefusesUntilTheOldestIsReleased) {
  Buffer b(64);
  KernargRing ring(b.base, 64);
  std::vector<KernargRing::Slice> s;
  for (int i = 0; i < 4; ++i) {
    auto x = ring.allocate(16, 16);
    ASSERT_TRUE(x) << i;
    s.push_back(*x);
  }
  EXPECT_FALSE(ring.allocate(16, 16)) << "never hand out a live slice";
  // A younger slice done first frees nothing: space comes back from the oldest on.
  EXPECT_TRUE(ring.release(s[2].ticket));
  EXPECT_FALSE(ring.allocate(16, 16));
  EXPECT_TRUE(ring.release(s[0].ticket));
  auto again = ring.allocate(16, 16);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->address, s[0].address);
  EXPECT_TRUE(again->reused);
  EXPECT_FALSE(ring.allocate(16, 16)) << "s[1] is still live";
  EXPECT_TRUE(ring.release(s[1].ticket));  // frees s[1] and the already released s[2]
  auto x = ring.allocate(32, 16);
  ASSERT_TRUE(x);
  EXPECT_EQ(x->address, s[1].address);
}

TEST(KernargRing, WrapsToTheStartWhenTheEndHasNoRoom) {
  Buffer b(128);
  KernargRing ring(b.base, 128);
  auto a = ring.allocate(48, 16);  // [0, 48)
  auto c = ring.allocate(48, 16);  // [48, 96)
  ASSERT_TRUE(a && c);
  ASSERT_TRUE(ring.release(a->ticket));
  auto d = ring.allocate(48, 16);  // 32 bytes left at the end: wraps to [0, 48)
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 0u);
  EXPECT_EQ(ring.wraps(), 1u);
  EXPECT_TRUE(d->reused);
  EXPECT_FALSE(ring.allocate(16, 16)) << "[48, 96) is live and [0, 48) is d";
  ASSERT_TRUE(ring.release(c->ticket));
  auto e = ring.allocate(64, 16);  // after d: [48, 112)
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 48u);
}

TEST(KernargRing, AWrappedSliceNeverReachesTheOldestLiveOne) {
  Buffer b(128);
  KernargRing ring(b.base, 128);
  auto a = ring.allocate(32, 16);  // [0, 32)
  auto c = ring.allocate(64, 16);  // [32, 96)
  ASSERT_TRUE(a && c);
  ASSERT_TRUE(ring.release(a->ticket));
  EXPECT_FALSE(ring.allocate(48, 16)) << "32 at the end, 32 before the live [32, 96)";
  auto d = ring.allocate(32, 16);  // fits the end exactly: [96, 128)
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset, 96u);
  auto e = ring.allocate(32, 16);  // wraps: [0, 32) ends where c starts
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset, 0u);
  EXPECT_FALSE(ring.allocate(16, 16));
}

TEST(KernargRing, EmptyRingStartsOverAtTheBase) {
  Buffer b(256);
  KernargRing ring(b.base, 256);
  for (int i = 0; i < 100; ++i) {
    auto s = ring.allocate(40, 16);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->offset, 0u);
    EXPECT_EQ(s->reused, i > 0);
    ASSERT_TRUE(ring.release(s->ticket));
  }
  EXPECT_EQ(ring.wraps(), 0u);
}

TEST(KernargRing, UnknownOrRepeatedReleaseIsRefused) {
  Buffer b(256);
  KernargRing ring(b.base, 256);
  auto s = ring.allocate(16, 16);
  auto t = ring.allocate(16, 16);
  ASSERT_TRUE(s && t);
  EXPECT_FALSE(ring.release(t->ticket + 1));
  EXPECT_TRUE(ring.release(t->ticket));
  EXPECT_FALSE(ring.release(t->ticket));
  EXPECT_TRUE(ring.release(s->ticket));
  EXPECT_FALSE(ring.release(s->ticket));
  EXPECT_EQ(ring.live_slices(), 0u);
}

TEST(KernargRing, SteadyStreamWrapsManyTimesWithoutOverlap) {
  Buffer b(1000);
  KernargRing ring(b.base, 1000);  // rounded down to 992
  EXPECT_EQ(ring.capacity(), 992u);
  struct Live {
    KernargRing::Slice slice;
    size_t size;
  };
  std::vector<Live> live;
  for (int i = 0; i < 2000; ++i) {
    const size_t size = 16 + (i * 7) % 100;
    std::optional<KernargRing::Slice> s;
    while (!(s = ring.allocate(size, 16))) {
      ASSERT_FALSE(live.empty());
      ASSERT_TRUE(ring.release(live.front().slice.ticket));
      live.erase(live.begin());
    }
    for (const Live& other : live) {
      const size_t begin = other.slice.offset, end = begin + other.size;
      EXPECT_TRUE(s->offset + size <= begin || s->offset >= end) << "overlaps the live slice at " << begin;
    }
    EXPECT_LE(s->offset + size, ring.capacity());
    live.push_back(Live{*s, size});
  }
  EXPECT_GT(ring.wraps(), 10u);
}

}  // namespace
