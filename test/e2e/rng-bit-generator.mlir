// hlo.rng_bit_generator compiled through tpuc-expand-rng-bit-generator
// (Threefry-2x32 / Philox-4x32 rounds on s32 words) and tpuc-expand-x64
// (the u64 states as their u32 words, planar [2, n]) against the interpreter, bit for bit:
// Threefry u32 [8, 130] (split along dim 0), [3, 5] (odd: split along the
// larger dim and cropped), s32 [4], u64 [7], and u32 [16] from a constant
// state (a u64 constant split into words by tpuc-expand-x64); Philox u32 [5, 7] (a partial
// last block), u64 [3, 3], and a u64[2] state; the new states. The
// counters are chosen so that the 64-bit (Threefry) and 128-bit (Philox)
// counter adds carry (Inputs/rng_states.py).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/rng_states.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/threefry.npy --input=@%t/in/philox3.npy --input=@%t/in/philox2.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/threefry.npy --input=@%t/in/philox3.npy --input=@%t/in/philox2.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 12 | FileCheck %s
// CHECK: result0: exact shape=[8, 130]
// CHECK: result1: exact shape=[3, 5]
// CHECK: result2: exact shape=[4]
// CHECK: result3: exact shape=[7]
// CHECK: result4: exact shape=[2]
// CHECK: result5: exact shape=[5, 7]
// CHECK: result6: exact shape=[3, 3]
// CHECK: result7: exact shape=[3]
// CHECK: result8: exact shape=[4, 4]
// CHECK: result9: exact shape=[2]
// CHECK: result10: exact shape=[2]
// CHECK: result11: exact shape=[16]
// The executable's state parameters are their u32 words, planar [2, n].
// RUN: tpuc compile %s --emit=fused -o - | FileCheck %s --check-prefix=SIG
// SIG: func.func @main(%{{.+}}: tensor<2x2xui32>{{.*}}, %{{.+}}: tensor<2x3xui32>{{.*}}, %{{.+}}: tensor<2x2xui32>

func.func @main(%t: tensor<2xui64>, %p3: tensor<3xui64>, %p2: tensor<2xui64>)
    -> (tensor<8x130xui32>, tensor<3x5xui32>, tensor<4xi32>, tensor<7xui64>,
        tensor<2xui64>, tensor<5x7xui32>, tensor<3x3xui64>, tensor<3xui64>,
        tensor<4x4xui32>, tensor<2xui64>, tensor<2xui64>, tensor<16xui32>) {
  %t1, %a = hlo.rng_bit_generator %t, algorithm = THREE_FRY
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x130xui32>)
  %t2, %b = hlo.rng_bit_generator %t1, algorithm = THREE_FRY
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
  %t3, %c = hlo.rng_bit_generator %t2, algorithm = THREE_FRY
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi32>)
  %t4, %d = hlo.rng_bit_generator %t3, algorithm = THREE_FRY
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui64>)
  %p31, %e = hlo.rng_bit_generator %p3, algorithm = PHILOX
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5x7xui32>)
  %p32, %f = hlo.rng_bit_generator %p31, algorithm = DEFAULT
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3x3xui64>)
  %p21, %g = hlo.rng_bit_generator %p2, algorithm = PHILOX
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %k = hlo.constant dense<[42, 18446744073709551615]> : tensor<2xui64>
  %k1, %h = hlo.rng_bit_generator %k, algorithm = THREE_FRY
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<16xui32>)
  return %a, %b, %c, %d, %t4, %e, %f, %p32, %g, %p21, %t1, %h
      : tensor<8x130xui32>, tensor<3x5xui32>, tensor<4xi32>, tensor<7xui64>,
        tensor<2xui64>, tensor<5x7xui32>, tensor<3x3xui64>, tensor<3xui64>,
        tensor<4x4xui32>, tensor<2xui64>, tensor<2xui64>, tensor<16xui32>
}
