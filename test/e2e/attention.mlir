// Attention: softmax(Q K^T * 0.125) V over B x H heads of S x D, as jax
// writes it (unit-dim and head-merging reshapes around the two batched
// dots, the row max and sum as [B,H,S,1] statistics). The plan is the two
// dots' output fusions and one row-resident softmax between them that
// writes the bf16/f32 probabilities the second dot reads: the reshapes into
// and out of the dots move no byte (views of their operands' buffers), the
// divide does not fuse into the dot's operand (only converts, broadcasts,
// reshapes and transposes do) and the narrowing convert after it stays with
// it. Shapes: the corpus block [1,12,128,64] bf16, S = 200 (ragged rows and
// columns) with B = 2, H = 4, D = 32 in f32 and bf16, D = 128, and a causal
// mask (select of -inf on iota row < column: not a row kernel, the general
// fusions) in f32 and bf16. Compared with the interpreter: f32 2^-7 (the
// MXU multiplies bf16 at the default precision), bf16 2e-2 (the kernel sums
// exp in f32 and rounds once; the interpreter rounds every add).
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -e 's/ELEM/bf16/g; s/NINF/0xFF80/g; s/_B_/1/g; s/_H_/12/g; s/_N_/12/g; s/_S_/128/g; s/_D_/64/g; /MASK/d' %s > %t/corpus.mlir
// RUN: tpuc compile %t/corpus.mlir -o %t/corpus.tpx --dump-dir=%t/dump
// RUN: FileCheck %s --check-prefix=PLAN --implicit-check-not=hlo.fusion < %t/dump/01-fused.mlir
// RUN: mkdir -p %t/g1 %t/w1 && tpuc-run %t/corpus.tpx --random-inputs=3 --output-dir=%t/g1
// RUN: tpuc interpret %t/corpus.mlir --random-inputs=3 --output-dir=%t/w1
// RUN: %python_numpy %S/Inputs/compare.py %t/g1 %t/w1 1 2e-2 | FileCheck %s --check-prefix=C1
// RUN: sed -e 's/ELEM/f32/g; s/NINF/0xFF800000/g; s/_B_/2/g; s/_H_/4/g; s/_N_/8/g; s/_S_/200/g; s/_D_/32/g; /MASK/d' %s > %t/ragged.mlir
// RUN: tpuc compile %t/ragged.mlir -o %t/ragged.tpx --dump-dir=%t/dump2
// RUN: FileCheck %s --check-prefix=PLAN --implicit-check-not=hlo.fusion < %t/dump2/01-fused.mlir
// RUN: mkdir -p %t/g2 %t/w2 && tpuc-run %t/ragged.tpx --random-inputs=4 --output-dir=%t/g2
// RUN: tpuc interpret %t/ragged.mlir --random-inputs=4 --output-dir=%t/w2
// RUN: %python_numpy %S/Inputs/compare.py %t/g2 %t/w2 1 0.0078125 | FileCheck %s --check-prefix=C2
// RUN: sed -e 's/ELEM/bf16/g; s/NINF/0xFF80/g; s/_B_/2/g; s/_H_/4/g; s/_N_/8/g; s/_S_/200/g; s/_D_/32/g; /MASK/d' %s > %t/raggedb.mlir
// RUN: tpuc compile %t/raggedb.mlir -o %t/raggedb.tpx
// RUN: mkdir -p %t/g3 %t/w3 && tpuc-run %t/raggedb.tpx --random-inputs=5 --output-dir=%t/g3
// RUN: tpuc interpret %t/raggedb.mlir --random-inputs=5 --output-dir=%t/w3
// RUN: %python_numpy %S/Inputs/compare.py %t/g3 %t/w3 1 2e-2 | FileCheck %s --check-prefix=C2
// RUN: sed -e 's/ELEM/bf16/g; s/NINF/0xFF80/g; s/_B_/1/g; s/_H_/4/g; s/_N_/4/g; s/_S_/128/g; s/_D_/128/g; /MASK/d' %s > %t/wide.mlir
// RUN: tpuc compile %t/wide.mlir -o %t/wide.tpx
// RUN: mkdir -p %t/g4 %t/w4 && tpuc-run %t/wide.tpx --random-inputs=6 --output-dir=%t/g4
// RUN: tpuc interpret %t/wide.mlir --random-inputs=6 --output-dir=%t/w4
// RUN: %python_numpy %S/Inputs/compare.py %t/g4 %t/w4 1 2e-2 | FileCheck %s --check-prefix=C4
// RUN: sed -e 's/ELEM/f32/g; s/NINF/0xFF800000/g; s/_B_/2/g; s/_H_/4/g; s/_N_/8/g; s/_S_/200/g; s/_D_/32/g; s/%x4 = hlo.multiply/%x4u = hlo.multiply/; s/MASK//' %s > %t/causal.mlir
// RUN: tpuc compile %t/causal.mlir -o %t/causal.tpx
// RUN: mkdir -p %t/g5 %t/w5 && tpuc-run %t/causal.tpx --random-inputs=7 --output-dir=%t/g5
// RUN: tpuc interpret %t/causal.mlir --random-inputs=7 --output-dir=%t/w5
// RUN: %python_numpy %S/Inputs/compare.py %t/g5 %t/w5 1 0.0078125 | FileCheck %s --check-prefix=C2
// RUN: sed -e 's/ELEM/bf16/g; s/NINF/0xFF80/g; s/_B_/1/g; s/_H_/12/g; s/_N_/12/g; s/_S_/128/g; s/_D_/64/g; s/%x4 = hlo.multiply/%x4u = hlo.multiply/; s/MASK//' %s > %t/causalb.mlir
// RUN: tpuc compile %t/causalb.mlir -o %t/causalb.tpx
// RUN: mkdir -p %t/g6 %t/w6 && tpuc-run %t/causalb.tpx --random-inputs=8 --output-dir=%t/g6
// RUN: tpuc interpret %t/causalb.mlir --random-inputs=8 --output-dir=%t/w6
// RUN: %python_numpy %S/Inputs/compare.py %t/g6 %t/w6 1 2e-2 | FileCheck %s --check-prefix=C1
// PLAN: hlo.fusion output
// PLAN: hlo.dot_general
// PLAN: hlo.fusion input
// PLAN: hlo.reduce
// PLAN: hlo.exponential
// PLAN: hlo.reduce
// PLAN: hlo.divide
// PLAN: hlo.fusion output
// PLAN: hlo.dot_general
// C1: result0: ok shape=[1, 12, 128, 64]
// C2: result0: ok shape=[2, 4, 200, 32]
// C4: result0: ok shape=[1, 4, 128, 128]

