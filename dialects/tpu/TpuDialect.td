//===- TpuDialect.td - the tpu dialect, its enums and attributes -*- tablegen -*-===//
//
// The machine-level dialect of tpuc: one op per instruction of docs/isa.md
// (plus structured loops) on memrefs in HBM, VMEM and SMEM and on vector
// registers (vector<8x128xf32|i32|bf16>).
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_TPU_TPUDIALECT_TD
#define TPUC_DIALECTS_TPU_TPUDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Tpu_Dialect : Dialect {
  let name = "tpu";
  let cppNamespace = "::tpuc::tpu";
  let summary = "The instructions of the tpuc machine";
  let description = [{
    The `tpu` dialect is the machine level of tpuc. Each op is one
    instruction of the ISA (docs/isa.md), except `tpu.loop`, which the
    serializer lowers to `LOOP_BEGIN`/`LOOP_END`, and `tpu.alloc`, a static
    buffer whose address the serializer assigns.

    Memory is a memref whose memory space is `#tpu.memory_space<hbm>`,
    `<vmem>` or `<smem>`. HBM arrays may carry a tiled layout
    (`#tpu.tiled<(8,128)>`); VMEM and SMEM buffers are row-major. Memory
    operands are written `%buffer[%offset]`, where `%offset` is an `index`
    value in **bytes** from the start of the buffer, as the ISA addresses
    memory. Vector registers are SSA values of type `vector<8x128xf32>`,
    `vector<8x128xi32>` or `vector<8x128xbf16>` (a bf16 value widened to
    f32, as the VPU keeps it); the serializer allocates registers. Scalar
    math is upstream `arith` on `index`/`i64` values.

    A module may carry the target as `tpu.target = #tpu.target<...>`; the
    verifiers then check VMEM/SMEM use, MXU indices and semaphore numbers
    against it (without it, against the default target tpu-v3).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    /// The module attribute that holds the target description.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tpu.target";
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tpu_MemorySpace : I32EnumAttr<"MemorySpace", "a memory of the machine", [
    I32EnumAttrCase<"hbm", 1>, I32EnumAttrCase<"vmem", 2>,
    I32EnumAttrCase<"smem", 3>]> {
  let cppNamespace = "::tpuc::tpu";
  let genSpecializedAttr = 0;
}
def Tpu_MemorySpaceAttr : EnumAttr<Tpu_Dialect, Tpu_MemorySpace, "memory_space"> {
  let summary = "the memory a memref lives in";
  let assemblyFormat = "`<` $value `>`";
}

def Tpu_CmpKind : I32EnumAttr<"CmpKind", "a signed or IEEE comparison", [
    I32EnumAttrCase<"eq", 1>, I32EnumAttrCase<"ne", 2>,
    I32EnumAttrCase<"lt", 3>, I32EnumAttrCase<"le", 4>,
    I32EnumAttrCase<"gt", 5>, I32EnumAttrCase<"ge", 6>]> {
  let cppNamespace = "::tpuc::tpu";
  let genSpecializedAttr = 0;
}
def Tpu_CmpKindAttr : EnumAttr<Tpu_Dialect, Tpu_CmpKind, "cmp"> {
  let assemblyFormat = "$value";
}

def Tpu_ReduceKind : I32EnumAttr<"ReduceKind", "a reduction", [
    I32EnumAttrCase<"sum", 1>, I32EnumAttrCase<"max", 2>,
    I32EnumAttrCase<"min", 3>]> {
  let cppNamespace = "::tpuc::tpu";
  let genSpecializedAttr = 0;
}
def Tpu_ReduceKindAttr : EnumAttr<Tpu_Dialect, Tpu_ReduceKind, "reduce"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Tpu_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tpu_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tpu_TiledLayoutAttr : Tpu_Attr<"TiledLayout", "tiled",
    [DeclareAttrInterfaceMethods<MemRefLayoutAttrInterface, ["verifyLayout"]>]> {
  let summary = "XLA's tiled layout, in XLA's notation";
  let description = [{
    XLA's layout `{minor_to_major:T(tile)(tile)...}` (see
    docs/executable-format.md): the dimensions are ordered by
    `minor_to_major`, then each tile applies in turn to the minor-most
    dimensions; tiles are stored row-major and padded. Used on HBM memrefs;
    the serializer copies it into the executable's shapes. The affine map it
    reports is the same tiling written with `floordiv` and `mod`.

    ```mlir
    memref<256x256xbf16, #tpu.tiled<{1,0:T(8,128)(2,1)}>, #tpu.memory_space<hbm>>
    ```
  }];
  // Tile i has tileRanks[i] dims, stored one after another in tileDims.
  let parameters = (ins ArrayRefParameter<"int64_t">:$minorToMajor,
                        ArrayRefParameter<"int64_t">:$tileRanks,
                        ArrayRefParameter<"int64_t">:$tileDims);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The tiles, outermost first: [[8, 128], [2, 1]].
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getTiles() const;
  }];
}

def Tpu_TargetAttr : Tpu_Attr<"Target", "target"> {
  let summary = "the machine parameters of the target";
  let description = [{
    The fields of the executable's `Target` (docs/executable-format.md).
    Every field is optional; the serializer takes missing ones from tpu-v3,
    and the verifiers check VMEM/SMEM sizes only when they are given.

    ```mlir
    module attributes {tpu.target = #tpu.target<name = "tpu-v3", vmem_bytes = 16777216, mxu_count = 2>} {}
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::StringAttr">:$name,
    OptionalParameter<"uint64_t">:$clock_hz,
    OptionalParameter<"uint64_t">:$mxu_count,
    OptionalParameter<"uint64_t">:$vmem_bytes,
    OptionalParameter<"uint64_t">:$smem_bytes,
    OptionalParameter<"uint64_t">:$hbm_bytes,
    OptionalParameter<"uint64_t">:$hbm_reserved_bytes,
    OptionalParameter<"uint64_t">:$hbm_bytes_per_second,
    OptionalParameter<"uint64_t">:$dma_latency_cycles,
    OptionalParameter<"uint64_t">:$num_semaphores,
    OptionalParameter<"uint64_t">:$hbm_limit_bytes,
    OptionalParameter<"uint64_t">:$cores_per_device);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // TPUC_DIALECTS_TPU_TPUDIALECT_TD
