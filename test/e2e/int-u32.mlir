// u32 on the VPU against the interpreter, bit for bit: every pair of 16
// values around the sign bit and the ends (Inputs/u32_inputs.py), so the
// ops whose result depends on the sign read the bits unsigned (the ISA's
// dtype U32: divide, remainder, max, min, clamp, compare, mulhi, converts
// to and from f32/bf16) and XLA's x / 0 = 2^32 - 1 and x % 0 = x hold;
// abs and sign have their u32 forms; a compare with type SIGNED stays
// signed; shifts by 0 to 33 and amounts past 2^31 (the arithmetic shift
// fills with the sign bit for u32 too, as XLA); float converts of NaN,
// +-inf, negatives, 2^31, 2^32 and past it.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/u32_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --input=@%t/in/f.npy --output-dir=%t/got --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/s.npy --input=@%t/in/f.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 22 | FileCheck %s
// CHECK-COUNT-22: exact
// The ops that differ are `unsigned` (dtype U32 in the executable).
// RUN: tpuc compile %s --emit=tpu -o - | FileCheck %s --check-prefix=TPU
// TPU-DAG: tpu.vdiv {{.*}} unsigned : vector<8x128xi32>
// TPU-DAG: tpu.vrem {{.*}} unsigned : vector<8x128xi32>
// TPU-DAG: tpu.vcmp lt, {{.*}} unsigned : vector<8x128xi32>
// TPU-DAG: tpu.vcvt {{.*}} unsigned : vector<8x128xi32> to vector<8x128xf32>
// TPU-DAG: tpu.vcvt {{.*}} unsigned : vector<8x128xf32> to vector<8x128xi32>
// RUN: tpuc translate --executable-to-text %t/t.tpx -o - | FileCheck %s --check-prefix=EXE
// EXE-DAG: VDIV {{.*}}, U32
// EXE-DAG: VREM {{.*}}, U32
// EXE-DAG: VCVT {{.*}}, F32, from U32
// EXE-DAG: VCVT {{.*}}, U32, from F32
// EXE-DAG: VCMP {{.*}}, U32, LT
// EXE-DAG: VCMP {{.*}}, S32, LT

func.func @main(%a: tensor<16x16xui32>, %b: tensor<16x16xui32>,
                %s: tensor<16x16xui32>, %f: tensor<16x16xf32>)
    -> (tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xi1>,
        tensor<16x16xi1>, tensor<16x16xi1>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xf32>,
        tensor<16x16xbf16>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xi32>,
        tensor<16x16xui32>) {
  %div = hlo.divide %a, %b : tensor<16x16xui32>
  %rem = hlo.remainder %a, %b : tensor<16x16xui32>
  %max = hlo.maximum %a, %b : tensor<16x16xui32>
  %min = hlo.minimum %a, %b : tensor<16x16xui32>
  %clamp = hlo.clamp %b, %a, %max : (tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>) -> tensor<16x16xui32>
  %lt = hlo.compare LT, %a, %b : (tensor<16x16xui32>, tensor<16x16xui32>) -> tensor<16x16xi1>
  %ge = hlo.compare GE, %a, %b, UNSIGNED : (tensor<16x16xui32>, tensor<16x16xui32>) -> tensor<16x16xi1>
  %slt = hlo.compare LT, %a, %b, SIGNED : (tensor<16x16xui32>, tensor<16x16xui32>) -> tensor<16x16xi1>
  %abs = hlo.abs %a : tensor<16x16xui32>
  %sign = hlo.sign %a : tensor<16x16xui32>
  %mulhi = hlo.mulhi %a, %b : tensor<16x16xui32>
  %sra = hlo.shift_right_arithmetic %a, %s : tensor<16x16xui32>
  %srl = hlo.shift_right_logical %a, %s : tensor<16x16xui32>
  %shl = hlo.shift_left %a, %s : tensor<16x16xui32>
  %tof = hlo.convert %a : (tensor<16x16xui32>) -> tensor<16x16xf32>
  %tobf = hlo.convert %a : (tensor<16x16xui32>) -> tensor<16x16xbf16>
  %fromf = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xui32>
  %fbf = hlo.convert %f : (tensor<16x16xf32>) -> tensor<16x16xbf16>
  %frombf = hlo.convert %fbf : (tensor<16x16xbf16>) -> tensor<16x16xui32>
  %sum = hlo.add %div, %rem : tensor<16x16xui32>
  %mul = hlo.multiply %a, %b : tensor<16x16xui32>
  %neg = hlo.negate %mul : tensor<16x16xui32>
  %tos = hlo.convert %neg : (tensor<16x16xui32>) -> tensor<16x16xi32>
  %pop = hlo.popcnt %a : tensor<16x16xui32>
  return %div, %rem, %max, %min, %clamp, %lt, %ge, %slt, %abs, %sign, %mulhi,
         %sra, %srl, %shl, %tof, %tobf, %fromf, %frombf, %sum, %neg, %tos, %pop
      : tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xi1>,
        tensor<16x16xi1>, tensor<16x16xi1>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xf32>,
        tensor<16x16xbf16>, tensor<16x16xui32>, tensor<16x16xui32>,
        tensor<16x16xui32>, tensor<16x16xui32>, tensor<16x16xi32>,
        tensor<16x16xui32>
}
