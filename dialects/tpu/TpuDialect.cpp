//===- TpuDialect.cpp - the tpu dialect and its attributes ----------------===//

#include "dialects/tpu/TpuDialect.h"
#include "dialects/tpu/TpuOps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpuc::tpu;

#include "dialects/tpu/TpuDialect.cpp.inc"
#include "dialects/tpu/TpuEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tpu/TpuAttrs.cpp.inc"

void TpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/tpu/TpuOps.cpp.inc"
      >();
  registerAttributes();
}

void TpuDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/tpu/TpuAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers shared by the verifiers and the serializer
//===----------------------------------------------------------------------===//

std::optional<MemorySpace> tpuc::tpu::getMemorySpace(MemRefType type) {
  if (auto space = dyn_cast_or_null<MemorySpaceAttr>(type.getMemorySpace()))
    return space.getValue();
  return std::nullopt;
}

int64_t tpuc::tpu::getElementBytes(Type elementType) {
  return elementType.isBF16() ? 2 : 4;
}

int64_t tpuc::tpu::getBufferBytes(MemRefType type) {
  return type.getNumElements() * getElementBytes(type.getElementType());
}

int64_t tpuc::tpu::getAllocAlignment(MemorySpace space) {
  return space == MemorySpace::smem ? 4 : 4096;
}

TargetLimits tpuc::tpu::getTargetLimits(Operation *op) {
  TargetLimits limits;
  auto module = op->getParentOfType<ModuleOp>();
  TargetAttr target =
      module ? module->getAttrOfType<TargetAttr>(TpuDialect::kTargetAttrName)
             : TargetAttr();
  if (!target)
    return limits;
  if (target.getMxuCount())
    limits.mxuCount = target.getMxuCount();
  if (target.getMxuSize())
    limits.mxuSize = target.getMxuSize();
  if (target.getNumSemaphores())
    limits.numSemaphores = target.getNumSemaphores();
  if (target.getVmemBytes())
    limits.vmemBytes = target.getVmemBytes();
  if (target.getSmemBytes())
    limits.smemBytes = target.getSmemBytes();
  return limits;
}

//===----------------------------------------------------------------------===//
// TiledLayoutAttr
//===----------------------------------------------------------------------===//

SmallVector<SmallVector<int64_t>> TiledLayoutAttr::getTiles() const {
  SmallVector<SmallVector<int64_t>> tiles;
  ArrayRef<int64_t> dims = getTileDims();
  for (int64_t rank : getTileRanks()) {
    tiles.emplace_back(dims.take_front(rank));
    dims = dims.drop_front(rank);
  }
  return tiles;
}

LogicalResult
TiledLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<int64_t> minorToMajor,
                        ArrayRef<int64_t> tileRanks,
                        ArrayRef<int64_t> tileDims) {
  SmallVector<bool> seen(minorToMajor.size(), false);
  for (int64_t dim : minorToMajor) {
    if (dim < 0 || dim >= static_cast<int64_t>(minorToMajor.size()) ||
        seen[dim])
      return emitError() << "minor_to_major must be a permutation of [0, "
                         << minorToMajor.size() << ")";
    seen[dim] = true;
  }
  int64_t total = 0;
  for (int64_t rank : tileRanks) {
    if (rank < 1)
      return emitError() << "a tile needs at least one dimension";
    total += rank;
  }
  if (total != static_cast<int64_t>(tileDims.size()))
    return emitError() << "tile ranks do not add up to the tile dimensions";
  if (llvm::any_of(tileDims, [](int64_t dim) { return dim < 1; }))
    return emitError() << "tile dimensions must be positive";
  return success();
}

LogicalResult TiledLayoutAttr::verifyLayout(
    ArrayRef<int64_t> shape,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getMinorToMajor().size())
    return emitError() << "layout " << *this << " is for rank "
                       << getMinorToMajor().size() << ", not " << shape.size();
  return success();
}

AffineMap TiledLayoutAttr::getAffineMap() const {
  MLIRContext *context = getContext();
  ArrayRef<int64_t> minorToMajor = getMinorToMajor();
  // Logical dims in physical (major to minor) order, then tiled in turn:
  // a dim d tiled by t becomes d floordiv t (kept in place) and d mod t
  // (moved to the end), as XLA tiles.
  SmallVector<AffineExpr> exprs;
  for (int64_t dim : llvm::reverse(minorToMajor))
    exprs.push_back(getAffineDimExpr(dim, context));
  for (ArrayRef<int64_t> tile : getTiles()) {
    while (exprs.size() < tile.size())
      exprs.insert(exprs.begin(), getAffineConstantExpr(0, context));
    size_t first = exprs.size() - tile.size();
    SmallVector<AffineExpr> inner;
    for (auto [i, size] : llvm::enumerate(tile)) {
      inner.push_back(exprs[first + i] % size);
      exprs[first + i] = exprs[first + i].floorDiv(size);
    }
    exprs.append(inner);
  }
  return AffineMap::get(minorToMajor.size(), 0, exprs, context);
}

