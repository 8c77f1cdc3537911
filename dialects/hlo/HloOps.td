//===- HloOps.td - hlo dialect operations ------------------*- tablegen -*-===//
//
// One op per XLA HLO opcode that tpuc supports, with XLA's semantics. Ops
// whose result type follows from operands and attributes implement
// InferTypeOpInterface, which both infers and verifies the result type.
//
//===----------------------------------------------------------------------===//

#ifndef TPUC_DIALECTS_HLO_HLOOPS_TD
#define TPUC_DIALECTS_HLO_HLOOPS_TD

include "dialects/hlo/HloDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The f8 types are storage types: tpuc-expand-narrow-floats computes them in f32.
def Hlo_Float : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2, F8E4M3,
                           F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ, F8E3M4]>;
// XLA's sN are MLIR's signless iN; XLA's uN are uiN.
def Hlo_SignedInt : AnyTypeOf<[I<4>, I8, I16, I32, I64]>;
def Hlo_UnsignedInt : AnyTypeOf<[UI<4>, UI8, UI16, UI32, UI64]>;
def Hlo_Int : AnyTypeOf<[Hlo_SignedInt, Hlo_UnsignedInt]>;
def Hlo_Element : AnyTypeOf<[Hlo_Float, Hlo_Int, I1]>;

def Hlo_Tensor : StaticShapeTensorOf<[Hlo_Element]>;
def Hlo_FpTensor : StaticShapeTensorOf<[Hlo_Float]>;
def Hlo_FpOrIntTensor : StaticShapeTensorOf<[Hlo_Float, Hlo_Int]>;
def Hlo_IntOrPredTensor : StaticShapeTensorOf<[Hlo_Int, I1]>;
def Hlo_IntTensor : StaticShapeTensorOf<[Hlo_Int]>;
def Hlo_PredTensor : StaticShapeTensorOf<[I1]>;
def Hlo_ScalarIntTensor : 0DTensorOf<[Hlo_Int]>;
def Hlo_Tuple : NestedTupleOf<[Hlo_Tensor]>;
def Hlo_TensorOrTuple : AnyTypeOf<[Hlo_Tensor, Hlo_Tuple]>;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class Hlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hlo_Dialect, mnemonic, traits>;

class Hlo_UnaryElementwiseOp<string mnemonic, Type operandType, string doc,
                             list<Trait> traits = []>
    : Hlo_Op<mnemonic, traits # [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = doc;
  let description = "Elementwise " # doc # ", with XLA's semantics.";
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

class Hlo_BinaryElementwiseOp<string mnemonic, Type operandType, string doc,
                              list<Trait> traits = []>
    : Hlo_Op<mnemonic, traits # [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = doc;
  let description = "Elementwise " # doc # ", with XLA's semantics.";
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

def Hlo_AbsOp : Hlo_UnaryElementwiseOp<"abs", Hlo_FpOrIntTensor, "absolute value">;
def Hlo_CeilOp : Hlo_UnaryElementwiseOp<"ceil", Hlo_FpTensor, "ceiling">;
def Hlo_CosineOp : Hlo_UnaryElementwiseOp<"cosine", Hlo_FpTensor, "cosine">;
def Hlo_ExpOp : Hlo_UnaryElementwiseOp<"exponential", Hlo_FpTensor, "e to the x">;
def Hlo_Expm1Op : Hlo_UnaryElementwiseOp<"exponential_minus_one", Hlo_FpTensor,
    "e to the x minus one">;
def Hlo_FloorOp : Hlo_UnaryElementwiseOp<"floor", Hlo_FpTensor, "floor">;
def Hlo_LogOp : Hlo_UnaryElementwiseOp<"log", Hlo_FpTensor, "natural logarithm">;
def Hlo_Log1pOp : Hlo_UnaryElementwiseOp<"log_plus_one", Hlo_FpTensor,
    "natural logarithm of one plus x">;
def Hlo_LogisticOp : Hlo_UnaryElementwiseOp<"logistic", Hlo_FpTensor,
    "logistic function 1 / (1 + e^-x)">;
def Hlo_NegOp : Hlo_UnaryElementwiseOp<"negate", Hlo_FpOrIntTensor, "negation">;
def Hlo_NotOp : Hlo_UnaryElementwiseOp<"not", Hlo_IntOrPredTensor,
    "logical not of pred, bitwise not of integers">;
def Hlo_RoundNearestEvenOp : Hlo_UnaryElementwiseOp<"round_nearest_even",
    Hlo_FpTensor, "rounding to the nearest integer, ties to even">;
