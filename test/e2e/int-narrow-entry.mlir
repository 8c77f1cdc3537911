// s8/u8/s16/u16 entry parameters and results: s32 words on the device (the
// value sign- or zero-extended), their own type on the host (the
// executable's host_dtype); the loader widens the .npy inputs and narrows
// the results. Limits of each type and random values
// (Inputs/narrow_entry_inputs.py); arithmetic that wraps, a parameter
// returned as it is, converts to and from s32 (s32 -> s8 wraps), bit for
// bit against the interpreter.
// RUN: rm -rf %t && mkdir -p %t/in %t/got %t/want
// RUN: %python_numpy %S/Inputs/narrow_entry_inputs.py %t/in
// RUN: tpuc compile %s -o %t/t.tpx
// RUN: tpuc-run %t/t.tpx --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/c.npy --input=@%t/in/d.npy --input=@%t/in/x.npy --output-dir=%t/got --result-names=index
// RUN: tpuc interpret %s --input=@%t/in/a.npy --input=@%t/in/b.npy --input=@%t/in/c.npy --input=@%t/in/d.npy --input=@%t/in/x.npy --output-dir=%t/want --result-names=index
// RUN: %python_numpy %S/Inputs/rng_compare.py %t/got %t/want 8 | FileCheck %s
// CHECK-COUNT-8: exact
// The results keep their types (rng_compare compares the bytes, so the
// element sizes must be the host's).
// RUN: %python_numpy -c "import numpy as n; print([str(n.load('%t/got/result%%d.npy' %% i).dtype) for i in range(8)])" | FileCheck %s --check-prefix=TYPES
// TYPES: ['int8', 'uint8', 'int16', 'uint16', 'int32', 'int8', 'int32', 'uint8']
// RUN: tpuc translate --executable-to-text %t/t.tpx -o - | FileCheck %s --check-prefix=EXE
// EXE: parameter 0 "{{.*}}" S32[16,16]{{.*}} host S8
// EXE: parameter 1 "{{.*}}" S32[16,16]{{.*}} host U8
// EXE: parameter 2 "{{.*}}" S32[3,130]{{.*}} host S16
// EXE: parameter 3 "{{.*}}" S32[3,130]{{.*}} host U16
// EXE: parameter 4 "{{.*}}" S32[16,16]{{.*}} buffer
// EXE: result 0 "{{.*}}" S32[16,16]{{.*}} host S8
// A host array of another type is rejected, naming both.
// RUN: not tpuc-run %t/t.tpx --input=@%t/in/x.npy --input=@%t/in/b.npy --input=@%t/in/c.npy --input=@%t/in/d.npy --input=@%t/in/x.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: input 0 is s32[16,16], parameter '{{.*}}' is s8[16,16]

func.func @main(%a: tensor<16x16xi8>, %b: tensor<16x16xui8>,
                %c: tensor<3x130xi16>, %d: tensor<3x130xui16>,
                %x: tensor<16x16xi32>)
    -> (tensor<16x16xi8>, tensor<16x16xui8>, tensor<3x130xi16>,
        tensor<3x130xui16>, tensor<16x16xi32>, tensor<16x16xi8>,
        tensor<3x130xi32>, tensor<16x16xui8>) {
  %0 = hlo.add %a, %a : tensor<16x16xi8>
  %1 = hlo.multiply %b, %b : tensor<16x16xui8>
  %2 = hlo.multiply %c, %c : tensor<3x130xi16>
  %3 = hlo.add %d, %d : tensor<3x130xui16>
  %ab = hlo.convert %b : (tensor<16x16xui8>) -> tensor<16x16xi32>
  %aa = hlo.convert %a : (tensor<16x16xi8>) -> tensor<16x16xi32>
  %4 = hlo.add %ab, %aa : tensor<16x16xi32>
  %5 = hlo.convert %x : (tensor<16x16xi32>) -> tensor<16x16xi8>
  %6 = hlo.convert %d : (tensor<3x130xui16>) -> tensor<3x130xi32>
  return %0, %1, %2, %3, %4, %5, %6, %b
      : tensor<16x16xi8>, tensor<16x16xui8>, tensor<3x130xi16>,
        tensor<3x130xui16>, tensor<16x16xi32>, tensor<16x16xi8>,
        tensor<3x130xi32>, tensor<16x16xui8>
}
