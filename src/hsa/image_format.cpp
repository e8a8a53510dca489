// hsa/image_format.cpp - the gfx9 image format, swizzle and dimension tables (see image_format.h).
#include "hsa/image_format.h"

#include <cstring>

#include "common/resource_descriptors.h"

namespace rocref::hsa {
namespace {

using namespace rocref::rsrc;

constexpr uint32_t kRead = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY;
constexpr uint32_t kReadWriteOnly = kRead | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY;
constexpr uint32_t kAll = kReadWriteOnly | HSA_EXT_IMAGE_CAPABILITY_READ_WRITE;

// IMG_NUM_FORMAT values (Vega ISA 8.2.5).
enum : uint32_t { kUnorm = 0, kSnorm = 1, kUint = 4, kSint = 5, kFloat = 7 };

struct TypeInfo {
  uint32_t bits = 0;  // per channel; 0: not a channel-aligned type the model converts
  uint32_t num_format = 0;
};

// Channel types ROCR's table lists with 8-, 16- or 32-bit channels. UNORM_INT24 has no row there
// that is supported; the packed types and sRGB are left out (ISA-IMG-3).
TypeInfo type_info(uint32_t type) {
  switch (type) {
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8: return {8, kSnorm};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16: return {16, kSnorm};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8: return {8, kUnorm};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16: return {16, kUnorm};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8: return {8, kSint};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16: return {16, kSint};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32: return {32, kSint};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8: return {8, kUint};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16: return {16, kUint};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32: return {32, kUint};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT: return {16, kFloat};
    case HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT: return {32, kFloat};
    default: return {};
  }
}

// DATA_FORMAT of `channels` channels of `bits` bits (FMT_8 .. FMT_32_32_32_32).
uint32_t data_format(uint32_t channels, uint32_t bits) {
  const uint32_t i = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  static constexpr uint32_t kOne[] = {1, 2, 4}, kTwo[] = {3, 5, 11}, kFour[] = {10, 12, 14};
  return channels == 1 ? kOne[i] : channels == 2 ? kTwo[i] : kFour[i];
}

// Channels of an order and the types ROCR's table gives it (a bit per channel type).
struct OrderInfo {
  uint32_t channels = 0;
  uint32_t types = 0;
  uint32_t capability = kAll;
};

constexpr uint32_t bit(uint32_t type) { return 1u << type; }
constexpr uint32_t kEveryAlignedType =
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT);
constexpr uint32_t kEightBitTypes =
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8);
constexpr uint32_t kNormAndFloatTypes =
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16) |
    bit(HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT);

// ROCR 5.2.3 image_lut_kv.cpp (the table its gfx9 manager uses). RGB (packed types only) and
// SRGBA (sRGB only) have no row the model executes; RX, RGX, RGBX, ABGR, SRGB, SRGBX, SBGRA and
// DEPTH_STENCIL have none in ROCR's table.
OrderInfo order_info(uint32_t order) {
  switch (order) {
    case HSA_EXT_IMAGE_CHANNEL_ORDER_A:
    case HSA_EXT_IMAGE_CHANNEL_ORDER_R: return {1, kEveryAlignedType};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_RG:
    case HSA_EXT_IMAGE_CHANNEL_ORDER_RA: return {2, kEveryAlignedType};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA: return {4, kEveryAlignedType};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA:
    case HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB: return {4, kEightBitTypes};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY:
    case HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE: return {1, kNormAndFloatTypes};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH:  // read and write-only, never read-write
      return {1, bit(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16) | bit(HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT), kReadWriteOnly};
    default: return {};
  }
}

struct Swizzle {
  uint32_t x, y, z, w;
};

// ROCR's kSwizzleLut_ (the orders without a supported row keep theirs, unused).
Swizzle swizzle_of(uint32_t order) {
  switch (order) {
    case HSA_EXT_IMAGE_CHANNEL_ORDER_A: return {kSel0, kSel0, kSel0, kSelX};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_RG: return {kSelX, kSelY, kSel0, kSel1};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_RA: return {kSelX, kSel0, kSel0, kSelY};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA: return {kSelX, kSelY, kSelZ, kSelW};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA: return {kSelZ, kSelY, kSelX, kSelW};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB: return {kSelY, kSelZ, kSelW, kSelX};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY: return {kSelX, kSelX, kSelX, kSelX};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE: return {kSelX, kSelX, kSelX, kSel1};
    case HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH: return {kSelX, kSel0, kSel0, kSel0};
    default: return {kSelX, kSel0, kSel0, kSel1};  // R
  }
}

}  // namespace