def Hlo_RsqrtOp : Hlo_UnaryElementwiseOp<"rsqrt", Hlo_FpTensor,
    "reciprocal square root">;
def Hlo_SignOp : Hlo_UnaryElementwiseOp<"sign", Hlo_FpOrIntTensor, "sign (-1, 0 or 1)">;
def Hlo_SineOp : Hlo_UnaryElementwiseOp<"sine", Hlo_FpTensor, "sine">;
def Hlo_SqrtOp : Hlo_UnaryElementwiseOp<"sqrt", Hlo_FpTensor, "square root">;
def Hlo_TanhOp : Hlo_UnaryElementwiseOp<"tanh", Hlo_FpTensor, "hyperbolic tangent">;

def Hlo_TanOp : Hlo_UnaryElementwiseOp<"tan", Hlo_FpTensor, "tangent">;
def Hlo_CbrtOp : Hlo_UnaryElementwiseOp<"cbrt", Hlo_FpTensor, "cube root">;
def Hlo_ErfOp : Hlo_UnaryElementwiseOp<"erf", Hlo_FpTensor, "error function">;
def Hlo_RoundNearestAfzOp : Hlo_UnaryElementwiseOp<"round_nearest_afz",
    Hlo_FpTensor, "rounding to the nearest integer, ties away from zero">;
def Hlo_AcosOp : Hlo_UnaryElementwiseOp<"acos", Hlo_FpTensor, "arccosine">;
def Hlo_AcoshOp : Hlo_UnaryElementwiseOp<"acosh", Hlo_FpTensor,
    "inverse hyperbolic cosine">;
def Hlo_AsinOp : Hlo_UnaryElementwiseOp<"asin", Hlo_FpTensor, "arcsine">;
def Hlo_AsinhOp : Hlo_UnaryElementwiseOp<"asinh", Hlo_FpTensor,
    "inverse hyperbolic sine">;
def Hlo_AtanOp : Hlo_UnaryElementwiseOp<"atan", Hlo_FpTensor, "arctangent">;
def Hlo_AtanhOp : Hlo_UnaryElementwiseOp<"atanh", Hlo_FpTensor,
    "inverse hyperbolic tangent">;
def Hlo_CoshOp : Hlo_UnaryElementwiseOp<"cosh", Hlo_FpTensor,
    "hyperbolic cosine">;
def Hlo_SinhOp : Hlo_UnaryElementwiseOp<"sinh", Hlo_FpTensor,
    "hyperbolic sine">;
def Hlo_PopcntOp : Hlo_UnaryElementwiseOp<"popcnt", Hlo_IntTensor,
    "number of set bits">;
def Hlo_ClzOp : Hlo_UnaryElementwiseOp<"count_leading_zeros", Hlo_IntTensor,
    "number of leading zero bits">;

