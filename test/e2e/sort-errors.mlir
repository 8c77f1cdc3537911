// Sort and topk forms tpuc-convert-hlo-to-tpu rejects: one diagnostic at
// the op naming what is missing.
// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-convert-hlo-to-tpu -o /dev/null

// A comparator that is not one strict compare (LE is not a strict order).
func.func @le(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.sort' with a LE comparator (not a strict order) yet}}
  %0 = hlo.sort(%x) dim = 1 : (tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<8x128xf32>
}

// -----

// A comparator the VPU does not evaluate: cosine is tpuc-expand-math's
// (here the lowering sees it as it stands). Other comparators are evaluated
// as they stand: test/e2e/sort-comparators.mlir.
func.func @cosine(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.sort' with a comparator that computes 'hlo.cosine' (the VPU evaluates it: elementwise ops and constants) yet}}
  %0 = hlo.sort(%x) dim = 1 : (tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ca = hlo.cosine %a : tensor<f32>
    %cb = hlo.cosine %b : tensor<f32>
    %c = hlo.compare LT, %ca, %cb : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<8x128xf32>
}

// -----

// Along the second-minor dimension.
func.func @major(%x: tensor<16x128xf32>) -> tensor<16x128xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.sort' along a dimension other than the minor one yet}}
  %0 = hlo.sort(%x) dim = 0 : (tensor<16x128xf32>) -> tensor<16x128xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<16x128xf32>
}

// -----

// Rows whose bitonic network does not fit VMEM.
func.func @long_rows(%x: tensor<8x20000xf32>) -> tensor<8x20000xf32> {
  // expected-error @+1 {{tpuc cannot lower 'hlo.sort' of rows longer than 8192 elements (the network of 128 rows must fit VMEM) yet}}
  %0 = hlo.sort(%x) dim = 1 : (tensor<8x20000xf32>) -> tensor<8x20000xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return %0 : tensor<8x20000xf32>
}

// -----

// More operands than a compare-exchange has registers for.
func.func @many(%x0: tensor<8x128xf32>, %x1: tensor<8x128xf32>, %x2: tensor<8x128xf32>, %x3: tensor<8x128xf32>, %x4: tensor<8x128xf32>, %x5: tensor<8x128xf32>, %x6: tensor<8x128xf32>, %x7: tensor<8x128xf32>, %x8: tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) {
  // expected-error @+1 {{tpuc cannot lower 'hlo.sort' of more than 8 operands yet}}
  %0:9 = hlo.sort(%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7, %x8) dim = 1 : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) {
  ^bb0(%a0: tensor<f32>, %b0: tensor<f32>, %a1: tensor<f32>, %b1: tensor<f32>, %a2: tensor<f32>, %b2: tensor<f32>, %a3: tensor<f32>, %b3: tensor<f32>, %a4: tensor<f32>, %b4: tensor<f32>, %a5: tensor<f32>, %b5: tensor<f32>, %a6: tensor<f32>, %b6: tensor<f32>, %a7: tensor<f32>, %b7: tensor<f32>, %a8: tensor<f32>, %b8: tensor<f32>):
    %c = hlo.compare LT, %a0, %b0 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8 : tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>
}
