// RUN: tpuc-opt %s --tpuc-canonicalize-convolutions | FileCheck %s
// The rewrites keep the values: the reference interpreter agrees before
// and after them on random inputs up to the summation order (1e-6 of the
// largest output; the pads, slices and transposes are exact).
// RUN: tpuc-opt %s --tpuc-canonicalize-convolutions -o %t.mlir
// RUN: rm -rf %t.input_grad && tpuc interpret %s --function=input_grad --random-inputs=7 --output-dir=%t.input_grad/want
// RUN: tpuc interpret %t.mlir --function=input_grad --random-inputs=7 --output-dir=%t.input_grad/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.input_grad/got %t.input_grad/want 1 1e-6 0.9999999
// RUN: rm -rf %t.negative_padding && tpuc interpret %s --function=negative_padding --random-inputs=7 --output-dir=%t.negative_padding/want
// RUN: tpuc interpret %t.mlir --function=negative_padding --random-inputs=7 --output-dir=%t.negative_padding/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.negative_padding/got %t.negative_padding/want 1 1e-6 0.9999999
// RUN: rm -rf %t.nchw && tpuc interpret %s --function=nchw --random-inputs=7 --output-dir=%t.nchw/want
// RUN: tpuc interpret %t.mlir --function=nchw --random-inputs=7 --output-dir=%t.nchw/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.nchw/got %t.nchw/want 1 1e-6 0.9999999
// RUN: rm -rf %t.nchw_weight_grad && tpuc interpret %s --function=nchw_weight_grad --random-inputs=7 --output-dir=%t.nchw_weight_grad/want
// RUN: tpuc interpret %t.mlir --function=nchw_weight_grad --random-inputs=7 --output-dir=%t.nchw_weight_grad/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.nchw_weight_grad/got %t.nchw_weight_grad/want 1 1e-6 0.9999999
// RUN: rm -rf %t.groups_sliced && tpuc interpret %s --function=groups_sliced --random-inputs=7 --output-dir=%t.groups_sliced/want
// RUN: tpuc interpret %t.mlir --function=groups_sliced --random-inputs=7 --output-dir=%t.groups_sliced/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.groups_sliced/got %t.groups_sliced/want 1 1e-6 0.9999999
// RUN: rm -rf %t.groups_block_diagonal && tpuc interpret %s --function=groups_block_diagonal --random-inputs=7 --output-dir=%t.groups_block_diagonal/want
// RUN: tpuc interpret %t.mlir --function=groups_block_diagonal --random-inputs=7 --output-dir=%t.groups_block_diagonal/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.groups_block_diagonal/got %t.groups_block_diagonal/want 1 1e-6 0.9999999
// RUN: rm -rf %t.depthwise_relabel && tpuc interpret %s --function=depthwise_relabel --random-inputs=7 --output-dir=%t.depthwise_relabel/want
// RUN: tpuc interpret %t.mlir --function=depthwise_relabel --random-inputs=7 --output-dir=%t.depthwise_relabel/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.depthwise_relabel/got %t.depthwise_relabel/want 1 1e-6 0.9999999
// RUN: rm -rf %t.batch_groups && tpuc interpret %s --function=batch_groups --random-inputs=7 --output-dir=%t.batch_groups/want
// RUN: tpuc interpret %t.mlir --function=batch_groups --random-inputs=7 --output-dir=%t.batch_groups/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.batch_groups/got %t.batch_groups/want 1 1e-6 0.9999999
// RUN: rm -rf %t.conv1d && tpuc interpret %s --function=conv1d --random-inputs=7 --output-dir=%t.conv1d/want
// RUN: tpuc interpret %t.mlir --function=conv1d --random-inputs=7 --output-dir=%t.conv1d/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.conv1d/got %t.conv1d/want 1 1e-6 0.9999999
// RUN: rm -rf %t.conv1d_oi0 && tpuc interpret %s --function=conv1d_oi0 --random-inputs=7 --output-dir=%t.conv1d_oi0/want
// RUN: tpuc interpret %t.mlir --function=conv1d_oi0 --random-inputs=7 --output-dir=%t.conv1d_oi0/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.conv1d_oi0/got %t.conv1d_oi0/want 1 1e-6 0.9999999
// RUN: rm -rf %t.conv3d && tpuc interpret %s --function=conv3d --random-inputs=7 --output-dir=%t.conv3d/want
// RUN: tpuc interpret %t.mlir --function=conv3d --random-inputs=7 --output-dir=%t.conv3d/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.conv3d/got %t.conv3d/want 1 1e-6 0.9999999
// RUN: rm -rf %t.direct && tpuc interpret %s --function=direct --random-inputs=7 --output-dir=%t.direct/want
// RUN: tpuc interpret %t.mlir --function=direct --random-inputs=7 --output-dir=%t.direct/got
// RUN: %python_numpy %S/../e2e/Inputs/compare.py %t.direct/got %t.direct/want 3 1e-6 0.9999999

