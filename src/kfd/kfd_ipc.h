// kfd/kfd_ipc.h - an exported buffer's pages, shared by the exporter's and every importer's buffer.
//
// amdkfd's kfd_ipc_obj (kfd_ipc.c): export makes a dma-buf of the BO and files it under a random
// 128-bit share handle in one device-wide table; import looks the handle up and makes a BO of the
// importing process over the same pages. The object holds the pages: the exporter's BO and each
// importer's BO hold one reference, the table holds none, so the pages (and the handle) live
// until the last of them is freed, whichever process made it (KFD-IPC-4).
#pragma once

#include <array>
#include <cstdint>

#include "kfd/mem_limit.h"

namespace rocref::kfd {

enum class BoKind : uint8_t;

using ShareHandle = std::array<uint32_t, 4>;

struct IpcObject {
  ShareHandle share_handle{};
  BoKind kind{};              // Vram or Gtt: the pool the pages are in
  uint32_t gpu = 0;           // the device whose memory it is (import names it)
  uint64_t arena_offset = 0;  // the pages: one range of that pool's memfd
  uint64_t size = 0;
  uint32_t flags = 0;       // KFD_IOC_ALLOC_MEM_FLAGS_* of the exported BO
  uint32_t user_flags = 0;  // the export's flags word, handed to every importer
  MemCharge charge;         // KFD-MEM-11: the exporter's charge, given back with the pages
  uint32_t refs = 0;        // buffer objects over these pages
};

}  // namespace rocref::kfd
