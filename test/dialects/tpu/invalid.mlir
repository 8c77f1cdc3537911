// RUN: tpuc-opt %s --split-input-file --verify-diagnostics

#vmem = #tpu.memory_space<vmem>
func.func @alloc_no_space() {
  // expected-error @+1 {{needs a #tpu.memory_space on its memref type}}
  %0 = tpu.alloc : memref<8x128xf32>
  return
}

// -----

func.func @alloc_layout_in_vmem() {
  // expected-error @+1 {{vmem buffers are row-major (no layout)}}
  %0 = tpu.alloc : memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @alloc_in_loop(%n: index) {
  tpu.loop %i = 0 to %n {
    // expected-error @+1 {{must stand in a function's body, outside loops}}
    %0 = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  }
  return
}

// -----

module attributes {tpu.target = #tpu.target<vmem_bytes = 16777216>} {
  func.func @vmem_overflow() {
    %0 = tpu.alloc : memref<4096x1024xf32, #tpu.memory_space<vmem>>
    // expected-error @+1 {{'tpu.alloc' op needs 16781312 bytes of vmem with the buffers before it, but the target has 16777216}}
    %1 = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
    return
  }
}

// -----

module attributes {tpu.target = #tpu.target<smem_bytes = 16384>} {
  func.func @smem_overflow() {
    // expected-error @+1 {{'tpu.alloc' op needs 32768 bytes of smem with the buffers before it, but the target has 16384}}
    %0 = tpu.alloc : memref<8192xi32, #tpu.memory_space<smem>>
    return
  }
}

// -----

// expected-error @+1 {{'tpu.target' must be a #tpu.target attribute}}
module attributes {tpu.target = 1} {}

// -----

// expected-error @+1 {{unknown tpu dialect attribute 'tpu.other'}}
module attributes {tpu.other = 1} {}

// -----

func.func @target_not_on_module() attributes {tpu.target = #tpu.target<mxu_count = 1>} {
  // expected-error @-1 {{'tpu.target' belongs on the module}}
  return
}

// -----

// expected-error @+1 {{minor_to_major must be a permutation of [0, 2)}}
func.func @bad_permutation(%a: memref<8x128xf32, #tpu.tiled<{1,1:T(8,128)}>, #tpu.memory_space<hbm>>) {
  return
}

// -----

// expected-error @+1 {{tile dimensions must be positive}}
func.func @bad_tile(%a: memref<8x128xf32, #tpu.tiled<{1,0:T(0,128)}>, #tpu.memory_space<hbm>>) {
  return
}

// -----

// expected-error @+1 {{expected a tile after 'T'}}
func.func @no_tile(%a: memref<8x128xf32, #tpu.tiled<{1,0:T}>, #tpu.memory_space<hbm>>) {
  return
}

// -----

// expected-error @+1 {{is for rank 1, not 2}}
func.func @layout_rank(%a: memref<8x128xf32, #tpu.tiled<{0:T(128)}>, #tpu.memory_space<hbm>>) {
  return
}

// -----

func.func @dma_chunks(%a: memref<8x128xf32, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  %v = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{needs at least one chunk of at least one byte}}
  tpu.dma %a[%c0] -> %v[%c0] chunks = 0 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0
      : memref<8x128xf32, #tpu.memory_space<hbm>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @dma_out_of_bounds(%a: memref<16x128xf32, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  %v = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{destination access of 8192 bytes at offset 0 exceeds the 4096-byte buffer}}
  tpu.dma %a[%c0] -> %v[%c0] chunks = 2 chunk_bytes = 4096 src_stride = 4096 dst_stride = 4096 sem = 0
      : memref<16x128xf32, #tpu.memory_space<hbm>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @dma_no_space(%a: memref<8x128xf32>) {
  %c0 = arith.constant 0 : index
  %v = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{operands need a #tpu.memory_space}}
  tpu.dma %a[%c0] -> %v[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 0
      : memref<8x128xf32> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @dma_semaphore(%a: memref<8x128xf32, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  %v = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{semaphore 32 is out of range [0, 32)}}
  tpu.dma %a[%c0] -> %v[%c0] chunks = 1 chunk_bytes = 4096 src_stride = 0 dst_stride = 0 sem = 32
      : memref<8x128xf32, #tpu.memory_space<hbm>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

module attributes {tpu.target = #tpu.target<num_semaphores = 4>} {
  func.func @sem_wait_range() {
    // expected-error @+1 {{semaphore 4 is out of range [0, 4)}}
    tpu.sem_wait 4, 1
    return
  }
}

// -----

func.func @sem_wait_count() {
  // expected-error @+1 {{count must be at least 1}}
  tpu.sem_wait 0, 0
  return
}

// -----

func.func @sem_signal_count() {
  // expected-error @+1 {{count must be at least 1}}
  tpu.sem_signal 0, 0
  return
}

// -----

func.func @sem_signal_range() {
  // expected-error @+1 {{semaphore -1 is out of range [0, 32)}}
  tpu.sem_signal -1, 1
  return
}

// -----

func.func @weights_in_hbm(%w: memref<128x128xbf16, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{weights must be in vmem, not in hbm}}
  tpu.mxu_load_weights %w[%c0] mxu = 0 : memref<128x128xbf16, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @weights_tile_too_small() {
  %c0 = arith.constant 0 : index
  %w = tpu.alloc : memref<64x128xbf16, #tpu.memory_space<vmem>>
  // expected-error @+1 {{weights access of 32768 bytes at offset 0 exceeds the 16384-byte buffer}}
  tpu.mxu_load_weights %w[%c0] mxu = 0 : memref<64x128xbf16, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @weights_f32() {
  %c0 = arith.constant 0 : index
  %w = tpu.alloc : memref<128x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{operand #0 must be statically shaped memref of bfloat16 type values}}
  tpu.mxu_load_weights %w[%c0] mxu = 0 : memref<128x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @mxu_index() {
  %c0 = arith.constant 0 : index
  %w = tpu.alloc : memref<128x128xbf16, #tpu.memory_space<vmem>>
  // expected-error @+1 {{MXU 2 is out of range [0, 2)}}
  tpu.mxu_load_weights %w[%c0] mxu = 2 : memref<128x128xbf16, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @matmul_rows() {
  %c0 = arith.constant 0 : index
  %l = tpu.alloc : memref<16x128xbf16, #tpu.memory_space<vmem>>
  %d = tpu.alloc : memref<16x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{rows (12) must be a positive multiple of 8}}
  tpu.mxu_matmul %l[%c0] -> %d[%c0] mxu = 0 rows = 12
      : memref<16x128xbf16, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @matmul_lhs_space(%l: memref<16x128xbf16, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  %d = tpu.alloc : memref<16x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{lhs must be in vmem, not in hbm}}
  tpu.mxu_matmul %l[%c0] -> %d[%c0] mxu = 0 rows = 16
      : memref<16x128xbf16, #tpu.memory_space<hbm>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @matmul_dst_space() {
  %c0 = arith.constant 0 : index
  %l = tpu.alloc : memref<16x128xbf16, #tpu.memory_space<vmem>>
  %d = tpu.alloc : memref<16x128xf32, #tpu.memory_space<smem>>
  // expected-error @+1 {{dst must be in vmem, not in smem}}
  tpu.mxu_matmul %l[%c0] -> %d[%c0] mxu = 0 rows = 16
      : memref<16x128xbf16, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<smem>>
  return
}

// -----

func.func @matmul_dst_bounds() {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %l = tpu.alloc : memref<16x128xbf16, #tpu.memory_space<vmem>>
  %d = tpu.alloc : memref<16x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{dst access of 8192 bytes at offset 4096 exceeds the 8192-byte buffer}}
  tpu.mxu_matmul %l[%c0] -> %d[%c4096] mxu = 0 rows = 16
      : memref<16x128xbf16, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @vload_space(%m: memref<8x128xf32, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{buffer must be in vmem, not in hbm}}
  %v = tpu.vload %m[%c0] : memref<8x128xf32, #tpu.memory_space<hbm>> -> vector<8x128xf32>
  return
}

// -----

func.func @vload_type() {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<8x128xi32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{a 'i32' buffer does not hold 'vector<8x128xf32>'}}
  %v = tpu.vload %m[%c0] : memref<8x128xi32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  return
}

// -----

func.func @vload_shape() {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{result #0 must be vector register of f32 or i32}}
  %v = tpu.vload %m[%c0] : memref<8x128xf32, #tpu.memory_space<vmem>> -> vector<8x256xf32>
  return
}

// -----

func.func @vload_bounds() {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{vector access of 7680 bytes at offset 0 exceeds the 4096-byte buffer}}
  %v = tpu.vload %m[%c0] sublane_stride = 1024 : memref<8x128xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  return
}

// -----

func.func @vload_stride() {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{sublane_stride must not be negative}}
  %v = tpu.vload %m[%c0] sublane_stride = -512 : memref<8x128xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  return
}

// -----

func.func @vstore_bf16(%v: vector<8x128xbf16>) {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{a 'f32' buffer does not hold 'vector<8x128xbf16>'}}
  tpu.vstore %v, %m[%c0] : vector<8x128xbf16>, memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @vstore_offset(%v: vector<8x128xf32>) {
  %c = arith.constant 512 : index
  %m = tpu.alloc : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{vector access of 4096 bytes at offset 512 exceeds the 4096-byte buffer}}
  tpu.vstore %v, %m[%c] : vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @vcvt_same(%v: vector<8x128xf32>) {
  // expected-error @+1 {{converts nothing: the types are the same}}
  %0 = tpu.vcvt %v : vector<8x128xf32> to vector<8x128xf32>
  return
}

// -----

func.func @vcvt_no_f32(%v: vector<8x128xi32>) {
  // expected-error @+1 {{one side of a conversion must be f32}}
  %0 = tpu.vcvt %v : vector<8x128xi32> to vector<8x128xbf16>
  return
}

// -----

func.func @vcvt_unsigned_no_i32(%v: vector<8x128xf32>) {
  // expected-error @+1 {{is unsigned without an i32 side}}
  %0 = tpu.vcvt %v unsigned : vector<8x128xf32> to vector<8x128xbf16>
  return
}

// -----

func.func @vdiv_unsigned_f32(%v: vector<8x128xf32>) {
  // expected-error @+1 {{is unsigned on a register that is not i32}}
  %0 = tpu.vdiv %v, %v unsigned : vector<8x128xf32>
  return
}

// -----

func.func @vcmp_unsigned_f32(%v: vector<8x128xf32>) {
  // expected-error @+1 {{is unsigned on a register that is not i32}}
  %0 = tpu.vcmp lt, %v, %v unsigned : vector<8x128xf32> -> vector<8x128xi32>
  return
}

// -----

func.func @vreduce_unsigned_f32(%v: vector<8x128xf32>) {
  // expected-error @+1 {{is unsigned on a register that is not i32}}
  %0 = tpu.vreduce_lanes max, %v unsigned : vector<8x128xf32>
  return
}

// -----

func.func @vexp_int(%v: vector<8x128xi32>) {
  // expected-error @+1 {{operand #0 must be vector<8x128xF32> of 32-bit float values}}
  %0 = tpu.vexp %v : vector<8x128xi32>
  return
}

// -----

func.func @vbcast_lane(%v: vector<8x128xf32>) {
  %c = arith.constant 128 : index
  // expected-error @+1 {{lane 128 is out of range [0, 128)}}
  %0 = tpu.vbcast_lane %v, %c : vector<8x128xf32>, index
  return
}

// -----

func.func @vbcast_sublane(%v: vector<8x128xf32>) {
  %c = arith.constant 8 : index
  // expected-error @+1 {{sublane 8 is out of range [0, 8)}}
  %0 = tpu.vbcast_sublane %v, %c : vector<8x128xf32>, index
  return
}

// -----

func.func @vtranspose_count(%v: vector<8x128xf32>) {
  // expected-error @+1 {{transposes a 128x128 block: 16 sources and 16 results}}
  %0:2 = tpu.vtranspose %v, %v : vector<8x128xf32>
  return
}

// -----

func.func @vtranspose_types(%v: vector<8x128xf32>, %w: vector<8x128xi32>) {
  // expected-error @+1 {{sources and results must all have one type}}
  %0:16 = "tpu.vtranspose"(%v, %v, %v, %v, %v, %v, %v, %v, %v, %v, %v, %v, %v, %v, %v, %w)
      : (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xi32>)
      -> (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>, vector<8x128xf32>)
  return
}

// -----

func.func @sload_space() {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<4xi32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{buffer must be in smem, not in vmem}}
  %0 = tpu.sload %m[%c0] : memref<4xi32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @sload_alignment() {
  %c2 = arith.constant 2 : index
  %m = tpu.alloc : memref<4xi32, #tpu.memory_space<smem>>
  // expected-error @+1 {{scalar offset 2 is not 4-byte aligned}}
  %0 = tpu.sload %m[%c2] : memref<4xi32, #tpu.memory_space<smem>>
  return
}

// -----

func.func @sstore_space(%x: i64) {
  %c0 = arith.constant 0 : index
  %m = tpu.alloc : memref<4xi32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{buffer must be in smem, not in vmem}}
  tpu.sstore %x, %m[%c0] : i64, memref<4xi32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @sstore_bounds(%x: i64) {
  %c16 = arith.constant 16 : index
  %m = tpu.alloc : memref<4xi32, #tpu.memory_space<smem>>
  // expected-error @+1 {{scalar access of 4 bytes at offset 16 exceeds the 16-byte buffer}}
  tpu.sstore %x, %m[%c16] : i64, memref<4xi32, #tpu.memory_space<smem>>
  return
}

// -----

func.func @loop_negative() {
  %c = arith.constant -1 : index
  // expected-error @+1 {{trip count -1 is negative}}
  tpu.loop %i = 0 to %c {
  }
  return
}

// -----

func.func @loop_lower_bound(%n: index) {
  // expected-error @+1 {{loops count from 0}}
  tpu.loop %i = 1 to %n {
  }
  return
}

// -----

func.func @loop_argument(%n: index) {
  // expected-error @+1 {{body takes one index argument, the induction variable}}
  "tpu.loop"(%n) ({
  ^bb0(%i: i64):
    tpu.yield
  }) : (index) -> ()
  return
}

// -----

func.func @loop_depth(%n: index) {
  tpu.loop %i0 = 0 to %n { tpu.loop %i1 = 0 to %n { tpu.loop %i2 = 0 to %n {
  tpu.loop %i3 = 0 to %n { tpu.loop %i4 = 0 to %n { tpu.loop %i5 = 0 to %n {
  tpu.loop %i6 = 0 to %n { tpu.loop %i7 = 0 to %n { tpu.loop %i8 = 0 to %n {
  tpu.loop %i9 = 0 to %n { tpu.loop %i10 = 0 to %n { tpu.loop %i11 = 0 to %n {
  tpu.loop %i12 = 0 to %n { tpu.loop %i13 = 0 to %n { tpu.loop %i14 = 0 to %n {
  tpu.loop %i15 = 0 to %n {
    // expected-error @+1 {{loops nest at most 16 deep}}
    tpu.loop %i16 = 0 to %n {
    }
  } } } } } } } } } } } } } } } }
  return
}

// -----

func.func @init_in_vmem() {
  // expected-error @+1 {{only HBM buffers have an init value (constants)}}
  %0 = tpu.alloc init dense<1.0> : tensor<8x128xf32> : memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @init_type() {
  // expected-error @+1 {{init value of type 'tensor<4xf32>' does not match the buffer 'memref<4xi32, #tpu.memory_space<hbm>>'}}
  %0 = tpu.alloc init dense<1.0> : tensor<4xf32> : memref<4xi32, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @init_written(%x: memref<4xi32, #tpu.memory_space<hbm>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{is a constant (it has an init value): it cannot be written or returned}}
  %0 = tpu.alloc init dense<1> : tensor<4xi32> : memref<4xi32, #tpu.memory_space<hbm>>
  tpu.dma %x[%c0] -> %0[%c0] chunks = 1 chunk_bytes = 16 src_stride = 0 dst_stride = 0 sem = 0
      : memref<4xi32, #tpu.memory_space<hbm>> -> memref<4xi32, #tpu.memory_space<hbm>>
  tpu.sem_wait 0, 1
  return
}

// -----

func.func @init_returned() -> memref<4xi32, #tpu.memory_space<hbm>> {
  // expected-error @+1 {{is a constant (it has an init value): it cannot be written or returned}}
  %0 = tpu.alloc init dense<1> : tensor<4xi32> : memref<4xi32, #tpu.memory_space<hbm>>
  return %0 : memref<4xi32, #tpu.memory_space<hbm>>
}

// -----

func.func @while_condition() {
  // expected-error @+1 {{the condition must end in 'tpu.condition'}}
  tpu.while {
    %c0 = arith.constant 0 : index
  } do {
    tpu.yield
  }
  return
}

// -----

func.func @while_body(%f: i64) {
  // expected-error @+1 {{the body must end in 'tpu.yield'}}
  tpu.while {
    tpu.condition %f : i64
  } do {
    %c0 = arith.constant 0 : index
  }
  return
}

// -----

func.func @condition_parent(%n: index) {
  tpu.loop %i = 0 to %n {
    // expected-error @+1 {{expects parent op 'tpu.while'}}
    tpu.condition %i : index
  }
  return
}

// -----

func.func @if_else(%f: i64) {
  // expected-error @+1 {{else must end in 'tpu.yield'}}
  tpu.if %f : i64 {
    tpu.yield
  } else {
    %c0 = arith.constant 0 : index
  }
  return
}

// -----

func.func @overlay_on_hbm() {
  // expected-error @+1 {{'tpu.overlay' is a unit attribute or a non-negative offset (a multiple of 4096) of a VMEM tpu.alloc}}
  %0 = tpu.alloc {tpu.overlay} : memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @overlay_offset_unaligned() {
  // expected-error @+1 {{'tpu.overlay' is a unit attribute or a non-negative offset (a multiple of 4096) of a VMEM tpu.alloc}}
  %0 = tpu.alloc {tpu.overlay = 100 : i64} : memref<1024xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @step_negative() {
  // expected-error @+1 {{'tpu.step' must be a non-negative integer}}
  %0 = tpu.alloc {tpu.overlay, tpu.step = -1 : i64} : memref<1024xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// An overlay buffer at an offset must still fit: 12 MiB + 8 MiB > 16 MiB.
module attributes {tpu.target = #tpu.target<vmem_bytes = 16777216>} {
  func.func @overlay_offset_too_far() {
    // expected-error @+1 {{needs 20971520 bytes of vmem with the buffers before it, but the target has 16777216}}
    %0 = tpu.alloc {tpu.overlay = 12582912 : i64} : memref<2097152xf32, #tpu.memory_space<vmem>>
    return
  }
}

// -----

// Overlay buffers share one base: two 10 MiB arenas fit in 16 MiB.
module attributes {tpu.target = #tpu.target<vmem_bytes = 16777216>} {
  func.func @overlays_fit() {
    %0 = tpu.alloc {tpu.overlay} : memref<2621440xf32, #tpu.memory_space<vmem>>
    %1 = tpu.alloc {tpu.overlay} : memref<5242880xbf16, #tpu.memory_space<vmem>>
    return
  }
}

// -----

// ... but they come after the other buffers.
module attributes {tpu.target = #tpu.target<vmem_bytes = 16777216>} {
  func.func @overlay_after_buffers() {
    // expected-error @+1 {{needs 20971520 bytes of vmem with the buffers before it, but the target has 16777216}}
    %0 = tpu.alloc {tpu.overlay} : memref<2621440xf32, #tpu.memory_space<vmem>>
    %1 = tpu.alloc : memref<2621440xf32, #tpu.memory_space<vmem>>
    return
  }
}

// -----

// expected-error @+1 {{'tpu.target' mxu_size 64 is not a supported MXU size (128 or 256)}}
module attributes {tpu.target = #tpu.target<mxu_size = 64>} {
}

// -----

// A 256x256 MXU reads 256-wide LHS rows: 8 rows are 4096 bytes.
module attributes {tpu.target = #tpu.target<mxu_size = 256>} {
  func.func @mxu256_lhs_too_small(%lhs: memref<8x128xbf16, #tpu.memory_space<vmem>>, %dst: memref<8x256xf32, #tpu.memory_space<vmem>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{lhs access of 4096 bytes at offset 0 exceeds the 2048-byte buffer}}
    tpu.mxu_matmul %lhs[%c0] -> %dst[%c0] mxu = 0 rows = 8 : memref<8x128xbf16, #tpu.memory_space<vmem>> -> memref<8x256xf32, #tpu.memory_space<vmem>>
    return
  }
}

// -----

func.func @live_on_vmem() {
  // expected-error @+1 {{'tpu.live' belongs on an HBM tpu.alloc without init}}
  %0 = tpu.alloc {tpu.live = array<i64: 0, 1>} : memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @live_backwards() {
  // expected-error @+1 {{'tpu.live' must be array<i64: first, last> with 0 <= first <= last}}
  %0 = tpu.alloc {tpu.live = array<i64: 3, 1>} : memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @negative_plan_offset() {
  // expected-error @+1 {{'tpu.plan_offset' must be a non-negative integer}}
  %0 = tpu.alloc {tpu.plan_offset = -4096 : i64} : memref<8x128xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @hbm_buffers_per_result(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.hbm_buffers' must hold one array<i64: allocation, offset, bytes> (or an empty array) per result}}
  %0 = hlo.add %a, %a {tpu.hbm_buffers = [array<i64: 1, 0>]} : tensor<8x128xf32>
  return
}

// -----

// expected-error @+1 {{'tpu.planned_hbm_bytes' is a non-negative integer on the module}}
module attributes {tpu.planned_hbm_bytes = "big"} {
}
