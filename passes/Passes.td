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

#endif // TPUC_PASSES_PASSES_TD