// CHECK-LABEL: func.func @input_grad
// CHECK-SAME: (%[[DY:.+]]: tensor<1x4x4x8xf32>, %[[W:.+]]: tensor<3x3x3x8xf32>)
// CHECK:      %[[ZERO:.+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:      %[[P:.+]] = hlo.pad %[[DY]], %[[ZERO]], low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 1, 1, 0] : (tensor<1x4x4x8xf32>, tensor<f32>) -> tensor<1x7x7x8xf32>
// CHECK:      %[[T:.+]] = hlo.transpose %[[W]], dims = [0, 1, 3, 2]
// CHECK:      %[[C:.+]] = hlo.convolution %[[P]], %[[T]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 2, 1, 2>, window_reversal = array<i1: true, true>} : (tensor<1x7x7x8xf32>, tensor<3x3x8x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK:      return %[[C]]
func.func @input_grad(%dy: tensor<1x4x4x8xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x8x8x3xf32> {
  %0 = hlo.convolution %dy, %w, dim_labels = <"b01f_01oi->b01f"> {lhs_dilation = array<i64: 2, 2>, padding = array<i64: 1, 2, 1, 2>, window_reversal = array<i1: true, true>}
       : (tensor<1x4x4x8xf32>, tensor<3x3x3x8xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// CHECK-LABEL: func.func @negative_padding
// CHECK:      %[[P:.+]] = hlo.pad %{{.+}}, %{{.+}}, low = [0, -1, 0, 0], high = [0, 0, -2, 0], interior = [0, 0, 0, 0] : (tensor<1x9x9x3xf32>, tensor<f32>) -> tensor<1x8x7x3xf32>
// CHECK:      hlo.convolution %[[P]], %{{.+}} dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 0, 0, 1, 0>} : (tensor<1x8x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
func.func @negative_padding(%x: tensor<1x9x9x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: -1, 0, 1, -2>}
       : (tensor<1x9x9x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// CHECK-LABEL: func.func @nchw
// CHECK:      %[[X:.+]] = hlo.transpose %arg0, dims = [0, 2, 3, 1]
// CHECK:      %[[W:.+]] = hlo.transpose %arg1, dims = [2, 3, 1, 0]
// CHECK:      %[[C:.+]] = hlo.convolution %[[X]], %[[W]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 2, 2, 2, 2>, rhs_dilation = array<i64: 2, 2>} : (tensor<2x9x7x3xf32>, tensor<3x3x3x10xf32>) -> tensor<2x9x7x10xf32>
// CHECK:      %[[R:.+]] = hlo.transpose %[[C]], dims = [0, 3, 1, 2] : (tensor<2x9x7x10xf32>) -> tensor<2x10x9x7xf32>
// CHECK:      return %[[R]]
func.func @nchw(%x: tensor<2x3x9x7xf32>, %w: tensor<10x3x3x3xf32>) -> tensor<2x10x9x7xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 2, 2, 2, 2>, rhs_dilation = array<i64: 2, 2>}
       : (tensor<2x3x9x7xf32>, tensor<10x3x3x3xf32>) -> tensor<2x10x9x7xf32>
  return %0 : tensor<2x10x9x7xf32>
}

// CHECK-LABEL: func.func @nchw_weight_grad
// A window (9x7) larger than the output (3x3): the weight-gradient kernel.
// CHECK:      %[[X:.+]] = hlo.transpose %arg0, dims = [0, 2, 3, 1]
// CHECK:      %[[DY:.+]] = hlo.transpose %arg1, dims = [0, 2, 3, 1]
// CHECK:      %[[C:.+]] = hlo.convolution %[[X]], %[[DY]], dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<4x9x7x3xf32>, tensor<4x9x7x10xf32>) -> tensor<3x3x3x10xf32>
// CHECK:      hlo.transpose %[[C]], dims = [2, 3, 0, 1] : (tensor<3x3x3x10xf32>) -> tensor<3x10x3x3xf32>
func.func @nchw_weight_grad(%x: tensor<4x3x9x7xf32>, %dy: tensor<4x10x9x7xf32>) -> tensor<10x3x3x3xf32> {
  %0 = hlo.convolution %x, %dy, dim_labels = <"fb01_io01->bf01"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<4x3x9x7xf32>, tensor<4x10x9x7xf32>) -> tensor<3x10x3x3xf32>
  %1 = hlo.transpose %0, dims = [1, 0, 2, 3] : (tensor<3x10x3x3xf32>) -> tensor<10x3x3x3xf32>
  return %1 : tensor<10x3x3x3xf32>
}

// CHECK-LABEL: func.func @groups_sliced
// Two groups of 128 features: 2 x 1 weight tiles against 4 for a
// block-diagonal kernel, so one convolution per group.
// CHECK:      %[[X0:.+]] = hlo.slice %arg0 [0:1:1, 0:5:1, 0:5:1, 0:128:1]
// CHECK:      %[[W0:.+]] = hlo.slice %arg1 [0:3:1, 0:3:1, 0:128:1, 0:128:1]
// CHECK:      %[[C0:.+]] = hlo.convolution %[[X0]], %[[W0]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x5x5x128xf32>, tensor<3x3x128x128xf32>) -> tensor<1x5x5x128xf32>
// CHECK:      %[[X1:.+]] = hlo.slice %arg0 [0:1:1, 0:5:1, 0:5:1, 128:256:1]
// CHECK:      %[[W1:.+]] = hlo.slice %arg1 [0:3:1, 0:3:1, 0:128:1, 128:256:1]
// CHECK:      %[[C1:.+]] = hlo.convolution %[[X1]], %[[W1]]
// CHECK:      %[[R:.+]] = hlo.concatenate(%[[C0]], %[[C1]]) dim = 3
// CHECK:      return %[[R]]
func.func @groups_sliced(%x: tensor<1x5x5x256xf32>, %w: tensor<3x3x128x256xf32>) -> tensor<1x5x5x256xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 2 : i64}
       : (tensor<1x5x5x256xf32>, tensor<3x3x128x256xf32>) -> tensor<1x5x5x256xf32>
  return %0 : tensor<1x5x5x256xf32>
}

