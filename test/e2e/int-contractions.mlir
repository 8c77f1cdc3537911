// Integer dot_generals and convolutions computed exactly on the MXU
// (tpuc-expand-integer-contractions: bf16 byte pieces, f32 sums in chunks
// no deeper than 2^24 / the pieces' product bound, s32 accumulation) against
// the interpreter bit for bit, and the interpreter against numpy's integer
// products wrapped to the result type. Inputs span each type's whole range
// (Inputs/int_contraction_inputs.py): s8 x s8 -> s32 with K = 2100 (three
// 1024-deep chunks), u8 x u8 (K = 600: 258-deep chunks), s32 x s32 -> s32
// (ten piece pairs in 258- to 1024-deep chunks, wrapping), u32 (small: on the VPU), s16 -> s16 (the three piece pairs below
// bit 16), an s8 NHWC 3x3 convolution with 130 input features (window 9:
// chunks of 113 features), a grouped one, an s8 dot with an f32 result, and a small s8 -> s8 dot (its
// s32 sum wrapped).
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/int_contraction_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/in0.npy --input=@%t/in/in1.npy --input=@%t/in/in2.npy --input=@%t/in/in3.npy --input=@%t/in/in4.npy --input=@%t/in/in5.npy --input=@%t/in/in6.npy --input=@%t/in/in7.npy --input=@%t/in/in8.npy --input=@%t/in/in9.npy --input=@%t/in/in10.npy --input=@%t/in/in11.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/in0.npy --input=@%t/in/in1.npy --input=@%t/in/in2.npy --input=@%t/in/in3.npy --input=@%t/in/in4.npy --input=@%t/in/in5.npy --input=@%t/in/in6.npy --input=@%t/in/in7.npy --input=@%t/in/in8.npy --input=@%t/in/in9.npy --input=@%t/in/in10.npy --input=@%t/in/in11.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 9 | FileCheck %s
// CHECK-COUNT-9: exact
// RUN: %python_numpy %S/Inputs/int_contraction_inputs.py %t/in check %t/want | FileCheck %s --check-prefix=NP
// NP-COUNT-9: same
// mixed_bfloat16 leaves the integer contractions as they are:
// RUN: tpuc compile %s --precision=mixed_bfloat16 -o %t/b.tpx
// RUN: tpuc-run %t/b.tpx --input=@%t/in/in0.npy --input=@%t/in/in1.npy --input=@%t/in/in2.npy --input=@%t/in/in3.npy --input=@%t/in/in4.npy --input=@%t/in/in5.npy --input=@%t/in/in6.npy --input=@%t/in/in7.npy --input=@%t/in/in8.npy --input=@%t/in/in9.npy --input=@%t/in/in10.npy --input=@%t/in/in11.npy --output-dir=%t/gotb
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/gotb %t/want 9 | FileCheck %s
// The contractions are bf16 ones with f32 sums, chunked and pieced:
// RUN: tpuc-opt %s --tpuc-expand-integer-contractions | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @main
// s8 x s8, K = 2100: chunks [0, 1024), [1024, 2048), [2048, 2100)
// IR-COUNT-3: hlo.dot_general {{.*}} : (tensor<8x{{1024|52}}xbf16>, tensor<{{1024|52}}x16xbf16>) -> tensor<8x16xf32>
// u8 x u8, K = 600: 258 + 258 + 84
// IR-COUNT-2: hlo.dot_general {{.*}} : (tensor<8x258xbf16>, tensor<258x16xbf16>) -> tensor<8x16xf32>
// IR: hlo.dot_general {{.*}} : (tensor<8x84xbf16>, tensor<84x16xbf16>) -> tensor<8x16xf32>
// s32 x s32, K = 600: ten piece pairs, the low bytes' in 258-deep chunks
// IR: hlo.dot_general {{.*}} : (tensor<128x258xbf16>, tensor<258x256xbf16>) -> tensor<128x256xf32>
// A u32 dot this small is cheaper on the VPU (tpuc-strength-reduce-dots):
// IR: hlo.dot_general {{.*}} : (tensor<8x40xui32>, tensor<40x16xui32>) -> tensor<8x16xui32>
// IR-NOT: hlo.dot_general {{.*}}xi{{8|16|32}}>
// IR-NOT: hlo.convolution {{.*}}xi8>

func.func @main(%a: tensor<8x2100xi8>, %b: tensor<2100x16xi8>,
                %c: tensor<8x600xui8>, %d: tensor<600x16xui8>,
                %e: tensor<128x600xi32>, %f: tensor<600x256xi32>,
                %g: tensor<8x40xui32>, %h: tensor<40x16xui32>,
                %i: tensor<8x64xi16>, %j: tensor<64x16xi16>,
                %x: tensor<2x9x9x130xi8>, %w: tensor<3x3x130x16xi8>)
    -> (tensor<8x16xi32>, tensor<8x16xi32>, tensor<128x256xi32>,
        tensor<8x16xui32>, tensor<8x16xi16>, tensor<2x9x9x16xi32>,
        tensor<2x7x7x16xi32>, tensor<8x16xf32>, tensor<4x4xi8>) {
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<8x2100xi8>, tensor<2100x16xi8>) -> tensor<8x16xi32>
  %1 = hlo.dot_general %c, %d, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<8x600xui8>, tensor<600x16xui8>) -> tensor<8x16xi32>
  %2 = hlo.dot_general %e, %f, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<128x600xi32>, tensor<600x256xi32>) -> tensor<128x256xi32>
  %3 = hlo.dot_general %g, %h, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<8x40xui32>, tensor<40x16xui32>) -> tensor<8x16xui32>
  %4 = hlo.dot_general %i, %j, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<8x64xi16>, tensor<64x16xi16>) -> tensor<8x16xi16>
  %5 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {padding = array<i64: 1, 1, 1, 1>}
       : (tensor<2x9x9x130xi8>, tensor<3x3x130x16xi8>) -> tensor<2x9x9x16xi32>
  %xs = hlo.slice %x [0:2:1, 0:9:1, 0:9:1, 0:16:1] : (tensor<2x9x9x130xi8>) -> tensor<2x9x9x16xi8>
  %ws = hlo.slice %w [0:3:1, 0:3:1, 0:8:1, 0:16:1] : (tensor<3x3x130x16xi8>) -> tensor<3x3x8x16xi8>
  %6 = hlo.convolution %xs, %ws, dim_labels = <"b01f_01io->b01f"> {feature_group_count = 2 : i64}
       : (tensor<2x9x9x16xi8>, tensor<3x3x8x16xi8>) -> tensor<2x7x7x16xi32>
  %7 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<8x2100xi8>, tensor<2100x16xi8>) -> tensor<8x16xf32>
  %as = hlo.slice %a [0:4:1, 0:8:1] : (tensor<8x2100xi8>) -> tensor<4x8xi8>
  %bs = hlo.slice %b [0:8:1, 0:4:1] : (tensor<2100x16xi8>) -> tensor<8x4xi8>
  %8 = hlo.dot_general %as, %bs, dims = <lhs_contracting = [1], rhs_contracting = [0]>
       : (tensor<4x8xi8>, tensor<8x4xi8>) -> tensor<4x4xi8>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : tensor<8x16xi32>, tensor<8x16xi32>, tensor<128x256xi32>, tensor<8x16xui32>,
        tensor<8x16xi16>, tensor<2x9x9x16xi32>, tensor<2x7x7x16xi32>, tensor<8x16xf32>,
        tensor<4x4xi8>
}
