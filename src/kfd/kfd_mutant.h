// kfd/kfd_mutant.h - planted KFD bugs the tests must catch (test-only library rocref_kfd_mutable).
//
// Compiled in only with ROCREF_KFD_MUTANTS; elsewhere kfd_mutant_active() is a
// constant false and the branches vanish.
#pragma once

namespace rocref::kfd {

enum class KfdMutant : unsigned {
  QueueAlignmentUnchecked,    // KFD-Q-7: misaligned ring base and queue pointers accepted
  UserptrWriteUnchecked,      // KFD-MEM-3: USERPTR|WRITABLE pinned without FOLL_WRITE's check
  Pm4DisableIgnored,          // KFD-Q-9: UPDATE_QUEUE's percentage 0 leaves a PM4 queue running
  MemLimitUnchecked,          // KFD-MEM-11: an allocation past the memory limits is accepted
  FreeKeepsMemCharge,         // KFD-MEM-11: a freed buffer's charge is never given back
  CoherentMappedNc,           // GPU-GRAIN-1: the COHERENT flag ignored: every buffer mapped MTYPE_NC (coarse)
  PeerLinkOneWay,             // KFD-TOPO-8: a GPU lists p2p links only to GPUs of higher nodes
  AllocIgnoresGpuId,          // KFD-TOPO-8: ALLOC_MEMORY_OF_GPU takes VRAM from GPU 0 whatever gpu_id names
  PeerMapSkipped,             // KFD-MEM-12: MAP_MEMORY_TO_GPU to a peer GPU succeeds without mapping its VM
  PrivateFileUserptrRefused,  // KFD-MEM-13: USERPTR over a private file mapping (.data/.bss) is -EFAULT
  PinSharedAcrossFork,        // KFD-MEM-14: a forked child keeps sharing the parent's pinned private pages
  CopyOutWholeStruct,         // KFD-IOC-2: an answer copied out at the driver's struct size, past a shorter user size
  ForkKeepsParentDevice,      // KFD-PROC-4: a forked child keeps the parent's driver state and its absent engine thread
  SharedCopiesOwnMemory,      // KFD-MP-2: the daemon's user copies read and write its own memory, not the caller's
  SharedEndKeepsProcess,      // KFD-MP-3: a session's end (exit, kill -9) does not release its process
  SharedForkKeepsConnection,  // KFD-MP-4: a forked child keeps using the parent's connection
  RotationKeepsServedInFront,  // KFD-HWS-4: served queues are not moved behind the waiting ones: the rest starve
  ResumeRewindsReadPointer,    // KFD-HWS-5: a resumed queue continues one packet before its saved read pointer
  PreemptDropsPendingWptr,     // KFD-HWS-5: a resumed SDMA queue ignores the doorbell written while it was off its slot
  EvictionCountIgnored,        // KFD-HWS-6: the first restore restores a process evicted twice
  IpcPagesFreedWithExporter,   // KFD-IPC-4: freeing any buffer over exported pages frees them under the others
  ShareHandleHalfCompared,     // KFD-IPC-2: an import matches a share handle on its first 64 bits only
  kCount
};

#ifdef ROCREF_KFD_MUTANTS
bool kfd_mutant_active(KfdMutant m) noexcept;
void set_kfd_mutant(KfdMutant m, bool on) noexcept;
#else
constexpr bool kfd_mutant_active(KfdMutant) noexcept { return false; }
#endif

}  // namespace rocref::kfd
