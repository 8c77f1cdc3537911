//===- TiledLayout.cpp - XLA tiled layouts and byte sizes -----------------===//

#include "compiler/layout/TiledLayout.h"

#include "runtime/loader/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tpuc::layout {
namespace {

/// A cursor over a layout string; every parse* consumes on success only.
struct Cursor {
  StringRef text;
  std::string &error;

  bool consume(char c) {
    text = text.ltrim();
    if (!text.starts_with(StringRef(&c, 1)))
      return false;
    text = text.drop_front();
    return true;
  }
  LogicalResult expect(char c) {
    if (consume(c))
      return success();
    return fail(std::string("expected '") + c + "'");
  }
  LogicalResult fail(const std::string &what) {
    error = what + " at '" + text.str() + "'";
    return failure();
  }
  FailureOr<int64_t> integer() {
    text = text.ltrim();
    size_t n = 0;
    while (n < text.size() && llvm::isDigit(text[n]))
      ++n;
    int64_t value;
    if (n == 0 || n > 12 || text.take_front(n).getAsInteger(10, value)) {
      (void)fail("expected a non-negative integer");
      return failure();
    }
    text = text.drop_front(n);
    return value;
  }
};

int64_t storageBits(Type elementType) {
  unsigned bits = elementType.getIntOrFloatBitWidth();
  return bits < 8 ? 8 : bits;
}

} // namespace

exe::DType runtimeDType(Type elementType) {
  if (elementType.isF32())
    return exe::F32;
  if (elementType.isBF16())
    return exe::BF16;
  if (elementType.isF16())
    return exe::F16;
  if (elementType.isF64())
    return exe::F64;
  if (isa<Float8E4M3FNType>(elementType))
    return exe::F8E4M3FN;
  if (isa<Float8E5M2Type>(elementType))
    return exe::F8E5M2;
  if (isa<Float8E4M3Type>(elementType))
    return exe::F8E4M3;
  if (isa<Float8E4M3FNUZType>(elementType))
    return exe::F8E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(elementType))
    return exe::F8E5M2FNUZ;
  if (isa<Float8E4M3B11FNUZType>(elementType))
    return exe::F8E4M3B11FNUZ;
  if (isa<Float8E3M4Type>(elementType))
    return exe::F8E3M4;
  auto integer = dyn_cast<IntegerType>(elementType);
  if (!integer)
    return exe::DTYPE_INVALID;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return exe::PRED;
  case 4:
    return isUnsigned ? exe::U4 : exe::S4;
  case 8:
    return isUnsigned ? exe::U8 : exe::S8;
  case 16:
    return isUnsigned ? exe::U16 : exe::S16;
  case 32:
    return isUnsigned ? exe::U32 : exe::S32;
  case 64:
    return isUnsigned ? exe::U64 : exe::S64;
  default:
    return exe::DTYPE_INVALID;
  }
}

FailureOr<TiledLayout> parseLayout(StringRef text, std::string &error) {
  Cursor cur{text, error};
  TiledLayout layout;
  if (failed(cur.expect('{')))
    return failure();
  cur.text = cur.text.ltrim();
  if (!cur.text.starts_with(":") && !cur.text.starts_with("}")) {
    do {
      FailureOr<int64_t> dim = cur.integer();
      if (failed(dim))
        return failure();
      layout.minorToMajor.push_back(*dim);
    } while (cur.consume(','));
  }
  // A tile: "(8,128)"; the first follows 'T', the rest follow each other.
  auto parseTile = [&]() -> LogicalResult {
    if (failed(cur.expect('(')))
      return failure();
    Tile tile;
    do {
      FailureOr<int64_t> dim = cur.integer();
      if (failed(dim))
        return failure();
      if (*dim == 0)
        return cur.fail("tile dims must be positive");
      tile.push_back(*dim);
    } while (cur.consume(','));
    layout.tiles.push_back(tile);
    return cur.expect(')');
  };
  // After ':', XLA writes its layout's fields in any of these forms:
  // T(..)(..) tiles, and (read and dropped: they do not change where an
  // element lies) D(..) dim level types, L(n) tail padding, #(..) and
  // *(..) index and pointer types, E(n) element bits, S(n) memory space
  // (S(1): VMEM after XLA's memory space assignment; tpuc places its own),
  // SC(..) split configs, P(..) physical shape, M(n) dynamic-shape
  // metadata.
  if (cur.consume(':')) {
    while (!cur.text.ltrim().starts_with("}") && !cur.text.empty()) {
      cur.text = cur.text.ltrim();
      if (cur.consume('T')) {
        do {
          if (failed(parseTile()))
            return failure();
        } while (cur.text.ltrim().starts_with("("));
        continue;
      }
      StringRef field = cur.text.take_while(
          [](char c) { return llvm::isAlpha(c) || c == '#' || c == '*'; });
      if (!llvm::is_contained({"D", "L", "#", "*", "E", "S", "SC", "P", "M"},
                              field))
        return cur.fail("expected a layout field (T, D, L, #, *, E, S, SC, "
                        "P or M)");
      cur.text = cur.text.drop_front(field.size());
      if (failed(cur.expect('(')))
        return failure();
      // Skip to the matching ')' (P(..) nests a shape).
      int depth = 1;
      size_t i = 0;
      for (; i < cur.text.size() && depth > 0; ++i)
        depth += cur.text[i] == '(' ? 1 : cur.text[i] == ')' ? -1 : 0;
      if (depth > 0)
        return cur.fail("expected ')'");
      cur.text = cur.text.drop_front(i);
    }
  }
  if (failed(cur.expect('}')))
    return failure();
  if (!cur.text.trim().empty()) {
    (void)cur.fail("unexpected text after the layout");
    return failure();
  }
  SmallVector<bool> seen(layout.minorToMajor.size(), false);
  for (int64_t d : layout.minorToMajor) {
    if (d >= static_cast<int64_t>(seen.size()) || seen[d]) {
      error = "minor_to_major " + printLayout(layout) +
              " is not a permutation of 0.." +
              std::to_string(seen.size() - 1);
      return failure();
    }
    seen[d] = true;
  }
  return layout;
}