func.func @main(%q: tensor<_B_x_H_x_S_x_D_xELEM>, %k: tensor<_B_x_H_x_S_x_D_xELEM>, %v: tensor<_B_x_H_x_S_x_D_xELEM>) -> tensor<_B_x_H_x_S_x_D_xELEM> {
  %q3 = hlo.reshape %q : (tensor<_B_x_H_x_S_x_D_xELEM>) -> tensor<_N_x_S_x_D_xELEM>
  %k3 = hlo.reshape %k : (tensor<_B_x_H_x_S_x_D_xELEM>) -> tensor<_N_x_S_x_D_xELEM>
  %s = hlo.dot_general %q3, %k3, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [2]> : (tensor<_N_x_S_x_D_xELEM>, tensor<_N_x_S_x_D_xELEM>) -> tensor<_N_x_S_x_S_xELEM>
  %s4 = hlo.reshape %s : (tensor<_N_x_S_x_S_xELEM>) -> tensor<_B_x_H_x_S_x_S_xELEM>
  %c = hlo.constant dense<0.125> : tensor<ELEM>
  %cb = hlo.broadcast_in_dim %c, dims = [] : (tensor<ELEM>) -> tensor<_B_x_H_x_S_x_S_xELEM>
  %x4 = hlo.multiply %s4, %cb : tensor<_B_x_H_x_S_x_S_xELEM>
  %ninf = hlo.constant dense<NINF> : tensor<ELEM>
  %i0 = hlo.iota dim = 2 : tensor<_B_x_H_x_S_x_S_xi32> // MASK
  %i1 = hlo.iota dim = 3 : tensor<_B_x_H_x_S_x_S_xi32> // MASK
  %keep = hlo.compare GE, %i0, %i1 : (tensor<_B_x_H_x_S_x_S_xi32>, tensor<_B_x_H_x_S_x_S_xi32>) -> tensor<_B_x_H_x_S_x_S_xi1> // MASK
  %ninfb = hlo.broadcast_in_dim %ninf, dims = [] : (tensor<ELEM>) -> tensor<_B_x_H_x_S_x_S_xELEM> // MASK
  %x4 = hlo.select %keep, %x4u, %ninfb : (tensor<_B_x_H_x_S_x_S_xi1>, tensor<_B_x_H_x_S_x_S_xELEM>, tensor<_B_x_H_x_S_x_S_xELEM>) -> tensor<_B_x_H_x_S_x_S_xELEM> // MASK
  %m = hlo.reduce(%x4) init(%ninf) dims = [3] : (tensor<_B_x_H_x_S_x_S_xELEM>, tensor<ELEM>) -> tensor<_B_x_H_x_S_xELEM> {
  ^bb0(%a: tensor<ELEM>, %b: tensor<ELEM>):
    %r = hlo.maximum %a, %b : tensor<ELEM>
    hlo.return %r : tensor<ELEM>
  }
  %m1 = hlo.reshape %m : (tensor<_B_x_H_x_S_xELEM>) -> tensor<_B_x_H_x_S_x1xELEM>
  %m3 = hlo.reshape %m1 : (tensor<_B_x_H_x_S_x1xELEM>) -> tensor<_B_x_H_x_S_xELEM>
  %mb = hlo.broadcast_in_dim %m3, dims = [0, 1, 2] : (tensor<_B_x_H_x_S_xELEM>) -> tensor<_B_x_H_x_S_x_S_xELEM>
  %d = hlo.subtract %x4, %mb : tensor<_B_x_H_x_S_x_S_xELEM>
  %e = hlo.exponential %d : tensor<_B_x_H_x_S_x_S_xELEM>
  %ef = hlo.convert %e : (tensor<_B_x_H_x_S_x_S_xELEM>) -> tensor<_B_x_H_x_S_x_S_xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %sum = hlo.reduce(%ef) init(%zero) dims = [3] : (tensor<_B_x_H_x_S_x_S_xf32>, tensor<f32>) -> tensor<_B_x_H_x_S_xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = hlo.add %a, %b : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  %sum1 = hlo.reshape %sum : (tensor<_B_x_H_x_S_xf32>) -> tensor<_B_x_H_x_S_x1xf32>
  %sc = hlo.convert %sum1 : (tensor<_B_x_H_x_S_x1xf32>) -> tensor<_B_x_H_x_S_x1xELEM>
  %sc3 = hlo.reshape %sc : (tensor<_B_x_H_x_S_x1xELEM>) -> tensor<_B_x_H_x_S_xELEM>
  %sb = hlo.broadcast_in_dim %sc3, dims = [0, 1, 2] : (tensor<_B_x_H_x_S_xELEM>) -> tensor<_B_x_H_x_S_x_S_xELEM>
  %p = hlo.divide %e, %sb : tensor<_B_x_H_x_S_x_S_xELEM>
  %p3 = hlo.reshape %p : (tensor<_B_x_H_x_S_x_S_xELEM>) -> tensor<_N_x_S_x_S_xELEM>
  %v3 = hlo.reshape %v : (tensor<_B_x_H_x_S_x_D_xELEM>) -> tensor<_N_x_S_x_D_xELEM>
  %o = hlo.dot_general %p3, %v3, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<_N_x_S_x_S_xELEM>, tensor<_N_x_S_x_D_xELEM>) -> tensor<_N_x_S_x_D_xELEM>
  %o4 = hlo.reshape %o : (tensor<_N_x_S_x_D_xELEM>) -> tensor<_B_x_H_x_S_x_D_xELEM>
  return %o4 : tensor<_B_x_H_x_S_x_D_xELEM>
}