// CHECK-LABEL: func.func @groups_block_diagonal
// CHECK:      %[[B:.+]] = hlo.broadcast_in_dim %arg1, dims = [0, 1, 3, 4] : (tensor<3x3x3x8xf32>) -> tensor<3x3x4x3x8xf32>
// CHECK:      %[[K:.+]] = hlo.reshape %[[B]] : (tensor<3x3x4x3x8xf32>) -> tensor<3x3x12x8xf32>
// CHECK:      %[[G:.+]] = hlo.iota dim = 0 : tensor<4xi32>
// CHECK:      %[[GO:.+]] = hlo.broadcast_in_dim %[[G]], dims = [3] : (tensor<4xi32>) -> tensor<3x3x12x4x2xi32>
// CHECK:      %[[GOR:.+]] = hlo.reshape %[[GO]] : (tensor<3x3x12x4x2xi32>) -> tensor<3x3x12x8xi32>
// CHECK:      %[[GI:.+]] = hlo.broadcast_in_dim %[[G]], dims = [2] : (tensor<4xi32>) -> tensor<3x3x4x3x8xi32>
// CHECK:      %[[GIR:.+]] = hlo.reshape %[[GI]] : (tensor<3x3x4x3x8xi32>) -> tensor<3x3x12x8xi32>
// CHECK:      %[[M:.+]] = hlo.compare EQ, %[[GIR]], %[[GOR]]
// CHECK:      %[[Z:.+]] = hlo.constant dense<0.000000e+00> : tensor<3x3x12x8xf32>
// CHECK:      %[[S:.+]] = hlo.select %[[M]], %[[K]], %[[Z]]
// CHECK:      hlo.convolution %arg0, %[[S]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x7x9x12xf32>, tensor<3x3x12x8xf32>) -> tensor<2x7x9x8xf32>
// CHECK-NOT:  feature_group_count
func.func @groups_block_diagonal(%x: tensor<2x7x9x12xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x7x9x8xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 4 : i64}
       : (tensor<2x7x9x12xf32>, tensor<3x3x3x8xf32>) -> tensor<2x7x9x8xf32>
  return %0 : tensor<2x7x9x8xf32>
}

