//===- TiledLayout.h - XLA tiled layouts and byte sizes ---------*- C++ -*-===//
//
// XLA's layout notation ({1,0:T(8,128)(2,1)}), the tiling XLA chooses on TPU
// when a layout names no tiles, and unpadded/padded byte sizes of a tensor
// in a layout. Padded sizes come from the runtime's paddedByteSize, the one
// size function of the project.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_COMPILER_LAYOUT_TILEDLAYOUT_H
#define TPUC_COMPILER_LAYOUT_TILEDLAYOUT_H

#include "runtime/schema/executable.pb.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tpuc::layout {

using Tile = llvm::SmallVector<int64_t, 2>;

struct TiledLayout {
  llvm::SmallVector<int64_t, 4> minorToMajor;
  llvm::SmallVector<Tile, 3> tiles;

  bool operator==(const TiledLayout &other) const {
    return minorToMajor == other.minorToMajor && tiles == other.tiles;
  }
  bool operator!=(const TiledLayout &other) const { return !(*this == other); }
};

/// Parses "{1,0}", "{1,0:T(8,128)(2,1)}", "{:T(256)}". On failure returns
/// failure and sets `error` to what is wrong.
mlir::FailureOr<TiledLayout> parseLayout(llvm::StringRef text,
                                         std::string &error);

/// XLA notation, e.g. "{0,3,2,1:T(8,128)}".
std::string printLayout(const TiledLayout &layout);

/// The major-to-minor order {rank-1, ..., 0}.
llvm::SmallVector<int64_t, 4> descendingOrder(int64_t rank);

/// Whether a transpose by `permutation` (result dim i is operand dim
/// permutation[i]) moves no byte: the operand stored with
/// `operandMinorToMajor` and the result stored with `resultMinorToMajor`
/// hold the same dimension at every physical position (tiles aside).
bool isTransposeBitcast(llvm::ArrayRef<int64_t> permutation,
                        llvm::ArrayRef<int64_t> operandMinorToMajor,
                        llvm::ArrayRef<int64_t> resultMinorToMajor);

/// The tiles XLA on TPU assigns to `type` stored with `minorToMajor`.
llvm::SmallVector<Tile, 3> defaultTiles(mlir::RankedTensorType type,
                                        llvm::ArrayRef<int64_t> minorToMajor,
                                        const target::TilingRules &rules);

/// `layout` with default tiles added when it names none.
TiledLayout withDefaultTiles(mlir::RankedTensorType type, TiledLayout layout,
                             const target::TilingRules &rules);

/// The layout recorded for `value` (the `hlo.layout` attribute of its
/// defining op or function argument, or for a result of a multi-result op
/// its entry in `hlo.result_layouts`; descending order when absent), without
/// default tiles. Fails (with a diagnostic) on an unparsable attribute.
mlir::FailureOr<TiledLayout> recordedLayout(mlir::Value value);

/// The attribute that records `value`'s layout as written (a StringAttr, or
/// an empty one when none is recorded).
mlir::StringAttr recordedLayoutAttr(mlir::Value value);

/// Records the layouts of `op`'s results (one StringAttr each, empty for
/// none): `hlo.layout` for one result, `hlo.result_layouts` for several;
/// nothing when every entry is empty.
void setResultLayouts(mlir::Operation *op,
                      llvm::ArrayRef<mlir::Attribute> layouts);

/// The layout `value` has on the device: recorded plus default tiles.
mlir::FailureOr<TiledLayout> deviceLayout(mlir::Value value,
                                          const target::TilingRules &rules);

/// XLA's element type name: f32, bf16, s32, u8, pred ...
std::string xlaTypeName(mlir::Type elementType);
/// The executable's element type of an MLIR element type (XLA's mapping: i1
/// is pred, signless iN is sN, uiN is uN); DTYPE_INVALID if none.
exe::DType runtimeDType(mlir::Type elementType);

/// "s32[29360128,10]{1,0:T(8,128)}".
std::string xlaShape(mlir::RankedTensorType type, const TiledLayout &layout);

struct ByteSizes {
  int64_t unpadded = 0;
  int64_t padded = 0;
};

/// Unpadded and padded bytes of `type` in `layout` (tiles as given; call
/// withDefaultTiles first for XLA's choice). Fails on an invalid layout.
mlir::FailureOr<ByteSizes> byteSizes(mlir::RankedTensorType type,
                                     const TiledLayout &layout,
                                     std::string &error);

/// A ranked value's layout on the device and its sizes in it.
struct DeviceBytes {
  TiledLayout layout;
  ByteSizes sizes;
};

/// deviceLayout and byteSizes of a ranked `value`. Fails without a message
/// when the value is not ranked or its recorded layout is unreadable, with
/// `error` set when the layout cannot be sized.
mlir::FailureOr<DeviceBytes> deviceBytes(mlir::Value value,
                                         const target::TilingRules &rules,
                                         std::string &error);

} // namespace tpuc::layout

#endif // TPUC_COMPILER_LAYOUT_TILEDLAYOUT_H