std::string printLayout(const TiledLayout &layout) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '{';
  llvm::interleave(layout.minorToMajor, os, ",");
  if (!layout.tiles.empty()) {
    os << ":T";
    for (const Tile &tile : layout.tiles) {
      os << '(';
      llvm::interleave(tile, os, ",");
      os << ')';
    }
  }
  os << '}';
  return out;
}

bool isTransposeBitcast(ArrayRef<int64_t> permutation,
                        ArrayRef<int64_t> operandMinorToMajor,
                        ArrayRef<int64_t> resultMinorToMajor) {
  size_t rank = permutation.size();
  if (operandMinorToMajor.size() != rank || resultMinorToMajor.size() != rank)
    return false;
  for (size_t k = 0; k < rank; ++k) {
    int64_t d = resultMinorToMajor[k];
    if (d < 0 || d >= static_cast<int64_t>(rank) ||
        permutation[d] != operandMinorToMajor[k])
      return false;
  }
  return true;
}

SmallVector<int64_t, 4> descendingOrder(int64_t rank) {
  SmallVector<int64_t, 4> order;
  for (int64_t d = rank - 1; d >= 0; --d)
    order.push_back(d);
  return order;
}

SmallVector<Tile, 3> defaultTiles(RankedTensorType type,
                                  ArrayRef<int64_t> minorToMajor,
                                  const target::TilingRules &rules) {
  int64_t bits = storageBits(type.getElementType());
  // Sub-32-bit types pack 2 or 4 rows into one 32-bit sublane word.
  int64_t pack = bits >= 32 ? 1 : 32 / bits;
  SmallVector<Tile, 3> tiles;
  if (type.getRank() < 2) {
    int64_t n = type.getRank() == 1 ? type.getDimSize(0) : 1;
    int64_t tile = n >= 1024 ? 1024 : rules.smallVectorTile * pack;
    tiles.push_back({std::min<int64_t>(tile, 1024)});
    if (pack > 1) {
      tiles.push_back({128});
      tiles.push_back({pack, 1});
    }
    return tiles;
  }
  int64_t rows = pack == 1 ? 8 : pack == 2 ? rules.rows16Bit : rules.rows8Bit;
  if (pack == 1 && rules.shrinkSublaneTile) {
    int64_t secondMinor = type.getDimSize(minorToMajor[1]);
    while (rows > 1 && rows / 2 >= secondMinor)
      rows /= 2;
  }
  tiles.push_back({rows, 128});
  if (pack > 1)
    tiles.push_back({pack, 1});
  return tiles;
}

TiledLayout withDefaultTiles(RankedTensorType type, TiledLayout layout,
                             const target::TilingRules &rules) {
  if (layout.minorToMajor.empty())
    layout.minorToMajor = descendingOrder(type.getRank());
  if (layout.tiles.empty())
    layout.tiles = defaultTiles(type, layout.minorToMajor, rules);
  return layout;
}