// CHECK-LABEL: func.func @depthwise_nhwc
// The depthwise NHWC kernel's form: left alone (no block-diagonal kernel).
// CHECK:      hlo.convolution %arg0, %arg1, dim_labels = <"b01f_01io->b01f"> {feature_group_count = 32 : i64
// CHECK-NOT:  hlo.select
func.func @depthwise_nhwc(%x: tensor<1x9x9x32xf32>, %w: tensor<3x3x1x32xf32>) -> tensor<1x9x9x32xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 32 : i64}
       : (tensor<1x9x9x32xf32>, tensor<3x3x1x32xf32>) -> tensor<1x9x9x32xf32>
  return %0 : tensor<1x9x9x32xf32>
}

// CHECK-LABEL: func.func @depthwise_relabel
// Any other depthwise labels: transposed into the NHWC form, groups kept.
// CHECK:      %[[X:.+]] = hlo.transpose %arg0, dims = [0, 2, 3, 1]
// CHECK:      %[[W:.+]] = hlo.transpose %arg1, dims = [0, 1, 3, 2] : (tensor<3x3x32x1xf32>) -> tensor<3x3x1x32xf32>
// CHECK:      %[[C:.+]] = hlo.convolution %[[X]], %[[W]], dim_labels = <"b01f_01io->b01f"> {feature_group_count = 32 : i64
// CHECK:      hlo.transpose %[[C]], dims = [0, 3, 1, 2]
// CHECK-NOT:  hlo.select
func.func @depthwise_relabel(%x: tensor<1x32x9x9xf32>, %w: tensor<3x3x32x1xf32>) -> tensor<1x32x9x9xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"bf01_01oi->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 32 : i64}
       : (tensor<1x32x9x9xf32>, tensor<3x3x32x1xf32>) -> tensor<1x32x9x9xf32>
  return %0 : tensor<1x32x9x9xf32>
}

// CHECK-LABEL: func.func @batch_groups
// CHECK:      %[[X0:.+]] = hlo.slice %arg0 [0:2:1, 0:8:1, 0:8:1, 0:4:1]
// CHECK:      %[[D0:.+]] = hlo.slice %arg1 [0:2:1, 0:8:1, 0:8:1, 0:6:1]
// CHECK:      %[[C0:.+]] = hlo.convolution %[[X0]], %[[D0]], dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x8x8x4xf32>, tensor<2x8x8x6xf32>) -> tensor<3x3x4x6xf32>
// CHECK:      %[[X1:.+]] = hlo.slice %arg0 [0:2:1, 0:8:1, 0:8:1, 4:8:1]
// CHECK:      %[[D1:.+]] = hlo.slice %arg1 [0:2:1, 0:8:1, 0:8:1, 6:12:1]
// CHECK:      %[[C1:.+]] = hlo.convolution %[[X1]], %[[D1]]
// CHECK:      hlo.concatenate(%[[C0]], %[[C1]]) dim = 3 : {{.*}} -> tensor<3x3x4x12xf32>
func.func @batch_groups(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x8x8x12xf32>) -> tensor<3x3x4x12xf32> {
  %0 = hlo.convolution %x, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>, batch_group_count = 2 : i64}
       : (tensor<2x8x8x8xf32>, tensor<2x8x8x12xf32>) -> tensor<3x3x4x12xf32>
  return %0 : tensor<3x3x4x12xf32>
}

