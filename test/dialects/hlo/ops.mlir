// RUN: tpuc-opt %s | tpuc-opt | FileCheck %s
// RUN: tpuc-opt %s --mlir-print-op-generic | tpuc-opt | FileCheck %s
// Every hlo op round-trips through its custom and its generic form.

// CHECK-LABEL: func.func @unary
func.func @unary(%f: tensor<2x3xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> tensor<2x3xf32> {
  // CHECK: hlo.abs %{{.*}} : tensor<2x3xf32>
  %0 = hlo.abs %f : tensor<2x3xf32>
  // CHECK: hlo.ceil
  %1 = hlo.ceil %0 : tensor<2x3xf32>
  // CHECK: hlo.cosine
  %2 = hlo.cosine %1 : tensor<2x3xf32>
  // CHECK: hlo.exponential %
  %3 = hlo.exponential %2 : tensor<2x3xf32>
  // CHECK: hlo.exponential_minus_one
  %4 = hlo.exponential_minus_one %3 : tensor<2x3xf32>
  // CHECK: hlo.floor
  %5 = hlo.floor %4 : tensor<2x3xf32>
  // CHECK: hlo.log %
  %6 = hlo.log %5 : tensor<2x3xf32>
  // CHECK: hlo.log_plus_one
  %7 = hlo.log_plus_one %6 : tensor<2x3xf32>
  // CHECK: hlo.logistic
  %8 = hlo.logistic %7 : tensor<2x3xf32>
  // CHECK: hlo.negate
  %9 = hlo.negate %8 : tensor<2x3xf32>
  // CHECK: hlo.round_nearest_even
  %10 = hlo.round_nearest_even %9 : tensor<2x3xf32>
  // CHECK: hlo.rsqrt
  %11 = hlo.rsqrt %10 : tensor<2x3xf32>
  // CHECK: hlo.sign
  %12 = hlo.sign %11 : tensor<2x3xf32>
  // CHECK: hlo.sine
  %13 = hlo.sine %12 : tensor<2x3xf32>
  // CHECK: hlo.sqrt
  %14 = hlo.sqrt %13 : tensor<2x3xf32>
  // CHECK: hlo.tanh
  %15 = hlo.tanh %14 : tensor<2x3xf32>
  // CHECK: hlo.copy
  %16 = hlo.copy %15 : tensor<2x3xf32>
  // CHECK: hlo.is_finite %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %17 = hlo.is_finite %16 : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: hlo.not %{{.*}} : tensor<4xi1>
  %18 = hlo.not %p : tensor<4xi1>
  // CHECK: hlo.not %{{.*}} : tensor<4xi32>
  %19 = hlo.not %i : tensor<4xi32>
  // CHECK: hlo.abs %{{.*}} : tensor<4xi32>
  %20 = hlo.abs %19 : tensor<4xi32>
  return %16 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<8xbf16>, %b: tensor<8xbf16>, %i: tensor<8xui32>, %p: tensor<8xi1>) -> tensor<8xbf16> {
  // CHECK: hlo.add %{{.*}}, %{{.*}} : tensor<8xbf16>
  %0 = hlo.add %a, %b : tensor<8xbf16>
  // CHECK: hlo.subtract
  %1 = hlo.subtract %0, %b : tensor<8xbf16>
  // CHECK: hlo.multiply
  %2 = hlo.multiply %1, %b : tensor<8xbf16>
  // CHECK: hlo.divide
  %3 = hlo.divide %2, %b : tensor<8xbf16>
  // CHECK: hlo.remainder
  %4 = hlo.remainder %3, %b : tensor<8xbf16>
  // CHECK: hlo.maximum
  %5 = hlo.maximum %4, %b : tensor<8xbf16>
  // CHECK: hlo.minimum
  %6 = hlo.minimum %5, %b : tensor<8xbf16>
  // CHECK: hlo.power
  %7 = hlo.power %6, %b : tensor<8xbf16>
  // CHECK: hlo.atan2
  %8 = hlo.atan2 %7, %b : tensor<8xbf16>
  // CHECK: hlo.and %{{.*}} : tensor<8xi1>
  %9 = hlo.and %p, %p : tensor<8xi1>
  // CHECK: hlo.or %{{.*}} : tensor<8xui32>
  %10 = hlo.or %i, %i : tensor<8xui32>
  // CHECK: hlo.xor %{{.*}} : tensor<8xui32>
  %11 = hlo.xor %10, %i : tensor<8xui32>
  return %8 : tensor<8xbf16>
}

// CHECK-LABEL: func.func @compare_select_clamp
func.func @compare_select_clamp(%a: tensor<4xf32>, %b: tensor<4xf32>, %lo: tensor<f32>) -> tensor<4xf32> {
  // CHECK: hlo.compare GT, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = hlo.compare GT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: hlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER :
  %1 = hlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: hlo.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.select %0, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: hlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = hlo.clamp %lo, %2, %lo : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// CHECK-LABEL: func.func @conversions
func.func @conversions(%a: tensor<4xf32>) -> tensor<4x2xbf16> {
  // CHECK: hlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
  // CHECK: hlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %1 = hlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: hlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4x2xbf16>
  %2 = hlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x2xbf16>
  // CHECK: hlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %3 = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: hlo.iota dim = 1 : tensor<2x4xi32>
  %4 = hlo.iota dim = 1 : tensor<2x4xi32>
  return %2 : tensor<4x2xbf16>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%a: tensor<4xf32>, %m: tensor<4x8xf32>, %i: tensor<i32>, %pad: tensor<f32>) -> tensor<2x4xf32> {
  // CHECK: hlo.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %0 = hlo.broadcast_in_dim %a, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  // CHECK: hlo.reshape %{{.*}} : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = hlo.reshape %m : (tensor<4x8xf32>) -> tensor<32xf32>
  // CHECK: hlo.transpose %{{.*}}, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = hlo.transpose %m, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  // CHECK: hlo.reverse %{{.*}}, dims = [0] : tensor<4x8xf32>
  %3 = hlo.reverse %m, dims = [0] : tensor<4x8xf32>
  // CHECK: hlo.slice %{{.*}} [0:2:1, 1:8:3] : (tensor<4x8xf32>) -> tensor<2x3xf32>
  %4 = hlo.slice %m [0:2:1, 1:8:3] : (tensor<4x8xf32>) -> tensor<2x3xf32>
  // CHECK: hlo.dynamic_slice %{{.*}}, [%{{.*}}, %{{.*}}], sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %5 = hlo.dynamic_slice %m, [%i, %i], sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  // CHECK: hlo.dynamic_update_slice %{{.*}}, %{{.*}}, [%{{.*}}, %{{.*}}] : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %6 = hlo.dynamic_update_slice %m, %5, [%i, %i] : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  // CHECK: hlo.concatenate(%{{.*}}, %{{.*}}) dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %7 = hlo.concatenate(%m, %6) dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  // CHECK: hlo.pad %{{.*}}, %{{.*}}, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8x9xf32>
  %8 = hlo.pad %m, %pad, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8x9xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> tensor<4xf32> {
  // CHECK: hlo.reduce(%{{.*}}) init(%{{.*}}) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: hlo.add
  // CHECK: hlo.return %{{.*}} : tensor<f32>
  %0 = hlo.reduce(%x) init(%z) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  // Variadic: argmax over dimension 0.
  // CHECK: hlo.reduce(%{{.*}}, %{{.*}}) init(%{{.*}}, %{{.*}}) dims = [0] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  %1:2 = hlo.reduce(%x, %i) init(%z, %zi) dims = [0] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = hlo.select %gt, %av, %bv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = hlo.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %v, %k : tensor<f32>, tensor<i32>
  }
  // CHECK: hlo.reduce_window(%{{.*}}) init(%{{.*}}) {padding = array<i64: 0, 0, 1, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  %2 = hlo.reduce_window(%x) init(%z) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  // CHECK: hlo.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}} {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32> select {
  // CHECK: } scatter {
  %3 = hlo.select_and_scatter %x, %2, %z {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32> select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = hlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @linalg
func.func @linalg(%a: tensor<2x3x4xbf16>, %b: tensor<2x4x5xbf16>, %x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<2x3x5xf32> {
  // CHECK: hlo.dot_general %{{.*}}, %{{.*}}, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> {precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGHEST>]} : (tensor<2x3x4xbf16>, tensor<2x4x5xbf16>) -> tensor<2x3x5xf32>
  %0 = hlo.dot_general %a, %b, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> {precision_config = [#hlo<precision DEFAULT>, #hlo<precision HIGHEST>]} : (tensor<2x3x4xbf16>, tensor<2x4x5xbf16>) -> tensor<2x3x5xf32>
  // CHECK: hlo.convolution %{{.*}}, %{{.*}}, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, window_strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  // Depthwise, NCHW with an OIHW kernel and lhs dilation (a transposed convolution).
  // CHECK: hlo.convolution %{{.*}}, %{{.*}}, dim_labels = <"bf01_oi01->bf01"> {feature_group_count = 3 : i64, lhs_dilation = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x13x13xf32>
  %xt = hlo.transpose %x, dims = [0, 3, 1, 2] : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  %wt = hlo.slice %w [0:3:1, 0:3:1, 0:1:1, 0:3:1] : (tensor<3x3x3x16xf32>) -> tensor<3x3x1x3xf32>
  %wo = hlo.transpose %wt, dims = [3, 2, 0, 1] : (tensor<3x3x1x3xf32>) -> tensor<3x1x3x3xf32>
  %2 = hlo.convolution %xt, %wo, dim_labels = <"bf01_oi01->bf01"> {feature_group_count = 3 : i64, lhs_dilation = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x13x13xf32>
  return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%table: tensor<100x16xf32>, %ids: tensor<8x1xi32>, %upd: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: hlo.gather %{{.*}}, %{{.*}}, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %0 = hlo.gather %table, %ids, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  // CHECK: hlo.scatter(%{{.*}}) at %{{.*}} updates(%{{.*}}), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> {indices_are_sorted = true} : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32>
  %1 = hlo.scatter(%table) at %ids updates(%upd), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> {indices_are_sorted = true} : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32> {
  ^bb0(%cur: tensor<f32>, %new: tensor<f32>):
    %s = hlo.add %cur, %new : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @sort_topk
func.func @sort_topk(%keys: tensor<4x16xbf16>, %vals: tensor<4x16xi32>) -> tensor<4x16xbf16> {
  // CHECK: hlo.sort(%{{.*}}, %{{.*}}) dim = 1 {is_stable = true} : (tensor<4x16xbf16>, tensor<4x16xi32>) -> (tensor<4x16xbf16>, tensor<4x16xi32>)
  %0:2 = hlo.sort(%keys, %vals) dim = 1 {is_stable = true} : (tensor<4x16xbf16>, tensor<4x16xi32>) -> (tensor<4x16xbf16>, tensor<4x16xi32>) {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = hlo.compare LT, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  // CHECK: hlo.topk %{{.*}}, k = 3 : (tensor<4x16xbf16>) -> (tensor<4x3xbf16>, tensor<4x3xi32>)
  %1:2 = hlo.topk %keys, k = 3 : (tensor<4x16xbf16>) -> (tensor<4x3xbf16>, tensor<4x3xi32>)
  return %0#0 : tensor<4x16xbf16>
}

// CHECK-LABEL: func.func @cholesky_solve
func.func @cholesky_solve(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // CHECK: hlo.cholesky %{{.*}} {lower = true} : tensor<2x4x4xf32>
  %l = hlo.cholesky %a {lower = true} : tensor<2x4x4xf32>
  // CHECK: hlo.triangular_solve %{{.*}}, %{{.*}} {left_side = true, lower = true, transpose_a = true} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %x = hlo.triangular_solve %l, %b {left_side = true, lower = true, transpose_a = true} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @random
func.func @random(%state: tensor<2xui64>) -> tensor<8x128xui32> {
  // CHECK: hlo.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x128xui32>)
  %0:2 = hlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x128xui32>)
  return %0#1 : tensor<8x128xui32>
}

// CHECK-LABEL: func.func @rng
func.func @rng(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<8x128xf32>, tensor<2xui64>) {
  // CHECK: hlo.rng %{{.*}}, %{{.*}}, distribution = NORMAL : (tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
  %0 = hlo.rng %a, %b, distribution = NORMAL : (tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
  // CHECK: hlo.rng_get_and_update_state delta = 1024 : tensor<2xui64>
  %1 = hlo.rng_get_and_update_state delta = 1024 : tensor<2xui64>
  return %0, %1 : tensor<8x128xf32>, tensor<2xui64>
}

func.func private @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func.func @control
func.func @control(%a: tensor<4xf32>, %n: tensor<i32>, %p: tensor<i1>) -> tensor<4xf32> {
  // CHECK: hlo.tuple %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
  %t = hlo.tuple %a, %n : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
  // CHECK: hlo.get_tuple_element %{{.*}}[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  %e = hlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  // CHECK: hlo.call @callee(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %c = hlo.call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: hlo.while(%{{.*}}, %{{.*}}) : tensor<4xf32>, tensor<i32> cond {
  // CHECK: } do {
  %w:2 = hlo.while(%c, %e) : tensor<4xf32>, tensor<i32> cond {
  ^bb0(%x: tensor<4xf32>, %i: tensor<i32>):
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%x: tensor<4xf32>, %i: tensor<i32>):
    %y = hlo.add %x, %x : tensor<4xf32>
    hlo.return %y, %i : tensor<4xf32>, tensor<i32>
  }
  // CHECK: hlo.conditional %{{.*}}(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional %p(%w#0, %a) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }, {
  ^bb0(%x: tensor<4xf32>):
    %y = hlo.negate %x : tensor<4xf32>
    hlo.return %y : tensor<4xf32>
  }
  // CHECK: hlo.fusion loop(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  %f = hlo.fusion loop(%r, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %m = hlo.multiply %x, %y : tensor<4xf32>
    hlo.return %m : tensor<4xf32>
  }
  return %f : tensor<4xf32>
}

// CHECK-LABEL: func.func @xla_opcodes
func.func @xla_opcodes(%f: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xui8>) {
  // CHECK: hlo.tan
  %0 = hlo.tan %f : tensor<4xf32>
  // CHECK: hlo.cbrt
  %1 = hlo.cbrt %0 : tensor<4xf32>
  // CHECK: hlo.erf
  %2 = hlo.erf %1 : tensor<4xf32>
  // CHECK: hlo.round_nearest_afz
  %3 = hlo.round_nearest_afz %2 : tensor<4xf32>
  // CHECK: hlo.acos
  %4 = hlo.acos %3 : tensor<4xf32>
  // CHECK: hlo.acosh
  %5 = hlo.acosh %4 : tensor<4xf32>
  // CHECK: hlo.asin
  %6 = hlo.asin %5 : tensor<4xf32>
  // CHECK: hlo.asinh
  %7 = hlo.asinh %6 : tensor<4xf32>
  // CHECK: hlo.atan %
  %8 = hlo.atan %7 : tensor<4xf32>
  // CHECK: hlo.atanh
  %9 = hlo.atanh %8 : tensor<4xf32>
  // CHECK: hlo.cosh
  %10 = hlo.cosh %9 : tensor<4xf32>
  // CHECK: hlo.sinh
  %11 = hlo.sinh %10 : tensor<4xf32>
  // CHECK: hlo.reduce_precision %{{.*}}, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
  %12 = hlo.reduce_precision %11, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
  // CHECK: hlo.map(%{{.*}}, %{{.*}}) dims = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %13 = hlo.map(%12, %f) dims = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = hlo.multiply %x, %y : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  // CHECK: hlo.shift_left
  %s0 = hlo.shift_left %i, %i : tensor<4xi32>
  // CHECK: hlo.shift_right_arithmetic
  %s1 = hlo.shift_right_arithmetic %s0, %i : tensor<4xi32>
  // CHECK: hlo.shift_right_logical
  %s2 = hlo.shift_right_logical %s1, %i : tensor<4xi32>
  // CHECK: hlo.mulhi
  %s3 = hlo.mulhi %s2, %i : tensor<4xi32>
  // CHECK: hlo.popcnt
  %b0 = hlo.popcnt %u : tensor<4xui8>
  // CHECK: hlo.count_leading_zeros
  %b1 = hlo.count_leading_zeros %b0 : tensor<4xui8>
  return %13, %s3, %b1 : tensor<4xf32>, tensor<4xi32>, tensor<4xui8>
}

// CHECK-LABEL: func.func @collectives
// CHECK-SAME: {hlo.sharding = "{devices=[2,1]0,1}"}
// CHECK-SAME: -> (tensor<2x4xf32> {hlo.sharding = "{replicated}"}
func.func @collectives(%x: tensor<2x4xf32> {hlo.sharding = "{devices=[2,1]0,1}"}) -> (tensor<2x4xf32> {hlo.sharding = "{replicated}"}, tensor<4x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<ui32>, tensor<ui32>) {
  // CHECK: hlo.all_reduce(%{{.+}}) {channel_id = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}
  %0 = hlo.all_reduce(%x) {channel_id = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  // CHECK: hlo.all_gather %{{.+}}, dim = 0 {hlo.sharding = "{replicated}", replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}
  %1 = hlo.all_gather %x, dim = 0 {hlo.sharding = "{replicated}", replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  // CHECK: hlo.reduce_scatter %{{.+}}, dim = 0 {replica_groups = dense<> : tensor<0x0xi64>}
  %2 = hlo.reduce_scatter %x, dim = 0 {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<2x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.maximum %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  // CHECK: hlo.all_to_all %{{.+}}, dim = 0 {channel_id = 2 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : tensor<2x4xf32>
  %3 = hlo.all_to_all %x, dim = 0 {channel_id = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<2x4xf32>
  // CHECK: hlo.collective_permute %{{.+}} {source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>} : tensor<2x4xf32>
  %4 = hlo.collective_permute %x {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : tensor<2x4xf32>
  // CHECK: hlo.collective_broadcast %{{.+}} {replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>} : tensor<2x4xf32>
  %5 = hlo.collective_broadcast %x {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : tensor<2x4xf32>
  // CHECK: hlo.replica_id : tensor<ui32>
  %6 = hlo.replica_id : tensor<ui32>
  // CHECK: hlo.partition_id : tensor<ui32>
  %7 = hlo.partition_id : tensor<ui32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x4xf32>, tensor<4x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<ui32>, tensor<ui32>
}
