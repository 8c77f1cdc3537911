// A JAX program in x64 mode: indices, counters and token ids are s64
// (jnp.arange, lax.fori_loop, x[i:i+k], jnp.take), the data f32 and s64.
// Compiled through tpuc-expand-x64 against the interpreter, bit for bit:
// an s64 iota compared with a run-time length to mask f32 rows (select);
// dynamic slices and updates of f32 and s64 arrays at s64 indices
// (including one past the end and a negative one: XLA clamps); a gather of
// f32 rows at s64 ids; s64 broadcast/reshape/transpose/reverse/slice/
// concatenate/pad; a fori_loop with an s64 counter and an s64 accumulator
// that carries into the high word; jnp.argsort (s64 indices sorted along
// f32 keys: two s32 operands) and a scatter-add at s64 ids; popcnt,
// count-leading-zeros and sign of s64.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/x64_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/f.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/f.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 17 | FileCheck %s
// CHECK-COUNT-17: exact

func.func @main(%a: tensor<16x16xi64>, %f: tensor<16x16xf32>)
    -> (tensor<16x16xf32>, tensor<4x16xf32>, tensor<16x16xi64>,
        tensor<3x16xf32>, tensor<16x4xi64>, tensor<8x32xi64>, tensor<20x16xi64>,
        tensor<i64>, tensor<16x16xf32>, tensor<2x16xi64>,
        tensor<8x16xf32>, tensor<8x16xi64>, tensor<8x16xi64>,
        tensor<16x16xf32>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>) {
  // Row mask: iota < n, n = 11 (s64 scalar).
  %iota = hlo.iota dim = 0 : tensor<16x16xi64>
  %n = hlo.constant dense<11> : tensor<i64>
  %nb = hlo.broadcast_in_dim %n, dims = [] : (tensor<i64>) -> tensor<16x16xi64>
  %mask = hlo.compare LT, %iota, %nb : (tensor<16x16xi64>, tensor<16x16xi64>) -> tensor<16x16xi1>
  %zf = hlo.constant dense<0.0> : tensor<16x16xf32>
  %masked = hlo.select %mask, %f, %zf : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  // f[i:i+4] with i = 14 (clamped to 12) and an s64 zero column index.
  %i = hlo.constant dense<14> : tensor<i64>
  %z = hlo.constant dense<0> : tensor<i64>
  %ds = hlo.dynamic_slice %f, [%i, %z], sizes = [4, 16] : (tensor<16x16xf32>, tensor<i64>, tensor<i64>) -> tensor<4x16xf32>
  // a[j, 3:7] = a[0:1, 0:4] * 3, j = -5 (clamped to 0) and then j = 9.
  %j = hlo.constant dense<-5> : tensor<i64>
  %j9 = hlo.constant dense<9> : tensor<i64>
  %c3 = hlo.constant dense<3> : tensor<i64>
  %row = hlo.slice %a [0:1:1, 0:4:1] : (tensor<16x16xi64>) -> tensor<1x4xi64>
  %c3b = hlo.broadcast_in_dim %c3, dims = [] : (tensor<i64>) -> tensor<1x4xi64>
  %row3 = hlo.multiply %row, %c3b : tensor<1x4xi64>
  %dus0 = hlo.dynamic_update_slice %a, %row3, [%j, %c3] : (tensor<16x16xi64>, tensor<1x4xi64>, tensor<i64>, tensor<i64>) -> tensor<16x16xi64>
  %dus = hlo.dynamic_update_slice %dus0, %row3, [%j9, %c3] : (tensor<16x16xi64>, tensor<1x4xi64>, tensor<i64>, tensor<i64>) -> tensor<16x16xi64>
  // jnp.take(f, ids, axis=0) with s64 ids.
  %ids = hlo.constant dense<[[2], [15], [7]]> : tensor<3x1xi64>
  %take = hlo.gather %f, %ids, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<16x16xf32>, tensor<3x1xi64>) -> tensor<3x16xf32>
  // s64 data movement.
  %s = hlo.slice %a [0:16:1, 2:10:2] : (tensor<16x16xi64>) -> tensor<16x4xi64>
  %rev = hlo.reverse %s, dims = [0, 1] : tensor<16x4xi64>
  %r = hlo.reshape %a : (tensor<16x16xi64>) -> tensor<8x32xi64>
  %tr = hlo.transpose %a, dims = [1, 0] : (tensor<16x16xi64>) -> tensor<16x16xi64>
  %pv = hlo.constant dense<-1> : tensor<i64>
  %pad = hlo.pad %row3, %pv, low = [0, 1], high = [1, 11], interior = [0, 0] : (tensor<1x4xi64>, tensor<i64>) -> tensor<2x16xi64>
  %cat = hlo.concatenate(%tr, %pad, %pad) dim = 0 : (tensor<16x16xi64>, tensor<2x16xi64>, tensor<2x16xi64>) -> tensor<20x16xi64>
  // fori_loop(0, 5): acc += a[k, k] * 2^31 (carries into the high word).
  %k0 = hlo.constant dense<0> : tensor<i64>
  %acc0 = hlo.constant dense<4294967295> : tensor<i64>
  %w:3 = hlo.while(%k0, %acc0, %f) : tensor<i64>, tensor<i64>, tensor<16x16xf32> cond {
  ^bb0(%k: tensor<i64>, %acc: tensor<i64>, %x: tensor<16x16xf32>):
    %five = hlo.constant dense<5> : tensor<i64>
    %lt = hlo.compare LT, %k, %five : (tensor<i64>, tensor<i64>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%k: tensor<i64>, %acc: tensor<i64>, %x: tensor<16x16xf32>):
    %one = hlo.constant dense<1> : tensor<i64>
    %sh = hlo.constant dense<31> : tensor<i64>
    %e = hlo.dynamic_slice %a, [%k, %k], sizes = [1, 1] : (tensor<16x16xi64>, tensor<i64>, tensor<i64>) -> tensor<1x1xi64>
    %es = hlo.reshape %e : (tensor<1x1xi64>) -> tensor<i64>
    %ek = hlo.shift_left %es, %sh : tensor<i64>
    %acc1 = hlo.add %acc, %ek : tensor<i64>
    %k1 = hlo.add %k, %one : tensor<i64>
    %two = hlo.constant dense<2.0> : tensor<16x16xf32>
    %x1 = hlo.multiply %x, %two : tensor<16x16xf32>
    hlo.return %k1, %acc1, %x1 : tensor<i64>, tensor<i64>, tensor<16x16xf32>
  }
  // jnp.argsort(f) (s64 indices ride along the f32 keys), and a sort of
  // the s64 array by f32 keys (rows without NaN: the interpreter runs the
  // comparator as given, the kernel orders NaN as JAX does).
  %ix = hlo.iota dim = 1 : tensor<8x16xi64>
  %f8 = hlo.slice %f [0:8:1, 0:16:1] : (tensor<16x16xf32>) -> tensor<8x16xf32>
  %a8 = hlo.slice %a [0:8:1, 0:16:1] : (tensor<16x16xi64>) -> tensor<8x16xi64>
  %sorted:2 = hlo.sort(%f8, %ix) dim = 1 : (tensor<8x16xf32>, tensor<8x16xi64>) -> (tensor<8x16xf32>, tensor<8x16xi64>) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %pi: tensor<i64>, %qi: tensor<i64>):
    %lt = hlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  }
  %byf:2 = hlo.sort(%f8, %a8) dim = 1 : (tensor<8x16xf32>, tensor<8x16xi64>) -> (tensor<8x16xf32>, tensor<8x16xi64>) {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %pi: tensor<i64>, %qi: tensor<i64>):
    %gt = hlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %gt : tensor<i1>
  }
  // f.at[ids].add(1) with s64 ids (one out of range: skipped).
  %sids = hlo.constant dense<[[3], [3], [40], [-2], [0]]> : tensor<5x1xi64>
  %ones = hlo.constant dense<1.0> : tensor<5x16xf32>
  %sc = hlo.scatter(%f) at %sids updates(%ones), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<16x16xf32>, tensor<5x1xi64>, tensor<5x16xf32>) -> tensor<16x16xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %sum = hlo.add %p, %q : tensor<f32>
    hlo.return %sum : tensor<f32>
  }
  %pop = hlo.popcnt %a : tensor<16x16xi64>
  %clz = hlo.count_leading_zeros %a : tensor<16x16xi64>
  %sgn = hlo.sign %a : tensor<16x16xi64>
  return %masked, %ds, %dus, %take, %rev, %r, %cat, %w#1, %w#2, %pad,
         %sorted#0, %sorted#1, %byf#1, %sc, %pop, %clz, %sgn
      : tensor<16x16xf32>, tensor<4x16xf32>, tensor<16x16xi64>,
        tensor<3x16xf32>, tensor<16x4xi64>, tensor<8x32xi64>, tensor<20x16xi64>,
        tensor<i64>, tensor<16x16xf32>, tensor<2x16xi64>,
        tensor<8x16xf32>, tensor<8x16xi64>, tensor<8x16xi64>,
        tensor<16x16xf32>, tensor<16x16xi64>, tensor<16x16xi64>,
        tensor<16x16xi64>
}
