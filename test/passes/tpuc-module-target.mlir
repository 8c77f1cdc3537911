// One target per module: the module attribute `tpuc.target` (set once by
// `tpuc compile`) wins over the passes' own target= option, which is only the
// fallback for a module without it (passes/ModuleTarget.h).
// RUN: tpuc-opt %s --split-input-file --tpuc-float-normalization=target=tpu-v3 --verify-diagnostics | FileCheck %s

// tpu-v5e computes exp in bf16; tpu-v3 (the option) would go through f32.
// CHECK-LABEL: func.func @v5e
// CHECK-NEXT: hlo.exponential %{{.*}} : tensor<8xbf16>
module attributes {tpuc.target = {name = "tpu-v5e"}} {
  func.func @v5e(%x: tensor<8xbf16>) -> tensor<8xbf16> {
    %e = hlo.exponential %x : tensor<8xbf16>
    return %e : tensor<8xbf16>
  }
}

// -----

// Overridden figures ride along with the name.
// CHECK-LABEL: func.func @v3
// CHECK: hlo.exponential %{{.*}} : tensor<8xf32>
module attributes {tpuc.target = {name = "tpu-v3", vmem_bytes = 1048576 : i64, hbm_limit_bytes = 1073741824 : i64}} {
  func.func @v3(%x: tensor<8xbf16>) -> tensor<8xbf16> {
    %e = hlo.exponential %x : tensor<8xbf16>
    return %e : tensor<8xbf16>
  }
}

// -----

// expected-error @+1 {{unknown target 'tpu-v9'; valid targets: tpu-v2, tpu-v3, tpu-v4, tpu-v5e, tpu-v5p, tpu-v6e, tpu7x}}
module attributes {tpuc.target = {name = "tpu-v9"}} {
}

// -----

// expected-error @+1 {{tpuc.target: 'vmem' is not a non-negative hbm_bytes, hbm_reserved_bytes, hbm_limit_bytes or vmem_bytes}}
module attributes {tpuc.target = {name = "tpu-v3", vmem = 5 : i64}} {
}

// -----

// expected-error @+1 {{tpuc.target needs a string 'name'}}
module attributes {tpuc.target = {vmem_bytes = 5 : i64}} {
}

// -----

// expected-error @+1 {{tpuc.target must be a dictionary}}
module attributes {tpuc.target = "tpu-v3"} {
}
