// RUN: tpuc-opt %s --canonicalize --split-input-file | FileCheck %s
// Folders and canonicalization patterns of the hlo dialect.

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.+]] = hlo.reshape %[[X]] : (tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = hlo.reshape %x : (tensor<4x8xf32>) -> tensor<2x16xf32>
  %1 = hlo.reshape %0 : (tensor<2x16xf32>) -> tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----

// CHECK-LABEL: func.func @identity_folds
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identity_folds(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = hlo.reshape %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = hlo.convert %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = hlo.transpose %x, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = hlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.+]] = hlo.transpose %[[X]], dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %0 = hlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = hlo.transpose %0, dims = [2, 1, 0] : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = hlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = hlo.transpose %0, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Constants fold through reshape and splat broadcasts.
// CHECK-LABEL: func.func @constant_folds
// CHECK-DAG: %[[A:.+]] = hlo.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: %[[B:.+]] = hlo.constant dense<7> : tensor<3x5xi32>
// CHECK: return %[[A]], %[[B]]
func.func @constant_folds() -> (tensor<2x2xf32>, tensor<3x5xi32>) {
  %c = hlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = hlo.reshape %c : (tensor<4xf32>) -> tensor<2x2xf32>
  %s = hlo.constant dense<7> : tensor<i32>
  %1 = hlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
  return %0, %1 : tensor<2x2xf32>, tensor<3x5xi32>
}

// -----

// CHECK-LABEL: func.func @tuple_element
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<i32>)
// CHECK-NEXT: return %[[B]]
func.func @tuple_element(%a: tensor<4xf32>, %b: tensor<i32>) -> tensor<i32> {
  %t = hlo.tuple %a, %b : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
  %e = hlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  return %e : tensor<i32>
}

// -----

