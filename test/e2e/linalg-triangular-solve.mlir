// hlo.triangular_solve compiled through tpuc-expand-triangular-solve (XLA's
// TriangularSolveExpander, block size 128) against the reference
// interpreter (f64 substitution, rounded once to f32), f32:
//   result0: a 1x1 system (b / a);
//   result1-2: 2 matrices of 7 (diagonal-block inversion: one 7x7 block
//     padded to nothing), left lower and right upper transposed;
//   result3-4: 12 matrices of 7 (XLA's SolveDirectly: batch > 8, m < 32),
//     left upper and right lower transposed with unit_diagonal;
//   result5-6: 2 matrices of 130 (a 128 block and a 2 block padded with the
//     identity, then two block rows of dots), left upper transposed and
//     right lower with unit_diagonal.
// Both triangles of a hold values (the unread one must not be read) and the
// diagonal 1 to 2 (ignored with unit_diagonal). Inputs:
// Inputs/linalg_inputs.py. Dots at HIGHEST (bf16x6): tolerance 1e-5 of
// the largest |x|.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/linalg_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/tri2x1.npy --input=@%t/in/rhsl1.npy --input=@%t/in/tri2x7.npy --input=@%t/in/rhsl7.npy --input=@%t/in/rhsr7.npy --input=@%t/in/tri12x7.npy --input=@%t/in/rhsd7.npy --input=@%t/in/rhsdr7.npy --input=@%t/in/tri2x130.npy --input=@%t/in/rhsl130.npy --input=@%t/in/rhsr130.npy --output-dir=%t/got
// RUN: tpuc interpret %s --input=@%t/in/tri2x1.npy --input=@%t/in/rhsl1.npy --input=@%t/in/tri2x7.npy --input=@%t/in/rhsl7.npy --input=@%t/in/rhsr7.npy --input=@%t/in/tri12x7.npy --input=@%t/in/rhsd7.npy --input=@%t/in/rhsdr7.npy --input=@%t/in/tri2x130.npy --input=@%t/in/rhsl130.npy --input=@%t/in/rhsr130.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/compare.py %t/got %t/want 7 1e-5 | FileCheck %s
// CHECK: result0: ok shape=[2, 1, 4]
// CHECK: result1: ok shape=[2, 7, 5]
// CHECK: result2: ok shape=[2, 3, 7]
// CHECK: result3: ok shape=[12, 7, 3]
// CHECK: result4: ok shape=[12, 4, 7]
// CHECK: result5: ok shape=[2, 130, 3]
// CHECK: result6: ok shape=[2, 5, 130]
// Every left_side x lower x unit_diagonal x transpose_a combination for
// both algorithms and both sizes (48 solves, Inputs/linalg_all_solves.py).
// RUN: %python_numpy %S/Inputs/linalg_all_solves.py > %t/all.mlir
// RUN: tpuc compile %t/all.mlir -o %t/all.tpx
// RUN: mkdir -p %t/allgot %t/allwant
// RUN: tpuc-run %t/all.tpx --input=@%t/in/tri2x7.npy --input=@%t/in/tri12x7.npy --input=@%t/in/tri2x130.npy --input=@%t/in/rhsl7.npy --input=@%t/in/rhsr7.npy --input=@%t/in/rhsd7.npy --input=@%t/in/rhsdr7.npy --input=@%t/in/rhsl130.npy --input=@%t/in/rhsr130.npy --output-dir=%t/allgot
// RUN: tpuc interpret %t/all.mlir --input=@%t/in/tri2x7.npy --input=@%t/in/tri12x7.npy --input=@%t/in/tri2x130.npy --input=@%t/in/rhsl7.npy --input=@%t/in/rhsr7.npy --input=@%t/in/rhsd7.npy --input=@%t/in/rhsdr7.npy --input=@%t/in/rhsl130.npy --input=@%t/in/rhsr130.npy --output-dir=%t/allwant --result-names=index
// RUN: %python_numpy %S/Inputs/compare.py %t/allgot %t/allwant 48 1e-5 | FileCheck %s --check-prefix=ALL
// ALL-COUNT-48: result{{[0-9]+}}: ok
// The two algorithms: the direct solve has no loop, the blocked one does.
// RUN: tpuc-opt %s --tpuc-expand-triangular-solve | FileCheck %s --check-prefix=IR --implicit-check-not=hlo.triangular_solve
// IR-COUNT-4: hlo.while

func.func @main(%a1: tensor<2x1x1xf32>, %l1: tensor<2x1x4xf32>,
                %a7: tensor<2x7x7xf32>, %l7: tensor<2x7x5xf32>,
                %r7: tensor<2x3x7xf32>, %d7: tensor<12x7x7xf32>,
                %dl7: tensor<12x7x3xf32>, %dr7: tensor<12x4x7xf32>,
                %a130: tensor<2x130x130xf32>, %l130: tensor<2x130x3xf32>,
                %r130: tensor<2x5x130xf32>)
    -> (tensor<2x1x4xf32>, tensor<2x7x5xf32>, tensor<2x3x7xf32>,
        tensor<12x7x3xf32>, tensor<12x4x7xf32>, tensor<2x130x3xf32>,
        tensor<2x5x130xf32>) {
  %0 = hlo.triangular_solve %a1, %l1 {left_side = true, lower = true}
      : (tensor<2x1x1xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %1 = hlo.triangular_solve %a7, %l7 {left_side = true, lower = true}
      : (tensor<2x7x7xf32>, tensor<2x7x5xf32>) -> tensor<2x7x5xf32>
  %2 = hlo.triangular_solve %a7, %r7 {transpose_a = true}
      : (tensor<2x7x7xf32>, tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
  %3 = hlo.triangular_solve %d7, %dl7 {left_side = true}
      : (tensor<12x7x7xf32>, tensor<12x7x3xf32>) -> tensor<12x7x3xf32>
  %4 = hlo.triangular_solve %d7, %dr7 {lower = true, transpose_a = true, unit_diagonal = true}
      : (tensor<12x7x7xf32>, tensor<12x4x7xf32>) -> tensor<12x4x7xf32>
  %5 = hlo.triangular_solve %a130, %l130 {left_side = true, transpose_a = true}
      : (tensor<2x130x130xf32>, tensor<2x130x3xf32>) -> tensor<2x130x3xf32>
  %6 = hlo.triangular_solve %a130, %r130 {lower = true, unit_diagonal = true}
      : (tensor<2x130x130xf32>, tensor<2x5x130xf32>) -> tensor<2x5x130xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x1x4xf32>, tensor<2x7x5xf32>,
      tensor<2x3x7xf32>, tensor<12x7x3xf32>, tensor<12x4x7xf32>,
      tensor<2x130x3xf32>, tensor<2x5x130xf32>
}
