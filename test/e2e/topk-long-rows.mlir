// topk over rows whose keys do not fit VMEM (tpu-v3: 16 MiB): the kernel
// takes each tile row in chunks (Sort.cpp, TopKKernel), each chunk's top k
// become candidates, and the candidates' top k is the row's.
// bf16[16,256000] k=8 (the report's 20508672 bytes; 3 chunks of 667 column
// tiles, the last starting a tile early: that tile's elements are
// candidates of both, and must not be picked twice); random bf16
// values repeat, so ties (smaller index first) cross chunks.
// f32[8,600001] k=130 smallest (two result tiles, 3 chunks of 1563, one
// tile overlapped, 65 ragged lanes). Random rows rarely put their top k
// in the overlapped tile, so a third topk reads -|j - 400050| + y[i, j]
// (largest k=130): tile 3125 (elements 400000..400127) is that tile, and
// the round that takes one of its elements must drop its other copy.
// Dense rows (one row per tile row, gathered 8 tiles to one): f32[1,600001]
// k=8 (3 chunks of 1568 column tiles, whole dense tiles, 16 overlapped) and
// a rank-1 bf16[700001] k=5 smallest (its column tiles 128 elements apart
// in HBM). Exact match.
// RUN: rm -rf %t && mkdir -p %t/got %t/want
// RUN: tpuc-opt %s --tpuc-convert-hlo-to-tpu -o %t/topk.tpu.mlir
// RUN: tpuc translate --tpu-to-executable %t/topk.tpu.mlir -o %t/topk.tpx
// RUN: tpuc-run %t/topk.tpx --random-inputs=23 --output-dir=%t/got
// RUN: tpuc interpret %s --random-inputs=23 --output-dir=%t/want
// RUN: %python_numpy %S/Inputs/dm-compare.py %t/got %t/want 10 | FileCheck %s
// CHECK: result0: ok shape=[16, 8] bit-exact
// CHECK: result1: ok shape=[16, 8] bit-exact
// CHECK: result2: ok shape=[8, 130] bit-exact
// CHECK: result3: ok shape=[8, 130] bit-exact
// CHECK: result4: ok shape=[8, 130] bit-exact
// CHECK: result5: ok shape=[8, 130] bit-exact
// CHECK: result6: ok shape=[1, 8] bit-exact
// CHECK: result7: ok shape=[1, 8] bit-exact
// CHECK: result8: ok shape=[5] bit-exact
// CHECK: result9: ok shape=[5] bit-exact

func.func @topk(%x: tensor<16x256000xbf16>, %y: tensor<8x600001xf32>, %r: tensor<1x600001xf32>, %v: tensor<700001xbf16>) -> (tensor<16x8xbf16>, tensor<16x8xi32>, tensor<8x130xf32>, tensor<8x130xi32>, tensor<8x130xf32>, tensor<8x130xi32>, tensor<1x8xf32>, tensor<1x8xi32>, tensor<5xbf16>, tensor<5xi32>) {
  %0:2 = hlo.topk %x, k = 8 : (tensor<16x256000xbf16>) -> (tensor<16x8xbf16>, tensor<16x8xi32>)
  %1:2 = hlo.topk %y, k = 130 {largest = false} : (tensor<8x600001xf32>) -> (tensor<8x130xf32>, tensor<8x130xi32>)
  %i = hlo.iota dim = 1 : tensor<8x600001xi32>
  %if = hlo.convert %i : (tensor<8x600001xi32>) -> tensor<8x600001xf32>
  %c = hlo.constant dense<400050.0> : tensor<f32>
  %cb = hlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<8x600001xf32>
  %d = hlo.subtract %if, %cb : tensor<8x600001xf32>
  %a = hlo.abs %d : tensor<8x600001xf32>
  %n = hlo.negate %a : tensor<8x600001xf32>
  %z = hlo.add %n, %y : tensor<8x600001xf32>
  %2:2 = hlo.topk %z, k = 130 : (tensor<8x600001xf32>) -> (tensor<8x130xf32>, tensor<8x130xi32>)
  %3:2 = hlo.topk %r, k = 8 : (tensor<1x600001xf32>) -> (tensor<1x8xf32>, tensor<1x8xi32>)
  %4:2 = hlo.topk %v, k = 5 {largest = false} : (tensor<700001xbf16>) -> (tensor<5xbf16>, tensor<5xi32>)
  return %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1, %4#0, %4#1 : tensor<16x8xbf16>, tensor<16x8xi32>, tensor<8x130xf32>, tensor<8x130xi32>, tensor<8x130xf32>, tensor<8x130xi32>, tensor<1x8xf32>, tensor<1x8xi32>, tensor<5xbf16>, tensor<5xi32>
}
