// tpuc-run --timing-only follows a counted while loop (a constant bound) as
// the functional run does: 1000 trips of an (8,128) exponential. The counter
// and the compare kernel are computed (they decide the branch), the
// exponential is not. Before, timing-only ran the body once: 2,044 cycles
// against 3,574,044.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tpuc compile %s -o %t/loop.tpx
// RUN: tpuc-run %t/loop.tpx --random-inputs=1 --profile > %t/cycles.txt
// RUN: tpuc-run %t/loop.tpx --timing-only --profile >> %t/cycles.txt 2> %t/stderr.txt
// RUN: FileCheck %s < %t/cycles.txt
// RUN: count 0 < %t/stderr.txt
// CHECK:      cycles: [[CYCLES:[0-9]+]]
// CHECK:      instructions: [[INSNS:[0-9]+]]
// CHECK-NOT:  timing-only:
// CHECK:      cycles: [[CYCLES]]
// CHECK-NEXT: seconds:
// CHECK:      instructions: [[INSNS]]
// CHECK:      timing-only: {{[0-9]+}} non-scalar instructions computed for control flow
// CHECK-NEXT: data-dependent control decisions: none

func.func @main(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %zero = hlo.constant dense<0> : tensor<i32>
  %v:2 = hlo.while(%zero, %x) : tensor<i32>, tensor<8x128xf32> cond {
  ^bb0(%i: tensor<i32>, %a: tensor<8x128xf32>):
    %n = hlo.constant dense<1000> : tensor<i32>
    %lt = hlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %a: tensor<8x128xf32>):
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %e = hlo.exponential %a : tensor<8x128xf32>
    hlo.return %i1, %e : tensor<i32>, tensor<8x128xf32>
  }
  return %v#1 : tensor<8x128xf32>
}
