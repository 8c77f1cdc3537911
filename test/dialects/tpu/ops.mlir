// RUN: tpuc-opt %s | tpuc-opt | FileCheck %s
// Every tpu op, printed and parsed back.

#hbm = #tpu.memory_space<hbm>
#vmem = #tpu.memory_space<vmem>
#smem = #tpu.memory_space<smem>

module attributes {tpu.target = #tpu.target<name = "tpu-v3", mxu_count = 2, vmem_bytes = 16777216, smem_bytes = 16384, num_semaphores = 32>} {

// CHECK-LABEL: func.func @memory
// CHECK-SAME: memref<256x256xbf16, #tpu.tiled<{1,0:T(8,128)(2,1)}>, #tpu.memory_space<hbm>>
func.func @memory(%a: memref<256x256xbf16, #tpu.tiled<{1,0:T(8,128)(2,1)}>, #hbm>,
                  %x: memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #hbm>)
    -> memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #hbm> {
  %c0 = arith.constant 0 : index
  // CHECK: %[[V:.+]] = tpu.alloc : memref<16x256xf32, #tpu.memory_space<vmem>>
  %v = tpu.alloc : memref<16x256xf32, #vmem>
  // CHECK: %[[S:.+]] = tpu.alloc : memref<4xi32, #tpu.memory_space<smem>>
  %s = tpu.alloc : memref<4xi32, #smem>
  // CHECK: %[[Y:.+]] = tpu.alloc : memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>>
  %y = tpu.alloc : memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #hbm>
  // CHECK: tpu.dma %{{.+}}[%{{.+}}] -> %[[V]][%{{.+}}] chunks = 4 chunk_bytes = 4096 src_stride = 4096 dst_stride = 4096 sem = 3 : memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #tpu.memory_space<hbm>> -> memref<16x256xf32, #tpu.memory_space<vmem>>
  tpu.dma %x[%c0] -> %v[%c0] chunks = 4 chunk_bytes = 4096 src_stride = 4096 dst_stride = 4096 sem = 3
      : memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #hbm> -> memref<16x256xf32, #vmem>
  // CHECK: tpu.sem_wait 3, 1
  tpu.sem_wait 3, 1
  // CHECK: tpu.sem_signal 4, 2
  tpu.sem_signal 4, 2
  // CHECK: tpu.sem_wait 4, 2
  tpu.sem_wait 4, 2
  // CHECK: %[[W:.+]] = tpu.sload %[[S]][%{{.+}}] : memref<4xi32, #tpu.memory_space<smem>>
  %w = tpu.sload %s[%c0] : memref<4xi32, #smem>
  // CHECK: tpu.sstore %[[W]], %[[S]][%{{.+}}] : i64, memref<4xi32, #tpu.memory_space<smem>>
  tpu.sstore %w, %s[%c0] : i64, memref<4xi32, #smem>
  return %y : memref<16x256xf32, #tpu.tiled<{1,0:T(8,128)}>, #hbm>
}

// CHECK-LABEL: func.func @mxu
func.func @mxu() {
  %c0 = arith.constant 0 : index
  %w = tpu.alloc : memref<128x128xbf16, #vmem>
  %lhs = tpu.alloc : memref<64x128xbf16, #vmem>
  %acc = tpu.alloc : memref<64x128xf32, #vmem>
  // CHECK: tpu.mxu_load_weights %{{.+}}[%{{.+}}] mxu = 1 : memref<128x128xbf16, #tpu.memory_space<vmem>>
  tpu.mxu_load_weights %w[%c0] mxu = 1 : memref<128x128xbf16, #vmem>
  // CHECK: tpu.mxu_matmul %{{.+}}[%{{.+}}] -> %{{.+}}[%{{.+}}] mxu = 1 rows = 64 : memref<64x128xbf16, #tpu.memory_space<vmem>> -> memref<64x128xf32, #tpu.memory_space<vmem>>
  tpu.mxu_matmul %lhs[%c0] -> %acc[%c0] mxu = 1 rows = 64
      : memref<64x128xbf16, #vmem> -> memref<64x128xf32, #vmem>
  // CHECK: tpu.mxu_matmul {{.+}} rows = 32 accumulate :
  tpu.mxu_matmul %lhs[%c0] -> %acc[%c0] mxu = 1 rows = 32 accumulate
      : memref<64x128xbf16, #vmem> -> memref<64x128xf32, #vmem>
  return
}

// CHECK-LABEL: func.func @vpu
func.func @vpu() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %buf = tpu.alloc : memref<16x256xf32, #vmem>
  %half = tpu.alloc : memref<8x128xbf16, #vmem>
  %ints = tpu.alloc : memref<8x128xi32, #vmem>
  // CHECK: %[[A:.+]] = tpu.vload %{{.+}}[%{{.+}}] sublane_stride = 1024 : memref<16x256xf32, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %a = tpu.vload %buf[%c0] sublane_stride = 1024 : memref<16x256xf32, #vmem> -> vector<8x128xf32>
  // CHECK: tpu.vload %{{.+}}[%{{.+}}] : memref<8x128xbf16, #tpu.memory_space<vmem>> -> vector<8x128xf32>
  %h = tpu.vload %half[%c0] : memref<8x128xbf16, #vmem> -> vector<8x128xf32>
  // CHECK: tpu.vsplat %{{.+}} : f32 -> vector<8x128xf32>
  %b = tpu.vsplat %one : f32 -> vector<8x128xf32>
  // CHECK: tpu.vsplat %{{.+}} : index -> vector<8x128xi32>
  %i = tpu.vsplat %c1 : index -> vector<8x128xi32>
  // CHECK: tpu.vmov %[[A]] : vector<8x128xf32>
  %m = tpu.vmov %a : vector<8x128xf32>
  // CHECK: tpu.vadd
  %0 = tpu.vadd %a, %b : vector<8x128xf32>
  // CHECK: tpu.vsub
  %1 = tpu.vsub %0, %h : vector<8x128xf32>
  // CHECK: tpu.vmul
  %2 = tpu.vmul %1, %m : vector<8x128xf32>
  // CHECK: tpu.vdiv
  %3 = tpu.vdiv %2, %b : vector<8x128xf32>
  // CHECK: tpu.vmax
  %4 = tpu.vmax %3, %a : vector<8x128xf32>
  // CHECK: tpu.vmin
  %5 = tpu.vmin %4, %a : vector<8x128xf32>
  // CHECK: tpu.vneg
  %6 = tpu.vneg %5 : vector<8x128xf32>
  // CHECK: tpu.vabs
  %7 = tpu.vabs %6 : vector<8x128xf32>
  // CHECK: tpu.vexp
  %8 = tpu.vexp %7 : vector<8x128xf32>
  // CHECK: tpu.vlog
  %9 = tpu.vlog %8 : vector<8x128xf32>
  // CHECK: tpu.vtanh
  %10 = tpu.vtanh %9 : vector<8x128xf32>
  // CHECK: tpu.vrsqrt
  %11 = tpu.vrsqrt %8 : vector<8x128xf32>
  // CHECK: tpu.vsqrt
  %12 = tpu.vsqrt %11 : vector<8x128xf32>
  // CHECK: tpu.vrcp
  %13 = tpu.vrcp %12 : vector<8x128xf32>
  // CHECK: tpu.vadd {{.+}} : vector<8x128xi32>
  %14 = tpu.vadd %i, %i : vector<8x128xi32>
  // CHECK: tpu.vfloor {{.+}} : vector<8x128xf32>
  %b0 = tpu.vfloor %13 : vector<8x128xf32>
  // CHECK: tpu.vceil
  %b1 = tpu.vceil %b0 : vector<8x128xf32>
  // CHECK: tpu.vround_afz
  %b2 = tpu.vround_afz %b1 : vector<8x128xf32>
  // CHECK: tpu.vround_even
  %b3 = tpu.vround_even %b2 : vector<8x128xf32>
  // CHECK: tpu.vrem {{.+}} : vector<8x128xf32>
  %b4 = tpu.vrem %b3, %13 : vector<8x128xf32>
  // CHECK: tpu.vreduce_precision %{{.+}}, %{{.+}}, %{{.+}} : vector<8x128xf32>, index, index
  %b5 = tpu.vreduce_precision %b4, %c5, %c10 : vector<8x128xf32>, index, index
  // CHECK: tpu.vbitcast %{{.+}} : vector<8x128xf32> to vector<8x128xi32>
  %b6 = tpu.vbitcast %b5 : vector<8x128xf32> to vector<8x128xi32>
  // CHECK: tpu.vand {{.+}} : vector<8x128xi32>
  %b7 = tpu.vand %b6, %14 : vector<8x128xi32>
  // CHECK: tpu.vor
  %b8 = tpu.vor %b7, %14 : vector<8x128xi32>
  // CHECK: tpu.vxor
  %b9 = tpu.vxor %b8, %14 : vector<8x128xi32>
  // CHECK: tpu.vshl
  %b10 = tpu.vshl %b9, %14 : vector<8x128xi32>
  // CHECK: tpu.vshrl
  %b11 = tpu.vshrl %b10, %14 : vector<8x128xi32>
  // CHECK: tpu.vshra
  %b12 = tpu.vshra %b11, %14 : vector<8x128xi32>
  // CHECK: tpu.vmulhi
  %b13 = tpu.vmulhi %b12, %14 : vector<8x128xi32>
  // CHECK: tpu.vpopcnt
  %b14 = tpu.vpopcnt %b13 : vector<8x128xi32>
  // CHECK: tpu.vclz
  %b15 = tpu.vclz %b14 : vector<8x128xi32>
  // CHECK: tpu.vrem {{.+}} : vector<8x128xi32>
  %b16 = tpu.vrem %b15, %14 : vector<8x128xi32>
  // CHECK: %[[MASK:.+]] = tpu.vcmp lt, %{{.+}}, %{{.+}} : vector<8x128xf32> -> vector<8x128xi32>
  %mask = tpu.vcmp lt, %13, %10 : vector<8x128xf32> -> vector<8x128xi32>
  // CHECK: tpu.vsel %[[MASK]], %{{.+}}, %{{.+}} : vector<8x128xf32>
  %15 = tpu.vsel %mask, %13, %10 : vector<8x128xf32>
  // CHECK: tpu.vcvt %{{.+}} : vector<8x128xf32> to vector<8x128xbf16>
  %16 = tpu.vcvt %15 : vector<8x128xf32> to vector<8x128xbf16>
  // CHECK: tpu.vcvt %{{.+}} : vector<8x128xi32> to vector<8x128xf32>
  %17 = tpu.vcvt %14 : vector<8x128xi32> to vector<8x128xf32>
  // CHECK: tpu.vreduce_lanes sum, %{{.+}} : vector<8x128xf32>
  %18 = tpu.vreduce_lanes sum, %17 : vector<8x128xf32>
  // CHECK: tpu.vreduce_sublanes max, %{{.+}} : vector<8x128xf32>
  %19 = tpu.vreduce_sublanes max, %18 : vector<8x128xf32>
  // CHECK: tpu.vbcast_lane %{{.+}}, %{{.+}} : vector<8x128xf32>, index
  %20 = tpu.vbcast_lane %19, %c1 : vector<8x128xf32>, index
  // CHECK: tpu.vbcast_sublane %{{.+}}, %{{.+}} : vector<8x128xf32>, index
  %21 = tpu.vbcast_sublane %20, %c1 : vector<8x128xf32>, index
  // CHECK: tpu.vlane_id : vector<8x128xi32>
  %l = tpu.vlane_id : vector<8x128xi32>
  // CHECK: tpu.vsublane_id : vector<8x128xi32>
  %s = tpu.vsublane_id : vector<8x128xi32>
  // CHECK: %{{.+}}:16 = tpu.vtranspose %{{.+}}, %{{.+}}, {{.+}} : vector<8x128xf32>
  %t:16 = tpu.vtranspose %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %17, %21 : vector<8x128xf32>
  // CHECK: tpu.vstore %{{.+}}, %{{.+}}[%{{.+}}] sublane_stride = 1024 : vector<8x128xf32>, memref<16x256xf32, #tpu.memory_space<vmem>>
  tpu.vstore %t#3, %buf[%c0] sublane_stride = 1024 : vector<8x128xf32>, memref<16x256xf32, #vmem>
  // CHECK: tpu.vstore %{{.+}} : vector<8x128xbf16>, memref<8x128xbf16, #tpu.memory_space<vmem>>
  tpu.vstore %16, %half[%c0] : vector<8x128xbf16>, memref<8x128xbf16, #vmem>
  // CHECK: tpu.vstore %{{.+}} : vector<8x128xi32>, memref<8x128xi32, #tpu.memory_space<vmem>>
  %22 = tpu.vadd %l, %s : vector<8x128xi32>
  tpu.vstore %22, %ints[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  // The u32 forms (dtype U32).
  // CHECK: tpu.vdiv %{{.+}}, %{{.+}} unsigned : vector<8x128xi32>
  %u0 = tpu.vdiv %l, %s unsigned : vector<8x128xi32>
  // CHECK: tpu.vrem %{{.+}}, %{{.+}} unsigned : vector<8x128xi32>
  %u1 = tpu.vrem %u0, %s unsigned : vector<8x128xi32>
  // CHECK: tpu.vmax %{{.+}}, %{{.+}} unsigned : vector<8x128xi32>
  %u2 = tpu.vmax %u1, %s unsigned : vector<8x128xi32>
  // CHECK: tpu.vmin %{{.+}}, %{{.+}} unsigned : vector<8x128xi32>
  %u3 = tpu.vmin %u2, %s unsigned : vector<8x128xi32>
  // CHECK: tpu.vmulhi %{{.+}}, %{{.+}} unsigned : vector<8x128xi32>
  %u4 = tpu.vmulhi %u3, %s unsigned : vector<8x128xi32>
  // CHECK: tpu.vcmp ge, %{{.+}}, %{{.+}} unsigned : vector<8x128xi32> -> vector<8x128xi32>
  %u5 = tpu.vcmp ge, %u4, %s unsigned : vector<8x128xi32> -> vector<8x128xi32>
  // CHECK: tpu.vcvt %{{.+}} unsigned : vector<8x128xi32> to vector<8x128xf32>
  %u6 = tpu.vcvt %u5 unsigned : vector<8x128xi32> to vector<8x128xf32>
  // CHECK: tpu.vcvt %{{.+}} unsigned : vector<8x128xf32> to vector<8x128xi32>
  %u7 = tpu.vcvt %u6 unsigned : vector<8x128xf32> to vector<8x128xi32>
  // CHECK: tpu.vreduce_lanes max, %{{.+}} unsigned : vector<8x128xi32>
  %u8 = tpu.vreduce_lanes max, %u7 unsigned : vector<8x128xi32>
  // CHECK: tpu.vreduce_sublanes min, %{{.+}} unsigned : vector<8x128xi32>
  %u9 = tpu.vreduce_sublanes min, %u8 unsigned : vector<8x128xi32>
  tpu.vstore %u9, %ints[%c0] : vector<8x128xi32>, memref<8x128xi32, #vmem>
  return
}

// CHECK-LABEL: func.func @loops
func.func @loops(%n: index) {
  %c4096 = arith.constant 4096 : index
  %c2 = arith.constant 2 : index
  %buf = tpu.alloc : memref<4x8x128xi32, #vmem>
  // CHECK: tpu.loop %[[I:.+]] = 0 to %{{.+}} {
  tpu.loop %i = 0 to %c2 {
    // CHECK: tpu.loop %[[J:.+]] = 0 to %{{.+}} {
    tpu.loop %j = 0 to %n {
      // CHECK: arith.addi %[[I]], %[[J]] : index
      %k = arith.addi %i, %j : index
      %off = arith.muli %k, %c4096 : index
      %v = tpu.vlane_id : vector<8x128xi32>
      tpu.vstore %v, %buf[%off] : vector<8x128xi32>, memref<4x8x128xi32, #vmem>
    }
  }
  return
}

// CHECK-LABEL: func.func @constants
func.func @constants() -> memref<3xi32, #tpu.tiled<{0:T(1024)}>, #hbm> {
  %c0 = arith.constant 0 : index
  // CHECK: %[[K:.+]] = tpu.alloc init dense<[1, -2, 3]> : tensor<3xi32> : memref<3xi32, #tpu.tiled<{0:T(1024)}>, #tpu.memory_space<hbm>>
  %k = tpu.alloc init dense<[1, -2, 3]> : tensor<3xi32> : memref<3xi32, #tpu.tiled<{0:T(1024)}>, #hbm>
  // CHECK: tpu.alloc init dense<7> : tensor<i32> : memref<i32, #tpu.tiled<{:T(1024)}>, #tpu.memory_space<hbm>>
  %s = tpu.alloc init dense<7> : tensor<i32> : memref<i32, #tpu.tiled<{:T(1024)}>, #hbm>
  // CHECK: tpu.alloc init dense<1.500000e+00> : tensor<2x3xbf16>
  %h = tpu.alloc init dense<1.5> : tensor<2x3xbf16> : memref<2x3xbf16, #tpu.tiled<{1,0:T(8,128)}>, #hbm>
  %y = tpu.alloc : memref<3xi32, #tpu.tiled<{0:T(1024)}>, #hbm>
  // CHECK: tpu.dma %[[K]][%{{.+}}] -> %{{.+}}[%{{.+}}]
  tpu.dma %k[%c0] -> %y[%c0] chunks = 1 chunk_bytes = 4096
      src_stride = 0 dst_stride = 0 sem = 0
      : memref<3xi32, #tpu.tiled<{0:T(1024)}>, #hbm> -> memref<3xi32, #tpu.tiled<{0:T(1024)}>, #hbm>
  tpu.sem_wait 0, 1
  return %y : memref<3xi32, #tpu.tiled<{0:T(1024)}>, #hbm>
}

// CHECK-LABEL: func.func @branches
func.func @branches() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %flag = tpu.alloc : memref<1xi32, #smem>
  tpu.sstore %c1, %flag[%c0] : index, memref<1xi32, #smem>
  // CHECK: tpu.while {
  // CHECK-NEXT: %[[F:.+]] = tpu.sload
  // CHECK-NEXT: tpu.condition %[[F]] : i64
  // CHECK-NEXT: } do {
  tpu.while {
    %f = tpu.sload %flag[%c0] : memref<1xi32, #smem>
    tpu.condition %f : i64
  } do {
    // CHECK: tpu.if %{{.+}} : i64 {
    // CHECK: } else {
    %f = tpu.sload %flag[%c0] : memref<1xi32, #smem>
    tpu.if %f : i64 {
      tpu.sstore %c0, %flag[%c0] : index, memref<1xi32, #smem>
      tpu.yield
    } else {
      tpu.yield
    }
    // CHECK: tpu.yield
    tpu.yield
  }
  return
}

}
