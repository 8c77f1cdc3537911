// Device layouts (XLA's tiled layouts) and host <-> device conversion.
//
// A device array is stored as follows (XLA's rules, see docs/runtime.md):
//  1. the logical dims are permuted into major-to-minor physical order
//     (minor_to_major reversed);
//  2. each tile, in order, applies to the minor-most dims of the current
//     shape: a dim d tiled by t becomes ceil(d/t) outer and t inner, the outer
//     dims keep their place and all inner dims move to the end. A tile with
//     more dims than the shape sees leading dims of size 1 (T(256) on a
//     scalar);
//  3. the resulting shape is stored row-major; padding is zero.
#ifndef TPUC_RUNTIME_LOADER_LAYOUT_H
#define TPUC_RUNTIME_LOADER_LAYOUT_H

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/hostio/HostArray.h"
#include "runtime/schema/executable.pb.h"

namespace tpuc::runtime {

// Bytes per element; 0 for DTYPE_INVALID or an unknown value.
int64_t elementBytes(exe::DType dtype);
// XLA's name ("f32", "bf16", "s32", "pred", ...); "invalid" otherwise.
const char *dtypeName(exe::DType dtype);
// The host array type of a device type (F32 for an invalid one, which
// validation rejects first), and back.
hostio::DType toHostDType(exe::DType dtype);
absl::StatusOr<exe::DType> toDeviceDType(hostio::DType dtype);

// Checks dtype, dims >= 0, rank, that minor_to_major is a permutation and
// tile dims are positive, and that the padded size fits in 63 bits.
absl::Status validateShape(const exe::Shape &shape);

// Product of the dims (0 for any zero dim); requires a valid shape.
int64_t elementCount(const exe::Shape &shape);

// THE padded byte size of an array in device memory: the one function the
// runtime uses (the allocator checks, constants, parameters and results).
// Examples: f32[3,5]{1,0:T(8,128)} -> 8*128*4 = 4096;
// s32[29360128,10]{1,0:T(8,128)} -> 15032385536 (14 GiB).
absl::StatusOr<int64_t> paddedByteSize(const exe::Shape &shape);

// Shape after step 2 above, major to minor (e.g. [1,1,8,128] for f32[3,5]).
absl::StatusOr<std::vector<int64_t>> tiledDims(const exe::Shape &shape);

// Whether an entry array of `host` type may live in S32 words on the
// device (its host_dtype): pred as 0/1, s8/u8/s16/u16 sign- or
// zero-extended.
bool isWordHostType(exe::DType host);
// Whether an entry array of `host` type lives in F32 words holding its
// values on the device: f16 and the f8 types.
bool isFloatWordHostType(exe::DType host);

// Whether an entry array of `host` type lives on the device as its planar
// 32-bit words: s64 (u64) `[d...]` as S32 (U32) `[2, d...]`, the low words
// of every element, then the high words (tpuc-expand-x64).
bool isX64HostType(exe::DType host);

// The element type of a parameter's or result's host array: its host_dtype
// (isWordHostType, over an S32 device array), else the device's.
template <typename ParameterOrResult>
exe::DType hostDType(const ParameterOrResult &p) {
  return p.host_dtype() != exe::DTYPE_INVALID ? p.host_dtype()
                                              : p.shape().dtype();
}

// The dims of a parameter's or result's host array: the device's, without
// the leading word dim of an isX64HostType array.
template <typename ParameterOrResult>
std::vector<int64_t> hostDims(const ParameterOrResult &p) {
  std::vector<int64_t> dims(p.shape().dims().begin(), p.shape().dims().end());
  if (isX64HostType(p.host_dtype()) && !dims.empty())
    dims.erase(dims.begin());
  return dims;
}

// Converts a row-major host array of `hostType` to the device layout of
// `device` (converting the element type: f32 <-> bf16 with round to nearest
// even, pred bytes <-> s32 0/1 words, s8/u8/s16/u16 <-> s32 words (extended
// on the way in, the low bits on the way out), s64/u64 `[d...]` <-> their
// planar s32/u32 words `[2, d...]`, or identical types).
// `deviceBytes` must be paddedByteSize(device) bytes; padding is zeroed.
absl::Status hostToDevice(const exe::Shape &device, exe::DType hostType,
                          absl::Span<const uint8_t> hostBytes,
                          absl::Span<uint8_t> deviceBytes);

// The inverse: device layout -> row-major host array of `hostType`.
absl::Status deviceToHost(const exe::Shape &device, exe::DType hostType,
                          absl::Span<const uint8_t> deviceBytes,
                          absl::Span<uint8_t> hostBytes);

} // namespace tpuc::runtime

#endif // TPUC_RUNTIME_LOADER_LAYOUT_H