// {1,0:T(8,128)(2,1)}
Attribute TiledLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> minorToMajor, tileRanks, tileDims;
  auto parseInts = [&](SmallVectorImpl<int64_t> &into) {
    return parser.parseCommaSeparatedList([&]() -> ParseResult {
      return parser.parseInteger(into.emplace_back());
    });
  };
  if (parser.parseLess() || parser.parseLBrace())
    return {};
  // Rank 0 has no dims: `{:T(1024)}`.
  int64_t first;
  OptionalParseResult dim = parser.parseOptionalInteger(first);
  if (dim.has_value()) {
    if (failed(*dim))
      return {};
    minorToMajor.push_back(first);
    while (succeeded(parser.parseOptionalComma()))
      if (parser.parseInteger(minorToMajor.emplace_back()))
        return {};
  }
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseKeyword("T"))
      return {};
    while (succeeded(parser.parseOptionalLParen())) {
      size_t before = tileDims.size();
      if (parseInts(tileDims) || parser.parseRParen())
        return {};
      tileRanks.push_back(tileDims.size() - before);
    }
    if (tileRanks.empty()) {
      parser.emitError(parser.getCurrentLocation(),
                       "expected a tile after 'T'");
      return {};
    }
  }
  if (parser.parseRBrace() || parser.parseGreater())
    return {};
  return parser.getChecked<TiledLayoutAttr>(parser.getContext(), minorToMajor,
                                            tileRanks, tileDims);
}

void TiledLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<{";
  llvm::interleave(getMinorToMajor(), printer, ",");
  if (!getTileRanks().empty()) {
    printer << ":T";
    for (ArrayRef<int64_t> tile : getTiles()) {
      printer << "(";
      llvm::interleave(tile, printer, ",");
      printer << ")";
    }
  }
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// The tpu.target module attribute: static VMEM/SMEM use must fit
//===----------------------------------------------------------------------===//

OnChipPlacement tpuc::tpu::placeOnChipBuffers(Operation *func) {
  OnChipPlacement placement;
  SmallVector<AllocOp> overlays;
  auto place = [&](AllocOp alloc, MemorySpace space) {
    int64_t &end = placement.end[static_cast<int>(space)];
    end = llvm::alignTo(end, getAllocAlignment(space));
    placement.offsets[alloc.getResult()] = end;
    end += getBufferBytes(alloc.getType());
  };
  func->walk([&](AllocOp alloc) {
    std::optional<MemorySpace> space = getMemorySpace(alloc.getType());
    if (!space || *space == MemorySpace::hbm ||
        !alloc.getType().hasStaticShape())
      return;
    if (*space == MemorySpace::vmem && alloc->hasAttr(kOverlayAttrName))
      overlays.push_back(alloc);
    else
      place(alloc, *space);
  });
  int64_t &end = placement.end[static_cast<int>(MemorySpace::vmem)];
  int64_t base = llvm::alignTo(end, getAllocAlignment(MemorySpace::vmem));
  for (AllocOp alloc : overlays) {
    int64_t at = base;
    if (auto offset = alloc->getAttrOfType<IntegerAttr>(kOverlayAttrName))
      at += offset.getInt();
    placement.offsets[alloc.getResult()] = at;
    end = std::max(end, at + getBufferBytes(alloc.getType()));
  }
  return placement;
}

LogicalResult TpuDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  if (attribute.getName() == kOverlayAttrName) {
    auto alloc = dyn_cast<AllocOp>(op);
    auto offset = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!alloc || getMemorySpace(alloc.getType()) != MemorySpace::vmem ||
        !(isa<UnitAttr>(attribute.getValue()) ||
          (offset && offset.getInt() >= 0 &&
           offset.getInt() % getAllocAlignment(MemorySpace::vmem) == 0)))
      return op->emitError()
             << "'" << kOverlayAttrName
             << "' is a unit attribute or a non-negative offset (a multiple "
                "of 4096) of a VMEM tpu.alloc";
    return success();
  }
  if (attribute.getName() == kStepAttrName) {
    auto step = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!step || step.getInt() < 0)
      return op->emitError() << "'" << kStepAttrName
                             << "' must be a non-negative integer";
    return success();
  }
  if (attribute.getName() == kLiveAttrName ||
      attribute.getName() == kPlanOffsetAttrName) {
    auto alloc = dyn_cast<AllocOp>(op);
    if (!alloc || getMemorySpace(alloc.getType()) != MemorySpace::hbm ||
        alloc.getInit())
      return op->emitError() << "'" << attribute.getName().getValue()
                             << "' belongs on an HBM tpu.alloc without init";
    if (attribute.getName() == kLiveAttrName) {
      auto steps = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
      if (!steps || steps.size() != 2 || steps[0] < 0 || steps[0] > steps[1])
        return op->emitError() << "'" << kLiveAttrName
                               << "' must be array<i64: first, last> with "
                                  "0 <= first <= last";
    } else {
      auto offset = dyn_cast<IntegerAttr>(attribute.getValue());
      if (!offset || offset.getInt() < 0)
        return op->emitError() << "'" << kPlanOffsetAttrName
                               << "' must be a non-negative integer";
    }
    return success();
  }
  // tpuc-assign-buffers' record of the memory plan's buffers on an hlo op
  // (passes/Passes.h, kHbmBuffersAttrName): per result, array<i64:
  // allocation, offset, bytes> or an empty array.
  if (attribute.getName() == "tpu.hbm_buffers") {
    auto buffers = dyn_cast<ArrayAttr>(attribute.getValue());
    if (!buffers || buffers.size() != op->getNumResults() ||
        !llvm::all_of(buffers, [](Attribute buffer) {
          auto fields = dyn_cast<DenseI64ArrayAttr>(buffer);
          return fields && (fields.empty() || fields.size() == 3);
        }))
      return op->emitError("'tpu.hbm_buffers' must hold one array<i64: "
                           "allocation, offset, bytes> (or an empty array) "
                           "per result");
    return success();
  }
  if (attribute.getName() == kPlannedHbmAttrName) {
    auto bytes = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!isa<ModuleOp>(op) || !bytes || bytes.getInt() < 0)
      return op->emitError() << "'" << kPlannedHbmAttrName
                             << "' is a non-negative integer on the module";
    return success();
  }
  // The device grid and the slice (passes/HloToTpu/Collective.cpp).
  if (attribute.getName() == "tpu.replica_count" ||
      attribute.getName() == "tpu.num_partitions") {
    auto count = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!isa<ModuleOp>(op) || !count || count.getInt() < 1)
      return op->emitError() << "'" << attribute.getName().getValue()
                             << "' is a positive integer on the module";
    return success();
  }
  if (attribute.getName() == "tpu.slice") {
    if (!isa<ModuleOp>(op) || !isa<StringAttr>(attribute.getValue()))
      return op->emitError("'tpu.slice' is a slice name on the module");
    return success();
  }
  if (attribute.getName() != kTargetAttrName)
    return op->emitError() << "unknown tpu dialect attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<TargetAttr>(attribute.getValue()))
    return op->emitError() << "'" << kTargetAttrName
                           << "' must be a #tpu.target attribute";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << kTargetAttrName
                           << "' belongs on the module";
  TargetLimits limits;
  auto target = cast<TargetAttr>(attribute.getValue());
  if (target.getMxuSize() && target.getMxuSize() != 128 &&
      target.getMxuSize() != 256)
    return op->emitError() << "'" << kTargetAttrName << "' mxu_size "
                           << target.getMxuSize()
                           << " is not a supported MXU size (128 or 256)";
  if (target.getVmemBytes())
    limits.vmemBytes = target.getVmemBytes();
  if (target.getSmemBytes())
    limits.smemBytes = target.getSmemBytes();
  // Each function is one program: its static buffers, placed as the
  // serializer places them, must fit.
  WalkResult result = op->walk([&](func::FuncOp func) {
    OnChipPlacement placement = placeOnChipBuffers(func);
    WalkResult inner = func.walk([&](AllocOp alloc) {
      auto it = placement.offsets.find(alloc.getResult());
      if (it == placement.offsets.end())
        return WalkResult::advance();
      MemorySpace space = *getMemorySpace(alloc.getType());
      std::optional<int64_t> limit =
          space == MemorySpace::vmem ? limits.vmemBytes : limits.smemBytes;
      int64_t end = it->second + getBufferBytes(alloc.getType());
      if (limit && end > *limit) {
        alloc.emitOpError()
            << "needs " << end << " bytes of " << stringifyMemorySpace(space)
            << " with the buffers before it, but the target "
               "has "
            << *limit;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return inner;
  });
  return failure(result.wasInterrupted());
}
