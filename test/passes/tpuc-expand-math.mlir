// RUN: tpuc-opt %s --split-input-file --tpuc-expand-math | FileCheck %s --implicit-check-not=hlo.sine --implicit-check-not=hlo.atan2 --implicit-check-not=hlo.map --implicit-check-not=hlo.exponential_minus_one --implicit-check-not=hlo.power
// The expanded functions compute what the originals did (interpreter,
// libm, before and after; edge values included):
// RUN: rm -rf %t && mkdir -p %t/before %t/after
// RUN: %python_numpy %S/../e2e/Inputs/math_sweep.py %t 8 128 trig unit
// RUN: tpuc interpret %S/Inputs/expand-math-semantics.mlir --input=@%t/trig.npy --input=@%t/unit.npy --output-dir=%t/before
// RUN: tpuc-opt %S/Inputs/expand-math-semantics.mlir --tpuc-expand-math -o %t/after.mlir
// RUN: tpuc interpret %t/after.mlir --input=@%t/trig.npy --input=@%t/unit.npy --output-dir=%t/after
// RUN: %python_numpy %S/../e2e/Inputs/math_ulp.py %t/after %t/before 2 2 4 2 4 2 | FileCheck %s --check-prefix=SAME
// SAME-COUNT-6: ok

// A function outside a fusion becomes a loop fusion of its own: sine's
// Cody-Waite reduction (k = x * 2/pi rounded through s32, four parts of
// pi/2), its polynomials and NaN for +-inf.
// CHECK-LABEL: func.func @sine
// CHECK: %[[F:.+]] = hlo.fusion loop(%{{.+}}) : (tensor<8x128xf32>) -> tensor<8x128xf32> {
// CHECK: ^bb0(%[[X:.+]]: tensor<8x128xf32>):
// CHECK-DAG: %[[TWO_OVER_PI:.+]] = hlo.constant dense<0.636619746> : tensor<8x128xf32>
// CHECK-DAG: hlo.multiply %[[X]], %[[TWO_OVER_PI]]
// CHECK: %[[K:.+]] = hlo.convert %{{.+}} : (tensor<8x128xf32>) -> tensor<8x128xi32>
// CHECK: hlo.convert %[[K]] : (tensor<8x128xi32>) -> tensor<8x128xf32>
// CHECK-COUNT-4: hlo.subtract
// CHECK: hlo.remainder %{{.+}} : tensor<8x128xi32>
// CHECK: %[[NAN:.+]] = hlo.constant dense<0x7FC00000> : tensor<8x128xf32>
// CHECK: %[[R:.+]] = hlo.select %{{.+}}, %[[NAN]], %{{.+}}
// CHECK-NEXT: hlo.return %[[R]] : tensor<8x128xf32>
// CHECK: return %[[F]]
func.func @sine(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = hlo.sine %x : tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// Inside a fusion the function is expanded in place (no nested fusion),
// and the fusion's other ops stay.
// CHECK-LABEL: func.func @in_fusion
// CHECK: hlo.fusion loop
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<4x8xf32>):
// CHECK-NOT: hlo.fusion
// CHECK: hlo.divide
// CHECK: %[[NAN:.+]] = hlo.constant dense<0x7FC00000> : tensor<4x8xf32>
// CHECK: %[[ANGLE:.+]] = hlo.select %{{.+}}, %[[NAN]], %{{.+}}
// CHECK-NEXT: %[[SUM:.+]] = hlo.add %[[ANGLE]], %[[A]] : tensor<4x8xf32>
// CHECK-NEXT: hlo.return %[[SUM]]
func.func @in_fusion(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = hlo.fusion loop(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %1 = hlo.atan2 %a, %b : tensor<4x8xf32>
    %2 = hlo.add %1, %a : tensor<4x8xf32>
    hlo.return %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// sine and cosine of one value in one fusion share the reduction (one
// s32 round of k per step, not two) and round to bf16 once each.
// CHECK-LABEL: func.func @sine_cosine_bf16
// CHECK: ^bb0(%[[X:.+]]: tensor<8x128xbf16>):
// CHECK-COUNT-1: hlo.convert %[[X]] : (tensor<8x128xbf16>) -> tensor<8x128xf32>
// CHECK-COUNT-4: -> tensor<8x128xi32>
// CHECK-NOT: -> tensor<8x128xi32>
// CHECK: %[[S:.+]] = hlo.convert %{{.+}} : (tensor<8x128xf32>) -> tensor<8x128xbf16>
// CHECK: %[[C:.+]] = hlo.convert %{{.+}} : (tensor<8x128xf32>) -> tensor<8x128xbf16>
// CHECK: %[[P:.+]] = hlo.multiply %[[S]], %[[C]] : tensor<8x128xbf16>
// CHECK-NEXT: hlo.return %[[P]]
func.func @sine_cosine_bf16(%x: tensor<8x128xbf16>) -> tensor<8x128xbf16> {
  %0 = hlo.fusion loop(%x) : (tensor<8x128xbf16>) -> tensor<8x128xbf16> {
  ^bb0(%a: tensor<8x128xbf16>):
    %s = hlo.sine %a : tensor<8x128xbf16>
    %c = hlo.cosine %a : tensor<8x128xbf16>
    %p = hlo.multiply %s, %c : tensor<8x128xbf16>
    hlo.return %p : tensor<8x128xbf16>
  }
  return %0 : tensor<8x128xbf16>
}

// -----

// map: the scalar computation on whole arrays (its constant a splat), its
// expm1 expanded in the same fusion.
// CHECK-LABEL: func.func @map
// CHECK: hlo.fusion loop(%{{.+}}, %{{.+}}) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
// CHECK: ^bb0(%[[A:.+]]: tensor<16xf32>, %[[B:.+]]: tensor<16xf32>):
// CHECK: %[[TWO:.+]] = hlo.constant dense<2.000000e+00> : tensor<16xf32>
// CHECK: %[[M:.+]] = hlo.multiply %[[A]], %[[TWO]] : tensor<16xf32>
// CHECK: hlo.exponential %[[M]] : tensor<16xf32>
// CHECK: %[[S:.+]] = hlo.add %{{.+}}, %[[B]] : tensor<16xf32>
// CHECK-NEXT: hlo.return %[[S]]
func.func @map(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %0 = hlo.map(%x, %y) dims = [0] : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.constant dense<2.0> : tensor<f32>
    %m = hlo.multiply %a, %c : tensor<f32>
    %e = hlo.exponential_minus_one %m : tensor<f32>
    %s = hlo.add %e, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<16xf32>
}

// -----

// A map computation reading a rank-0 value from outside (the canonicalizer
// hoists constants out of it): constants become splats in the fusion,
// other values its operands, spread by a broadcast.
// CHECK-LABEL: func.func @map_captures
// CHECK: hlo.fusion loop(%{{.+}}, %{{.+}}) : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32> {
// CHECK: ^bb0(%[[A:.+]]: tensor<16xf32>, %[[S:.+]]: tensor<f32>):
// CHECK: %[[THREE:.+]] = hlo.constant dense<3.000000e+00> : tensor<16xf32>
// CHECK: %[[M:.+]] = hlo.multiply %[[A]], %[[THREE]] : tensor<16xf32>
// CHECK: %[[SPREAD:.+]] = hlo.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK: %[[R:.+]] = hlo.add %[[M]], %[[SPREAD]] : tensor<16xf32>
// CHECK-NEXT: hlo.return %[[R]]
func.func @map_captures(%x: tensor<16xf32>, %s: tensor<f32>) -> tensor<16xf32> {
  %c = hlo.constant dense<3.0> : tensor<f32>
  %0 = hlo.map(%x) dims = [0] : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%a: tensor<f32>):
    %m = hlo.multiply %a, %c : tensor<f32>
    %r = hlo.add %m, %s : tensor<f32>
    hlo.return %r : tensor<f32>
  }
  return %0 : tensor<16xf32>
}

