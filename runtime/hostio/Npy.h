//===- Npy.h - Read and write NumPy .npy files ------------------*- C++ -*-===//
//
// Format versions 1.0 and 2.0 are read and written, 3.0 (UTF-8 header) is
// read. Only little-endian, C-order arrays: fortran_order True and
// big-endian descrs are rejected with a clear error.
//
// descr <-> element type:
//   <f4 f32   <f8 f64   <f2 f16
//   |i1 s8    <i2 s16   <i4 s32   <i8 s64
//   |u1 u8    <u2 u16   <u4 u32   <u8 u64
//   |b1 pred (any non-zero byte reads as 1)
//   bf16: NumPy has no bfloat16. ml_dtypes' bfloat16 arrays (JAX) are saved
//   by np.save with descr '<V2' (2-byte raw void), so a 2-byte void descr
//   ('<V2' or '|V2') reads as bf16 raw bits; 'bfloat16' is accepted too.
//   Writing bf16 gives '<V2' by default (np.load returns a void array; view
//   it with .view(ml_dtypes.bfloat16) or .view('<u2') for the bits), or,
//   with Bf16Encoding::Float32, the exact f32 values as '<f4' for readers
//   without ml_dtypes (the element type then reads back as f32).
// For 1-byte types '<' '|' and '=' are all accepted as the byte order.
//
// Every error names the file and what is wrong. Writing goes through a
// temporary file in the same directory that is renamed over the target, so
// a failed write never leaves partial output.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_RUNTIME_HOSTIO_NPY_H
#define TPUC_RUNTIME_HOSTIO_NPY_H

#include "runtime/hostio/HostArray.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#include <string>
#include "absl/strings/string_view.h"

namespace tpuc::hostio {

enum class Bf16Encoding {
  Void2,   ///< descr '<V2', the raw bf16 bits (round-trips as bf16).
  Float32, ///< descr '<f4', each value widened exactly to f32.
};

struct NpyWriteOptions {
  Bf16Encoding bf16 = Bf16Encoding::Void2;
};

/// Parses the bytes of a .npy file; `name` is used in error messages.
absl::StatusOr<HostArray> parseNpy(absl::string_view bytes,
                                   absl::string_view name);
absl::StatusOr<HostArray> readNpyFile(const std::string &path);
/// readNpyFile for a parameter of type `expected`: when that is an f8 type,
/// a 1-byte array (ml_dtypes writes float8 arrays as '|V1' voids; '|u1'
/// too) is taken as its bits; when it is s4 or u4, an int8 or uint8 array
/// (numpy has no 4-bit integers) is checked to be in [-8, 7] or [0, 15]
/// (an error names the file and the first element's row-major index
/// outside) and retagged. Other arrays are returned as they are read.
absl::StatusOr<HostArray> readNpyFileAs(const std::string &path,
                                        DType expected);

/// The bytes of a .npy file for `array` (format 1.0, or 2.0 when the header
/// needs more than 65535 bytes).
std::string serializeNpy(const HostArray &array,
                         const NpyWriteOptions &options = {});
absl::Status writeNpyFile(const std::string &path, const HostArray &array,
                          const NpyWriteOptions &options = {});

} // namespace tpuc::hostio

#endif // TPUC_RUNTIME_HOSTIO_NPY_H
