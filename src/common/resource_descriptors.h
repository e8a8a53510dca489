// common/resource_descriptors.h - the gfx9 buffer (V#), image (T#) and sampler (S#) descriptor layouts.
//
// Bit positions from the AMD "Vega" ISA reference (8.1.5 buffer resource, 8.2.7
// image resource, 8.2.8 sampler resource), as ROCR's image manager for gfx9 writes
// them (SQ_BUF_RSRC_WORD*, SQ_IMG_RSRC_WORD*, SQ_IMG_SAMP_WORD*). Each field is
// (dword, low bit, width); the static_asserts below keep every descriptor's
// fields inside their dwords and disjoint (ISA-IMG-1). One definition for both sides: the GPU
// model's interpreter reads descriptors with it and the HSA runtime's image extension writes
// them with it (HSA-IMG-3).
#pragma once

#include <cstdint>

namespace rocref::rsrc {

struct DescField {
  uint8_t word, lo, width;
  constexpr uint32_t get(const uint32_t* d) const { return (d[word] >> lo) & mask(); }
  constexpr uint32_t mask() const { return width >= 32 ? ~0u : (1u << width) - 1; }
  // Writes the low `width` bits of v into the field, leaving the rest of the dword.
  constexpr void set(uint32_t* d, uint32_t v) const { d[word] = (d[word] & ~(mask() << lo)) | ((v & mask()) << lo); }
};

// V#: 4 dwords.
namespace vsharp {
inline constexpr DescField kBaseLo{0, 0, 32}, kBaseHi{1, 0, 16}, kStride{1, 16, 14}, kCacheSwizzle{1, 30, 1},
    kSwizzleEnable{1, 31, 1}, kNumRecords{2, 0, 32}, kDstSelX{3, 0, 3}, kDstSelY{3, 3, 3}, kDstSelZ{3, 6, 3},
    kDstSelW{3, 9, 3}, kNumFormat{3, 12, 3}, kDataFormat{3, 15, 4}, kElementSize{3, 19, 2}, kIndexStride{3, 21, 2},
    kAddTid{3, 23, 1}, kType{3, 30, 2};
inline constexpr DescField kAll[] = {kBaseLo,      kBaseHi,      kStride,  kCacheSwizzle, kSwizzleEnable, kNumRecords,
                                     kDstSelX,     kDstSelY,     kDstSelZ, kDstSelW,      kNumFormat,     kDataFormat,
                                     kElementSize, kIndexStride, kAddTid,  kType};
}  // namespace vsharp

// T#: 8 dwords (a 1D-buffer image is a V# in the first four).
namespace tsharp {
inline constexpr DescField kBaseLo{0, 0, 32},                                                            // address >> 8
    kBaseHi{1, 0, 8}, kMinLod{1, 8, 12}, kDataFormat{1, 20, 6}, kNumFormat{1, 26, 4}, kWidth{2, 0, 14},  // width - 1
    kHeight{2, 14, 14},                                                                                  // height - 1
    kPerfMod{2, 28, 3}, kDstSelX{3, 0, 3}, kDstSelY{3, 3, 3}, kDstSelZ{3, 6, 3}, kDstSelW{3, 9, 3},
    kBaseLevel{3, 12, 4}, kLastLevel{3, 16, 4}, kSwMode{3, 20, 5}, kType{3, 28, 4},
    kDepth{4, 0, 13},                                                          // depth - 1 (3D) or array size - 1
    kPitch{4, 13, 16},                                                         // pitch - 1, in texels
    kBcSwizzle{4, 29, 3}, kBaseArray{5, 0, 13}, kMetaDataAddressHi{5, 17, 8},  // address >> 40
    kMetaDataAddress{7, 0, 32};                                                // address >> 8
inline constexpr DescField kAll[] = {
    kBaseLo,  kBaseHi,  kMinLod,    kDataFormat, kNumFormat,         kWidth,          kHeight, kPerfMod,
    kDstSelX, kDstSelY, kDstSelZ,   kDstSelW,    kBaseLevel,         kLastLevel,      kSwMode, kType,
    kDepth,   kPitch,   kBcSwizzle, kBaseArray,  kMetaDataAddressHi, kMetaDataAddress};
// SQ_RSRC_IMG_* (TYPE).
enum Type : uint32_t { k1D = 8, k2D = 9, k3D = 10, kCube = 11, k1DArray = 12, k2DArray = 13 };
}  // namespace tsharp

// S#: 4 dwords.
namespace ssharp {
inline constexpr DescField kClampX{0, 0, 3}, kClampY{0, 3, 3}, kClampZ{0, 6, 3}, kMaxAniso{0, 9, 3},
    kDepthCompare{0, 12, 3}, kForceUnnormalized{0, 15, 1}, kAnisoThreshold{0, 16, 3}, kMcCoordTrunc{0, 19, 1},
    kForceDegamma{0, 20, 1}, kAnisoBias{0, 21, 6}, kTruncCoord{0, 27, 1}, kDisableCubeWrap{0, 28, 1},
    kFilterMode{0, 29, 2}, kCompatMode{0, 31, 1}, kMinLod{1, 0, 12}, kMaxLod{1, 12, 12}, kPerfMip{1, 24, 4},
    kPerfZ{1, 28, 4}, kLodBias{2, 0, 14}, kLodBiasSec{2, 14, 6}, kXyMagFilter{2, 20, 2}, kXyMinFilter{2, 22, 2},
    kZFilter{2, 24, 2}, kMipFilter{2, 26, 2}, kBorderColorPtr{3, 0, 12}, kBorderColorType{3, 30, 2};
inline constexpr DescField kAll[] = {
    kClampX,       kClampY,       kClampZ,    kMaxAniso,       kDepthCompare,    kForceUnnormalized, kAnisoThreshold,
    kMcCoordTrunc, kForceDegamma, kAnisoBias, kTruncCoord,     kDisableCubeWrap, kFilterMode,        kCompatMode,
    kMinLod,       kMaxLod,       kPerfMip,   kPerfZ,          kLodBias,         kLodBiasSec,        kXyMagFilter,
    kXyMinFilter,  kZFilter,      kMipFilter, kBorderColorPtr, kBorderColorType};
// SQ_TEX_CLAMP (CLAMP_X/Y/Z), SQ_TEX_XY_FILTER, SQ_TEX_BORDER_COLOR.
enum Clamp : uint32_t { kWrap = 0, kMirror = 1, kClampLastTexel = 2, kMirrorOnceLastTexel = 3, kClampBorder = 6 };
enum Filter : uint32_t { kPoint = 0, kBilinear = 1 };
enum Border : uint32_t { kTransparentBlack = 0, kOpaqueBlack = 1, kOpaqueWhite = 2 };
}  // namespace ssharp

// DST_SEL values (SQ_SEL_*), shared by V# and T#.
enum DstSel : uint32_t { kSel0 = 0, kSel1 = 1, kSelX = 4, kSelY = 5, kSelZ = 6, kSelW = 7 };

namespace detail {
template <size_t N>
constexpr bool disjoint_in_words(const DescField (&fields)[N], unsigned dwords) {
  uint32_t used[8] = {};
  for (const DescField& f : fields) {
    if (f.word >= dwords || f.width == 0 || f.lo + f.width > 32) return false;
    const uint32_t bits = f.mask() << f.lo;
    if ((used[f.word] & bits) != 0) return false;
    used[f.word] |= bits;
  }
  return true;
}
}  // namespace detail

static_assert(detail::disjoint_in_words(vsharp::kAll, 4), "V# fields overlap or leave their dword");
static_assert(detail::disjoint_in_words(tsharp::kAll, 8), "T# fields overlap or leave their dword");
static_assert(detail::disjoint_in_words(ssharp::kAll, 4), "S# fields overlap or leave their dword");
// Positions the ockl image library's own code reads (HEIGHT by s_bfe 0xe000e, FORCE_UNNORMALIZED bit 15,
// XY_MAG_FILTER bit 20 of word 2) and ROCR's 1D-buffer V# (STRIDE from bit 16, TYPE at the top).
static_assert(tsharp::kHeight.word == 2 && tsharp::kHeight.lo == 14 && tsharp::kHeight.width == 14);
static_assert(ssharp::kForceUnnormalized.word == 0 && ssharp::kForceUnnormalized.lo == 15);
static_assert(ssharp::kXyMagFilter.word == 2 && ssharp::kXyMagFilter.lo == 20);
static_assert(vsharp::kStride.lo == 16 && vsharp::kType.lo == 30 && tsharp::kType.lo == 28);

}  // namespace rocref::rsrc
