//===- Passes.td - tpuc's passes ---------------------------*- tablegen -*-===//

#ifndef TPUC_PASSES_PASSES_TD
#define TPUC_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def AssignLayouts : Pass<"tpuc-assign-layouts", "mlir::ModuleOp"> {
  let summary = "Choose padding-aware minor_to_major layouts for intermediates";
  let description = [{
    On TPU every array is stored in (8,128) tiles of its two minor-most
    dimensions, so the choice of minor_to_major decides how much padding an
    array carries: `s32[29360128,10]{1,0}` pads the 10 to 128 (12.8x), while
    `{0,1}` puts the long dimension in the lanes and pads 10 to 16 (1.6x).

    The pass groups the values that must share one layout (operands and
    results of elementwise ops, select, clamp, slice, pad, reverse,
    concatenate and dynamic_update_slice, which XLA's TPU emitters require to
    agree), and picks for each group the layout that minimises the padded
    bytes of its members plus the cost of the copies needed where the group
    meets a value or a use whose layout is fixed: entry arguments and
    results (kept unless `change-entry-layouts`), dot_general and
    convolution operands and results (the MXU's row-major tiles), and the
    operands of calls, loops, conditionals, fusions, sorts, gathers and
    scatters. A copy costs the bytes it writes plus the bytes it reads.
    Broadcasts, reductions, transposes and reshapes read any layout. A group
    keeps its layouts unless the change pays; the chosen minor_to_major is
    recorded as `hlo.layout` (tiles are left to the target's defaults) and
    an `hlo.copy` is inserted at each boundary that needs one.

    Example (tpu-v3):

    ```mlir
    // Before: 14 GiB padded.
    %0 = hlo.iota dim = 1 : tensor<29360128x10xi32>
    %1 = hlo.reduce(%0) init(%zero) dims = [0, 1] ...
    // After: 1.75 GiB padded.
    %0 = hlo.iota dim = 1 {hlo.layout = "{0,1}"} : tensor<29360128x10xi32>
    %1 = hlo.reduce(%0) init(%zero) dims = [0, 1] ...
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset whose tiling rules size the candidates">,
    Option<"changeEntryLayouts", "change-entry-layouts", "bool", "false",
           "Allow changing the layouts of the entry function's arguments "
           "and results">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def Fuse : Pass<"tpuc-fuse", "mlir::ModuleOp"> {
  let summary = "Fuse ops into hlo.fusion kernels (loop, input, output, "
                "multi-output)";
  let description = [{
    Cost-based fusion in the spirit of XLA's instruction fusion. Each
    `hlo.fusion` is one kernel: it reads its operands from HBM once and
    writes its results once, and everything in between stays in VMEM.

    - loop: elementwise ops, converts, broadcasts, iota, slices, pads,
      concatenates, and reshapes/transposes that keep the (8,128) tiles;
    - input: those producers fused into a `reduce` (`reduce_sum(x + y*z)`);
    - output: a `dot_general`/`convolution` with its epilogue (bias add,
      activation, scale, convert) and converts/transposes on its operands;
    - multi-output: a producer whose result other kernels also need becomes
      an extra output, and siblings reading the same large value merge.

    Expensive ops (contractions, reductions, transcendentals on more than
    one vreg) are never recomputed; cheap producers that read no more bytes
    than they write (broadcasts, iota, small constants) are recomputed in
    every kernel that reads them. A fusion's VMEM estimate (blocks of 64Ki
    elements per value, double-buffered at the boundary) stays within the
    budget. docs/fusion.md gives the rules and the cost model.

    ```mlir
    // Before: three kernels, 3 x 4 MiB written and read back.
    %e = hlo.exponential %x : tensor<1024x1024xf32>
    %m = hlo.multiply %e, %y : tensor<1024x1024xf32>
    %r = hlo.reduce(%m) init(%zero) dims = [1] ... { hlo.add }
    // After: one input fusion.
    %r = hlo.fusion input(%x, %y) : (...) -> tensor<1024xf32> {
    ^bb0(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>):
      %zero = hlo.constant dense<0.0> : tensor<f32>
      %e = hlo.exponential %a : tensor<1024x1024xf32>
      %m = hlo.multiply %e, %b : tensor<1024x1024xf32>
      %r = hlo.reduce(%m) init(%zero) dims = [1] ...
      hlo.return %r : tensor<1024xf32>
    }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset whose VMEM size is the default budget">,
    Option<"vmemBudget", "vmem-budget", "int64_t", "0",
           "VMEM bytes one fusion may use (0: the target's VMEM)">,
    Option<"multiOutput", "multi-output", "bool", "true",
           "Allow multi-output (producer/consumer and sibling) fusion">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def MixedPrecision : Pass<"tpuc-mixed-precision", "mlir::ModuleOp"> {
  let summary = "Apply a Keras-style mixed precision policy (mixed_bfloat16)";
  let description = [{
    Keras' `mixed_bfloat16`: compute in bf16, keep variables in f32.

    - `dot_general` and `convolution` with f32 operands read bf16 operands
      and accumulate into an f32 result (XLA's preferred_element_type);
    - elementwise and data-movement ops on f32 activations compute and store
      bf16 (a convert to bf16 on each f32 operand, one back to f32 after);
    - max and min pooling (a one-array `reduce_window` whose body is
      `maximum`/`minimum` of its arguments; exact in bf16) reads, combines
      and stores bf16;
    - other reductions, the function's signature, and variables stay f32:
      entry parameters are cast at each use, and the elementwise ops that
      compute a value returned through `hlo.input_output_alias` (an
      optimizer update) keep f32.

    Convert pairs that round-trip exactly (bf16 -> f32 -> bf16) fold
    away, so a chain of bf16 ops has converts only at its ends.

    ```mlir
    // Before:
    %d = hlo.dot_general %x, %w, ... : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %r = hlo.maximum %d, %zero : tensor<8x4xf32>
    // After:
    %xb = hlo.convert %x : (tensor<8x16xf32>) -> tensor<8x16xbf16>
    %wb = hlo.convert %w : (tensor<16x4xf32>) -> tensor<16x4xbf16>
    %d = hlo.dot_general %xb, %wb, ... : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
    %db = hlo.convert %d : (tensor<8x4xf32>) -> tensor<8x4xbf16>
    %r = hlo.maximum %db, %zerob : tensor<8x4xbf16>
    %rf = hlo.convert %r : (tensor<8x4xbf16>) -> tensor<8x4xf32>
    ```
  }];
  let options = [
    Option<"policy", "policy", "std::string", "\"mixed_bfloat16\"",
           "Precision policy: mixed_bfloat16 or float32 (no change)">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def SetTarget : Pass<"tpuc-set-target", "mlir::ModuleOp"> {
  let summary = "Record the module's target once, for every later pass";
  let description = [{
    Sets the module attribute `tpuc.target = {name = "<target>"}` that the
    target-dependent passes read (passes/ModuleTarget.h) instead of their own
    `target=` option. A `tpuc.target` naming the same preset is kept, with the
    overrides `tpuc compile` recorded in it (`--vmem`, `--hbm-*`); one naming
    another preset is replaced. The first pass of tpuc compile's pipeline.
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset (tpuc targets)">,
  ];
}

def FloatNormalization : Pass<"tpuc-float-normalization", "mlir::ModuleOp"> {
  let summary = "Compute in f32 the bf16 ops the target cannot do in bf16";
  let description = [{
    As XLA's FloatNormalization: an op on bf16 that the target's table
    (`f32OnlyOps` in runtime/target, e.g. transcendentals, divide and
    rsqrt on tpu-v2/v3) lists is computed in f32 between converts. The
    result is rounded back to bf16, so the program computes the same
    values. Exact round trips (bf16 -> f32 -> bf16) that this creates fold.

    ```mlir
    // Before (tpu-v3):
    %e = hlo.exponential %x : tensor<8xbf16>
    // After:
    %0 = hlo.convert %x : (tensor<8xbf16>) -> tensor<8xf32>
    %1 = hlo.exponential %0 : tensor<8xf32>
    %e = hlo.convert %1 : (tensor<8xf32>) -> tensor<8xbf16>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset whose table lists the f32-only ops">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def DecomposeDots : Pass<"tpuc-decompose-dots"> {
  let summary = "Rewrite dot_general into the MXU kernel's canonical form";
  let description = [{
    XLA's DotDecomposer: transposes and reshapes the operands of every
    dot_general (also inside fusion bodies) so that it reads
    `[B,M,K] x [B,K,N] -> [B,M,N]` (or the 2-D `[M,K] x [K,N]` without
    batch dims): the lhs is transposed to (batch, free, contracting) and the
    rhs to (batch, contracting, free) where the dims are out of that order,
    and each group is collapsed into one dim by a reshape (several batch
    dims into B, free dims into M or N, contracting dims into K; a missing
    group is a dim of 1, so rank-1 operands become one-row or one-column
    matrices). The result, (batch, lhs free, rhs free) in both forms, is
    reshaped back. The precision_config stays on the dot. Dots already in
    the form are left alone. Exceptions: an f32 or bf16 operand stored
    row-major in the other order, one dim per group (the rhs as `[N,K]` /
    `[B,N,K]` with N a multiple of 128, the input gradient dy . W^T; the
    lhs as `[K,M]` / `[B,K,M]` with K and M multiples of 128, the weight
    gradient x^T . dy), stays so: the MXU kernel transposes its 128x128
    blocks on the XLU while staging them.

    ```mlir
    // Before: a weight gradient x^T . dy whose M (200) is not whole blocks.
    %g = hlo.dot_general %x, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]>
         : (tensor<16x200xf32>, tensor<16x128xf32>) -> tensor<200x128xf32>
    // After:
    %xt = hlo.transpose %x, dims = [1, 0] : (tensor<16x200xf32>) -> tensor<200x16xf32>
    %g = hlo.dot_general %xt, %dy, dims = <lhs_contracting = [1], rhs_contracting = [0]>
         : (tensor<200x16xf32>, tensor<16x128xf32>) -> tensor<200x128xf32>
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def StrengthReduceDots : Pass<"tpuc-strength-reduce-dots", "mlir::ModuleOp"> {
  let summary = "Rewrite small and integer dot_generals as multiply + reduce";
  let description = [{
    XLA's dot strength reduction (AlgebraicSimplifier): a dot_general whose
    MXU tiles would be mostly padding, and every integer dot (the MXU
    multiplies bf16 only), becomes `broadcast_in_dim` of each operand,
    `multiply` and `reduce(add)` over the contracting dims, which the fusion
    planner makes one input fusion. Operands are transposed and reshaped
    into their (batch, free, contracting) groups first (as
    `tpuc-decompose-dots` does) and converted to the accumulation type: f32
    for f32/bf16/f16 results (the result is converted once at the end),
    the result's own integer type for integers (wrapping, as the reference
    interpreter's 64-bit sum truncated). pred, 64-bit and f64 dots stay.

    Cost rule (the module's target: D x D MXUs, HBM bytes per cycle, DMA
    latency), with B, M, K, N the batch, lhs free, contracting and rhs free
    sizes: the MXU kernel takes about `B * ceil(K/D) * ceil(N/D) *
    (ceil(M/8)*8 + D)` cycles (a weight load and a pass of the padded rows
    per weight tile); the rewrite, per vreg of the product (`min(B*M*
    ceil(K/8)*ceil(N/128), M*N*ceil(K/8)*ceil(B/128))`), a multiply, an add
    and 4 vregs of HBM traffic (today's kernels store the two broadcasts),
    plus three kernels' DMA latencies (`6 * latency`). A float dot is
    rewritten when the second is smaller, unless it is a tiny batched dot
    that the Dot kernels compute on the VPU (`isVpuBatchedDot`,
    compiler/fusion/DotSizes.h: M, K, N <= 16, such as dlrm's interaction
    `[3616,6,8] x [3616,8,6]`); a bf16 convert of such a dot's f32 result is
    folded into the dot (the kernel rounds its f32 sums once). The product is laid out batch-major `[B,M,K,N]` (N on the
    lanes) or, when that takes fewer vregs, batch-minor `[M,N,K,B]` (B on
    the lanes, the result transposed back): either way K is reduced with
    the minor dim kept.

    ```mlir
    // Before: 20x20 outputs per batch.
    %d = hlo.dot_general %x, %y, dims = <lhs_batch = [0], rhs_batch = [0],
           lhs_contracting = [2], rhs_contracting = [1]>
         : (tensor<3616x20x8xf32>, tensor<3616x8x20xf32>) -> tensor<3616x20x20xf32>
    // After (batch-minor):
    %xt = hlo.transpose %x, dims = [1, 2, 0] : (...) -> tensor<20x8x3616xf32>
    %yt = hlo.transpose %y, dims = [2, 1, 0] : (...) -> tensor<20x8x3616xf32>
    %a = hlo.broadcast_in_dim %xt, dims = [0, 2, 3] : (...) -> tensor<20x20x8x3616xf32>
    %b = hlo.broadcast_in_dim %yt, dims = [1, 2, 3] : (...) -> tensor<20x20x8x3616xf32>
    %p = hlo.multiply %a, %b : tensor<20x20x8x3616xf32>
    %s = hlo.reduce(%p) init(%zero) dims = [2] ... -> tensor<20x20x3616xf32>
    %d = hlo.transpose %s, dims = [2, 0, 1] : (...) -> tensor<3616x20x20xf32>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset for the cost rule (a module's tpuc.target wins)">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandMath : Pass<"tpuc-expand-math", "mlir::ModuleOp"> {
  let summary = "Expand transcendental functions and map into VPU arithmetic";
  let description = [{
    The VPU has exp, log, tanh, sqrt and rsqrt but no other math function.
    This pass rewrites sine, cosine, tan, atan, atan2, asin, acos, sinh,
    cosh, asinh, acosh, atanh, erf, cbrt, exponential_minus_one,
    log_plus_one and power (f32 and bf16; bf16 computes in f32 and rounds
    once, as XLA does; power also on s32, by squaring; constant exponents
    0, 1, 2, -1 and 0.5 without a log) into add, multiply,
    divide, exp, log, sqrt, compare, select and f32 <-> s32 converts, with
    the range reductions and minimax polynomials of Cephes, fdlibm and ARM
    optimized-routines (docs/math-functions.md: the algorithms and their
    measured error in ulp against libm). Special values (+-0, +-inf, NaN,
    domain edges) follow libm, which the interpreter runs. A `map` has its
    scalar computation inlined on whole arrays.

    Each expansion is one loop kernel: an op outside a fusion is first put
    into an `hlo.fusion` (kind loop) of its own; an op inside a fusion is
    expanded in place (a sine and a cosine of one value there share their
    range reduction). Ops in reduce, sort or scatter computations and other
    element types are left as they are. Compile-only: `tpuc interpret` runs
    the original ops.

    ```mlir
    // Before:
    %0 = hlo.sine %x : tensor<8x128xf32>
    // After (abridged): k = round(x * 2/pi), r = x - k * pi/2 in four
    // parts, the quadrant's polynomial, NaN for +-inf.
    %0 = hlo.fusion loop(%x) : (tensor<8x128xf32>) -> tensor<8x128xf32> {
    ^bb0(%a: tensor<8x128xf32>):
      %t = hlo.multiply %a, %two_over_pi : tensor<8x128xf32>
      ...
      %k = hlo.convert %h : (tensor<8x128xf32>) -> tensor<8x128xi32>
      ...
      %r = hlo.select %inf, %nan, %v : ...
      hlo.return %r : tensor<8x128xf32>
    }
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def NormalizeLayouts : Pass<"tpuc-normalize-layouts", "mlir::ModuleOp"> {
  let summary = "Fusions read entry arguments of permuted layouts in place";
  let description = [{
    An entry argument whose layout permutes its dimensions (`hlo.layout =
    "{0,1}"` on `f32[N,10]`: the long dimension in the lanes) is, byte for
    byte, its physical array `f32[10,N]` in the row-major layout. When every
    user of such an argument is a fusion that can compute in the physical
    order (its operands of that rank are such arguments, its results have
    rank <= 1, its body holds elementwise ops, broadcasts of rank <= 1
    arrays, iotas, splat constants and reductions to rank <= 1), the pass
    inserts one `hlo.transpose` to the physical shape (a layout bitcast: the
    memory plan shares its buffer with the argument, the code generator
    reads the argument in place) and rewrites those fusions' bodies into the
    physical order (iota, broadcast and reduce dimensions remapped, types
    permuted; the fusion gets the unit attribute `tpuc.physical_order`).
    Otherwise the argument is left as it is (the executable relays it out).

    ```mlir
    // Before: log-sum-exp of logits stored {0,1}.
    %m = hlo.fusion input(%x) : (tensor<1000x10xf32>) -> tensor<1000xf32> {
      ... hlo.reduce(%a) init(%z) dims = [1] : (tensor<1000x10xf32>, ...) ...
    }
    // After:
    %p = hlo.transpose %x, dims = [1, 0] : (tensor<1000x10xf32>) -> tensor<10x1000xf32>
    %m = hlo.fusion input(%p) : (tensor<10x1000xf32>) -> tensor<1000xf32> {
      ... hlo.reduce(%a) init(%z) dims = [0] : (tensor<10x1000xf32>, ...) ...
    } {tpuc.physical_order}
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def DecomposeReductions : Pass<"tpuc-decompose-reductions"> {
  let summary = "Rewrite reduce into the VPU kernels' canonical forms";
  let description = [{
    Rewrites every reduce (also inside fusion bodies) into a form the VPU
    kernels read straight from the (8,128)-tiled array: the minor dim of a
    rank >= 2 array (lanes), a run of dims ending at the second-minor one
    (sublanes, repeated per index of the dims before the run), or all dims
    (to a scalar). Other reduces get one transpose when reduced and kept
    dims interleave (kept dims first) and one reshape collapsing the
    trailing reduced dims (or the trailing kept dims); the result is
    reshaped back.

    ```mlir
    // Before: reduce dim 0 of [A,B,C] (the kept dims 1, 2 are both minor).
    %r = hlo.reduce(%x) init(%z) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32>
    // After: the leading-dim kernel on [4, 48].
    %0 = hlo.reshape %x : (tensor<4x6x8xf32>) -> tensor<4x48xf32>
    %1 = hlo.reduce(%0) init(%z) dims = [0] : (tensor<4x48xf32>, tensor<f32>) -> tensor<48xf32>
    %r = hlo.reshape %1 : (tensor<48xf32>) -> tensor<6x8xf32>
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def SplitConvolutionPrecision : Pass<"tpuc-split-convolution-precision"> {
  let summary = "Run HIGH/HIGHEST f32 convolutions as 3 or 6 bf16 passes";
  let description = [{
    The MXU multiplies bf16. An f32 convolution whose precision (the
    higher entry of its precision_config, or the `dot-precision` option,
    which overrides it) is HIGH becomes XLA's bf16x3: each operand is split
    into bf16-exact f32 parts `x0 = bf16(x)`, `x1 = bf16(x - x0)` and the
    result is `(conv(a1,w0) + conv(a0,w1)) + conv(a0,w0)`; HIGHEST is
    bf16x6 with a third part `x2 = bf16(x - x0 - x1)` and the six products
    `a2w0, a1w1, a0w2, a1w0, a0w1, a0w0`, summed smallest first. Each
    convolution is DEFAULT precision (one bf16 pass on the MXU kernel, exact
    on these parts). dot_general splits its operands inside the MXU kernel
    instead (tpuc-convert-hlo-to-tpu).

    Then a DEFAULT MXU convolution (not depthwise, which computes in f32)
    reads the f32 value of each operand that is a `convert` from f32 to
    bf16 (mixed_bfloat16's casts; often only the kernel, the input being a
    bf16 activation, which leaves a bf16 x f32 convolution): the kernel
    rounds it the same way, and no converted copy goes through HBM. A
    dot_general likewise reads the f32 value of each operand that is such a
    convert, on its own (a bf16 x f32 dot; not under a high or highest
    `dot-precision`, which would split the f32 operand).

    ```mlir
    // --dot-precision=high
    %c = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> : ...
    // becomes
    %x0 = hlo.convert(hlo.convert %x to bf16) to f32, %x1 = likewise of %x - %x0,
    %w0, %w1 the same for %w
    %c = hlo.add (hlo.add conv(%x1,%w0), conv(%x0,%w1)), conv(%x0,%w0)
    ```
  }];
  let options = [
    Option<"dotPrecision", "dot-precision", "::tpuc::DotPrecision",
           "::tpuc::DotPrecision::PerOp",
           "The MXU passes of every f32 dot_general and convolution, "
           "overriding precision_config (per-op: follow each op)",
           "::tpuc::dotPrecisionValues()">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def CanonicalizeConvolutions : Pass<"tpuc-canonicalize-convolutions"> {
  let summary = "Rewrite every convolution into the forms the kernels take";
  let description = [{
    The convolution kernels (passes/HloToTpu/Convolution.cpp) take 2-D
    convolutions without lhs_dilation, negative padding or batch groups,
    in the MXU kernel's labels (features minor, spatial dim 1
    second-minor: `b01f_01io->b01f`), the weight gradient's
    `f01b_i01o->01bf`, or depthwise `bf01_oi01->bf01` and
    `b01f_01io->b01f` (kernel `[kh, kw, 1, C]`). Every other
    float convolution (also inside fusion bodies) is rewritten, one step
    at a time, until it is one of those:

    - lhs_dilation (the input gradient of a strided convolution) and
      negative padding: an `hlo.pad` of the input with interior padding
      `lhs_dilation - 1` and the negative edge padding; the positive
      padding stays on the convolution (the kernel pads in VMEM);
    - batch_group_count G (the weight gradient of a grouped
      convolution): G convolutions of input batch slices and kernel
      output-feature slices, concatenated along the output features;
    - depthwise convolutions (G = input features, one output feature per
      group) in other labels: transposes into depthwise NHWC;
    - feature_group_count G (grouped, not depthwise, convolutions): one
      convolution with a block-diagonal kernel
      (broadcast, masked by `iota / group size` equality) when that needs
      no more 128x128 MXU weight tiles than the groups' kernels together,
      or G > 16; else G convolutions of feature slices, concatenated
      (XLA's ConvolutionGroupConverter);
    - 1-D (and 0-D) convolutions: a unit spatial dim appended;
    - other dim_labels: transposes of the operands into `b01f_01io` and
      of the result back (only those not already in the kernel's form);
      a convolution whose window is larger than its output (a weight
      gradient) into `f01b_i01o->01bf` instead;
    - 3-D and higher: after the transposes, the sum over the kernel's
      first spatial dim of convolutions with that dim folded into the
      batch (strided slices of the input; bf16 results accumulate in f32
      and round once); more than 256 such convolutions is an error.

    rhs_dilation, strides, positive padding and window_reversal are
    taken by the kernels and stay. Convolutions that lower as they are
    are left alone.

    ```mlir
    // Before: the input gradient of a 3x3 stride-2 convolution.
    %0 = hlo.convolution %dy, %w, dim_labels = <"b01f_01oi->b01f">
         {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 2, 1, 2>}
         : (tensor<1x4x4x8xf32>, tensor<3x3x3x8xf32>) -> tensor<1x8x8x3xf32>
    // After:
    %p = hlo.pad %dy, %zero, low = [0, 0, 0, 0], high = [0, 0, 0, 0],
         interior = [0, 1, 1, 0] : (tensor<1x4x4x8xf32>, tensor<f32>) -> tensor<1x7x7x8xf32>
    %t = hlo.transpose %w, dims = [0, 1, 3, 2] : (tensor<3x3x3x8xf32>) -> tensor<3x3x8x3xf32>
    %0 = hlo.convolution %p, %t, dim_labels = <"b01f_01io->b01f">
         {padding = array<i64: 1, 2, 1, 2>} : ... -> tensor<1x8x8x3xf32>
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandCholesky : Pass<"tpuc-expand-cholesky"> {
  let summary = "Expand cholesky into XLA's blocked factorization";
  let description = [{
    XLA's CholeskyExpander (block size 128, HIGHEST-precision dots): an
    upper factorization is the transposed lower factorization of the
    transposed operand; the lower one runs, per block column `i` of size
    `k`,

    - `panel = a[i:, i:i+k] - l[i:, :i] l[i:i+k, :i]^T`;
    - the diagonal block factored by the unblocked Cholesky-Banachiewicz
      loop: an `hlo.while` over its columns `j`, each trip computing
      `s = a - l l^T`, `d = sqrt(s[j, j])` and adding `s / d` masked to
      column `j` on and below the diagonal (one column of 1x1 blocks: a
      sqrt);
    - the rows below it by `hlo.triangular_solve` (right side, lower,
      transposed; expanded by tpuc-expand-triangular-solve).

    A NaN pivot (a matrix that is not positive definite) makes the whole
    matrix of that batch element NaN, as XLA's expansion does. The other
    triangle of the result is zero.

    ```mlir
    // Before:
    %l = hlo.cholesky %a {lower = true} : tensor<4x7x7xf32>
    // After: an hlo.while of 7 trips (a, l, error) -> ..., then
    //        hlo.select(error, NaN, l).
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandTriangularSolve : Pass<"tpuc-expand-triangular-solve"> {
  let summary = "Expand triangular_solve into XLA's blocked substitution";
  let description = [{
    XLA's TriangularSolveExpander (block size 128, HIGHEST-precision dots):

    - a 1x1 `a`: `b / a` (or `b` with `unit_diagonal`);
    - more than 8 matrices of size below 32: `SolveDirectly`, the
      substitution unrolled row by row (column by column for the right
      side), each row `(b[j] - a[j, solved] b[solved]) / a[j, j]`;
    - otherwise `SolveByInvertingDiagonalBlocks`: `a` masked to its
      triangle (with `unit_diagonal`, its strict triangle plus the
      identity), its 128x128 diagonal blocks (the last padded with the
      identity) scaled to unit diagonal and inverted all at once by an
      `hlo.while` of one row per trip, then the solution assembled block
      row by block row: `inv(a[j, j]) (b[j] - a[j, solved] x[solved])`.

    `transpose_a` (XLA's TRANSPOSE and, for real types, ADJOINT) and
    `left_side` choose which side and which direction, as in XLA.

    ```mlir
    // Before:
    %x = hlo.triangular_solve %a, %b {left_side = true, lower = true}
         : (tensor<130x130xf32>, tensor<130x4xf32>) -> tensor<130x4xf32>
    // After: two diagonal blocks inverted by an hlo.while, then two
    //        block rows of dot_generals and a concatenate.
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandRng : Pass<"tpuc-expand-rng", "::mlir::ModuleOp"> {
  let summary = "Expand rng into Philox bits and the distribution, the "
                "generator state into constants";
  let description = [{
    XLA's RngExpander (xla/hlo/transforms/expanders/rng_expander.cc): each
    hlo.rng draws Philox-4x32 bits (an hlo.rng_bit_generator, PHILOX) keyed
    by the op's seed (`RngOp::getOpSeed`) at the counter an implicit
    rng_get_and_update_state returns, then builds prng.cc's distribution
    in hlo ops: UNIFORM floats from the 23 high bits scaled to [a, b),
    UNIFORM integers as a + d/2 + (d - d/2) with d = bits % (b - a), NORMAL
    floats by the Box-Muller transform; bf16 is drawn in f32 and converted.
    The program's generator state starts at XLA's initial value 0x7012395
    in every execution, so walking the entry in program order gives each
    rng_get_and_update_state and each rng's counter as a constant at the
    top level; from the first loop, branch or call that draws, the state is
    a u64[2] value threaded through them (a loop state element, a branch
    result, a callee argument and result) and advanced with u64 adds. A
    draw in a loop's condition is an error.
    Runs first in the front end, before the inliner (docs/random.md).

    ```mlir
    // Before:
    %r = hlo.rng %a, %b, distribution = UNIFORM
        : (tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
    // After:
    %state = hlo.constant dense<[0, 117515157, 0]> : tensor<3xui64>
    %s, %bits = hlo.rng_bit_generator %state, algorithm = PHILOX ...
    // bits >> 9 as f32, times 2^-23, times (b - a), plus a
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandRngBitGenerator : Pass<"tpuc-expand-rng-bit-generator"> {
  let summary = "Expand rng_bit_generator into Threefry/Philox rounds on "
                "32-bit words";
  let description = [{
    XLA's RngBitGeneratorExpander (xla/hlo/builder/lib/prng.cc): THREE_FRY
    is Threefry-2x32 (20 rounds) on counter + iota, PHILOX and DEFAULT are
    Philox-4x32 (10 rounds) on the 128-bit counter + iota, with the same
    element order and state update as the interpreter (docs/random.md).
    It runs after fusion: each op is a kernel of its own (fused, the
    rounds need more vector registers than the serializer has, and it does
    not spill). The words are s32 arrays: unsigned 32x32 -> 64 products are the signed
    `mulhi` plus corrections, unsigned compares flip the sign bits, 64-bit
    counter adds carry by compare. The u64 state is read and written
    through `hlo.bitcast_convert` to u32 pairs (which tpuc-expand-x64
    removes at the function boundary); 64-bit bits are u32 pairs bitcast to
    64 bits. Results narrower than 32 bits are an error.

    ```mlir
    // Before:
    %s, %bits = hlo.rng_bit_generator %state, algorithm = PHILOX
        : (tensor<3xui64>) -> (tensor<3xui64>, tensor<8x128xui32>)
    // After: bitcast_convert of the state to s32 words, 10 rounds of
    //        multiply/mulhi/xor on [256] s32 counters, the words
    //        interleaved and reshaped to 8x128, the new counter bitcast back.
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandIntegerContractions : Pass<"tpuc-expand-integer-contractions", "::mlir::ModuleOp"> {
  let summary = "Compute integer dot_generals and convolutions exactly on the MXU";
  let description = [{
    The MXU multiplies bf16 and accumulates in f32; both are exact on
    bytes. An integer dot_general or convolution with 8, 16 or 32-bit
    operands and an 8, 16 or 32-bit integer result is rewritten as: each operand split into byte pieces (the low ones zero-extended, the
    top one sign-extended for signed types: bounds 255 and 128), converted
    to bf16; for every pair of pieces (i, j) with 8(i+j) below the result's
    width, the op on those pieces with an f32 result, chunked along the
    contraction (a dot's largest contracting dimension, an ungrouped
    convolution's input feature) so that no chunk is deeper than
    2^24 / (bound_i * bound_j): every f32 sum stays exact; each chunk
    converted to s32 and added, each term shifted left by 8(i+j) and added
    in s32 (wrapping: XLA's integer accumulation), then converted to the
    result type (a u32's bits; narrow integers wrap). With an f32/bf16/f16
    result the op is a float contraction (XLA's evaluator): 8-bit operands
    are converted to bf16, wider ones to f32, and the op stays. An
    s8 x s8 dot is one contraction per 1024-deep chunk, s32 x s32 ten per
    258-deep chunk. A convolution whose window (times its grouped features)
    alone exceeds the exact depth is an error naming the op. 64-bit integers
    stay for tpuc-expand-x64, pred for the dot's own errors. A dot_general
    that tpuc-strength-reduce-dots' cost rule (the MXU contractions counted
    for every piece pair and chunk) computes more cheaply on the VPU stays
    as it is (tpuc-expand-narrow-ints widens it to s32, and
    tpuc-strength-reduce-dots rewrites it). See docs/integers.md.

    ```mlir
    // Before:
    %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
         : (tensor<4x64xi8>, tensor<64x8xi8>) -> tensor<4x8xi32>
    // After:
    %a32 = hlo.convert %a : (tensor<4x64xi8>) -> tensor<4x64xi32>
    %ab = hlo.convert %a32 : (tensor<4x64xi32>) -> tensor<4x64xbf16>
    ... (%bb alike)
    %p = hlo.dot_general %ab, %bb, dims = <lhs_contracting = [1], rhs_contracting = [0]>
         : (tensor<4x64xbf16>, tensor<64x8xbf16>) -> tensor<4x8xf32>
    %0 = hlo.convert %p : (tensor<4x8xf32>) -> tensor<4x8xi32>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset, when the module does not name one (tpuc.target)">
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandNarrowInts : Pass<"tpuc-expand-narrow-ints", "::mlir::ModuleOp"> {
  let summary = "Compute s8/u8/s16/u16 in s32 with XLA's wrap-around";
  let description = [{
    The VPU computes on s32. Every 8- or 16-bit integer value inside a
    function becomes an s32 array holding the same integer (sign-extended
    for s8/s16, zero-extended for u8/u16); an op whose result can leave
    the narrow range (add, subtract, multiply, negate, abs, divide,
    remainder, shifts, not, power, sign, iota, and the results of reduce,
    reduce_window and scatter, whose reducers stay bare ops) is followed by
    a wrap to it: shifted left and back arithmetically (signed) or masked
    (unsigned). A logical shift, popcnt and clz read a signed value's bits
    zero-extended, an arithmetic shift an unsigned one's sign-extended;
    converts from floats saturate to the narrow range, from integers wrap.
    Data movement, compares, selects, min/max and bitwise and/or/xor keep
    the range. Entry parameters and results keep their types (converted
    where they enter and leave); ops without an s32 form (bitcast_convert,
    dot, convolution, mulhi, ...) are an error naming the op.
    See docs/integers.md.

    ```mlir
    // Before:
    %0 = hlo.add %a, %b : tensor<4xi8>
    // After:
    %0 = hlo.add %a, %b : tensor<4xi32>
    %1 = hlo.shift_left %0, %c24 : tensor<4xi32>
    %2 = hlo.shift_right_arithmetic %1, %c24 : tensor<4xi32>
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandNarrowFloats : Pass<"tpuc-expand-narrow-floats", "::mlir::ModuleOp"> {
  let summary = "Compute f16 and f8 in f32, rounded to the type after each op";
  let description = [{
    The VPU and the MXU compute on f32. Every f16 or f8 value (f8e4m3fn,
    f8e5m2, f8e4m3, f8e4m3fnuz, f8e5m2fnuz, f8e4m3b11fnuz, f8e3m4) inside a
    function becomes an f32 array holding the same value, rounded to its
    type after each op as below for f16 (passes/NarrowFloat.h: the type's
    exponent width where it has infinities; else a mantissa-only
    reduce_precision, overflow to NaN, and -0 to +0 in the fnuz types).
    Every f16 value inside a function
    becomes an f32 array holding the same value, and an op whose result can
    leave the f16 value set (arithmetic, math functions, dot, convolution,
    iota, the results of reduce, reduce_window and scatter, whose reducers
    stay bare f32 ops) is followed by a rounding to f16 in f32, exactly
    XLA's convert f32 -> f16: to nearest even, overflow to +-inf, f16
    subnormals kept, NaN kept. The rounding is `reduce_precision` to 5
    exponent and 10 mantissa bits from 2^-14 up (the smallest normal f16)
    and, below it, where `reduce_precision` flushes to zero, `x * 2^24`
    rounded to an integer and scaled back (the subnormals are multiples of
    2^-24). Data movement, compares, selects, min/max, negate, abs, sign and
    the integral roundings keep the set. A convert to f16 is the rounding
    (of the value converted to f32 first), one from f16 reads the f32 value.
    Entry parameters and results keep their types (converted where they
    enter and leave); `bitcast_convert` on them is an error. See
    docs/integers.md.

    ```mlir
    // Before:
    %0 = hlo.add %a, %b : tensor<4xf16>
    // After:
    %0 = hlo.add %a, %b : tensor<4xf32>
    %1 = hlo.reduce_precision %0, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
    %2 = hlo.multiply %0, %c2p24 : tensor<4xf32>
    %3 = hlo.round_nearest_even %2 : tensor<4xf32>
    %4 = hlo.multiply %3, %c2pm24 : tensor<4xf32>
    %5 = hlo.abs %0 : tensor<4xf32>
    %6 = hlo.compare LT, %5, %c2pm14 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %7 = hlo.select %6, %4, %1 : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandX64 : Pass<"tpuc-expand-x64", "::mlir::ModuleOp"> {
  let summary = "Emulate s64/u64 on 32-bit words (as XLA TPU does)";
  let description = [{
    The VPU has no 64-bit integers. Every s64/u64 value becomes its low and
    high words (two i32 arrays of its shape) and every op on it a few
    32-bit ops (passes/X64Words.cpp): add/subtract with carries, multiply
    (low 64 bits, from `mulhi`), compares, bitwise ops, shifts by any
    amount, abs/sign/min/max/select/clamp, popcnt/clz, divide/remainder
    (restoring division in a 64-trip `hlo.while`), power (square and
    multiply in a 64-trip `hlo.while`), converts to and from
    s32/u32/narrower/pred/f32/bf16, constants, iota, data movement once per
    word, add/max/min reduces, sorts (each 64-bit operand as two),
    dot_general (word-form multiplies over the product space, summed by the
    add reduce's word form), convolution with feature and batch groups 1
    (im2col slices into that dot), and 64-bit indices (saturated to s32). Entry parameters and results and
    `while` state are planar [2, ...]xs32/u32 (the low words, then the high
    words; docs/executable-format.md). An op without a word form reads its
    operands joined back to 64 bits (`hlo.bitcast_convert` of the
    [..., 2] words); bitcast_convert round trips are removed. The front
    end runs the pass with `check=false` (rng_bit_generator's u64 state
    stays until tpuc-expand-rng-bit-generator), the expansion pipeline
    again with `check`, where anything left on a 64-bit integer is an error
    naming the op (docs/integers.md).

    ```mlir
    // Before:
    func.func @main(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
      %0 = hlo.add %a, %b : tensor<4xi64>
      return %0 : tensor<4xi64>
    }
    // After (slices of %a and %b into %al, %ah, %bl, %bh, then):
    %lo = hlo.add %al, %bl : tensor<4xi32>
    %c = hlo.compare LT, %lo, %al, UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %h = hlo.add %ah, %bh : tensor<4xi32>
    %hi = hlo.add %h, (convert %c) : tensor<4xi32>
    // ... returned as concatenate(lo, hi) : tensor<2x4xi32>
    ```
  }];
  let options = [
    Option<"check", "check", "bool", /*default=*/"true",
           "Fail on any op left on a 64-bit integer">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandSelectAndScatter : Pass<"tpuc-expand-select-and-scatter"> {
  let summary = "Expand select_and_scatter (max-pool gradients) into slices, "
                "selects and pads";
  let description = [{
    A select_and_scatter that the VPU kernel does not take (it takes pool
    gradients on H and W of 4-D f32/bf16 arrays:
    `hlotpu::selectAndScatterKernelTakes`, passes/HloToTpu/ReduceWindow.cpp)
    whose select is one GE, GT, LE or LT comparison of
    its arguments (max and min pooling's gradients) and whose scatter adds,
    with any window, stride, padding and rank, becomes elementwise work
    over the source's shape, one step per window offset `w` in row-major
    order:

    - `v_w`, the strided slice of the (padded) operand at offset `w`;
    - a running selection: the selected value, its offset `idx` (-1 for
      none) and, with padding, whether any offset was in the operand yet.
      The candidate is taken where it lies in the operand (an iota mask
      of the box of valid positions; padding is never selected) and
      either nothing is selected yet or `select(selected, v_w)` is false:
      the first element in window order that the comparison prefers wins,
      as XLA defines it (GE: the first maximum, GT: the last);
    - the result is `broadcast(init)` plus, per offset, the source values
      with `idx == w` (zeros elsewhere) padded back to their places
      (`o * stride + w - pad_low`: interior padding `stride - 1`, edge
      padding cropping what falls outside).

    Other select or scatter computations, and windows above 1024
    elements, are errors naming the op.

    ```mlir
    // Before: the gradient of a 2x2 stride-2 max pool on [4, 4].
    %0 = hlo.select_and_scatter %x, %dy, %zero {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
         : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
         select { GE } scatter { add }
    // After (offset (0, 1) of 4 shown):
    %v1 = hlo.slice %x [0:3:2, 1:4:2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
    %keep = hlo.compare GE, %v0, %v1 ...
    %cur = hlo.select %keep, %v0, %v1 ...
    %idx = hlo.select %keep, %c0, %c1 ...
    ...
    %m1 = hlo.compare EQ, %idx, %c1 ...
    %s1 = hlo.select %m1, %dy, %zeros ...
    %p1 = hlo.pad %s1, %zero, low = [0, 1], high = [1, 0], interior = [1, 1] ...
    %r1 = hlo.add %r0, %p1 ...
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandVariadicReduce : Pass<"tpuc-expand-variadic-reduce"> {
  let summary = "Expand the reduces the VPU kernel does not take (variadic, "
                "argmax/argmin, other bodies) into elementwise trees";
  let description = [{
    The reduce kernel takes one input and a body that is one add,
    multiply, maximum or minimum (and or or on pred) of its arguments.
    Every other reduce (several inputs, as JAX's argmax and argmin emit:
    values and an s32 iota, with a compare/select body handling ties and
    NaN; or any body of rank-0 elementwise ops, constants and selects)
    becomes elementwise work:

    - each input is transposed so the reduced dims come last (the kept
      dims keep their order, the reduced ones go in increasing order) and
      reshaped to `[kept..., n]`;
    - while `n > 1`: the even and the odd positions (two stride-2 slices
      of the first `2 * floor(n/2)` elements) are combined by the body
      applied elementwise (its arguments become the slices, even positions
      as the accumulators; rank-0 constants become splats); an odd last
      element is concatenated after the pairs;
    - the init values, broadcast to the result shape, are combined once
      with the result: `body(init, r)`.

    Combining adjacent elements keeps their order, so any associative body
    (XLA requires one) gives the result of the interpreter's sequential
    order, also when it is not commutative (JAX's argmax picks the first
    of several NaNs). An empty reduction is the broadcast init values.
    A body with other ops (a nested reduce, a non-rank-0 value) is an
    error naming the op. `tpuc compile` runs the pass at the end of the
    front end (before fusion and `tpuc-expand-x64`: s64 indices) and in
    the expansion pipeline.

    ```mlir
    // Before: argmax over the 5 columns of [4, 5].
    %r:2 = hlo.reduce(%x, %iota) init(%ninf, %zero) dims = [1] ... { compare GT, select ... }
    // After (one level of three shown):
    %e = hlo.slice %x [0:4:1, 0:4:2] : (tensor<4x5xf32>) -> tensor<4x2xf32>
    %o = hlo.slice %x [0:4:1, 1:4:2] : (tensor<4x5xf32>) -> tensor<4x2xf32>
    %gt = hlo.compare GT, %e, %o ...
    %v = hlo.select %gt, %e, %o ...
    %last = hlo.slice %x [0:4:1, 4:5:1] : (tensor<4x5xf32>) -> tensor<4x1xf32>
    %v1 = hlo.concatenate(%v, %last) dim = 1 ... -> tensor<4x3xf32>
    ...
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ExpandReduceWindow : Pass<"tpuc-expand-reduce-window"> {
  let summary = "Expand the reduce_windows the VPU kernel does not take into "
                "strided slices";
  let description = [{
    The reduce_window kernel takes windows on H and W of a 4-D (NHWC)
    array without dilations. Every other single-input reduce_window whose
    body is one add, multiply, maximum, minimum, and or or of its
    arguments (any rank, window, stride, padding, base and window
    dilation: 1-D pools, pools over other dims, cumulative sums) becomes
    the init value broadcast to the result, combined with one strided
    slice of the operand per window offset, in XLA's order (row-major over
    the window): the operand is first padded with the init value (edge
    padding, and interior padding `base_dilation - 1`), which is what XLA's
    skipping of padding and holes computes when the init is the body's
    identity (0 for add, -inf for max, ...). Any other reduce_window
    (several inputs, as an argmax window; a body of several elementwise
    ops; padding with an init that is not the body's identity) applies
    the body elementwise to the accumulators and each offset's slices of
    every input, in the same order; padding and base-dilation holes are
    skipped as XLA skips them: a pred mask of the real elements is padded
    with the inputs, and each step selects the old accumulators where the
    mask's slice is false. Bodies of other ops and windows above 1024
    elements are errors naming the op.

    ```mlir
    // Before: cumsum over the 4 elements of a row (JAX's cumsum).
    %0 = hlo.reduce_window(%x) init(%zero) {window_dimensions = array<i64: 1, 4>, padding = array<i64: 0, 0, 3, 0>} ...
         : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32> { hlo.add }
    // After:
    %p = hlo.pad %x, %zero, low = [0, 3], high = [0, 0], interior = [0, 0] : ... -> tensor<2x7xf32>
    %a0 = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %s0 = hlo.slice %p [0:2:1, 0:4:1] ...
    %a1 = hlo.add %a0, %s0 ...
    ... (offsets 1, 2, 3: slices [0:2:1, k:k+4:1])
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def SortAlongMinor : Pass<"tpuc-sort-along-minor"> {
  let summary = "Sort along the minor dimension: transposes around a sort "
                "along another one";
  let description = [{
    The sort kernel sorts along the minor dimension (rows of the 8x128
    tiles). A sort along another dimension `d` of a rank-`r` array becomes
    a transpose of each operand that moves `d` last (the other dimensions
    keep their order), the sort along `r - 1` with the same comparator and
    stability, and the inverse transpose of each result. Sorting commutes
    with the permutation, so the results are XLA's.

    ```mlir
    // Before: sort the columns of [5, 3].
    %0 = hlo.sort(%x) dim = 0 : (tensor<5x3xf32>) -> tensor<5x3xf32> { ... }
    // After:
    %t = hlo.transpose %x, dims = [1, 0] : (tensor<5x3xf32>) -> tensor<3x5xf32>
    %s = hlo.sort(%t) dim = 1 : (tensor<3x5xf32>) -> tensor<3x5xf32> { ... }
    %0 = hlo.transpose %s, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def HoistWhileInvariants : Pass<"tpuc-hoist-while-invariants"> {
  let summary = "Move loop-invariant work out of hlo.while bodies";
  let description = [{
    XLA's WhileLoopInvariantCodeMotion. A state element the body returns
    unchanged is invariant: inside the body it equals its initial value.
    Pure work whose inputs are all invariant (invariant elements, values
    defined before the loop, and other invariant work) is computed once
    before the loop, and the body reads the hoisted value. Works on both
    state forms: several operands, or one tuple as XLA dumps it.

    Constants, broadcasts, iotas, reshapes, bitcasts and tuple plumbing are
    not hoisted by themselves (they are free or larger than their inputs,
    so hoisting them would only lengthen live ranges); they are copied
    before the loop when hoisted work reads them. Loops are never hoisted
    out of loops (the outer loop may run zero times). Inner loops are
    visited first, so work can leave a whole nest.

    ```mlir
    // Before: exp(x) is computed on every one of the 1000000 iterations.
    %w:3 = hlo.while(%zero, %x, %acc) : ... cond { ... } do {
    ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
      %e = hlo.exponential %xs : tensor<8x128xf32>
      %n = hlo.add %a, %e : tensor<8x128xf32>
      ...
      hlo.return %i1, %xs, %n : ...
    }
    // After: once, before the loop.
    %e = hlo.exponential %x : tensor<8x128xf32>
    %w:3 = hlo.while(%zero, %x, %acc) : ... cond { ... } do {
    ^bb0(%i: tensor<i32>, %xs: tensor<8x128xf32>, %a: tensor<8x128xf32>):
      %n = hlo.add %a, %e : tensor<8x128xf32>
      ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numHoisted", "hoisted", "Ops moved out of loop bodies">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def SimplifyWhileLoops : Pass<"tpuc-simplify-while-loops"> {
  let summary = "Flatten loop state, forward known loop results, drop dead "
                "state, remove loops of 0 or 1 trips";
  let description = [{
    XLA's WhileLoopSimplifier, for what tpuc's importer produces:

    - a tuple state (as XLA dumps loops) becomes one operand per element,
      so that each element is its own block argument and result;
    - an element that only feeds itself (its result and its condition
      argument unused, and in the body what reads it reaches only its own
      next value) is removed with the work computing it;

    - the result of an invariant state element (one the body returns
      unchanged) is its initial value;
    - a counted loop (an integer counter starting at a constant, stepped
      by a constant add or subtract in the body, and a condition that is
      exactly its compare with a constant) has a known trip count, and its
      counter's result is the constant final value;
    - in a counted loop of at least one trip, an element the body sets to
      a value computed before the loop (work tpuc-hoist-while-invariants
      moved out) has that value as its result;
    - a counted loop of 0 trips is replaced by its initial state, one of 1
      trip by one copy of its body.

    Loops whose results are then unused are erased by the canonicalizer
    (hlo.while has the memory effects of its body). Counters that would
    wrap, and loops that would not end, are left alone.

    ```mlir
    // Before: only the loop's copy of %x is used afterwards.
    %w:2 = hlo.while(%zero, %x) : ... do { ... hlo.return %i1, %xs ... }
    %r = hlo.add %w#1, %w#1 : tensor<8x128xf32>
    // After:
    %r = hlo.add %x, %x : tensor<8x128xf32>
    ```
  }];
  let statistics = [
    Statistic<"numForwarded", "forwarded",
              "Loop results replaced by known values">,
    Statistic<"numRemoved", "removed", "Loops of zero or one trip removed">,
    Statistic<"numFlattened", "flattened", "Tuple states made operands">,
    Statistic<"numDeadElements", "dead-elements",
              "State elements removed because they only fed themselves">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ResizeBatch : Pass<"tpuc-resize-batch", "mlir::ModuleOp"> {
  let summary = "Re-specialize the entry computation to another batch size";
  let description = [{
    Shape inference along one dimension (the batch) of one entry parameter:
    every dimension of every value that is, by its op's semantics, the same
    dimension as the parameter's takes the new size, through elementwise
    ops, broadcasts, reshapes that neither merge nor split it, transposes,
    reductions (a reduced batch disappears), dot_general (batch, free and
    contracting dimensions: a weight gradient contracts the batch away),
    convolutions (batch and feature dimensions, so the kernel gradient's
    batch-as-feature form works), whole-dimension slices, unpadded pads,
    concatenates, windows of one element, sorts and top-k. Splat constants,
    iotas and broadcasts take the new size where they meet the batch.

    Where the graph hard-codes the size, the pass fails with an error at
    the op: a reshape that merges or splits the batch with another
    dimension, a non-splat constant with a batch dimension, or an op
    without a rule (gather, scatter, dynamic slices, calls, loops,
    conditionals) reached by the batch. Scalar constants keep their values
    (a mean's 1/batch stays as written), so the resized step is for sizing
    memory and time (`tpuc fit --batch`), not for its loss scale.

    `param` is the parameter's index, its HLO instruction name (`x.5`) or
    its op_name metadata (`x`); run after inlining.

    ```mlir
    // tpuc-opt --tpuc-resize-batch='param=0 dim=0 size=1024'
    // Before:
    func.func @main(%x: tensor<256x64xf32>, %w: tensor<64x10xf32>) -> tensor<10xf32>
    // After: the dot's 256 rows and the reduction's input take 1024.
    func.func @main(%x: tensor<1024x64xf32>, %w: tensor<64x10xf32>) -> tensor<10xf32>
    ```
  }];
  let options = [
    Option<"param", "param", "std::string", "\"0\"",
           "The entry parameter: index, HLO instruction name or op_name">,
    Option<"dim", "dim", "int64_t", "0", "Its batch dimension">,
    Option<"size", "size", "int64_t", "1", "The new batch size">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ScheduleDonations : Pass<"tpuc-schedule-donations", "mlir::ModuleOp"> {
  let summary = "Compute each donated output after the last read of the "
                "parameter it overwrites";
  let description = [{
    A module's `hlo.input_output_alias` donates parameter buffers to
    outputs (a training step's updated weights). The lowering writes such
    an output in place only when every read of the old parameter comes
    before the op that computes the output (docs/codegen.md, "Donation");
    otherwise it copies the output into the parameter's buffer after the
    last kernel. The fusion planner places a fusion where its members
    were, so the update `w - lr * dw` (the epilogue of the gradient dot's
    output fusion) can land before another fusion that still reads `w`
    (the input gradient `dy * w^T`).

    For each alias in order, the op in the entry block that computes the
    output is moved right after the last op of the block that reads the
    parameter (reads inside regions count for the op that holds them),
    when that op comes later, the producer is free of memory effects
    (fusions, elementwise ops, dots: their regions included) and nothing
    but the return reads the producer's results before that point. The
    producer's operands are defined before it, so the order stays valid;
    nothing else moves. Results are unchanged. Like XLA's scheduler, which
    orders a donated buffer's reads before its in-place write so that
    copy insertion has nothing to add.

    ```mlir
    // Before: the update of %w (donated to result 0) precedes a read.
    %u = hlo.fusion output(%h, %dy, %w) {...}     // w - lr * h^T dy
    %dx = hlo.fusion output(%dy, %w) {...}        // dy w^T
    return %u, %dx
    // After:
    %dx = hlo.fusion output(%dy, %w) {...}
    %u = hlo.fusion output(%h, %dy, %w) {...}
    ```
  }];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def Rematerialize : Pass<"tpuc-rematerialize", "mlir::ModuleOp"> {
  let summary = "Recompute values instead of keeping them live until the "
                "HBM plan fits (XLA's HloRematerialization)";
  let description = [{
    Runs after fusion and layout assignment, on the entry function's
    program order (the schedule the HBM plan uses). While the plan of
    `compiler/analysis` (planMemory) needs more than the limit, it looks at
    the step where the live bytes peak and at every value live across it:
    a value whose defining op is free of side effects, has one tensor
    result and reads only values that are live at the value's next use
    anyway (entry parameters, constants, or values used later) can be
    recomputed right before that next use. The original then dies after
    its last use before the peak. Candidates are ranked by padded bytes
    freed at the peak per byte of HBM traffic the recomputation costs
    (the fusion report's traffic model), and each value is rematerialized
    at most once. It stops when the plan fits or nothing is left to try.

    The clones carry `tpuc.rematerialized` and the module a summary
    `tpuc.remat = {values, bytes, traffic_bytes}` that the memory report
    prints. Results are unchanged: the clone computes what the original
    did.

    ```mlir
    // Before (peak between %a's def and the dot):
    %a = hlo.fusion(%h) {...}              // relu(h), live across the peak
    ...                                    // peak
    %g = hlo.dot_general %a, %dy ...
    // After:
    %a = hlo.fusion(%h) {...}              // used only before the peak
    ...
    %a2 = hlo.fusion(%h) {..., tpuc.rematerialized}
    %g = hlo.dot_general %a2, %dy ...
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset (its tiling rules size the buffers)">,
    Option<"memoryLimit", "memory-limit", "int64_t", "0",
           "HBM bytes the program may use, arguments included (0: the "
           "target's usable limit)">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def AssignBuffers : Pass<"tpuc-assign-buffers", "mlir::ModuleOp"> {
  let summary = "Record the memory plan's HBM buffer of every value";
  let description = [{
    The HBM side of the lowering: computes the module's memory plan
    (compiler/analysis: the schedule, live ranges, input_output_alias and
    view sharing, the best-fit heap simulator: the plan the memory report
    shows) and records on each op the plan's buffer of each result,
    `tpu.hbm_buffers`: one `array<i64: allocation, offset, bytes>` per
    result (offset -1 for values without a heap offset, such as parameters
    and constants; an empty array for values the plan does not size), and
    the plan's total on the module, `tpu.planned_hbm_bytes`.
    tpuc-convert-hlo-to-tpu then gives the HBM buffer holding each value
    `tpu.plan_offset` when the kernel's memref fits the planned bytes, and
    the serializer places it there. A module that cannot be planned gets
    no records (its buffers are placed without a plan). Runs right before
    tpuc-convert-hlo-to-tpu, on the program that pass lowers.

    ```mlir
    // After:
    %0 = hlo.add %a, %b {tpu.hbm_buffers = [array<i64: 2, 0, 4096>]}
        : tensor<8x128xf32>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset whose HBM the plan is for (when the module has no "
           "tpu.target)">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect"];
}

def ConvertHloToTpu : Pass<"tpuc-convert-hlo-to-tpu", "mlir::ModuleOp"> {
  let summary = "Lower the hlo entry function to tpu kernels (DMA, VPU, MXU)";
  let description = [{
    Each hlo op of the entry function becomes one kernel: DMAs from HBM
    into VMEM, loops of VPU or MXU instructions over (8,128) tiles, and
    DMAs back to HBM, with every DMA waited for before the next kernel.
    Tensors become HBM memrefs in XLA's TPU layouts (`{1,0:T(8,128)}` for
    rank >= 2, `{0:T(1024)}` for rank 1); intermediates are HBM
    `tpu.alloc`s. Supported: f32/bf16 elementwise ops (compare + select),
    broadcast_in_dim of a row, column or splat, layout-preserving reshape,
    reduce (add/max/min) over the minor or the leading dim of a 2-D array,
    and 2-D dot_general on the MXU (DEFAULT precision: f32 operands rounded
    to bf16, f32 accumulation) with double-buffered weight and LHS DMAs.
    Any other op is an error naming it. The hlo op's location stays on the
    tpu ops it becomes. docs/codegen.md has the details.

    ```mlir
    // Before:
    func.func @f(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
      %e = hlo.exponential %x : tensor<8x128xf32>
      return %e : tensor<8x128xf32>
    }
    // After:
    func.func @f(%x: memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>)
        -> memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>> {
      %out = tpu.alloc : memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
      %buf = tpu.alloc {tpu.overlay} : memref<2048xf32, #tpu.memory_space<vmem>>
      tpu.dma %x[%c0] -> %buf[%c0] chunks = 1 chunk_bytes = 4096 ...
      tpu.sem_wait 0, 1
      %v = tpu.vload %buf[%c0] ...
      %e = tpu.vexp %v : vector<8x128xf32>
      tpu.vstore %e, %buf[%c4096] ...
      tpu.dma %buf[%c4096] -> %out[%c0] chunks = 1 chunk_bytes = 4096 ...
      tpu.sem_wait 1, 1
      return %out : ...
    }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset: VMEM size, MXU count and the module's tpu.target">,
    Option<"dotPrecision", "dot-precision", "::tpuc::DotPrecision",
           "::tpuc::DotPrecision::PerOp",
           "The MXU passes of every f32 dot_general and convolution, "
           "overriding precision_config (per-op: follow each op)",
           "::tpuc::dotPrecisionValues()">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect",
                           "::tpuc::tpu::TpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def CseScalars : Pass<"tpuc-cse-scalars"> {
  let summary = "One scalar instruction per value and block in the tpu function";
  let description = [{
    Common-subexpression elimination of pure `arith` ops with scalar
    (index or integer) results, within each block: a later op equal to an
    earlier one of its block (same name, operands and attributes) is
    replaced by it. The kernels compute a tile's address, its tile row and
    its column where each use needs them; this leaves one instruction per
    distinct value. Only scalars: merging pure vector ops would keep vector
    registers live across loops (there are 32), and values are never
    merged across blocks, so no scalar lives longer than its block.
    `tpuc compile` runs it after the canonicalizer that follows
    `tpuc-convert-hlo-to-tpu`.

    ```mlir
    %a = arith.divsi %t, %c6 : index
    %b = arith.divsi %t, %c6 : index   // removed, its uses read %a
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SimplifyScalars : Pass<"tpuc-simplify-scalars"> {
  let summary = "Divisions and remainders of the kernels' addresses, simplified";
  let description = [{
    The kernels derive a tile's row, column and source tile from the loop's
    byte offset with divisions and remainders by constants (`SDIV`, `SREM`),
    many of which are known: a remainder of a multiple, a quotient of a
    value smaller than the divisor. With `|x| < B` known from constants,
    `tpu.loop` induction variables (`0 <= i < trip count`), remainders and
    quotients by positive constants, sums and products, for `c > 0`
    (truncating division, as `arith` defines it):

    - `x rem c` -> `x` when `|x| < c`; `0` when `x = y * k`, `k % c == 0`;
      `y rem c` when `x = y rem d`, `d % c == 0`;
    - `x / c` -> `0` when `|x| < c`; `y * (k / c)` when `x = y * k`,
      `k % c == 0`; `y / (c / k)` when `c % k == 0`; `y / (d * c)` when
      `x = y / d`, `d > 0`;

    then arith's own multiply and add canonicalizations. Overflowing
    address arithmetic is not modelled (addresses fit in 64 bits).
    `tpuc compile` runs it after `tpuc-overlap-kernels`, before the
    canonicalizer and `tpuc-cse-scalars`.

    ```mlir
    %o = arith.muli %i, %c4096 : index
    %t = arith.divsi %o, %c4096 : index   // -> %i
    %r = arith.remsi %o, %c4096 : index   // -> 0
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ScheduleBundles : Pass<"tpuc-schedule-bundles"> {
  let summary = "The kernels' straight-line vector code, list-scheduled for the bundles";
  let description = [{
    The machine issues one VLIW bundle per cycle with two vector ALU slots,
    a vector load and a vector store slot (docs/isa.md, "Timing"), and its
    VPU starts instructions in program order. The code generator emits a
    tile's work as one dependent chain after another (load, convert, add,
    multiply, store; then the next tile), which keeps one slot busy at a
    time. This pass reorders each straight-line segment of a block (the ops
    between two DMAs, waits, MXU ops, loops or transposes) by list
    scheduling: cycle by cycle, it fills a bundle with the ops whose
    operands were produced in an earlier bundle, in program order, so the
    next tile's load and arithmetic start while this tile's finish.

    Memory order: a `tpu.vstore` stays after every earlier `tpu.vload` or
    `tpu.vstore` of bytes it may touch, and a load after such stores;
    accesses of one arena (or of the overlay region every step's arenas
    share) at constant offsets from one index value are disjoint when
    their byte ranges are; anything else may alias. Register pressure:
    beyond 32 - 4 - (the vector values the segment reads from before it)
    live vector values defined in the segment (at least 8), only the
    earliest remaining op (program order) is placed. `tpuc compile` runs it last,
    after `tpuc-cse-scalars`.
  }];
}

def AllocateVmem : Pass<"tpuc-allocate-vmem", "mlir::ModuleOp"> {
  let summary = "Place each step's VMEM region in the overlaid VMEM arena";
  let description = [{
    tpuc-convert-hlo-to-tpu gives each step (top-level hlo op) its own VMEM
    arenas: one `tpu.alloc` per element type, marked `tpu.overlay` and
    `tpu.step = k`, sized for the step's largest kernel, which its kernels
    address from 0. This pass places every step's region in the overlay
    region (after the other VMEM buffers) by setting `tpu.overlay` to its
    byte offset: at 0, or with `separate-neighbours` (the default) right
    after the previous step's region when both fit in the target's VMEM,
    so that tpuc-overlap-kernels may issue a step's input DMAs while the
    previous step runs. A step whose region does not fit is an error. With
    `separate-neighbours=false` every region starts at 0, which is where
    the overlaid arenas put all kernels before this pass existed.

    ```mlir
    // Before:
    %0 = tpu.alloc {tpu.overlay, tpu.step = 1 : i64} : memref<8192xf32, #tpu.memory_space<vmem>>
    %1 = tpu.alloc {tpu.overlay, tpu.step = 2 : i64} : memref<4096xf32, #tpu.memory_space<vmem>>
    // After:
    %0 = tpu.alloc {tpu.overlay = 0 : i64, tpu.step = 1 : i64} : memref<8192xf32, #tpu.memory_space<vmem>>
    %1 = tpu.alloc {tpu.overlay = 32768 : i64, tpu.step = 2 : i64} : memref<4096xf32, #tpu.memory_space<vmem>>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset (its VMEM size) when the module has no tpuc.target">,
    Option<"separateNeighbours", "separate-neighbours", "bool", "true",
           "Place each step's region apart from the previous step's when "
           "both fit (else every region at 0)">,
  ];
  let dependentDialects = ["::tpuc::tpu::TpuDialect"];
}

def OverlapKernels : Pass<"tpuc-overlap-kernels", "mlir::ModuleOp"> {
  let summary = "Issue each step's leading input DMAs while the previous "
                "step's kernels run";
  let description = [{
    After tpuc-allocate-vmem: moves each step's leading HBM -> VMEM DMAs
    (issued before its first compute, with constant offsets, consumed by a
    wait of that leading run) into the previous step, right after that
    step's own leading DMAs, when it is safe: no op passed (nested ops of
    loops, whiles and conditionals included) touches a VMEM byte of the
    destination, writes by DMA an HBM buffer the DMA reads (the same
    memref, or buffers whose `tpu.plan_offset` ranges overlap), reaches HBM
    other than by DMA (collectives need every DMA retired), or uses the
    prefetch semaphores. A moved DMA signals one of the target's last two
    semaphores (alternating by step; nothing else may use them, else the
    pass does nothing), the wait that consumed it counts one less (and
    goes when it reaches 0), a wait for all of the step's prefetches goes
    before the first such wait, and the source's `tpu.live` is extended to
    the previous step. Order is deterministic (program order).

    ```mlir
    // Before (step 2 reads %w, which step 1 does not write):
    tpu.dma %x[%c0] -> %a1[%c0] ... sem = 0 {tpu.step = 1 : i64}
    tpu.sem_wait 0, 1
    ... step 1's compute, its output DMA and wait ...
    tpu.dma %w[%c0] -> %a2[%c0] ... sem = 0 {tpu.step = 2 : i64}
    tpu.sem_wait 0, 1
    // After:
    tpu.dma %x[%c0] -> %a1[%c0] ... sem = 0 {tpu.step = 1 : i64}
    tpu.dma %w[%c0] -> %a2[%c0] ... sem = 31
    tpu.sem_wait 0, 1
    ... step 1's compute, its output DMA and wait ...
    tpu.sem_wait 31, 1 {tpu.step = 2 : i64}
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", "\"tpu-v3\"",
           "Target preset (its semaphore count) when the module has no "
           "tpuc.target">,
  ];
  let dependentDialects = ["::tpuc::tpu::TpuDialect",
                           "::mlir::arith::ArithDialect"];
}

def ShardingPropagation : Pass<"tpuc-sharding-propagation", "mlir::ModuleOp"> {
  let summary = "Give every op of a sharded program its sharding (GSPMD's "
                "sharding propagation)";
  let description = [{
    For a module with `hlo.num_partitions` = P > 1: starting from the
    `hlo.sharding` of the public function's parameters and ops (the
    importer keeps `Sharding` custom-calls as the sharding of their
    operand), carries tilings (any device mesh, partial replication, any
    device order) forward dimension by dimension through elementwise ops,
    select, clamp, broadcast_in_dim, transpose, reshape (where a split
    dimension maps), reduce (the kept dimensions), dot_general (batch and
    free dimensions of both sides), convolution (input batch, kernel output
    feature, a spatial dimension that halos can serve), reduce_window,
    gather (passthrough and index batch dimensions), scatter (passthrough
    dimensions), tuples and while loop state, and backward from a split
    result to the unannotated elementwise ops, broadcasts, transposes and
    reshapes that produce it, refining a tiling where another adds splits
    to it, until nothing changes. Maximal and manual shardings, tile
    assignments that do not list the P partitions and uneven tiles are
    errors naming the op and the sharding (docs/spmd.md).

    ```mlir
    // Before (num_partitions = 2):
    func.func @main(%x: tensor<8x4xf32> {hlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x4xf32> {
      %y = hlo.exponential %x : tensor<8x4xf32>
    // After:
      %y = hlo.exponential %x {hlo.sharding = "{devices=[2,1]<=[2]}"} : tensor<8x4xf32>
    ```
  }];
  let options = [
    Option<"numPartitions", "num-partitions", "int64_t", "0",
           "Partitions (0: the module's hlo.num_partitions)">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect",
                           "::mlir::func::FuncDialect"];
}

def SpmdPartition : Pass<"tpuc-spmd-partition", "mlir::ModuleOp"> {
  let summary = "Partition a sharded program into the program of one "
                "partition (GSPMD's SPMD partitioner)";
  let description = [{
    Rewrites the public function of a module with `hlo.num_partitions` =
    P > 1 whose values carry shardings (after tpuc-sharding-propagation)
    into the per-partition program: split parameters and values become
    their tile (each dimension / its tiles), elementwise ops, broadcasts,
    transposes, reshapes that keep a split, reduce and dot_general over
    kept dimensions, convolution over batch and output feature, gather
    over passthrough and index batch dimensions and scatter into a tile
    run on tiles; a convolution or reduce_window split along a windowed
    dimension gets halos from its neighbours (`hlo.collective_permute`); a
    while loop keeps the tilings of its state; a reduce or dot_general over
    a split dimension, and an add scatter of split updates, compute a
    partial result completed by an `hlo.all_reduce` across the partitions
    that hold its terms (the groups of that mesh axis); where an operand is
    tiled otherwise than the op needs it is resharded (`hlo.all_gather`
    within a mesh axis' groups, `hlo.dynamic_slice` at the tile index
    computed from `partition_id` to split, `hlo.all_to_all` to move a split
    within its axis). Other ops run on replicated operands and their result
    is sliced to its sharding. Results are resharded to the function's
    result shardings (replicated when absent).

    ```mlir
    // Before (num_partitions = 2; x split along the contracted dimension):
    %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]>
         : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    // After:
    %w1 = hlo.dynamic_slice %w, [%off, %zero], sizes = [4, 2] ...
    %p = hlo.dot_general %x, %w1, ... : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    %d = hlo.all_reduce(%p) ...
    ```
  }];
  let options = [
    Option<"numPartitions", "num-partitions", "int64_t", "0",
           "Partitions (0: the module's hlo.num_partitions)">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect",
                           "::mlir::func::FuncDialect"];
}

def DataParallel : Pass<"tpuc-data-parallel", "mlir::ModuleOp"> {
  let summary = "Partition a training step for N devices along the batch "
                "(TPUStrategy's data parallelism)";
  let description = [{
    Turns the public function into the per-device program of an
    `num-devices`-way data-parallel run (num_partitions = N, docs/spmd.md):
    every parameter that input_output_alias does not donate is split along
    dimension 0 (the batch; its size must divide by N), donated parameters
    (the weights and optimizer state) are replicated. The split is carried
    forward through elementwise ops, broadcasts, reshapes that keep the
    leading dimension major, transposes, reductions and dot_general; where a
    reduction or a dot contracts the split dimension, each device reduces
    its part and an `hlo.all_reduce` (with the reduction's computation, over
    all devices) completes it, so the gradients of the weights are summed
    over the global batch. A replicated full-size operand met by a split one
    is sliced to the device's part (`partition_id`). The graph's own scaling
    stays as written (a loss divided by the global batch size stays a mean
    over the global batch), so the N-device step computes the global step,
    up to the order of floating-point sums. Parameters and results get
    `hlo.sharding`; the module gets `hlo.num_partitions`.

    ```mlir
    // Before (x is not donated, w is):
    %g = hlo.dot_general %x, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]>
         : (tensor<256x64xf32>, tensor<256x10xf32>) -> tensor<64x10xf32>
    // After (num-devices=8):
    %p = hlo.dot_general %x, %dy, dims = <lhs_contracting = [0], rhs_contracting = [0]>
         : (tensor<32x64xf32>, tensor<32x10xf32>) -> tensor<64x10xf32>
    %g = hlo.all_reduce(%p) {channel_id = 1 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids} ...
    ```

    An op the rules do not cover with a split operand is an error naming it.
  }];
  let options = [
    Option<"numDevices", "num-devices", "int64_t", "8",
           "Devices (partitions) to split the batch over">,
  ];
  let dependentDialects = ["::tpuc::hlo::HloDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TPUC_PASSES_PASSES_TD
