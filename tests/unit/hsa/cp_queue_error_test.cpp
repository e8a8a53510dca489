// tests/unit/hsa/cp_queue_error_test.cpp - the queue-inactive code round-trips (common/cp_queue_error.h).
#include <gtest/gtest.h>

#include <vector>

#include "common/cp_queue_error.h"

namespace rocref {
namespace {

// Every status the GPU model reports for a queue fault reaches the callback unchanged.
TEST(CpQueueError, HSA_QUEUE_5_ModelStatusesRoundTrip) {
  for (hsa_status_t status :
       {HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
        HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, HSA_STATUS_ERROR_INVALID_ALLOCATION, HSA_STATUS_ERROR_INVALID_ARGUMENT,
        static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION),
        static_cast<hsa_status_t>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION), HSA_STATUS_ERROR_EXCEPTION}) {
    const uint64_t code = cp_queue_error_code(status);
    EXPECT_EQ(code & (code - 1), 0u) << "one bit per fault, status " << status;
    EXPECT_EQ(status_from_cp_queue_error(code), status);
  }
}

// What ROCR would mistake for a scratch request must never be stored: no code has bits 0, 9 or 10.
TEST(CpQueueError, HSA_QUEUE_5_NoFaultLooksLikeAScratchRequest) {
  std::vector<uint32_t> statuses;
  for (uint32_t s = HSA_STATUS_ERROR; s <= HSA_STATUS_ERROR_FATAL; ++s) statuses.push_back(s);
  for (uint32_t s = HSA_STATUS_ERROR_INVALID_MEMORY_POOL; s <= HSA_STATUS_ERROR_MEMORY_FAULT; ++s) statuses.push_back(s);
  for (uint32_t status : statuses) {
    const uint64_t code = cp_queue_error_code(static_cast<hsa_status_t>(status));
    EXPECT_EQ(code & (kCpScratchWave64 | kCpScratchReclaim | kCpScratchWave32), 0u) << "status " << status;
    EXPECT_NE(code, 0u) << "a fault must leave the inactive signal non-zero, status " << status;
  }
}

// Decoding follows ROCR's order: the lowest listed bit wins; unknown bits are a generic error.
TEST(CpQueueError, HSA_QUEUE_5_DecodeOrderIsRocrs) {
  EXPECT_EQ(status_from_cp_queue_error(kCpInvalidDimension | kCpInvalidCode), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  EXPECT_EQ(status_from_cp_queue_error(kCpInvalidCode | kCpInvalidFormat), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  EXPECT_EQ(status_from_cp_queue_error(kCpVendorUnsupported), HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  EXPECT_EQ(status_from_cp_queue_error(kCpScratchWave64 | kCpInvalidFormat), HSA_STATUS_SUCCESS);
  EXPECT_EQ(status_from_cp_queue_error(kCpScratchReclaim), HSA_STATUS_SUCCESS);
  EXPECT_EQ(status_from_cp_queue_error(uint64_t{1} << 40), HSA_STATUS_ERROR);
  // 0x1009, INVALID_PACKET_FORMAT stored as a status, is what ROCR takes for a scratch request.
  EXPECT_EQ(status_from_cp_queue_error(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT), HSA_STATUS_SUCCESS);
}

}  // namespace
}  // namespace rocref
