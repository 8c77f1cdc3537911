//===- TpuOps.td - tpu dialect operations ------------------*- tablegen -*-===//
//
// One op per instruction of docs/isa.md, plus tpu.alloc (static buffers) and
// tpu.loop (structured loops). Memory operands are `%buffer[%byte_offset]`.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_TPU_TPUOPS_TD
#define TPUC_DIALECTS_TPU_TPUOPS_TD

include "dialects/tpu/TpuDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tpu_Element : AnyTypeOf<[F32, BF16, I32]>;
def Tpu_MemRef : StaticShapeMemRefOf<[Tpu_Element]>;
def Tpu_BF16MemRef : StaticShapeMemRefOf<[BF16]>;
def Tpu_F32MemRef : StaticShapeMemRefOf<[F32]>;
def Tpu_I32MemRef : StaticShapeMemRefOf<[I32]>;

// A vector register: 8 sublanes x 128 lanes.
def Tpu_VReg : AnyTypeOf<[FixedVectorOfShapeAndType<[8, 128], F32>,
                          FixedVectorOfShapeAndType<[8, 128], I32>,
                          FixedVectorOfShapeAndType<[8, 128], BF16>],
                         "vector register (vector<8x128xf32|i32|bf16>)">;
def Tpu_VRegF32OrI32 : AnyTypeOf<[FixedVectorOfShapeAndType<[8, 128], F32>,
                                  FixedVectorOfShapeAndType<[8, 128], I32>],
                                 "vector register of f32 or i32">;
def Tpu_VRegF32 : FixedVectorOfShapeAndType<[8, 128], F32>;
def Tpu_VRegI32 : FixedVectorOfShapeAndType<[8, 128], I32>;
// A scalar register value (64 bit).
def Tpu_Scalar : AnyTypeOf<[Index, I64]>;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Tpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tpu_Dialect, mnemonic, traits>;

class Tpu_VUnaryOp<string mnemonic, string opcode, Type type, string doc>
    : Tpu_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = doc # " (" # opcode # ")";
  let description = "Elementwise " # doc # " of a vector register: `" #
    opcode # "`. See docs/isa.md for the exact numerics.\n\n" #
    "```mlir\n%1 = tpu." # mnemonic # " %0 : vector<8x128xf32>\n```";
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

class Tpu_VBinaryOp<string mnemonic, string opcode, string doc,
                    list<Trait> traits = [], Type type = Tpu_VRegF32OrI32,
                    string example = "f32">
    : Tpu_Op<mnemonic, traits # [Pure, SameOperandsAndResultType]> {
  let summary = doc # " (" # opcode # ")";
  let description = "Elementwise " # doc # " of two vector registers: `" #
    opcode # "`. docs/isa.md gives the exact numerics.\n\n" #
    "```mlir\n%2 = tpu." # mnemonic # " %0, %1 : vector<8x128x" # example #
    ">\n```";
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

// An op with `unsigned` (UnitAttr $is_unsigned; dtype U32) that reads its
// first operand as u32: verifies that the operand is an i32 register
// (UnsignedOnI32 in TpuOps.h).
def Tpu_UnsignedOnI32 : NativeOpTrait<"UnsignedOnI32"> {
  let cppNamespace = "::tpuc::tpu";
}

// A binary op whose i32 result depends on the sign: `unsigned` reads the
// i32 registers as u32 (the ISA's dtype U32).
class Tpu_VSignedBinaryOp<string mnemonic, string opcode, string doc,
                          list<Trait> traits = [],
                          Type type = Tpu_VRegF32OrI32>
    : Tpu_Op<mnemonic, traits # [Pure, SameOperandsAndResultType,
                                 Tpu_UnsignedOnI32]> {
  let summary = doc # " (" # opcode # ")";
  let description = "Elementwise " # doc # " of two vector registers: `" #
    opcode # "`. docs/isa.md gives the exact numerics. With `unsigned` (i32 " #
    "registers only) the bits are read as u32 (dtype U32).\n\n" #
    "```mlir\n%2 = tpu." # mnemonic # " %0, %1 unsigned : vector<8x128xi32>\n```";
  let arguments = (ins type:$lhs, type:$rhs, UnitAttr:$is_unsigned);
  let results = (outs type:$result);
  let assemblyFormat =
      "$lhs `,` $rhs (`unsigned` $is_unsigned^)? attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tpu_AllocOp : Tpu_Op<"alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a static buffer in HBM, VMEM or SMEM";
  let description = [{
    A buffer that lives for the whole program; the serializer assigns its
    address (VMEM 4 KiB aligned, SMEM 4-byte aligned, HBM a buffer of the
    executable's buffer table). It must stand in the entry function's body,
    outside loops. VMEM and SMEM buffers are row-major; the total of a
    function's VMEM (SMEM) buffers must fit the target's VMEM (SMEM).
    An HBM buffer returned by the function is an entry result.

    An HBM buffer with `init` is a constant: the serializer puts the
    elements (row-major, the memref's shape and element type) in the
    executable's constant table and the loader writes them into the
    buffer, in its layout, before the program runs. Constants are
    read-only: no DMA may write one and the function may not return one.

    ```mlir
    %buf = tpu.alloc : memref<2x128x128xbf16, #tpu.memory_space<vmem>>
    %c = tpu.alloc init dense<[1, 2, 3]> : tensor<3xi32>
        : memref<3xi32, #tpu.tiled<{0:T(1024)}>, #tpu.memory_space<hbm>>
    ```
  }];
  let arguments = (ins OptionalAttr<ElementsAttr>:$init);
  let results = (outs Tpu_MemRef:$result);
  let assemblyFormat = "(`init` $init^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Type":$type), [{
    build($_builder, $_state, type, ::mlir::ElementsAttr());
  }]>];
}