// -----

// s32 power: squaring over the exponent's 31 bits (each read with an and,
// the next by a logical shift), integers only.
// CHECK-LABEL: func.func @integer_power
// CHECK-NOT: f32
// CHECK-COUNT-31: hlo.and
// CHECK-NOT: f32
// CHECK: return
func.func @integer_power(%x: tensor<5xi32>, %y: tensor<5xi32>) -> tensor<5xi32> {
  %0 = hlo.power %x, %y : tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

// u32 power: the same in s32 words (bitcasts), over all 32 bits of the
// exponent and without the negative-exponent select.
// CHECK-LABEL: func.func @unsigned_power
// CHECK-COUNT-2: hlo.bitcast_convert %{{.+}} : (tensor<5xui32>) -> tensor<5xi32>
// CHECK-COUNT-32: hlo.and
// CHECK-NOT: hlo.compare LT
// CHECK: hlo.bitcast_convert %{{.+}} : (tensor<5xi32>) -> tensor<5xui32>
// CHECK: return
func.func @unsigned_power(%x: tensor<5xui32>, %y: tensor<5xui32>) -> tensor<5xui32> {
  %0 = hlo.power %x, %y : tensor<5xui32>
  return %0 : tensor<5xui32>
}

// -----

// bf16 computes in f32 and rounds once; a splat exponent moves into the
// fusion as an immediate.
// CHECK-LABEL: func.func @bf16_power
// CHECK: hlo.fusion loop(%{{[^,]+}}) : (tensor<3x5xbf16>) -> tensor<3x5xbf16> {
// CHECK-DAG: hlo.constant dense<3.000000e+00> : tensor<3x5xbf16>
// CHECK-DAG: hlo.convert %{{.+}} : (tensor<3x5xbf16>) -> tensor<3x5xf32>
// CHECK: %[[R:.+]] = hlo.convert %{{.+}} : (tensor<3x5xf32>) -> tensor<3x5xbf16>
// CHECK-NEXT: hlo.return %[[R]] : tensor<3x5xbf16>
func.func @bf16_power(%x: tensor<3x5xbf16>) -> tensor<3x5xbf16> {
  %c = hlo.constant dense<3.0> : tensor<3x5xbf16>
  %0 = hlo.power %x, %c : tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}

// -----

// Constant exponents XLA's simplifier rewrites need no log: x^2 = x * x.
// s32 x^5 multiplies over the exponent's 3 bits only.
// CHECK-LABEL: func.func @constant_exponents
// CHECK: ^bb0(%[[X:.+]]: tensor<4xf32>):
// CHECK-NOT: hlo.log
// CHECK: %[[SQ:.+]] = hlo.multiply %[[X]], %[[X]] : tensor<4xf32>
// CHECK-NEXT: hlo.return %[[SQ]]
// CHECK-COUNT-3: hlo.and
// CHECK-NOT: hlo.and
// CHECK: return
func.func @constant_exponents(%x: tensor<4xf32>, %a: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %two = hlo.constant dense<2.0> : tensor<4xf32>
  %0 = hlo.power %x, %two : tensor<4xf32>
  %five = hlo.constant dense<5> : tensor<4xi32>
  %1 = hlo.power %a, %five : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Types without an expansion keep the op (codegen reports it).
// CHECK-LABEL: func.func @f16
// CHECK-NEXT: hlo.erf %{{.+}} : tensor<3xf16>
func.func @f16(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = hlo.erf %x : tensor<3xf16>
  return %0 : tensor<3xf16>
}