def Hlo_ReducePrecisionOp : Hlo_Op<"reduce_precision", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "round to a float format with fewer exponent/mantissa bits";
  let description = [{
    XLA's reduce-precision: each element is rounded (to nearest, ties to
    even) to the float format with `exponent_bits` exponent bits and
    `mantissa_bits` mantissa bits, and kept in the operand's type. Values
    beyond that format's range become infinities, values below its smallest
    normal flush to zero, NaN stays NaN.

    ```mlir
    %0 = hlo.reduce_precision %x, exponent_bits = 8, mantissa_bits = 7 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Hlo_FpTensor:$operand,
                       ConfinedAttr<I32Attr, [IntMinValue<1>]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs Hlo_FpTensor:$result);
  let assemblyFormat = [{
    $operand `,` `exponent_bits` `=` $exponent_bits `,` `mantissa_bits` `=`
    $mantissa_bits attr-dict `:` type($result)
  }];
}

def Hlo_CopyOp : Hlo_UnaryElementwiseOp<"copy", Hlo_Tensor,
    "copy (in tpuc: a change of layout)">;

def Hlo_IsFiniteOp : Hlo_Op<"is_finite", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "whether each element is finite";
  let description = "Elementwise: true where x is neither infinite nor NaN.";
  let arguments = (ins Hlo_FpTensor:$operand);
  let results = (outs Hlo_PredTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Elementwise binary and ternary
//===----------------------------------------------------------------------===//

// x + 0, x - 0, x * 1 and x / 1 fold to x (as XLA's algebraic simplifier).
def Hlo_AddOp : Hlo_BinaryElementwiseOp<"add", Hlo_Tensor, "addition",
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_SubtractOp : Hlo_BinaryElementwiseOp<"subtract", Hlo_FpOrIntTensor,
    "subtraction"> {
  let hasFolder = 1;
}
def Hlo_MultiplyOp : Hlo_BinaryElementwiseOp<"multiply", Hlo_Tensor,
    "multiplication", [Commutative]> {
  let hasFolder = 1;
}
def Hlo_DivideOp : Hlo_BinaryElementwiseOp<"divide", Hlo_FpOrIntTensor,
    "division (integers round toward zero)"> {
  let hasFolder = 1;
}
def Hlo_RemainderOp : Hlo_BinaryElementwiseOp<"remainder", Hlo_FpOrIntTensor,
    "remainder with the sign of the dividend">;
def Hlo_MaximumOp : Hlo_BinaryElementwiseOp<"maximum", Hlo_Tensor,
    "maximum (NaN if either is NaN)", [Commutative]>;
def Hlo_MinimumOp : Hlo_BinaryElementwiseOp<"minimum", Hlo_Tensor,
    "minimum (NaN if either is NaN)", [Commutative]>;
def Hlo_PowerOp : Hlo_BinaryElementwiseOp<"power", Hlo_FpOrIntTensor,
    "lhs to the power rhs">;
def Hlo_Atan2Op : Hlo_BinaryElementwiseOp<"atan2", Hlo_FpTensor,
    "arctangent of lhs/rhs">;
def Hlo_AndOp : Hlo_BinaryElementwiseOp<"and", Hlo_IntOrPredTensor,
    "logical/bitwise and", [Commutative]>;
def Hlo_OrOp : Hlo_BinaryElementwiseOp<"or", Hlo_IntOrPredTensor,
    "logical/bitwise or", [Commutative]>;
def Hlo_XorOp : Hlo_BinaryElementwiseOp<"xor", Hlo_IntOrPredTensor,
    "logical/bitwise exclusive or", [Commutative]>;

def Hlo_ShiftLeftOp : Hlo_BinaryElementwiseOp<"shift_left", Hlo_IntTensor,
    "shift left (0 when the shift is at least the bit width)">;
def Hlo_ShiftRightArithmeticOp : Hlo_BinaryElementwiseOp<
    "shift_right_arithmetic", Hlo_IntTensor,
    "arithmetic shift right (the sign fills a shift of at least the bit width)">;
def Hlo_ShiftRightLogicalOp : Hlo_BinaryElementwiseOp<"shift_right_logical",
    Hlo_IntTensor, "logical shift right (0 when the shift is at least the bit "
    "width)">;
def Hlo_MulhiOp : Hlo_BinaryElementwiseOp<"mulhi", Hlo_IntTensor,
    "high half of the double-width product", [Commutative]>;

def Hlo_CompareOp : Hlo_Op<"compare", [Pure, Elementwise,
    SameTypeOperands, InferTypeOpAdaptor]> {
  let summary = "elementwise comparison";
  let description = [{
    Compares `lhs` and `rhs` elementwise with `comparison_direction`. The
    optional `compare_type` is XLA's: FLOAT (IEEE, NaN unordered),
    TOTALORDER (-NaN < -Inf < ... < -0 < +0 < ... < Inf < NaN), SIGNED or
    UNSIGNED. The result is a pred tensor of the operands' shape.

    ```mlir
    %0 = hlo.compare GT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %1 = hlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Hlo_ComparisonDirectionAttr:$comparison_direction,
                       Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       OptionalAttr<Hlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Hlo_PredTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($comparison_direction) `,` $lhs `,`
    custom<RhsAndCompareType>($rhs, $compare_type) attr-dict
    `:` functional-type(operands, results)
  }];
  let hasCanonicalizer = 1;
}