def Tpu_DmaOp : Tpu_Op<"dma"> {
  let summary = "asynchronous strided copy between memories (DMA)";
  let description = [{
    `DMA`: copies `chunks` chunks of `chunk_bytes` bytes; chunk `c` goes from
    `src + src_offset + c * src_stride` to `dst + dst_offset + c * dst_stride`
    (offsets in bytes). On completion semaphore `sem` is incremented; the
    destination may be read (and the source overwritten) only after a
    `tpu.sem_wait` on it. With a tiled HBM layout a tile-aligned block is one
    DMA: the 128x128 block (i, j) of f32[256,256]{T(8,128)} is 16 chunks of
    4096 bytes with a source stride of one row of tiles (8192 bytes).

    ```mlir
    tpu.dma %a[%off] -> %buf[%c0] chunks = 16 chunk_bytes = 4096
        src_stride = 8192 dst_stride = 4096 sem = 0
        : memref<256x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
       -> memref<128x128xf32, #tpu.memory_space<vmem>>
    ```
  }];
  let arguments = (ins Tpu_MemRef:$src, Index:$src_offset,
                       Tpu_MemRef:$dst, Index:$dst_offset,
                       I64Attr:$chunks, I64Attr:$chunk_bytes,
                       I64Attr:$src_stride, I64Attr:$dst_stride,
                       I32Attr:$sem);
  let assemblyFormat = [{
    $src `[` $src_offset `]` `->` $dst `[` $dst_offset `]`
    `chunks` `=` $chunks `chunk_bytes` `=` $chunk_bytes
    `src_stride` `=` $src_stride `dst_stride` `=` $dst_stride `sem` `=` $sem
    attr-dict `:` type($src) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def Tpu_SemWaitOp : Tpu_Op<"sem_wait"> {
  let summary = "wait for a semaphore (SEM_WAIT)";
  let description = [{
    `SEM_WAIT`: waits until semaphore `sem` reaches `count`, then subtracts
    it. This is how a program learns that its DMAs have completed
    (completions are consumed in issue order).

    ```mlir
    tpu.sem_wait 0, 2
    ```
  }];
  let arguments = (ins I32Attr:$sem, I64Attr:$count);
  let assemblyFormat = "$sem `,` $count attr-dict";
  let hasVerifier = 1;
}

def Tpu_SemSignalOp : Tpu_Op<"sem_signal"> {
  let summary = "increment a semaphore (SEM_SIGNAL)";
  let description = [{
    `SEM_SIGNAL`: adds `count` (at least 1) to semaphore `sem`.

    ```mlir
    tpu.sem_signal 3, 1
    ```
  }];
  let arguments = (ins I32Attr:$sem, I64Attr:$count);
  let assemblyFormat = "$sem `,` $count attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MXU
//===----------------------------------------------------------------------===//

def Tpu_MxuLoadWeightsOp : Tpu_Op<"mxu_load_weights"> {
  let summary = "load a DxD bf16 weight tile into an MXU (MXU_LOAD_WEIGHTS)";
  let description = [{
    `MXU_LOAD_WEIGHTS`: loads `W[k][n]`, D x D bf16 (D = the target's
    `mxu_size`, 128 or 256) from VMEM at `weights + offset` into MXU `mxu`.
    The tile is in lane blocks: D/128 blocks of D x 128, one after the
    other, each row-major (for D = 128 simply 128x128 row-major, 32 KiB).

    ```mlir
    tpu.mxu_load_weights %w[%c0] mxu = 0 : memref<128x128xbf16, #tpu.memory_space<vmem>>
    ```
  }];
  let arguments = (ins Tpu_BF16MemRef:$weights, Index:$offset, I32Attr:$mxu);
  let assemblyFormat = [{
    $weights `[` $offset `]` `mxu` `=` $mxu attr-dict `:` type($weights)
  }];
  let hasVerifier = 1;
}

def Tpu_MxuMatmulOp : Tpu_Op<"mxu_matmul"> {
  let summary = "stream LHS rows through an MXU (MXU_MATMUL)";
  let description = [{
    `MXU_MATMUL`: `dst[i][n] = (accumulate ? dst[i][n] : 0) +
    sum_k lhs[i][k] * W[k][n]` for `rows` rows (a positive multiple of 8):
    the LHS is rows x D bf16 and the result rows x D f32 (D = the target's
    `mxu_size`), both in lane blocks in VMEM: D/128 blocks of rows x 128,
    one after the other, each row-major (for D = 128 plain row-major).

    ```mlir
    tpu.mxu_matmul %lhs[%c0] -> %acc[%c0] mxu = 0 rows = 256 accumulate
        : memref<256x128xbf16, #tpu.memory_space<vmem>> -> memref<256x128xf32, #tpu.memory_space<vmem>>
    ```
  }];
  let arguments = (ins Tpu_BF16MemRef:$lhs, Index:$lhs_offset,
                       Tpu_F32MemRef:$dst, Index:$dst_offset,
                       I32Attr:$mxu, I64Attr:$rows, UnitAttr:$accumulate);
  let assemblyFormat = [{
    $lhs `[` $lhs_offset `]` `->` $dst `[` $dst_offset `]` `mxu` `=` $mxu
    `rows` `=` $rows (`accumulate` $accumulate^)? attr-dict
    `:` type($lhs) `->` type($dst)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// VPU: memory and data movement
//===----------------------------------------------------------------------===//

def Tpu_VLoadOp : Tpu_Op<"vload"> {
  let summary = "load a vector register from VMEM (VLD)";
  let description = [{
    `VLD`: sublane `s` reads 128 elements at `base + offset + s * stride`
    (`sublane_stride` 0: contiguous rows). The element type of the buffer
    is the instruction's dtype; bf16 is widened exactly to f32, so a bf16
    or f32 buffer gives `vector<8x128xf32>` and an i32 buffer
    `vector<8x128xi32>`.

    ```mlir
    %v = tpu.vload %buf[%off] sublane_stride = 1024
        : memref<16x256xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_MemRef:$base, Index:$offset,
                       DefaultValuedAttr<I64Attr, "0">:$sublane_stride);
  let results = (outs Tpu_VRegF32OrI32:$result);
  let assemblyFormat = [{
    $base `[` $offset `]` (`sublane_stride` `=` $sublane_stride^)? attr-dict
    `:` type($base) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tpu_VStoreOp : Tpu_Op<"vstore"> {
  let summary = "store a vector register to VMEM (VST)";
  let description = [{
    `VST`, the inverse of `tpu.vload`; storing to a bf16 buffer rounds to
    nearest even.

    ```mlir
    tpu.vstore %v, %buf[%off] : vector<8x128xf32>, memref<16x256xf32, #tpu.memory_space<vmem>>
    ```
  }];
  let arguments = (ins Tpu_VReg:$value, Tpu_MemRef:$base, Index:$offset,
                       DefaultValuedAttr<I64Attr, "0">:$sublane_stride);
  let assemblyFormat = [{
    $value `,` $base `[` $offset `]` (`sublane_stride` `=` $sublane_stride^)?
    attr-dict `:` type($value) `,` type($base)
  }];
  let hasVerifier = 1;
}

def Tpu_VSplatOp : Tpu_Op<"vsplat", [Pure]> {
  let summary = "broadcast a scalar to every lane (VSPLAT)";
  let description = [{
    `VSPLAT`: every lane takes the low 32 bits of the scalar. An f32 or i32
    scalar must be an `arith.constant` (its bits become the immediate); an
    `index`/`i64` value may be computed.

    ```mlir
    %zero = arith.constant 0.0 : f32
    %v = tpu.vsplat %zero : f32 -> vector<8x128xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Index, I64, I32, F32]>:$scalar);
  let results = (outs Tpu_VRegF32OrI32:$result);
  let assemblyFormat = "$scalar attr-dict `:` type($scalar) `->` type($result)";
}

def Tpu_VMovOp : Tpu_Op<"vmov", [Pure, SameOperandsAndResultType]> {
  let summary = "copy a vector register (VMOV)";
  let description = [{
    `VMOV`. Rarely needed in SSA form (the serializer inserts the moves it
    needs itself); kept so that every instruction has an op.

    ```mlir
    %1 = tpu.vmov %0 : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_VReg:$source);
  let results = (outs Tpu_VReg:$result);
  let assemblyFormat = "$source attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// VPU: arithmetic
//===----------------------------------------------------------------------===//

def Tpu_VAddOp : Tpu_VBinaryOp<"vadd", "VADD", "addition", [Commutative]>;
def Tpu_VSubOp : Tpu_VBinaryOp<"vsub", "VSUB", "subtraction">;
def Tpu_VMulOp : Tpu_VBinaryOp<"vmul", "VMUL", "multiplication", [Commutative]>;
def Tpu_VDivOp : Tpu_VSignedBinaryOp<"vdiv", "VDIV", "division">;
def Tpu_VMaxOp : Tpu_VSignedBinaryOp<"vmax", "VMAX", "maximum", [Commutative]>;
def Tpu_VMinOp : Tpu_VSignedBinaryOp<"vmin", "VMIN", "minimum", [Commutative]>;

def Tpu_VNegOp : Tpu_VUnaryOp<"vneg", "VNEG", Tpu_VRegF32OrI32, "negation">;
def Tpu_VAbsOp : Tpu_VUnaryOp<"vabs", "VABS", Tpu_VRegF32OrI32, "absolute value">;
def Tpu_VExpOp : Tpu_VUnaryOp<"vexp", "VEXP", Tpu_VRegF32, "e to the x">;
def Tpu_VLogOp : Tpu_VUnaryOp<"vlog", "VLOG", Tpu_VRegF32, "natural logarithm">;
def Tpu_VTanhOp : Tpu_VUnaryOp<"vtanh", "VTANH", Tpu_VRegF32, "hyperbolic tangent">;
def Tpu_VRsqrtOp : Tpu_VUnaryOp<"vrsqrt", "VRSQRT", Tpu_VRegF32,
    "reciprocal square root">;
def Tpu_VSqrtOp : Tpu_VUnaryOp<"vsqrt", "VSQRT", Tpu_VRegF32, "square root">;
def Tpu_VRcpOp : Tpu_VUnaryOp<"vrcp", "VRCP", Tpu_VRegF32, "reciprocal">;
def Tpu_VFloorOp : Tpu_VUnaryOp<"vfloor", "VFLOOR", Tpu_VRegF32,
    "rounding toward -infinity">;
def Tpu_VCeilOp : Tpu_VUnaryOp<"vceil", "VCEIL", Tpu_VRegF32,
    "rounding toward +infinity">;
def Tpu_VRoundAfzOp : Tpu_VUnaryOp<"vround_afz", "VROUND_AFZ", Tpu_VRegF32,
    "rounding to nearest, ties away from zero">;
def Tpu_VRoundEvenOp : Tpu_VUnaryOp<"vround_even", "VROUND_EVEN", Tpu_VRegF32,
    "rounding to nearest, ties to even">;

//===----------------------------------------------------------------------===//
// VPU: integer and bit operations
//===----------------------------------------------------------------------===//

def Tpu_VRemOp : Tpu_VSignedBinaryOp<"vrem", "VREM", "remainder">;
def Tpu_VMulhiOp : Tpu_VSignedBinaryOp<"vmulhi", "VMULHI",
    "high 32 bits of the 64-bit signed (or unsigned) product", [Commutative],
    Tpu_VRegI32>;
def Tpu_VAndOp : Tpu_VBinaryOp<"vand", "VAND", "bitwise and", [Commutative],
    Tpu_VRegI32, "i32">;
def Tpu_VOrOp : Tpu_VBinaryOp<"vor", "VOR", "bitwise or", [Commutative],
    Tpu_VRegI32, "i32">;
def Tpu_VXorOp : Tpu_VBinaryOp<"vxor", "VXOR", "bitwise exclusive or",
    [Commutative], Tpu_VRegI32, "i32">;
def Tpu_VShlOp : Tpu_VBinaryOp<"vshl", "VSHL", "shift left", [], Tpu_VRegI32,
    "i32">;
def Tpu_VShrlOp : Tpu_VBinaryOp<"vshrl", "VSHRL", "logical shift right", [],
    Tpu_VRegI32, "i32">;
def Tpu_VShraOp : Tpu_VBinaryOp<"vshra", "VSHRA", "arithmetic shift right",
    [], Tpu_VRegI32, "i32">;
def Tpu_VPopcntOp : Tpu_VUnaryOp<"vpopcnt", "VPOPCNT", Tpu_VRegI32,
    "number of set bits">;
def Tpu_VClzOp : Tpu_VUnaryOp<"vclz", "VCLZ", Tpu_VRegI32,
    "number of leading zero bits">;

def Tpu_VReducePrecisionOp : Tpu_Op<"vreduce_precision",
    [Pure, AllTypesMatch<["operand", "result"]>]> {
  let summary = "round to a narrower float format (VREDUCE_PRECISION)";
  let description = [{
    `VREDUCE_PRECISION`: XLA's reduce-precision of each f32 lane to the
    float format with `exponent_bits` exponent and `mantissa_bits` mantissa
    bits, the result kept in f32 (docs/isa.md).

    ```mlir
    %r = tpu.vreduce_precision %x, %c5, %c10 : vector<8x128xf32>, index, index
    ```
  }];
  let arguments = (ins Tpu_VRegF32:$operand, Tpu_Scalar:$exponent_bits,
                       Tpu_Scalar:$mantissa_bits);
  let results = (outs Tpu_VRegF32:$result);
  let assemblyFormat = [{
    $operand `,` $exponent_bits `,` $mantissa_bits attr-dict `:` type($result)
    `,` type($exponent_bits) `,` type($mantissa_bits)
  }];
}

def Tpu_VBitcastOp : Tpu_Op<"vbitcast", [Pure]> {
  let summary = "reinterpret the 32-bit lanes of a register (VMOV)";
  let description = [{
    The same 32 bits per lane read as another element type (f32 <-> s32);
    the serializer emits a `VMOV`.

    ```mlir
    %i = tpu.vbitcast %x : vector<8x128xf32> to vector<8x128xi32>
    ```
  }];
  let arguments = (ins Tpu_VRegF32OrI32:$source);
  let results = (outs Tpu_VRegF32OrI32:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
}

def Tpu_VCmpOp : Tpu_Op<"vcmp", [Pure, SameTypeOperands, Tpu_UnsignedOnI32]> {
  let summary = "elementwise comparison (VCMP)";
  let description = [{
    `VCMP`: an s32 mask, 1 where `lhs kind rhs` holds and 0 elsewhere (f32
    compares as IEEE: NaN is unordered; i32 signed, or unsigned with
    `unsigned`: dtype U32).

    ```mlir
    %m = tpu.vcmp lt, %a, %b : vector<8x128xf32> -> vector<8x128xi32>
    %u = tpu.vcmp lt, %i, %j unsigned : vector<8x128xi32> -> vector<8x128xi32>
    ```
  }];
  let arguments = (ins Tpu_CmpKindAttr:$kind, Tpu_VRegF32OrI32:$lhs,
                       Tpu_VRegF32OrI32:$rhs, UnitAttr:$is_unsigned);
  let results = (outs Tpu_VRegI32:$result);
  let assemblyFormat = [{
    $kind `,` $lhs `,` $rhs (`unsigned` $is_unsigned^)? attr-dict `:`
    type($lhs) `->` type($result)
  }];
}

def Tpu_VSelectOp : Tpu_Op<"vsel", [Pure,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "lane-wise select (VSEL)";
  let description = [{
    `VSEL`: lanes where `mask` is non-zero take `on_true`, the others
    `on_false`.

    ```mlir
    %r = tpu.vsel %m, %a, %b : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_VRegI32:$mask, Tpu_VReg:$on_true,
                       Tpu_VReg:$on_false);
  let results = (outs Tpu_VReg:$result);
  let assemblyFormat = "$mask `,` $on_true `,` $on_false attr-dict `:` type($result)";
}

def Tpu_VConvertOp : Tpu_Op<"vcvt", [Pure]> {
  let summary = "convert the element type of a vector register (VCVT)";
  let description = [{
    `VCVT` between f32 and s32 or bf16; one side must be f32. s32 -> f32 and
    f32 -> bf16 round to nearest even (a bf16 register keeps the rounded
    value widened to f32); f32 -> s32 truncates toward zero and saturates.
    With `unsigned` the i32 side is u32 (dtype U32): u32 -> f32 rounds to
    nearest even, f32 -> u32 saturates to [0, 2^32 - 1].

    ```mlir
    %r = tpu.vcvt %x : vector<8x128xf32> to vector<8x128xbf16>
    %f = tpu.vcvt %u unsigned : vector<8x128xi32> to vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_VReg:$source, UnitAttr:$is_unsigned);
  let results = (outs Tpu_VReg:$result);
  let assemblyFormat = [{
    $source (`unsigned` $is_unsigned^)? attr-dict `:` type($source) `to`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// VPU: cross-lane operations and the XLU
//===----------------------------------------------------------------------===//

def Tpu_VReduceLanesOp : Tpu_Op<"vreduce_lanes",
    [Pure, SameOperandsAndResultType, Tpu_UnsignedOnI32]> {
  let summary = "reduce across the lanes of each sublane (VREDUCE_LANES)";
  let description = [{
    `VREDUCE_LANES`: per sublane, reduces the 128 lanes in lane order; the
    result is broadcast to every lane of the sublane. `unsigned` (i32 only)
    takes max and min of the bits read as u32 (dtype U32).

    ```mlir
    %m = tpu.vreduce_lanes max, %x : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_ReduceKindAttr:$kind, Tpu_VRegF32OrI32:$source,
                       UnitAttr:$is_unsigned);
  let results = (outs Tpu_VRegF32OrI32:$result);
  let assemblyFormat =
      "$kind `,` $source (`unsigned` $is_unsigned^)? attr-dict `:` type($result)";
}

def Tpu_VReduceSublanesOp : Tpu_Op<"vreduce_sublanes",
    [Pure, SameOperandsAndResultType, Tpu_UnsignedOnI32]> {
  let summary = "reduce across the sublanes of each lane (VREDUCE_SUBLANES)";
  let description = [{
    `VREDUCE_SUBLANES`: per lane, reduces the 8 sublanes; the result is
    broadcast to every sublane. `unsigned` as for `vreduce_lanes`.

    ```mlir
    %s = tpu.vreduce_sublanes sum, %x : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_ReduceKindAttr:$kind, Tpu_VRegF32OrI32:$source,
                       UnitAttr:$is_unsigned);
  let results = (outs Tpu_VRegF32OrI32:$result);
  let assemblyFormat =
      "$kind `,` $source (`unsigned` $is_unsigned^)? attr-dict `:` type($result)";
}

def Tpu_VBroadcastLaneOp : Tpu_Op<"vbcast_lane", [Pure,
    AllTypesMatch<["source", "result"]>]> {
  let summary = "broadcast one lane of each sublane (VBCAST_LANE)";
  let description = [{
    `VBCAST_LANE`: every lane of sublane `s` takes lane `lane` of sublane
    `s`; `lane` must be in [0, 128).

    ```mlir
    %b = tpu.vbcast_lane %x, %c5 : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_VReg:$source, Tpu_Scalar:$lane);
  let results = (outs Tpu_VReg:$result);
  let assemblyFormat = "$source `,` $lane attr-dict `:` type($result) `,` type($lane)";
  let hasVerifier = 1;
}

def Tpu_VBroadcastSublaneOp : Tpu_Op<"vbcast_sublane", [Pure,
    AllTypesMatch<["source", "result"]>]> {
  let summary = "broadcast one sublane (VBCAST_SUBLANE)";
  let description = [{
    `VBCAST_SUBLANE`: every sublane takes sublane `sublane`, which must be in
    [0, 8).

    ```mlir
    %b = tpu.vbcast_sublane %x, %c0 : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Tpu_VReg:$source, Tpu_Scalar:$sublane);
  let results = (outs Tpu_VReg:$result);
  let assemblyFormat = "$source `,` $sublane attr-dict `:` type($result) `,` type($sublane)";
  let hasVerifier = 1;
}

def Tpu_VLaneIdOp : Tpu_Op<"vlane_id", [Pure]> {
  let summary = "the lane index of every lane (VLANE_ID)";
  let description = [{
    `VLANE_ID`: lane `l` holds `l`; masks ragged edges with `tpu.vcmp`.

    ```mlir
    %l = tpu.vlane_id : vector<8x128xi32>
    ```
  }];
  let results = (outs Tpu_VRegI32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tpu_VSublaneIdOp : Tpu_Op<"vsublane_id", [Pure]> {
  let summary = "the sublane index of every lane (VSUBLANE_ID)";
  let description = [{
    `VSUBLANE_ID`: every lane of sublane `s` holds `s`.

    ```mlir
    %s = tpu.vsublane_id : vector<8x128xi32>
    ```
  }];
  let results = (outs Tpu_VRegI32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tpu_VTransposeOp : Tpu_Op<"vtranspose", [Pure]> {
  let summary = "transpose a 128x128 block held in 16 registers (VTRANSPOSE)";
  let description = [{
    `VTRANSPOSE` on the XLU: the 16 sources hold rows 8r..8r+7 of a 128x128
    32-bit block (source `r`); the 16 results hold the transposed block the
    same way. The serializer places sources and results in 16 consecutive
    registers, moving sources with `VMOV` when needed.

    ```mlir
    %t:16 = tpu.vtranspose %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9,
        %r10, %r11, %r12, %r13, %r14, %r15 : vector<8x128xf32>
    ```
  }];
  let arguments = (ins Variadic<Tpu_VRegF32OrI32>:$sources);
  let results = (outs Variadic<Tpu_VRegF32OrI32>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ICI: collectives (docs/spmd.md, docs/isa.md "ICI")
//===----------------------------------------------------------------------===//

// A collective from one HBM buffer to another. `groups` is a 2-D i64
// tensor of global device ids (replica * num_partitions + partition), one
// row per group, padded with -1: the lowering has applied XLA's
// CollectiveOpGroupMode. The instruction runs when every earlier kernel is
// done (no DMA in flight) and completes before the next one.
class Tpu_CollectiveOp<string mnemonic, string opcode, string doc,
                       dag extra = (ins)>
    : Tpu_Op<mnemonic> {
  let summary = doc # " over the ICI (" # opcode # ")";
  let description = "`" # opcode # "`: " # doc # " of the HBM buffer " #
    "`src` into `dst`, over the devices of each of `groups` (global device " #
    "ids, rows padded with -1); docs/spmd.md gives the semantics, docs/isa.md " #
    "the timing.\n\n```mlir\ntpu." # mnemonic # " %a -> %b {groups = " #
    "dense<[[0, 1]]> : tensor<1x2xi64>} : memref<...> -> memref<...>\n```";
  let arguments = !con((ins Tpu_MemRef:$src, Tpu_MemRef:$dst,
                            I64ElementsAttr:$groups), extra);
  let assemblyFormat = [{
    $src `->` $dst attr-dict `:` type($src) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def Tpu_AllReduceOp : Tpu_CollectiveOp<"all_reduce", "ALL_REDUCE",
    "elementwise reduction (left fold in group order)",
    (ins StrAttr:$reduce)>;
def Tpu_AllGatherOp : Tpu_CollectiveOp<"all_gather", "ALL_GATHER",
    "concatenation along `dimension`", (ins I64Attr:$dimension)>;
def Tpu_ReduceScatterOp : Tpu_CollectiveOp<"reduce_scatter", "REDUCE_SCATTER",
    "the device's block along `dimension` of the reduction",
    (ins I64Attr:$dimension, StrAttr:$reduce)>;
def Tpu_AllToAllOp : Tpu_CollectiveOp<"all_to_all", "ALL_TO_ALL",
    "exchange of the blocks along `dimension`", (ins I64Attr:$dimension)>;
def Tpu_CollectiveBroadcastOp : Tpu_CollectiveOp<"collective_broadcast",
    "COLLECTIVE_BROADCAST", "copy of the first group member's operand">;

def Tpu_CollectivePermuteOp : Tpu_Op<"collective_permute"> {
  let summary = "send to fixed targets over the ICI (COLLECTIVE_PERMUTE)";
  let description = [{
    `COLLECTIVE_PERMUTE`: device `pairs[i][1]` receives `src` of device
    `pairs[i][0]` (global device ids, an N x 2 tensor) in `dst`; a device no
    pair targets gets zeros.

    ```mlir
    tpu.collective_permute %a -> %b {pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
        : memref<...> -> memref<...>
    ```
  }];
  let arguments = (ins Tpu_MemRef:$src, Tpu_MemRef:$dst,
                       I64ElementsAttr:$pairs);
  let assemblyFormat = [{
    $src `->` $dst attr-dict `:` type($src) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def Tpu_DeviceIdOp : Tpu_Op<"device_id"> {
  let summary = "write the device's replica or partition id (DEVICE_ID)";
  let description = [{
    `DEVICE_ID`: writes the device's replica id (`kind = "replica"`) or
    partition id (`"partition"`) as a 32-bit integer into the rank-0 HBM
    buffer `dst`.

    ```mlir
    tpu.device_id %id {kind = "partition"} : memref<i32, #tpu.tiled<{:T(1024)}>, #tpu.memory_space<hbm>>
    ```
  }];
  let arguments = (ins Tpu_I32MemRef:$dst, StrAttr:$kind);
  let assemblyFormat = "$dst attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Scalar unit
//===----------------------------------------------------------------------===//

def Tpu_SLoadOp : Tpu_Op<"sload"> {
  let summary = "load a 32-bit word from SMEM (SLD)";
  let description = [{
    `SLD`: the sign-extended 32-bit word at `base + offset` (4-byte
    aligned) in SMEM. Other scalar math is `arith` on `index`/`i64`.

    ```mlir
    %n = tpu.sload %params[%c4] : memref<16xi32, #tpu.memory_space<smem>>
    ```
  }];
  let arguments = (ins Tpu_I32MemRef:$base, Index:$offset);
  let results = (outs I64:$result);
  let assemblyFormat = "$base `[` $offset `]` attr-dict `:` type($base)";
  let hasVerifier = 1;
}

def Tpu_SStoreOp : Tpu_Op<"sstore"> {
  let summary = "store the low 32 bits of a scalar to SMEM (SST)";
  let description = [{
    `SST`: writes the low 32 bits of `value` to `base + offset` (4-byte
    aligned) in SMEM.

    ```mlir
    tpu.sstore %n, %params[%c0] : i64, memref<16xi32, #tpu.memory_space<smem>>
    ```
  }];
  let arguments = (ins Tpu_Scalar:$value, Tpu_I32MemRef:$base, Index:$offset);
  let assemblyFormat = [{
    $value `,` $base `[` $offset `]` attr-dict `:` type($value) `,` type($base)
  }];
  let hasVerifier = 1;
}

def Tpu_LoopOp : Tpu_Op<"loop", [SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects]> {
  let summary = "a counted loop (LOOP_BEGIN / LOOP_END)";
  let description = [{
    Runs its body `trip_count` times with the induction variable going
    0, 1, ..., trip_count - 1. The trip count is read once, on entry; a trip
    count of zero skips the body. The serializer lowers it to `LOOP_BEGIN`
    (the counter register is the induction variable) and `LOOP_END`; loops
    nest at most 16 deep. Values flow between iterations through memory.

    ```mlir
    tpu.loop %i = 0 to %n {
      %off = arith.muli %i, %c4096 : index
      ...
    }
    ```
  }];
  let arguments = (ins Index:$trip_count);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$tripCount)>];
  let extraClassDeclaration = [{
    ::mlir::BlockArgument getInductionVar() { return getBody()->getArgument(0); }
    ::mlir::Block *getBody() { return &getRegion().front(); }
  }];
}

def Tpu_WhileOp : Tpu_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "a loop with a data-dependent trip count (BRNZ / BR)";
  let description = [{
    Runs `condition`, which ends in `tpu.condition %flag`; while the flag
    is non-zero, runs `body` and then `condition` again. Unlike `tpu.loop`
    it uses no loop-stack level: the serializer emits the condition, a
    `BRNZ %flag` over a `BR` to the exit, the body and a `BR` back to the
    condition, all in the loop body (or the function body) that holds the
    op, as docs/isa.md requires of branches. Values cross iterations
    through memory; the flag usually comes from SMEM (`tpu.sload`).

    ```mlir
    tpu.while {
      %f = tpu.sload %flag[%c0] : memref<1xi32, #tpu.memory_space<smem>>
      tpu.condition %f : i64
    } do {
      ...
      tpu.yield
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$condition, SizedRegion<1>:$body);
  let assemblyFormat = "$condition `do` $body attr-dict";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins)>];
  let extraClassDeclaration = [{
    ::mlir::Block *getConditionBlock() { return &getCondition().front(); }
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
  }];
}

def Tpu_IfOp : Tpu_Op<"if", [RecursiveMemoryEffects]> {
  let summary = "run one of two regions (BRNZ / BR)";
  let description = [{
    Runs `then` when `flag` is non-zero, else `else`; both end in
    `tpu.yield`. The serializer emits `BRNZ %flag` to the then-part, the
    else-part, a `BR` past the then-part and the then-part, in the loop
    body (or the function body) that holds the op.

    ```mlir
    tpu.if %f : i64 {
      ...
      tpu.yield
    } else {
      tpu.yield
    }
    ```
  }];
  let arguments = (ins Tpu_Scalar:$flag);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $flag `:` type($flag) $thenRegion `else` $elseRegion attr-dict
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$flag)>];
  let extraClassDeclaration = [{
    ::mlir::Block *getThenBlock() { return &getThenRegion().front(); }
    ::mlir::Block *getElseBlock() { return &getElseRegion().front(); }
  }];
}

def Tpu_YieldOp : Tpu_Op<"yield", [Pure, Terminator,
    ParentOneOf<["LoopOp", "WhileOp", "IfOp"]>]> {
  let summary = "ends the body of a tpu.loop, tpu.while or tpu.if";
  let description = [{
    The terminator of `tpu.loop`'s body (implicit in its custom syntax),
    of `tpu.while`'s body and of both regions of `tpu.if`.

    ```mlir
    tpu.yield
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tpu_ConditionOp : Tpu_Op<"condition", [Pure, Terminator,
    HasParent<"WhileOp">]> {
  let summary = "ends the condition of a tpu.while";
  let description = [{
    The loop continues while `flag` is non-zero.

    ```mlir
    tpu.condition %f : i64
    ```
  }];
  let arguments = (ins Tpu_Scalar:$flag);
  let assemblyFormat = "$flag attr-dict `:` type($flag)";
}

#endif // TPUC_DIALECTS_TPU_TPUOPS_TD