ImageFormat image_format(const hsa_ext_image_format_t& format, uint32_t geometry) noexcept {
  const uint32_t order = format.channel_order, type = format.channel_type;
  // MapFormat: depth geometries take only the depth orders; every other order and geometry the table.
  const bool depth_order = order == HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH;
  switch (geometry) {
    case HSA_EXT_IMAGE_GEOMETRY_1D:
    case HSA_EXT_IMAGE_GEOMETRY_2D:
    case HSA_EXT_IMAGE_GEOMETRY_3D:
    case HSA_EXT_IMAGE_GEOMETRY_1DA:
    case HSA_EXT_IMAGE_GEOMETRY_2DA:
    case HSA_EXT_IMAGE_GEOMETRY_1DB: break;
    case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
    case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
      if (!depth_order) return {};
      break;
    default: return {};
  }
  const OrderInfo o = order_info(order);
  if (type >= 32 || (o.types & bit(type)) == 0) return {};
  const TypeInfo t = type_info(type);
  ImageFormat f;
  f.capability = o.capability;
  f.element_size = o.channels * t.bits / 8;
  f.data_format = data_format(o.channels, t.bits);
  f.num_format = t.num_format;
  const Swizzle s = swizzle_of(order);
  f.dst_sel[0] = s.x;
  f.dst_sel[1] = s.y;
  f.dst_sel[2] = s.z;
  f.dst_sel[3] = s.w;
  return f;
}

ImageMaxDim image_max_dim(uint32_t geometry) noexcept {
  // ROCR's kMaxDimensionLut_ (width, height, depth, array size).
  switch (geometry) {
    case HSA_EXT_IMAGE_GEOMETRY_1D: return {16384, 1, 1, 1};
    case HSA_EXT_IMAGE_GEOMETRY_2D:
    case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH: return {16384, 16384, 1, 1};
    case HSA_EXT_IMAGE_GEOMETRY_3D: return {16384, 16384, 8192, 1};
    case HSA_EXT_IMAGE_GEOMETRY_1DA: return {16384, 1, 1, 8192};
    case HSA_EXT_IMAGE_GEOMETRY_2DA:
    case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH: return {16384, 16384, 1, 8192};
    case HSA_EXT_IMAGE_GEOMETRY_1DB: return {UINT32_MAX, 1, 1, 1};
    default: return {};
  }
}

hsa_status_t image_max_dim_info(bool gpu, uint32_t attribute, void* value) noexcept {
  uint32_t geometry = 0, count = 1;
  switch (attribute) {
    case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_1D; break;
    case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_1DA; break;
    case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_1DB; break;
    case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_2D, count = 2; break;
    case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_2DA, count = 2; break;
    case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, count = 2; break;
    case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_2DADEPTH, count = 2; break;
    case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS: geometry = HSA_EXT_IMAGE_GEOMETRY_3D, count = 3; break;
    case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS: geometry = HSA_EXT_IMAGE_GEOMETRY_2DA; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const ImageMaxDim m = gpu ? image_max_dim(geometry) : ImageMaxDim{};
  const uint32_t dims[3] = {attribute == HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS ? m.array_size : m.width, m.height,
                            m.depth};
  std::memcpy(value, dims, count * sizeof(uint32_t));
  return HSA_STATUS_SUCCESS;
}

uint32_t image_resource_type(uint32_t geometry) noexcept {
  switch (geometry) {
    case HSA_EXT_IMAGE_GEOMETRY_1D: return tsharp::k1D;
    case HSA_EXT_IMAGE_GEOMETRY_2D:
    case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH: return tsharp::k2D;
    case HSA_EXT_IMAGE_GEOMETRY_3D: return tsharp::k3D;
    case HSA_EXT_IMAGE_GEOMETRY_1DA: return tsharp::k1DArray;
    case HSA_EXT_IMAGE_GEOMETRY_2DA:
    case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH: return tsharp::k2DArray;
    default: return 0;
  }
}

unsigned image_coordinates(uint32_t geometry) noexcept {
  switch (geometry) {
    case HSA_EXT_IMAGE_GEOMETRY_2D:
    case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
    case HSA_EXT_IMAGE_GEOMETRY_1DA: return 2;
    case HSA_EXT_IMAGE_GEOMETRY_3D:
    case HSA_EXT_IMAGE_GEOMETRY_2DA:
    case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH: return 3;
    default: return 1;
  }
}

}  // namespace rocref::hsa