// CHECK-LABEL: func.func @conv1d
// CHECK:      %[[W:.+]] = hlo.reshape %arg1 : (tensor<3x5x6xf32>) -> tensor<1x3x5x6xf32>
// CHECK:      %[[X:.+]] = hlo.reshape %arg0 : (tensor<2x17x5xf32>) -> tensor<2x1x17x5xf32>
// CHECK:      %[[C:.+]] = hlo.convolution %[[X]], %[[W]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 0, 0, 1, 1>, window_strides = array<i64: 1, 2>} : (tensor<2x1x17x5xf32>, tensor<1x3x5x6xf32>) -> tensor<2x1x9x6xf32>
// CHECK:      hlo.reshape %[[C]] : (tensor<2x1x9x6xf32>) -> tensor<2x9x6xf32>
func.func @conv1d(%x: tensor<2x17x5xf32>, %w: tensor<3x5x6xf32>) -> tensor<2x9x6xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b0f_0io->b0f"> {window_strides = array<i64: 2>, padding = array<i64: 1, 1>}
       : (tensor<2x17x5xf32>, tensor<3x5x6xf32>) -> tensor<2x9x6xf32>
  return %0 : tensor<2x9x6xf32>
}

// A 1-D convolution with its window dim minor in both operands
// (`0bf_oi0->0bf`, XLA's algebraic-simplifier test): the kernel
// [O, I, 1] is transposed as [O, I] and only then given its unit dims, so
// no array with unit minor dims ([O, I, 1, 1]: one (8, 128) tile per
// element) is made. (It was: a 16 GiB scratch for a [4096, 1024, 1] kernel.)
// CHECK-LABEL: func.func @conv1d_oi0
// CHECK-NOT:  tensor<8x16x1x1xf32>
// CHECK:      %[[XT:.+]] = hlo.transpose %arg0, dims = [1, 0, 2] : (tensor<4x6x16xf32>) -> tensor<6x4x16xf32>
// CHECK:      %[[X:.+]] = hlo.reshape %[[XT]] : (tensor<6x4x16xf32>) -> tensor<6x1x4x16xf32>
// CHECK:      %[[W2:.+]] = hlo.reshape %arg1 : (tensor<8x16x1xf32>) -> tensor<8x16xf32>
// CHECK:      %[[WT:.+]] = hlo.transpose %[[W2]], dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK:      %[[W:.+]] = hlo.reshape %[[WT]] : (tensor<16x8xf32>) -> tensor<1x1x16x8xf32>
// CHECK:      hlo.convolution %[[X]], %[[W]], dim_labels = <"b01f_01io->b01f"> : (tensor<6x1x4x16xf32>, tensor<1x1x16x8xf32>) -> tensor<6x1x4x8xf32>
// CHECK-NOT:  tensor<8x16x1x1xf32>
func.func @conv1d_oi0(%x: tensor<4x6x16xf32>, %w: tensor<8x16x1xf32>) -> tensor<4x6x8xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"0bf_oi0->0bf">
       : (tensor<4x6x16xf32>, tensor<8x16x1xf32>) -> tensor<4x6x8xf32>
  return %0 : tensor<4x6x8xf32>
}