def Hlo_SelectOp : Hlo_Op<"select", [Pure, InferTypeOpAdaptor]> {
  let summary = "elementwise select";
  let description = [{
    `pred ? on_true : on_false` elementwise. `pred` is either a scalar or has
    the shape of the other operands, which have the same type.
  }];
  let arguments = (ins Hlo_PredTensor:$pred, Hlo_Tensor:$on_true,
                       Hlo_Tensor:$on_false);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ClampOp : Hlo_Op<"clamp", [Pure, InferTypeOpAdaptor]> {
  let summary = "elementwise clamp";
  let description = [{
    `min(max(operand, min), max)` elementwise. `min` and `max` are scalars or
    have the operand's shape; all have the operand's element type.
  }];
  let arguments = (ins Hlo_Tensor:$min, Hlo_Tensor:$operand, Hlo_Tensor:$max);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Type conversion and constants
//===----------------------------------------------------------------------===//

def Hlo_ConvertOp : Hlo_Op<"convert", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts every element to the result's element type as XLA does:
    float to narrower float rounds to nearest even, float to integer
    truncates toward zero (saturating; NaN becomes 0), integer to pred is
    `x != 0`.
  }];
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Hlo_BitcastConvertOp : Hlo_Op<"bitcast_convert", [Pure]> {
  let summary = "reinterpret the bits of each element as another type";
  let description = [{
    As XLA's bitcast-convert: equal bit widths keep the shape; converting to
    a narrower type appends a minor dimension of size (wide / narrow); to a
    wider type removes a minor dimension of that size.
  }];
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_ConstantOp : Hlo_Op<"constant", [ConstantLike, Pure,
    InferTypeOpAdaptor]> {
  let summary = "a constant tensor";
  let description = [{
    ```mlir
    %0 = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Hlo_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Hlo_IotaOp : Hlo_Op<"iota", [Pure]> {
  let summary = "a tensor counting up along one dimension";
  let description = [{
    ```mlir
    %0 = hlo.iota dim = 1 : tensor<2x4xi32>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension);
  let results = (outs Hlo_Tensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Hlo_BroadcastInDimOp : Hlo_Op<"broadcast_in_dim", [Pure]> {
  let summary = "broadcast into a larger shape";
  let description = [{
    XLA's `broadcast(x), dimensions={...}`: operand dimension `i` becomes
    result dimension `broadcast_dimensions[i]`; the list is strictly
    increasing, and each operand dimension is 1 or equal to the result
    dimension it maps to.

    ```mlir
    %0 = hlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Hlo_ReshapeOp : Hlo_Op<"reshape", [Pure]> {
  let summary = "reshape (row-major element order is kept)";
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Hlo_TransposeOp : Hlo_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permute dimensions";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]`.

    ```mlir
    %0 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Hlo_ReverseOp : Hlo_Op<"reverse", [Pure, SameOperandsAndResultType]> {
  let summary = "reverse the order of elements along dimensions";
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_SliceOp : Hlo_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "static strided slice";
  let description = [{
    XLA's `slice={[start:limit:stride], ...}`.

    ```mlir
    %0 = hlo.slice %x [0:2:1, 1:5:2] : (tensor<4x8xf32>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_DynamicSliceOp : Hlo_Op<"dynamic_slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "slice at run-time start indices";
  let description = [{
    One rank-0 integer start index per operand dimension; starts are
    clamped so the slice stays inside the operand, as in XLA.
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       Variadic<Hlo_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `[` $start_indices `]` `,` `sizes` `=` $slice_sizes attr-dict
    `:` functional-type(operands, results)
  }];
}

def Hlo_DynamicUpdateSliceOp : Hlo_Op<"dynamic_update_slice", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "overwrite a slice at run-time start indices";
  let description = [{
    Writes `update` into a copy of `operand` at the (clamped) start indices.
  }];
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$update,
                       Variadic<Hlo_ScalarIntTensor>:$start_indices);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $update `,` `[` $start_indices `]` attr-dict
    `:` functional-type(operands, results)
  }];
}

def Hlo_ConcatenateOp : Hlo_Op<"concatenate", [Pure, InferTypeOpAdaptor]> {
  let summary = "concatenate along one dimension";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_PadOp : Hlo_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "pad with edge (possibly negative) and interior padding";
  let description = [{
    XLA's `padding=lo_hi_interior x ...`. Negative edge padding removes
    elements; interior padding is non-negative.
  }];
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,`
    `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding
    attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions and windows
//===----------------------------------------------------------------------===//

def Hlo_ReduceOp : Hlo_Op<"reduce", [RecursiveMemoryEffects,
    SameVariadicOperandSize, InferTypeOpAdaptor]> {
  let summary = "reduce dimensions with a computation";
  let description = [{
    Variadic reduce: N inputs of one shape and N rank-0 init values; the body
    takes (acc_0..acc_N-1, x_0..x_N-1) as rank-0 tensors and returns N.

    ```mlir
    %0 = hlo.reduce(%x) init(%zero) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       Variadic<Hlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `dims` `=` $dimensions attr-dict
    `:` functional-type(operands, results) $body
  }];
  let hasRegionVerifier = 1;
}

def Hlo_ReduceWindowOp : Hlo_Op<"reduce_window", [RecursiveMemoryEffects,
    SameVariadicOperandSize, InferTypeOpAdaptor]> {
  let summary = "reduce sliding windows with a computation";
  let description = [{
    XLA's reduce-window with `window={size=.. stride=.. pad=.. lhs_dilate=..
    rhs_dilate=..}`: every array attribute has one entry per input
    dimension (`padding` two: low, high); missing ones default to stride 1,
    no padding and dilation 1.
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       Variadic<Hlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` attr-dict
    `:` functional-type(operands, results) $body
  }];
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
}

def Hlo_SelectAndScatterOp : Hlo_Op<"select_and_scatter", [
    RecursiveMemoryEffects, InferTypeOpAdaptor]> {
  let summary = "select one element per window, scatter source values there";
  let description = [{
    XLA's select-and-scatter (the gradient of max-pooling): `select`
    chooses an element of each window of `operand`, and `scatter` combines
    the corresponding `source` value into a result initialised with
    `init_value`.
  }];
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$source,
                       Hlo_Tensor:$init_value,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding);
  let results = (outs Hlo_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let assemblyFormat = [{
    $operand `,` $source `,` $init_value attr-dict
    `:` functional-type(operands, results) `select` $select `scatter` $scatter
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Hlo_DotGeneralOp : Hlo_Op<"dot_general", [Pure]> {
  let summary = "generalised matrix product";
  let description = [{
    The result's dimensions are the batch dimensions, then the lhs free
    dimensions, then the rhs free dimensions, in order. The result element
    type may differ from the operands' (XLA's preferred_element_type, e.g.
    bf16 operands accumulated into f32).

    ```mlir
    %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
         : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       Hlo_DotDimensionNumbersAttr:$dot_dimension_numbers,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `dims` `=` $dot_dimension_numbers attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Hlo_ConvolutionOp : Hlo_Op<"convolution", [Pure]> {
  let summary = "N-d convolution with XLA's full generality";
  let description = [{
    XLA's convolution: `window_strides`, `padding` (low, high per spatial
    dimension), `lhs_dilation`, `rhs_dilation`, `window_reversal`,
    `feature_group_count`, `batch_group_count` and dimension numbers in
    dim_labels notation. Missing window attributes default to stride 1,
    no padding, dilation 1, no reversal.

    ```mlir
    %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
         : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       Hlo_ConvDimensionNumbersAttr:$dimension_numbers,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$feature_group_count,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>, "1">:$batch_group_count,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `dim_labels` `=` $dimension_numbers attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  // An input `pad` by +0.0 of the spatial edges becomes `padding`.
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Gather / scatter / sort / topk
//===----------------------------------------------------------------------===//

def Hlo_GatherOp : Hlo_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "gather slices at indices";
  let description = [{
    XLA's gather, with its dimension numbers and `slice_sizes`.
  }];
  let arguments = (ins Hlo_Tensor:$operand, Hlo_IntTensor:$start_indices,
                       Hlo_GatherDimensionNumbersAttr:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $start_indices `,` `dims` `=` $dimension_numbers `,` `sizes` `=` $slice_sizes
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ScatterOp : Hlo_Op<"scatter", [RecursiveMemoryEffects,
    SameVariadicOperandSize, InferTypeOpAdaptor]> {
  let summary = "combine updates into slices at indices";
  let description = [{
    XLA's (variadic) scatter: `inputs` and `updates` come in equal numbers;
    the update computation takes (current_0.., update_0..) as rank-0 tensors.
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       Hlo_IntTensor:$scatter_indices,
                       Variadic<Hlo_Tensor>:$updates,
                       Hlo_ScatterDimensionNumbersAttr:$dimension_numbers,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$update_computation);
  let assemblyFormat = [{
    `(` $inputs `)` `at` $scatter_indices `updates` `(` $updates `)` `,`
    `dims` `=` $dimension_numbers attr-dict `:` functional-type(operands, results)
    $update_computation
  }];
  let hasRegionVerifier = 1;
}

def Hlo_SortOp : Hlo_Op<"sort", [RecursiveMemoryEffects, InferTypeOpAdaptor]> {
  let summary = "sort tensors along a dimension with a comparator";
  let description = [{
    Sorts N same-shaped inputs together along `dimension`; the comparator
    takes (lhs_0, rhs_0, lhs_1, rhs_1, ...) as rank-0 tensors and returns a
    rank-0 pred meaning "lhs goes before rhs".
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension,
                       DefaultValuedAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$comparator);
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)
    $comparator
  }];
  let hasRegionVerifier = 1;
}

def Hlo_MapOp : Hlo_Op<"map", [RecursiveMemoryEffects]> {
  let summary = "apply a scalar computation elementwise";
  let description = [{
    XLA's map: the computation takes one rank-0 tensor per input (of its
    element type) and returns one rank-0 tensor; the result holds its value
    at every index. `dimensions` lists every dimension in order, as XLA
    requires.

    ```mlir
    %0 = hlo.map(%a, %b) dims = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = hlo.multiply %x, %y : tensor<f32>
      hlo.return %m : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_Tensor:$result);
  let regions = (region SizedRegion<1>:$computation);
  let assemblyFormat = [{
    `(` $inputs `)` `dims` `=` $dimensions attr-dict
    `:` functional-type(operands, results) $computation
  }];
  let hasRegionVerifier = 1;
}

def Hlo_TopKOp : Hlo_Op<"topk", [Pure, InferTypeOpAdaptor]> {
  let summary = "the k largest (or smallest) entries along the last dimension";
  let description = [{
    Returns the values and their s32 indices, sorted, like XLA's topk.
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs Hlo_Tensor:$values, Hlo_Tensor:$indices);
  let assemblyFormat = [{
    $operand `,` `k` `=` $k attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Linear algebra on batches of square matrices
//===----------------------------------------------------------------------===//

def Hlo_CholeskyOp : Hlo_Op<"cholesky", [Pure, SameOperandsAndResultType]> {
  let summary = "Cholesky factors of a batch of symmetric positive definite matrices";
  let description = [{
    XLA's cholesky on [..., n, n]: `lower` gives L with a = L L^T, read from
    and written to the lower triangle, else U with a = U^T U in the upper
    one; the other triangle of the result is zero. A matrix whose
    factorization meets a NaN pivot (not positive definite) is all NaN, as
    XLA's CholeskyExpander makes it.
  }];
  let arguments = (ins Hlo_FpTensor:$operand,
                       DefaultValuedAttr<BoolAttr, "false">:$lower);
  let results = (outs Hlo_FpTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_TriangularSolveOp : Hlo_Op<"triangular_solve", [Pure]> {
  let summary = "solve triangular systems for a batch of matrices";
  let description = [{
    XLA's triangular-solve: x with op(a) x = b (`left_side`) or x op(a) = b,
    a [..., m, m] read only in its `lower` (else upper) triangle, its
    diagonal taken as ones with `unit_diagonal`; op(a) is a^T with
    `transpose_a` (XLA's TRANSPOSE and, for real types, ADJOINT).
  }];
  let arguments = (ins Hlo_FpTensor:$a, Hlo_FpTensor:$b,
                       DefaultValuedAttr<BoolAttr, "false">:$left_side,
                       DefaultValuedAttr<BoolAttr, "false">:$lower,
                       DefaultValuedAttr<BoolAttr, "false">:$unit_diagonal,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a);
  let results = (outs Hlo_FpTensor:$result);
  let assemblyFormat = [{
    $a `,` $b attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

def Hlo_RngBitGeneratorOp : Hlo_Op<"rng_bit_generator", [Pure]> {
  let summary = "counter-based random bits and the next generator state";
  let description = [{
    XLA's rng-bit-generator: from a u64[n] state (key, counter...) returns
    the updated state and an integer array of random bits, computed exactly
    as XLA's RngBitGeneratorExpander does: THREE_FRY is Threefry-2x32 with
    20 rounds (state u64[2]: key, counter), PHILOX is Philox-4x32 with 10
    rounds (state u64[2] or u64[3]: key, then the 128-bit counter).
    DEFAULT is PHILOX, the algorithm XLA's CPU and GPU compilers expand it
    to. Elements narrower than 32 bits take the low bits of 32-bit draws.

    ```mlir
    %s, %bits = hlo.rng_bit_generator %state, algorithm = THREE_FRY
        : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x128xui32>)
    ```
  }];
  let arguments = (ins Hlo_Tensor:$initial_state,
                       Hlo_RngAlgorithmAttr:$algorithm);
  let results = (outs Hlo_Tensor:$output_state, Hlo_Tensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` $algorithm attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Hlo_RngOp : Hlo_Op<"rng", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "random numbers drawn from the program's generator state";
  let description = [{
    XLA's rng: an array of numbers uniform in [a, b) (UNIFORM) or normal
    with mean a and standard deviation b (NORMAL), a and b scalars of the
    result's element type (f32, bf16, s32, u32; NORMAL floats only). As in
    XLA's RngExpander, the numbers are Philox-4x32 bits keyed by the op
    (`getOpSeed`) at the counter that an implicit
    rng_get_and_update_state of `getStateDelta()` returns: the op reads and
    advances the program's generator state, so it is neither pure nor
    reorderable with the other ops that use the state (docs/random.md).

    ```mlir
    %r = hlo.rng %a, %b, distribution = UNIFORM
        : (tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$a, Hlo_Tensor:$b,
                       Hlo_RngDistributionAttr:$distribution);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` `distribution` `=` $distribution attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// XLA's op_seed, (op id * 0x9E3779B97F4A7C15) >> 32, with the op id
    /// the op's position among the module's rng ops (walk order).
    uint64_t getOpSeed();
    /// How far the op advances the state: its number of 32-bit units.
    int64_t getStateDelta();
  }];
}

def Hlo_RngGetAndUpdateStateOp : Hlo_Op<"rng_get_and_update_state",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the program's generator state, then advanced by delta";
  let description = [{
    XLA's rng-get-and-update-state: returns the program's 128-bit generator
    state as u64[2] (low, high) and adds `delta` to it. Every execution
    starts from XLA's initial state 0x7012395 (docs/random.md).

    ```mlir
    %s = hlo.rng_get_and_update_state delta = 1024 : tensor<2xui64>
    ```
  }];
  let arguments = (ins I64Attr:$delta);
  let results = (outs Hlo_Tensor:$state);
  let assemblyFormat = "`delta` `=` $delta attr-dict `:` type($state)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tuples, calls and control flow
//===----------------------------------------------------------------------===//

def Hlo_TupleOp : Hlo_Op<"tuple", [Pure, InferTypeOpAdaptor]> {
  let summary = "make a tuple";
  let arguments = (ins Variadic<Hlo_TensorOrTuple>:$elements);
  let results = (outs Hlo_Tuple:$result);
  let assemblyFormat = "$elements attr-dict `:` functional-type(operands, results)";
}

def Hlo_GetTupleElementOp : Hlo_Op<"get_tuple_element", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "one element of a tuple";
  let arguments = (ins Hlo_Tuple:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs Hlo_TensorOrTuple:$result);
  let assemblyFormat = [{
    $operand `[` $index `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Hlo_CallOp : Hlo_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a computation (a func.func) by name";
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Hlo_TensorOrTuple>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<Hlo_TensorOrTuple>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
}

def Hlo_WhileOp : Hlo_Op<"while", [RecursiveMemoryEffects, InferTypeOpAdaptor]> {
  let summary = "loop while a condition holds";
  let description = [{
    XLA's while: the loop state is the operands; `cond` maps the state to a
    rank-0 pred, `body` maps the state to the next state. Results are the
    final state.
  }];
  let arguments = (ins Variadic<Hlo_TensorOrTuple>:$operand);
  let results = (outs Variadic<Hlo_TensorOrTuple>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $operand `)` attr-dict `:` type($operand) `cond` $cond `do` $body
  }];
  let hasRegionVerifier = 1;
}

def Hlo_ConditionalOp : Hlo_Op<"conditional", [RecursiveMemoryEffects]> {
  let summary = "run one of several computations";
  let description = [{
    XLA's conditional: with a pred `index`, branch 0 runs when true and
    branch 1 when false (XLA's true_computation/false_computation); with an
    s32 index, branch `index` runs (out-of-range runs the last). Branch i
    receives `branch_operands[i]` as its one argument.
  }];
  let arguments = (ins 0DTensorOf<[I1, I32]>:$index,
                       Variadic<Hlo_TensorOrTuple>:$branch_operands);
  let results = (outs Variadic<Hlo_TensorOrTuple>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = [{
    $index `(` $branch_operands `)` attr-dict `:` functional-type(operands, results)
    $branches
  }];
  let hasRegionVerifier = 1;
}

def Hlo_FusionOp : Hlo_Op<"fusion", [IsolatedFromAbove,
    RecursiveMemoryEffects]> {
  let summary = "a fused kernel";
  let description = [{
    A region computed as one kernel: its block arguments are the operands,
    its `hlo.return` the results. `kind` is XLA's fusion kind (loop: an
    elementwise nest; input: ends in a reduction; output: a dot/convolution
    with its epilogue).
  }];
  let arguments = (ins Variadic<Hlo_TensorOrTuple>:$operands,
                       Hlo_FusionKindAttr:$kind);
  let results = (outs Variadic<Hlo_TensorOrTuple>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) `(` $operands `)` attr-dict `:` functional-type(operands, results) $body
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Multi-device: ids and collectives (docs/spmd.md)
//===----------------------------------------------------------------------===//

// `replica_groups` is a 2-D i64 tensor, one row per group, rows padded with
// -1 when groups differ in size; an empty (0x0) tensor is XLA's `{}`: one
// group of every replica (or partition). `channel_id` and
// `use_global_device_ids` choose how ids are read as XLA's
// CollectiveOpGroupMode does (docs/spmd.md): no channel_id: replica ids;
// channel_id alone: partition ids for all_to_all, collective_permute and
// collective_broadcast, replica ids spanning every partition for
// all_reduce, all_gather and reduce_scatter; use_global_device_ids: global
// device ids (replica * num_partitions + partition).

def Hlo_ReplicaIdOp : Hlo_Op<"replica_id", [Pure]> {
  let summary = "the replica this program runs as";
  let description = [{
    XLA's replica-id: a u32 scalar in [0, replica_count).

    ```mlir
    %0 = hlo.replica_id : tensor<ui32>
    ```
  }];
  let results = (outs 0DTensorOf<[UI32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Hlo_PartitionIdOp : Hlo_Op<"partition_id", [Pure]> {
  let summary = "the partition this program runs as";
  let description = [{
    XLA's partition-id: a u32 scalar in [0, num_partitions).

    ```mlir
    %0 = hlo.partition_id : tensor<ui32>
    ```
  }];
  let results = (outs 0DTensorOf<[UI32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Hlo_AllReduceOp : Hlo_Op<"all_reduce", [RecursiveMemoryEffects]> {
  let summary = "reduce each operand across the devices of a group";
  let description = [{
    XLA's all-reduce: every device of a group receives, for each operand,
    the elementwise reduction of that operand over the group with
    `computation` (rank-0 (acc, x) -> acc). Results have the operands'
    types.

    ```mlir
    %0 = hlo.all_reduce(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
         : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$computation);
  let assemblyFormat = [{
    `(` $operands `)` attr-dict `:` functional-type(operands, results)
    $computation
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Hlo_AllGatherOp : Hlo_Op<"all_gather", []> {
  let summary = "concatenate the operands of a group's devices";
  let description = [{
    XLA's all-gather: every device of a group receives the concatenation,
    along `all_gather_dim`, of the group members' operands in group order.

    ```mlir
    %0 = hlo.all_gather %x, dim = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
         : (tensor<2x4xf32>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $all_gather_dim attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Hlo_ReduceScatterOp : Hlo_Op<"reduce_scatter", [RecursiveMemoryEffects]> {
  let summary = "reduce across a group, each device keeping one slice";
  let description = [{
    XLA's reduce-scatter: the all-reduce of the operand over the group, cut
    into group-size equal blocks along `scatter_dimension`; the device at
    position i of its group receives block i.
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Hlo_Tensor:$result);
  let regions = (region SizedRegion<1>:$computation);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $scatter_dimension attr-dict
    `:` functional-type(operands, results) $computation
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Hlo_AllToAllOp : Hlo_Op<"all_to_all", [SameOperandsAndResultType]> {
  let summary = "exchange blocks between the devices of a group";
  let description = [{
    XLA's (array) all-to-all with `dimensions={d}`: each device cuts its
    operand into group-size blocks along `dimension`; the device at
    position i of its group receives block i of every member, concatenated
    along `dimension` in group order.
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Hlo_CollectivePermuteOp : Hlo_Op<"collective_permute",
    [SameOperandsAndResultType]> {
  let summary = "send the operand from source to target devices";
  let description = [{
    XLA's collective-permute: `source_target_pairs` is an N x 2 tensor of
    (source, target) ids (replica ids, or partition ids with a channel_id);
    a device receives its source's operand, and zeros when no pair targets
    it. Sources are distinct and targets are distinct.
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<I64Attr>:$channel_id);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_CollectiveBroadcastOp : Hlo_Op<"collective_broadcast",
    [SameOperandsAndResultType]> {
  let summary = "send the first group member's operand to the group";
  let description = [{
    XLA's collective-broadcast: every device of a group receives the
    operand of the group's first member.
  }];
  let arguments = (ins Hlo_Tensor:$operand,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<I64Attr>:$channel_id);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Hlo_ReturnOp : Hlo_Op<"return", [Pure, Terminator,
    ParentOneOf<["ReduceOp", "MapOp", "ReduceWindowOp", "SelectAndScatterOp",
                 "ScatterOp", "SortOp", "WhileOp", "ConditionalOp",
                 "FusionOp", "AllReduceOp", "ReduceScatterOp"]>]> {
  let summary = "the result of a region";
  let arguments = (ins Variadic<Hlo_TensorOrTuple>:$results);
  let assemblyFormat = "($results^ `:` type($results))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

#endif // TPUC_DIALECTS_HLO_HLOOPS_TD
