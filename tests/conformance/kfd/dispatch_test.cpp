// tests/conformance/kfd/dispatch_test.cpp - the ioctl dispatcher: numbers, sizes, pointers (KFD-IOC-*).
#include "kfd_fixture.h"

namespace kfdconf {
namespace {

unsigned long request(unsigned dir, unsigned nr, unsigned size) {
  return (static_cast<unsigned long>(dir) << 30) | (static_cast<unsigned long>(size) << 16) |
         (static_cast<unsigned long>('K') << 8) | nr;
}

TEST_F(KfdTest, KFD_IOC_3_GetVersionIsMajorOne) {
  kfd_ioctl_get_version_args v{};
  ASSERT_EQ(io(AMDKFD_IOC_GET_VERSION, &v), 0);
  EXPECT_EQ(v.major_version, 1u);
  EXPECT_GE(v.minor_version, 1u);
}

TEST_F(KfdTest, KFD_IOC_1_UnknownNumbersReturnEINVAL) {
  uint8_t buf[256] = {};
  // 0x00, the first number past 1.11, libhsakmt's out-of-tree 0x82..0x84 (DBG_TRAP, CROSS_MEMORY_COPY,
  // RLC_SPM), the first past them, 0xff; 0x80/0x81 (IPC) are served: ipc_test.cpp.
  for (unsigned nr : {0x00u, 0x24u, 0x25u, 0x82u, 0x83u, 0x84u, 0x85u, 0xffu})
    EXPECT_EQ(io(request(3, nr, 16), buf), -EINVAL) << "nr " << nr;
}

TEST_F(KfdTest, KFD_IOC_1_DeprecatedDebuggerIoctlsReturnEPERM) {
  kfd_ioctl_dbg_register_args a{proc.gpu_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DBG_REGISTER_DEPRECATED, &a), -EPERM);
  EXPECT_EQ(io(AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED, &a), -EPERM);
}

// Each ioctl number with the size its header gives it: linux/kfd_ioctl.h 1.11 (0x01..0x23) and
// the out-of-tree ones of libhsakmt 5.2.3's own copy (0x80..0x84; ROCT rocm-5.2.3
// include/linux/kfd_ioctl.h: IPC_IMPORT_HANDLE 48, IPC_EXPORT_HANDLE 32, DBG_TRAP 40,
// CROSS_MEMORY_COPY 48, RLC_SPM 32 bytes).
std::vector<std::pair<unsigned, unsigned>> numbers_and_sizes() {
  std::vector<std::pair<unsigned, unsigned>> out;
  for (unsigned long r : {AMDKFD_IOC_GET_VERSION,
                          AMDKFD_IOC_CREATE_QUEUE,
                          AMDKFD_IOC_DESTROY_QUEUE,
                          AMDKFD_IOC_SET_MEMORY_POLICY,
                          AMDKFD_IOC_GET_CLOCK_COUNTERS,
                          AMDKFD_IOC_GET_PROCESS_APERTURES,
                          AMDKFD_IOC_UPDATE_QUEUE,
                          AMDKFD_IOC_CREATE_EVENT,
                          AMDKFD_IOC_DESTROY_EVENT,
                          AMDKFD_IOC_SET_EVENT,
                          AMDKFD_IOC_RESET_EVENT,
                          AMDKFD_IOC_WAIT_EVENTS,
                          AMDKFD_IOC_DBG_REGISTER_DEPRECATED,
                          AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED,
                          AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED,
                          AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED,
                          AMDKFD_IOC_SET_SCRATCH_BACKING_VA,
                          AMDKFD_IOC_GET_TILE_CONFIG,
                          AMDKFD_IOC_SET_TRAP_HANDLER,
                          AMDKFD_IOC_GET_PROCESS_APERTURES_NEW,
                          AMDKFD_IOC_ACQUIRE_VM,
                          AMDKFD_IOC_ALLOC_MEMORY_OF_GPU,
                          AMDKFD_IOC_FREE_MEMORY_OF_GPU,
                          AMDKFD_IOC_MAP_MEMORY_TO_GPU,
                          AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU,
                          AMDKFD_IOC_SET_CU_MASK,
                          AMDKFD_IOC_GET_QUEUE_WAVE_STATE,
                          AMDKFD_IOC_GET_DMABUF_INFO,
                          AMDKFD_IOC_IMPORT_DMABUF,
                          AMDKFD_IOC_ALLOC_QUEUE_GWS,
                          AMDKFD_IOC_SMI_EVENTS,
                          AMDKFD_IOC_SVM,
                          AMDKFD_IOC_SET_XNACK_MODE,
                          AMDKFD_IOC_CRIU_OP,
                          AMDKFD_IOC_AVAILABLE_MEMORY})
    out.emplace_back(unsigned(r & 0xff), unsigned((r >> 16) & 0x3fff));
  for (auto [nr, size] : {std::pair{0x80u, 48u}, {0x81u, 32u}, {0x82u, 40u}, {0x83u, 48u}, {0x84u, 32u}})
    out.emplace_back(nr, size);
  return out;
}

// KFD-IOC-2: whatever the call answers, nothing is written past the size the request encodes
// (amdkfd copies back _IOC_SIZE bytes of its kdata buffer): a guard after the argument struct,
// at the header's size and at a shorter size a caller built against another header could use.
TEST_F(KfdTest, KFD_IOC_2_NoIoctlWritesPastTheSizeItsNumberEncodes) {
  for (auto [nr, size] : numbers_and_sizes()) {
    for (unsigned usize : {size, size / 2 & ~3u}) {
      std::vector<uint8_t> buf(usize + 256, 0xa5);
      std::fill(buf.begin(), buf.begin() + usize, 0);
      io(request(3, nr, usize), buf.data());
      bool guard = true;
      for (size_t i = usize; i < buf.size(); ++i) guard = guard && buf[i] == 0xa5;
      EXPECT_TRUE(guard) << "nr 0x" << std::hex << nr << " size " << std::dec << usize;
    }
  }
}

TEST_F(KfdTest, KFD_IOC_2_NullArgumentReturnsEFAULT) {
  EXPECT_EQ(io(AMDKFD_IOC_GET_VERSION, nullptr), -EFAULT);
  EXPECT_EQ(io(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, nullptr), -EFAULT);
  EXPECT_EQ(io(AMDKFD_IOC_WAIT_EVENTS, reinterpret_cast<void*>(16)), -EFAULT);
}

TEST_F(KfdTest, KFD_IOC_2_ShorterUserSizeCopiesOnlyThatMuch) {
  uint32_t v[2] = {0xdeadbeef, 0xdeadbeef};
  ASSERT_EQ(io(request(2, 0x01, 4), v), 0);
  EXPECT_EQ(v[0], 1u);
  EXPECT_EQ(v[1], 0xdeadbeefu);  // outside the user's size: untouched
}

TEST_F(KfdTest, KFD_IOC_2_ShorterUserSizeIsZeroExtended) {
  // ALLOC with only va_addr and size passed: gpu_id reads as 0, which is no GPU.
  kfd_ioctl_alloc_memory_of_gpu_args a{};
  a.size = kPage;
  a.gpu_id = proc.gpu_id;
  a.flags = KFD_IOC_ALLOC_MEM_FLAGS_GTT;
  EXPECT_EQ(io(request(3, 0x16, 16), &a), -EINVAL);
}

TEST_F(KfdTest, KFD_IOC_2_LongerUserSizeEchoesTheTail) {
  struct {
    kfd_ioctl_get_version_args v;
    uint32_t tail[4];
  } big{{0, 0}, {1, 2, 3, 4}};
  ASSERT_EQ(io(request(2, 0x01, sizeof(big)), &big), 0);
  EXPECT_EQ(big.v.major_version, 1u);
  // A read-only request copies nothing in: the tail comes back zeroed, as upstream's memset does.
  EXPECT_EQ(big.tail[0], 0u);
}

TEST_F(KfdTest, KFD_IOC_2_DirectionComesFromTheDriverTable) {
  // Caller claims "write only" for GET_VERSION: the driver still copies the result out.
  kfd_ioctl_get_version_args v{};
  ASSERT_EQ(io(request(1, 0x01, sizeof(v)), &v), 0);
  EXPECT_EQ(v.major_version, 1u);
}

TEST(KfdDevice, KFD_IOC_6_ClosedDescriptorIsEBADF) {
  const int fd = kfdport::open_kfd();
  ASSERT_GE(fd, 0);
  ASSERT_EQ(kfdport::close(fd), 0);
  kfd_ioctl_get_version_args v{};
  EXPECT_EQ(kfdport::ioctl(fd, AMDKFD_IOC_GET_VERSION, &v), -EBADF);
  EXPECT_EQ(kfdport::close(fd), -EBADF);
}

}  // namespace
}  // namespace kfdconf