// Algebraic identities, as XLA's algebraic simplifier applies them.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[I:.+]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]], %[[I]]
func.func @identities(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %zero = hlo.constant dense<0.0> : tensor<4xf32>
  %one = hlo.constant dense<1.0> : tensor<4xf32>
  %ione = hlo.constant dense<1> : tensor<4xi32>
  %0 = hlo.add %zero, %x : tensor<4xf32>
  %1 = hlo.subtract %x, %zero : tensor<4xf32>
  %2 = hlo.multiply %x, %one : tensor<4xf32>
  %3 = hlo.divide %x, %one : tensor<4xf32>
  %4 = hlo.multiply %ione, %i : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// Non-identities stay: x * 2, x - x, 0 / x.
// CHECK-LABEL: func.func @not_identities
// CHECK: hlo.multiply
// CHECK: hlo.subtract
// CHECK: hlo.divide
func.func @not_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %two = hlo.constant dense<2.0> : tensor<4xf32>
  %zero = hlo.constant dense<0.0> : tensor<4xf32>
  %0 = hlo.multiply %x, %two : tensor<4xf32>
  %1 = hlo.subtract %x, %x : tensor<4xf32>
  %2 = hlo.divide %zero, %x : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A widening round trip folds; a narrowing one (it rounds) does not.
// CHECK-LABEL: func.func @convert_round_trips
// CHECK-SAME: (%[[B:.+]]: tensor<4xbf16>, %[[F:.+]]: tensor<4xf32>)
// CHECK-NEXT: %[[N:.+]] = hlo.convert %[[F]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: %[[W:.+]] = hlo.convert %[[N]] : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT: return %[[B]], %[[W]]
func.func @convert_round_trips(%b: tensor<4xbf16>, %f: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xf32>) {
  %0 = hlo.convert %b : (tensor<4xbf16>) -> tensor<4xf32>
  %1 = hlo.convert %0 : (tensor<4xf32>) -> tensor<4xbf16>
  %2 = hlo.convert %f : (tensor<4xf32>) -> tensor<4xbf16>
  %3 = hlo.convert %2 : (tensor<4xbf16>) -> tensor<4xf32>
  return %1, %3 : tensor<4xbf16>, tensor<4xf32>
}

// -----

// A transpose feeding a dot folds into its dimension numbers.
// CHECK-LABEL: func.func @transpose_into_dot
// CHECK-SAME: (%[[A:.+]]: tensor<3x2xf32>, %[[B:.+]]: tensor<4x3xf32>)
// CHECK-NEXT: %[[D:.+]] = hlo.dot_general %[[A]], %[[B]], dims = <lhs_contracting = [0], rhs_contracting = [1]> : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[D]]
func.func @transpose_into_dot(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %at = hlo.transpose %a, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %bt = hlo.transpose %b, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = hlo.dot_general %at, %bt, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A squeeze after a transpose moves before it, so the transpose reaches
// the dot (JAX's attention: k transposed, its unit batch dim squeezed).
// CHECK-LABEL: func.func @squeeze_before_transpose
// CHECK-SAME: (%[[Q:.+]]: tensor<1x12x128x64xbf16>, %[[K:.+]]: tensor<1x12x128x64xbf16>)
// CHECK-DAG: %[[QS:.+]] = hlo.reshape %[[Q]] : (tensor<1x12x128x64xbf16>) -> tensor<12x128x64xbf16>
// CHECK-DAG: %[[KS:.+]] = hlo.reshape %[[K]] : (tensor<1x12x128x64xbf16>) -> tensor<12x128x64xbf16>
// CHECK: hlo.dot_general %[[QS]], %[[KS]], dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]>
// CHECK-NOT: hlo.transpose
func.func @squeeze_before_transpose(%q: tensor<1x12x128x64xbf16>, %k: tensor<1x12x128x64xbf16>) -> tensor<12x128x128xbf16> {
  %qs = hlo.reshape %q : (tensor<1x12x128x64xbf16>) -> tensor<12x128x64xbf16>
  %kt = hlo.transpose %k, dims = [0, 1, 3, 2] : (tensor<1x12x128x64xbf16>) -> tensor<1x12x64x128xbf16>
  %ks = hlo.reshape %kt : (tensor<1x12x64x128xbf16>) -> tensor<12x64x128xbf16>
  %d = hlo.dot_general %qs, %ks, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<12x128x64xbf16>, tensor<12x64x128xbf16>) -> tensor<12x128x128xbf16>
  return %d : tensor<12x128x128xbf16>
}

// -----

// Not when the reshape keeps a unit dim, regroups dims, or the transpose
// has another reader.
// CHECK-LABEL: func.func @squeeze_stays_after_transpose
// CHECK: %[[T1:.+]] = hlo.transpose %arg0, dims = [0, 2, 1]
// CHECK-NEXT: hlo.reshape %[[T1]] : (tensor<1x4x3xf32>) -> tensor<4x1x3xf32>
// CHECK-NEXT: %[[T2:.+]] = hlo.transpose %arg1, dims = [0, 2, 1]
// CHECK-NEXT: hlo.reshape %[[T2]] : (tensor<1x4x3xf32>) -> tensor<12xf32>
// CHECK-NEXT: %[[T3:.+]] = hlo.transpose %arg2, dims = [0, 2, 1]
// CHECK-NEXT: hlo.reshape %[[T3]] : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
func.func @squeeze_stays_after_transpose(%a: tensor<1x3x4xf32>, %b: tensor<1x3x4xf32>, %c: tensor<1x3x4xf32>) -> (tensor<4x1x3xf32>, tensor<12xf32>, tensor<4x3xf32>, tensor<1x4x3xf32>) {
  %at = hlo.transpose %a, dims = [0, 2, 1] : (tensor<1x3x4xf32>) -> tensor<1x4x3xf32>
  %ar = hlo.reshape %at : (tensor<1x4x3xf32>) -> tensor<4x1x3xf32>
  %bt = hlo.transpose %b, dims = [0, 2, 1] : (tensor<1x3x4xf32>) -> tensor<1x4x3xf32>
  %br = hlo.reshape %bt : (tensor<1x4x3xf32>) -> tensor<12xf32>
  %ct = hlo.transpose %c, dims = [0, 2, 1] : (tensor<1x3x4xf32>) -> tensor<1x4x3xf32>
  %cr = hlo.reshape %ct : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
  return %ar, %br, %cr, %ct : tensor<4x1x3xf32>, tensor<12xf32>, tensor<4x3xf32>, tensor<1x4x3xf32>
}

// -----

// ... but not when it would reorder the result's free dimensions.
// CHECK-LABEL: func.func @transpose_reorders_free_dims
// CHECK: hlo.transpose
// CHECK: hlo.dot_general
func.func @transpose_reorders_free_dims(%a: tensor<5x2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  %at = hlo.transpose %a, dims = [1, 0, 2] : (tensor<5x2x3xf32>) -> tensor<2x5x3xf32>
  %0 = hlo.dot_general %at, %b, dims = <lhs_contracting = [2], rhs_contracting = [0]> : (tensor<2x5x3xf32>, tensor<3x4xf32>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

// A float splat converts to a float splat, rounded to nearest even (0.1 in
// bf16 is 0x3DCD = 0.10009765625); a NaN splat and a float to integer
// conversion are left to the runtime.
// CHECK-LABEL: func.func @convert_of_splat
// CHECK-DAG: %[[Z:.+]] = hlo.constant dense<0.000000e+00> : tensor<4x8xbf16>
// CHECK-DAG: %[[T:.+]] = hlo.constant dense<1.000980e-01> : tensor<4x8xbf16>
// CHECK-DAG: %[[W:.+]] = hlo.constant dense<-1.500000e+00> : tensor<4xf32>
// CHECK-DAG: %[[NAN:.+]] = hlo.constant dense<0x7FC00000> : tensor<4xf32>
// CHECK-DAG: %[[I:.+]] = hlo.constant dense<2.500000e+00> : tensor<4xf32>
// CHECK-DAG: %[[N:.+]] = hlo.convert %[[NAN]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-DAG: %[[S:.+]] = hlo.convert %[[I]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: return %[[Z]], %[[T]], %[[W]], %[[N]], %[[S]]
func.func @convert_of_splat() -> (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xbf16>, tensor<4xi32>) {
  %zero = hlo.constant dense<0.0> : tensor<4x8xf32>
  %tenth = hlo.constant dense<0.1> : tensor<4x8xf32>
  %b = hlo.constant dense<-1.5> : tensor<4xbf16>
  %nan = hlo.constant dense<0x7FC00000> : tensor<4xf32>
  %f = hlo.constant dense<2.5> : tensor<4xf32>
  %0 = hlo.convert %zero : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %1 = hlo.convert %tenth : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %2 = hlo.convert %b : (tensor<4xbf16>) -> tensor<4xf32>
  %3 = hlo.convert %nan : (tensor<4xf32>) -> tensor<4xbf16>
  %4 = hlo.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4xf32>, tensor<4xbf16>, tensor<4xi32>
}

// -----

// A convolution's input padded by +0.0 on the spatial edges (JAX's
// `convert(0)` pad value): the padding joins the convolution's own.
// CHECK-LABEL: func.func @pad_into_convolution
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x224x224x3xf32>, %[[W:[^:]+]]: tensor<7x7x3x64xf32>)
// CHECK-NOT: hlo.pad
// CHECK: %[[C:.+]] = hlo.convolution %[[X]], %[[W]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 3, 4, 3, 4>, window_strides = array<i64: 2, 2>}
// CHECK-SAME: (tensor<1x224x224x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x113x113x64xf32>
// CHECK-NEXT: return %[[C]]
func.func @pad_into_convolution(%x: tensor<1x224x224x3xf32>, %w: tensor<7x7x3x64xf32>) -> tensor<1x113x113x64xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %z = hlo.convert %zero : (tensor<i32>) -> tensor<f32>
  %p = hlo.pad %x, %z, low = [0, 3, 3, 0], high = [0, 3, 3, 0], interior = [0, 0, 0, 0] : (tensor<1x224x224x3xf32>, tensor<f32>) -> tensor<1x230x230x3xf32>
  %0 = hlo.convolution %p, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>}
       : (tensor<1x230x230x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x113x113x64xf32>
  return %0 : tensor<1x113x113x64xf32>
}

// -----

// Pads the convolution's padding is not: by -0.0 or 1.0, of the feature
// dim, interior, negative edges, or under lhs_dilation. All stay.
// CHECK-LABEL: func.func @pad_stays
// CHECK-COUNT-6: hlo.pad
// CHECK-NOT: hlo.pad
func.func @pad_stays(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>, %w6: tensor<3x3x6x8xf32>)
    -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x6x6x8xf32>, tensor<1x13x13x8xf32>, tensor<1x5x5x8xf32>, tensor<1x17x17x8xf32>) {
  %nz = hlo.constant dense<-0.0> : tensor<f32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %z = hlo.constant dense<0.0> : tensor<f32>
  %p0 = hlo.pad %x, %nz, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
  %0 = hlo.convolution %p0, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %p1 = hlo.pad %x, %one, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
  %1 = hlo.convolution %p1, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %p2 = hlo.pad %x, %z, low = [0, 0, 0, 1], high = [0, 0, 0, 1], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x8x8x6xf32>
  %2 = hlo.convolution %p2, %w6, dim_labels = <"b01f_01io->b01f"> : (tensor<1x8x8x6xf32>, tensor<3x3x6x8xf32>) -> tensor<1x6x6x8xf32>
  %p3 = hlo.pad %x, %z, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 1, 1, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x15x15x4xf32>
  %3 = hlo.convolution %p3, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x15x15x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x13x13x8xf32>
  %p4 = hlo.pad %x, %z, low = [0, -1, -1, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x7x7x4xf32>
  %4 = hlo.convolution %p4, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x7x7x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x5x5x8xf32>
  %p5 = hlo.pad %x, %z, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
  %5 = hlo.convolution %p5, %w, dim_labels = <"b01f_01io->b01f"> {lhs_dilation = array<i64: 2, 2>} : (tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x17x17x8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x6x6x8xf32>, tensor<1x13x13x8xf32>, tensor<1x5x5x8xf32>, tensor<1x17x17x8xf32>
}

// -----

// The relu gradient's mask reads the activation, not the pre-activation:
// for a constant bound c (a splat, or a broadcast of a scalar constant,
// which folds to one),
// x > c is maximum(x, c) > c (c < x too), and x < c is minimum(x, c) < c
// (c > x too).
// CHECK-LABEL: func.func @compare_clamped
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-DAG: %[[C:.+]] = hlo.constant dense<0.000000e+00> : tensor<4x8xf32>
// CHECK-DAG: %[[B:.+]] = hlo.constant dense<1.000000e+00> : tensor<4x8xf32>
// CHECK-DAG: %[[MAX:.+]] = hlo.maximum %[[X]], %[[C]]
// CHECK-DAG: %[[MIN:.+]] = hlo.minimum %[[X]], %[[B]]
// CHECK-DAG: hlo.compare GT, %[[MAX]], %[[C]]
// CHECK-DAG: hlo.compare LT, %[[C]], %[[MAX]]
// CHECK-DAG: hlo.compare LT, %[[MIN]], %[[B]]
// CHECK-DAG: hlo.compare GT, %[[B]], %[[MIN]]
func.func @compare_clamped(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>) {
  %c = hlo.constant dense<0.0> : tensor<4x8xf32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %b = hlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %max = hlo.maximum %x, %c : tensor<4x8xf32>
  %min = hlo.minimum %b, %x : tensor<4x8xf32>
  %0 = hlo.compare GT, %x, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %1 = hlo.compare LT, %c, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %2 = hlo.compare LT, %x, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %3 = hlo.compare GT, %b, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  return %max, %min, %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>
}

// -----

// Not rewritten: GE (x >= 0 is not maximum(x, 0) >= 0), a TOTALORDER
// compare, integers, a bound that is not a constant, a maximum after the
// compare, the maximum's bound against x < c (nothing to gain).
// CHECK-LABEL: func.func @compare_not_clamped
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[D:.+]]: tensor<4xf32>, %[[I:.+]]: tensor<4xi32>)
// CHECK-DAG: %[[C:.+]] = hlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[K:.+]] = hlo.constant dense<0> : tensor<4xi32>
// CHECK: hlo.compare GE, %[[X]], %[[C]]
// CHECK: hlo.compare GT, %[[X]], %[[C]], TOTALORDER
// CHECK: hlo.compare GT, %[[I]], %[[K]]
// CHECK: hlo.compare GT, %[[X]], %[[D]]
// CHECK: hlo.compare LT, %[[X]], %[[C]]
// CHECK: hlo.compare LT, %[[X]], %[[C]]
func.func @compare_not_clamped(%x: tensor<4xf32>, %d: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %c = hlo.constant dense<0.0> : tensor<4xf32>
  %k = hlo.constant dense<0> : tensor<4xi32>
  %max = hlo.maximum %x, %c : tensor<4xf32>
  %maxd = hlo.maximum %x, %d : tensor<4xf32>
  %imax = hlo.maximum %i, %k : tensor<4xi32>
  %0 = hlo.compare GE, %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = hlo.compare GT, %x, %c, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = hlo.compare GT, %i, %k : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = hlo.compare GT, %x, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = hlo.compare LT, %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = hlo.compare LT, %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %min = hlo.minimum %x, %c : tensor<4xf32>
  return %max, %maxd, %imax, %0, %1, %2, %3, %4, %5, %min : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// -----

// resnet50's pool1: relu, a pad by convert(0), a -inf max-pool. The relu's
// output is >= 0 and every window holds one of its elements, so the pad
// value never wins: the padding joins the reduce_window's own.
// CHECK-LABEL: func.func @pad_into_max_pool
// CHECK-SAME: (%[[Y:.+]]: tensor<1x8x8x4xf32>)
// CHECK-NOT: hlo.pad
// CHECK: %[[R:.+]] = hlo.maximum %[[Y]]
// CHECK: hlo.reduce_window(%[[R]]) init({{.+}}) {padding = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}
// CHECK-SAME: (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
func.func @pad_into_max_pool(%y: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %c0 = hlo.constant dense<0.0> : tensor<f32>
  %b = hlo.broadcast_in_dim %c0, dims = [] : (tensor<f32>) -> tensor<1x8x8x4xf32>
  %r = hlo.maximum %y, %b : tensor<1x8x8x4xf32>
  %zero = hlo.constant dense<0> : tensor<i32>
  %z = hlo.convert %zero : (tensor<i32>) -> tensor<f32>
  %p = hlo.pad %r, %z, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %0 = hlo.reduce_window(%p) init(%ninf) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x10x10x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A pad by the init value is the reduce_window's own padding, whatever
// the reducer and the operand (a sum pool; the padding adds to its own).
// CHECK-LABEL: func.func @pad_into_sum_pool
// CHECK-SAME: (%[[X:.+]]: tensor<6x6xf32>)
// CHECK-NOT: hlo.pad
// CHECK: hlo.reduce_window(%[[X]]) init({{.+}}) {padding = array<i64: 3, 1, 0, 2>, window_dimensions = array<i64: 2, 2>}
func.func @pad_into_sum_pool(%x: tensor<6x6xf32>) -> tensor<9x7xf32> {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %p = hlo.pad %x, %z, low = [2, 0], high = [1, 1], interior = [0, 0] : (tensor<6x6xf32>, tensor<f32>) -> tensor<9x7xf32>
  %0 = hlo.reduce_window(%p) init(%z) {window_dimensions = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>} : (tensor<9x7xf32>, tensor<f32>) -> tensor<9x7xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = hlo.add %a, %c : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<9x7xf32>
}

// -----

// Pads the pool's padding is not: by 0 of an unclamped operand, of a relu
// clamped below the pad value (-1 < 0), where a window is all padding
// (low 3 >= the window), into a min-pool of a relu, and interior padding.
// CHECK-LABEL: func.func @pool_pad_stays
// CHECK-COUNT-5: hlo.pad
// CHECK-NOT: hlo.pad
func.func @pool_pad_stays(%y: tensor<8x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<7x7xf32>) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %m1 = hlo.constant dense<-1.0> : tensor<8x8xf32>
  %zs = hlo.constant dense<0.0> : tensor<8x8xf32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %inf = hlo.constant dense<0x7F800000> : tensor<f32>
  %r = hlo.maximum %y, %zs : tensor<8x8xf32>
  %rm1 = hlo.maximum %y, %m1 : tensor<8x8xf32>
  %p0 = hlo.pad %y, %z, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x10xf32>
  %0 = hlo.reduce_window(%p0) init(%ninf) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>} : (tensor<10x10xf32>, tensor<f32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %p1 = hlo.pad %rm1, %z, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x10xf32>
  %1 = hlo.reduce_window(%p1) init(%ninf) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>} : (tensor<10x10xf32>, tensor<f32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %p2 = hlo.pad %r, %z, low = [3, 3], high = [0, 0], interior = [0, 0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<11x11xf32>
  %2 = hlo.reduce_window(%p2) init(%ninf) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 3, 3>, padding = array<i64: 0, 1, 0, 1>} : (tensor<11x11xf32>, tensor<f32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %p3 = hlo.pad %r, %z, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x10xf32>
  %3 = hlo.reduce_window(%p3) init(%inf) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>} : (tensor<10x10xf32>, tensor<f32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.minimum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  %p4 = hlo.pad %r, %z, low = [0, 0], high = [0, 0], interior = [1, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<15x15xf32>
  %4 = hlo.reduce_window(%p4) init(%ninf) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>} : (tensor<15x15xf32>, tensor<f32>) -> tensor<7x7xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %m = hlo.maximum %a, %c : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<7x7xf32>
}

// -----

// Per-row statistics [1,R,1] of a reduce's [1,R] (a layer norm as jax
// writes it): the elementwise ops over unit-dim reshapes run on the rank-1
// [R] vector and the reshapes around them cancel, so the broadcast reads a
// rank-1 source (FusedKernel.cpp RowStream).
// CHECK-LABEL: func.func @elementwise_on_row_vector
// CHECK-SAME: (%[[S:.+]]: tensor<1x300xf32>)
// CHECK-DAG: %[[N:.+]] = hlo.constant dense<2.000000e+02> : tensor<300xf32>
// CHECK-DAG: %[[E:.+]] = hlo.constant dense<1.001360e-05> : tensor<300xbf16>
// CHECK: %[[V:.+]] = hlo.reshape %[[S]] : (tensor<1x300xf32>) -> tensor<300xf32>
// CHECK-NEXT: %[[D:.+]] = hlo.divide %[[V]], %[[N]] : tensor<300xf32>
// CHECK-NEXT: %[[C:.+]] = hlo.convert %[[D]] : (tensor<300xf32>) -> tensor<300xbf16>
// CHECK-NEXT: %[[A:.+]] = hlo.add %[[C]], %[[E]] : tensor<300xbf16>
// CHECK-NEXT: %[[Q:.+]] = hlo.sqrt %[[A]] : tensor<300xbf16>
// CHECK-DAG: %[[R3:.+]] = hlo.reshape %[[Q]] : (tensor<300xbf16>) -> tensor<1x300x1xbf16>
// CHECK-DAG: %[[R:.+]] = hlo.reshape %[[Q]] : (tensor<300xbf16>) -> tensor<1x300xbf16>
// CHECK: %[[B:.+]] = hlo.broadcast_in_dim %[[R]], dims = [0, 1] : (tensor<1x300xbf16>) -> tensor<1x300x200xbf16>
// CHECK-NEXT: return %[[B]], %[[R3]]
func.func @elementwise_on_row_vector(%s: tensor<1x300xf32>) -> (tensor<1x300x200xbf16>, tensor<1x300x1xbf16>) {
  %n = hlo.constant dense<200.0> : tensor<1x300x1xf32>
  %eps = hlo.constant dense<1.0e-5> : tensor<1x300x1xbf16>
  %s3 = hlo.reshape %s : (tensor<1x300xf32>) -> tensor<1x300x1xf32>
  %m = hlo.divide %s3, %n : tensor<1x300x1xf32>
  %mb = hlo.convert %m : (tensor<1x300x1xf32>) -> tensor<1x300x1xbf16>
  %a = hlo.add %mb, %eps : tensor<1x300x1xbf16>
  %q = hlo.sqrt %a : tensor<1x300x1xbf16>
  %q2 = hlo.reshape %q : (tensor<1x300x1xbf16>) -> tensor<1x300xbf16>
  %b = hlo.broadcast_in_dim %q2, dims = [0, 1] : (tensor<1x300xbf16>) -> tensor<1x300x200xbf16>
  return %b, %q : tensor<1x300x200xbf16>, tensor<1x300x1xbf16>
}

// -----

// Not rewritten: statistics with two non-unit dims ([B,S,1]: the rank-2
// vector has another layout than the [B,S,1] one the kernels read), and an
// elementwise op with an operand that is neither a reshape nor a constant,
// one with a sharding of its own rank.
// CHECK-LABEL: func.func @elementwise_not_on_row_vector
// CHECK: hlo.divide %{{.+}}, %{{.+}} : tensor<2x300x1xf32>
// CHECK: hlo.add %{{.+}}, %{{.+}} : tensor<1x300x1xf32>
// CHECK: hlo.negate %{{.+}} {hlo.sharding = "{devices=[1,2,1]0,1}"} : tensor<1x300x1xf32>
func.func @elementwise_not_on_row_vector(%s: tensor<2x300xf32>, %t: tensor<300xf32>, %u: tensor<1x300x1xf32>) -> (tensor<2x300x1xf32>, tensor<1x300x1xf32>, tensor<1x300x1xf32>) {
  %n = hlo.constant dense<200.0> : tensor<2x300x1xf32>
  %s3 = hlo.reshape %s : (tensor<2x300xf32>) -> tensor<2x300x1xf32>
  %m = hlo.divide %s3, %n : tensor<2x300x1xf32>
  %t3 = hlo.reshape %t : (tensor<300xf32>) -> tensor<1x300x1xf32>
  %a = hlo.add %t3, %u : tensor<1x300x1xf32>
  %g = hlo.negate %t3 {hlo.sharding = "{devices=[1,2,1]0,1}"} : tensor<1x300x1xf32>
  return %m, %a, %g : tensor<2x300x1xf32>, tensor<1x300x1xf32>, tensor<1x300x1xf32>
}

// -----

// A reduce over unit dims is its body applied once: op(init, x), in the
// body's operand order.
// CHECK-LABEL: func.func @reduce_of_unit_dims
// CHECK-SAME: (%[[M:.+]]: tensor<6x1xi1>, %[[X:.+]]: tensor<1x4x1xf32>)
// (The broadcast inits fold to constants; `and` takes its constant second.)
// CHECK-DAG: %[[I:.+]] = hlo.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-DAG: %[[T:.+]] = hlo.constant dense<true> : tensor<6xi1>
// CHECK-DAG: %[[MR:.+]] = hlo.reshape %[[M]] : (tensor<6x1xi1>) -> tensor<6xi1>
// CHECK-DAG: hlo.and %[[MR]], %[[T]] : tensor<6xi1>
// CHECK-DAG: %[[XR:.+]] = hlo.reshape %[[X]] : (tensor<1x4x1xf32>) -> tensor<4xf32>
// CHECK-DAG: hlo.subtract %[[XR]], %[[I]] : tensor<4xf32>
// CHECK-NOT: hlo.reduce
func.func @reduce_of_unit_dims(%m: tensor<6x1xi1>, %x: tensor<1x4x1xf32>) -> (tensor<6xi1>, tensor<4xf32>) {
  %true = hlo.constant dense<true> : tensor<i1>
  %0 = hlo.reduce(%m) init(%true) dims = [1] : (tensor<6x1xi1>, tensor<i1>) -> tensor<6xi1> {
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = hlo.and %a, %b : tensor<i1>
    hlo.return %r : tensor<i1>
  }
  %c = hlo.constant dense<2.0> : tensor<f32>
  %1 = hlo.reduce(%x) init(%c) dims = [0, 2] : (tensor<1x4x1xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = hlo.subtract %b, %a : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  return %0, %1 : tensor<6xi1>, tensor<4xf32>
}

// -----

// Not over a dim larger than 1, nor with a body of more than one op.
// CHECK-LABEL: func.func @reduce_stays
// CHECK-COUNT-2: hlo.reduce
func.func @reduce_stays(%x: tensor<4x2xf32>, %y: tensor<4x1xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = hlo.constant dense<0.0> : tensor<f32>
  %0 = hlo.reduce(%x) init(%c) dims = [1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = hlo.add %a, %b : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  %1 = hlo.reduce(%y) init(%c) dims = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    %r = hlo.multiply %s, %s : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A reshape between the converts of a round trip through bf16 moves before
// them (ReshapeBeforeRoundTrip): it then reads the f32 array itself.
// CHECK-LABEL: func.func @reshape_before_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<250x50xf32>)
// CHECK-NEXT: %[[R:.+]] = hlo.reshape %[[X]] : (tensor<250x50xf32>) -> tensor<10x25x50xf32>
// CHECK-NEXT: %[[B:.+]] = hlo.convert %[[R]] : (tensor<10x25x50xf32>) -> tensor<10x25x50xbf16>
// CHECK-NEXT: %[[F:.+]] = hlo.convert %[[B]] : (tensor<10x25x50xbf16>) -> tensor<10x25x50xf32>
// CHECK-NEXT: return %[[F]]
func.func @reshape_before_round_trip(%x: tensor<250x50xf32>) -> tensor<10x25x50xf32> {
  %b = hlo.convert %x : (tensor<250x50xf32>) -> tensor<250x50xbf16>
  %r = hlo.reshape %b : (tensor<250x50xbf16>) -> tensor<10x25x50xbf16>
  %f = hlo.convert %r : (tensor<10x25x50xbf16>) -> tensor<10x25x50xf32>
  return %f : tensor<10x25x50xf32>
}

// -----

// Not when the narrow array has another reader, the second convert goes
// to another type than the first one's operand, or the reshape changes the
// minor dim (a relayout, cheaper on bf16).
// CHECK-LABEL: func.func @reshape_stays_between_converts
// CHECK: hlo.convert %arg0 : (tensor<250x50xf32>) -> tensor<250x50xbf16>
// CHECK-NEXT: hlo.reshape {{.*}} : (tensor<250x50xbf16>) -> tensor<10x25x50xbf16>
// CHECK-NEXT: hlo.convert {{.*}} : (tensor<10x25x50xbf16>) -> tensor<10x25x50xf32>
// CHECK: hlo.convert %arg1 : (tensor<8x4xbf16>) -> tensor<8x4xf32>
// CHECK-NEXT: hlo.reshape {{.*}} : (tensor<8x4xf32>) -> tensor<32xf32>
// CHECK-NEXT: hlo.convert {{.*}} : (tensor<32xf32>) -> tensor<32xf64>
// CHECK: hlo.convert %arg2 : (tensor<3616x6x6xf32>) -> tensor<3616x6x6xbf16>
// CHECK-NEXT: hlo.reshape {{.*}} : (tensor<3616x6x6xbf16>) -> tensor<3616x36xbf16>
// CHECK-NEXT: hlo.convert {{.*}} : (tensor<3616x36xbf16>) -> tensor<3616x36xf32>
// A unit-dim reshape is left to ElementwiseOnRowVector (the two patterns
// would undo each other).
// CHECK: hlo.convert %arg3 : (tensor<8x1xf32>) -> tensor<8x1xbf16>
func.func @reshape_stays_between_converts(%x: tensor<250x50xf32>, %y: tensor<8x4xbf16>,
                                          %z: tensor<3616x6x6xf32>, %u: tensor<8x1xf32>)
    -> (tensor<10x25x50xf32>, tensor<10x25x50xbf16>, tensor<32xf64>,
        tensor<3616x36xf32>, tensor<1x8x1xf32>) {
  %b = hlo.convert %x : (tensor<250x50xf32>) -> tensor<250x50xbf16>
  %r = hlo.reshape %b : (tensor<250x50xbf16>) -> tensor<10x25x50xbf16>
  %f = hlo.convert %r : (tensor<10x25x50xbf16>) -> tensor<10x25x50xf32>
  %w = hlo.convert %y : (tensor<8x4xbf16>) -> tensor<8x4xf32>
  %s = hlo.reshape %w : (tensor<8x4xf32>) -> tensor<32xf32>
  %d = hlo.convert %s : (tensor<32xf32>) -> tensor<32xf64>
  %zb = hlo.convert %z : (tensor<3616x6x6xf32>) -> tensor<3616x6x6xbf16>
  %zr = hlo.reshape %zb : (tensor<3616x6x6xbf16>) -> tensor<3616x36xbf16>
  %zf = hlo.convert %zr : (tensor<3616x36xbf16>) -> tensor<3616x36xf32>
  %ub = hlo.convert %u : (tensor<8x1xf32>) -> tensor<8x1xbf16>
  %ur = hlo.reshape %ub : (tensor<8x1xbf16>) -> tensor<1x8x1xbf16>
  %uf = hlo.convert %ur : (tensor<1x8x1xbf16>) -> tensor<1x8x1xf32>
  return %f, %r, %d, %zf, %uf : tensor<10x25x50xf32>, tensor<10x25x50xbf16>, tensor<32xf64>,
      tensor<3616x36xf32>, tensor<1x8x1xf32>
}