// CHECK-LABEL: func.func @conv3d
// Depth stride 2, reversed: kernel depth 2, 1, 0 against input depths
// 0, 1, 2 (+ 2 * output depth) of the padded input; bf16 summed in f32.
// CHECK:      %[[P:.+]] = hlo.pad %arg0, %{{.+}}, low = [0, 1, 0, 0, 0], high = [0, 1, 0, 0, 0], interior = [0, 0, 0, 0, 0] : (tensor<1x5x6x7x3xbf16>, tensor<bf16>) -> tensor<1x7x6x7x3xbf16>
// CHECK:      %[[X0:.+]] = hlo.slice %[[P]] [0:1:1, 0:5:2, 0:6:1, 0:7:1, 0:3:1]
// CHECK:      %[[X0R:.+]] = hlo.reshape %[[X0]] : (tensor<1x3x6x7x3xbf16>) -> tensor<3x6x7x3xbf16>
// CHECK:      %[[W0:.+]] = hlo.slice %arg1 [2:3:1, 0:3:1, 0:3:1, 0:3:1, 0:4:1]
// CHECK:      %[[W0R:.+]] = hlo.reshape %[[W0]] : (tensor<1x3x3x3x4xbf16>) -> tensor<3x3x3x4xbf16>
// CHECK:      %[[C0:.+]] = hlo.convolution %[[X0R]], %[[W0R]], dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>} : (tensor<3x6x7x3xbf16>, tensor<3x3x3x4xbf16>) -> tensor<3x6x7x4xf32>
// CHECK:      %[[R0:.+]] = hlo.reshape %[[C0]] : (tensor<3x6x7x4xf32>) -> tensor<1x3x6x7x4xf32>
// CHECK:      hlo.slice %[[P]] [0:1:1, 1:6:2,
// CHECK:      hlo.slice %arg1 [1:2:1,
// CHECK:      %[[S1:.+]] = hlo.add %[[R0]], %{{.+}} : tensor<1x3x6x7x4xf32>
// CHECK:      hlo.slice %[[P]] [0:1:1, 2:7:2,
// CHECK:      hlo.slice %arg1 [0:1:1,
// CHECK:      %[[S2:.+]] = hlo.add %[[S1]], %{{.+}} : tensor<1x3x6x7x4xf32>
// CHECK:      %[[R:.+]] = hlo.convert %[[S2]] : (tensor<1x3x6x7x4xf32>) -> tensor<1x3x6x7x4xbf16>
// CHECK:      return %[[R]]
func.func @conv3d(%x: tensor<1x5x6x7x3xbf16>, %w: tensor<3x3x3x3x4xbf16>) -> tensor<1x3x6x7x4xbf16> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b012f_012io->b012f"> {window_strides = array<i64: 2, 1, 1>, padding = array<i64: 1, 1, 1, 1, 1, 1>, window_reversal = array<i1: true, false, false>}
       : (tensor<1x5x6x7x3xbf16>, tensor<3x3x3x3x4xbf16>) -> tensor<1x3x6x7x4xbf16>
  return %0 : tensor<1x3x6x7x4xbf16>
}

// CHECK-LABEL: func.func @direct
// The kernels' own forms stay as they are.
// CHECK-NEXT: hlo.convolution %arg0, %arg1, dim_labels = <"b01f_01io->b01f">
// CHECK-NEXT: hlo.convolution %arg0, %arg2, dim_labels = <"f01b_i01o->01bf">
// CHECK-NEXT: hlo.convolution %arg3, %arg4, dim_labels = <"bf01_oi01->bf01"> {feature_group_count = 4 : i64
// CHECK-NEXT: return
func.func @direct(%x: tensor<2x9x7x3xf32>, %w: tensor<3x3x3x10xf32>, %dy: tensor<2x9x7x10xf32>,
                  %n: tensor<2x4x9x9xf32>, %dw: tensor<4x1x3x3xf32>)
    -> (tensor<2x9x7x10xf32>, tensor<3x3x3x10xf32>, tensor<2x4x9x9xf32>) {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x9x7x3xf32>, tensor<3x3x3x10xf32>) -> tensor<2x9x7x10xf32>
  %1 = hlo.convolution %x, %dy, dim_labels = <"f01b_i01o->01bf"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x9x7x3xf32>, tensor<2x9x7x10xf32>) -> tensor<3x3x3x10xf32>
  %2 = hlo.convolution %n, %dw, dim_labels = <"bf01_oi01->bf01"> {padding = array<i64: 1, 1, 1, 1>, feature_group_count = 4 : i64}
       : (tensor<2x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x9x9xf32>
  return %0, %1, %2 : tensor<2x9x7x10xf32>, tensor<3x3x3x10xf32>, tensor<2x4x9x9xf32>
}