StringAttr recordedLayoutAttr(Value value) {
  StringAttr attr;
  if (auto result = dyn_cast<OpResult>(value)) {
    Operation *op = result.getOwner();
    if (op->getNumResults() == 1) {
      attr = op->getAttrOfType<StringAttr>("hlo.layout");
    } else if (auto all = op->getAttrOfType<ArrayAttr>("hlo.result_layouts")) {
      if (result.getResultNumber() < all.size())
        attr = dyn_cast<StringAttr>(all[result.getResultNumber()]);
    }
  } else {
    auto arg = cast<BlockArgument>(value);
    if (auto func =
            dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp()))
      attr = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                               "hlo.layout");
  }
  return attr ? attr : StringAttr::get(value.getContext(), "");
}

void setResultLayouts(Operation *op, ArrayRef<Attribute> layouts) {
  op->removeAttr("hlo.layout");
  op->removeAttr("hlo.result_layouts");
  bool any = llvm::any_of(layouts, [](Attribute a) {
    auto s = dyn_cast<StringAttr>(a);
    return s && !s.getValue().empty();
  });
  if (!any)
    return;
  if (layouts.size() == 1)
    op->setAttr("hlo.layout", layouts.front());
  else
    op->setAttr("hlo.result_layouts",
                ArrayAttr::get(op->getContext(), layouts));
}

FailureOr<TiledLayout> recordedLayout(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return emitError(value.getLoc()) << "expected a ranked tensor";
  StringAttr attr = recordedLayoutAttr(value);
  if (attr.getValue().empty())
    return TiledLayout{descendingOrder(type.getRank()), {}};
  std::string error;
  FailureOr<TiledLayout> layout = parseLayout(attr.getValue(), error);
  if (failed(layout))
    return emitError(value.getLoc())
           << "invalid hlo.layout '" << attr.getValue() << "': " << error;
  if (layout->minorToMajor.empty() && type.getRank() > 0)
    layout->minorToMajor = descendingOrder(type.getRank());
  if (static_cast<int64_t>(layout->minorToMajor.size()) != type.getRank())
    return emitError(value.getLoc())
           << "hlo.layout '" << attr.getValue() << "' has "
           << layout->minorToMajor.size() << " dims for a rank "
           << type.getRank() << " tensor";
  return layout;
}

FailureOr<TiledLayout> deviceLayout(Value value,
                                    const target::TilingRules &rules) {
  FailureOr<TiledLayout> layout = recordedLayout(value);
  if (failed(layout))
    return failure();
  return withDefaultTiles(cast<RankedTensorType>(value.getType()), *layout,
                          rules);
}

std::string xlaTypeName(Type elementType) {
  if (elementType.isInteger(1))
    return "pred";
  if (elementType.isBF16())
    return "bf16";
  if (auto integer = dyn_cast<IntegerType>(elementType))
    return (integer.isUnsigned() ? "u" : "s") +
           std::to_string(integer.getWidth());
  return "f" + std::to_string(elementType.getIntOrFloatBitWidth());
}

std::string xlaShape(RankedTensorType type, const TiledLayout &layout) {
  std::string out = xlaTypeName(type.getElementType()) + "[";
  llvm::raw_string_ostream os(out);
  llvm::interleave(type.getShape(), os, ",");
  os << ']' << printLayout(layout);
  return out;
}

FailureOr<ByteSizes> byteSizes(RankedTensorType type, const TiledLayout &layout,
                               std::string &error) {
  exe::Shape shape;
  shape.set_dtype(runtimeDType(type.getElementType()));
  for (int64_t d : type.getShape())
    shape.add_dims(d);
  for (int64_t d : layout.minorToMajor)
    shape.mutable_layout()->add_minor_to_major(d);
  for (const Tile &tile : layout.tiles) {
    exe::Tile *t = shape.mutable_layout()->add_tiles();
    for (int64_t d : tile)
      t->add_dims(d);
  }
  absl::StatusOr<int64_t> padded = runtime::paddedByteSize(shape);
  if (!padded.ok()) {
    error = std::string(padded.status().message());
    return failure();
  }
  ByteSizes sizes;
  sizes.padded = *padded;
  sizes.unpadded = runtime::elementCount(shape) *
                   runtime::elementBytes(shape.dtype());
  return sizes;
}

FailureOr<DeviceBytes> deviceBytes(Value value, const target::TilingRules &rules,
                                   std::string &error) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return failure();
  FailureOr<TiledLayout> layout = deviceLayout(value, rules);
  if (failed(layout))
    return failure();
  FailureOr<ByteSizes> sizes = byteSizes(type, *layout, error);
  if (failed(sizes))
    return failure();
  return DeviceBytes{*layout, *sizes};
}

} // namespace tpuc::layout
