// tests/unit/clr/packet_header_test.cpp - the header of every packet the command layer
// publishes, as the GPU model launched it (its "packet processor: launch" trace): barrier bit
// (in-order stream) and SYSTEM acquire and release scopes (AQL-FEN-3). The adversarial model
// catches a narrow release by a stale read, but keeps every launch coherent whatever its
// acquire scope (spec/adversarial-gpu.md, "Not modelled"), so the header is checked as launched.
#include <gtest/gtest.h>

#include <hsa/hsa.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/virtual_gpu.h"
#include "common/aql_packet.h"
#include "common/kernel_abi.h"
#include "common/trace.h"

namespace {

using rocref::clr::ClrMutant;
using rocref::clr::Device;
using rocref::clr::KernelDispatch;
using rocref::clr::ScopedClrMutant;
using rocref::clr::VirtualGpu;
namespace aql = rocref::aql;
namespace kernel_abi = rocref::kernel_abi;
namespace trace = rocref::trace;

void nothing_body(const void*) {}

uint64_t nothing_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("clr_header_nothing", nothing_body);
  return id;
}

// The headers of the packets the GPU model launched while tracing was on, in launch order.
std::vector<uint16_t> launched_headers(const std::vector<trace::Event>& events) {
  std::vector<uint16_t> headers;
  for (const trace::Event& e : events) {
    if (e.layer != trace::Layer::Gpu || e.name != "packet processor: launch") continue;
    const size_t at = e.detail.find(" header=0x");
    if (at == std::string::npos) continue;
    headers.push_back(static_cast<uint16_t>(std::strtoul(e.detail.c_str() + at + 10, nullptr, 16)));
  }
  return headers;
}

class ClrPacketHeader : public ::testing::Test {
 protected:
  void SetUp() override {
    device = Device::get();
    ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
  }
  // A kernel dispatch, a marker and a wait on a completed signal: one packet of each kind
  // the stream writes (KERNEL_DISPATCH, BARRIER_AND with and without a dependency).
  std::vector<uint16_t> stream_headers() {
    auto made = VirtualGpu::create(*device, VirtualGpu::Options{VirtualGpu::kDefaultKernargRingBytes});
    const hsa_status_t status = made ? HSA_STATUS_SUCCESS : made.error();
    auto gpu = std::move(made).value_or(nullptr);
    EXPECT_EQ(status, HSA_STATUS_SUCCESS);
    if (!gpu) return {};
    hsa_signal_t done{0};
    EXPECT_EQ(hsa_signal_create(0, 0, nullptr, &done), HSA_STATUS_SUCCESS);
    trace::clear();
    trace::enable(true);
    KernelDispatch d;
    d.kernel_id = nothing_kernel();
    d.name = "clr_header";
    EXPECT_EQ(gpu->launch(d), HSA_STATUS_SUCCESS);
    hsa_signal_t marker{0};
    EXPECT_EQ(gpu->marker(&marker), HSA_STATUS_SUCCESS);
    EXPECT_EQ(gpu->wait_for(done), HSA_STATUS_SUCCESS);
    EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
    trace::enable(false);
    std::vector<uint16_t> headers = launched_headers(trace::snapshot());
    trace::clear();
    device->signal_pool().release(marker);
    gpu.reset();
    hsa_signal_destroy(done);
    return headers;
  }
  Device* device = nullptr;
};

// covers: AQL-FEN-3
TEST_F(ClrPacketHeader, AQL_FEN_3_EveryPacketIsInOrderAndFencedAtSystemScope) {
  const std::vector<uint16_t> headers = stream_headers();
  ASSERT_EQ(headers.size(), 3u) << "one launch traced per packet of the stream";
  for (uint16_t h : headers) {
    EXPECT_TRUE(aql::header_barrier(h)) << std::hex << h;
    EXPECT_EQ(aql::header_acquire_scope(h), HSA_FENCE_SCOPE_SYSTEM) << std::hex << h;
    EXPECT_EQ(aql::header_release_scope(h), HSA_FENCE_SCOPE_SYSTEM) << std::hex << h;
  }
  // Each header bug of clr_mutant.h shows in every packet the stream wrote.
  struct Bug {
    ClrMutant mutant;
    bool (*wrong)(uint16_t);
  };
  const Bug bugs[] = {
      {ClrMutant::AgentAcquireScope,
       [](uint16_t h) { return aql::header_acquire_scope(h) == HSA_FENCE_SCOPE_AGENT; }},
      {ClrMutant::AgentReleaseScope,
       [](uint16_t h) { return aql::header_release_scope(h) == HSA_FENCE_SCOPE_AGENT; }},
      {ClrMutant::NoBarrierBit, [](uint16_t h) { return !aql::header_barrier(h); }},
  };
  for (const Bug& bug : bugs) {
    ScopedClrMutant on(bug.mutant);
    const std::vector<uint16_t> buggy = stream_headers();
    ASSERT_EQ(buggy.size(), 3u) << static_cast<int>(bug.mutant);
    for (uint16_t h : buggy) EXPECT_TRUE(bug.wrong(h)) << static_cast<int>(bug.mutant) << " " << std::hex << h;
  }
}

}  // namespace
