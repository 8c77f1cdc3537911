// The dot and convolution kernels put every MXU of the target to work: one
// weight tile (N tile) per MXU when there are enough, otherwise the LHS
// rows split in parts over the MXUs. tpu-v4 has 8 MXUs of 128x128 (two
// cores of 4); tpu7x 4 of 256x256, which take 256-wide weight tiles and
// LHS rows of 256 (lane blocks, docs/isa.md).
// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu="target=tpu-v4" | FileCheck %s --check-prefix=V4
// RUN: tpuc-opt %s --split-input-file --tpuc-convert-hlo-to-tpu="target=tpu7x" | FileCheck %s --check-prefix=W256

// 8 N tiles of 128 on tpu-v4's 8 MXUs: each step loads tile (k, n) into
// MXU n and streams the 256-row panel through it.
// V4: module attributes {{{.*}}tpu.target = #tpu.target<name = "tpu-v4"{{.*}}mxu_count = 8{{.*}}mxu_size = 128>}
// V4-LABEL: func.func @wide
// V4: tpu.mxu_load_weights {{.*}} mxu = 0 :
// V4: tpu.mxu_matmul {{.*}} mxu = 0 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 1 :
// V4: tpu.mxu_matmul {{.*}} mxu = 1 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 2 :
// V4: tpu.mxu_matmul {{.*}} mxu = 2 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 3 :
// V4: tpu.mxu_matmul {{.*}} mxu = 3 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 4 :
// V4: tpu.mxu_matmul {{.*}} mxu = 4 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 5 :
// V4: tpu.mxu_matmul {{.*}} mxu = 5 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 6 :
// V4: tpu.mxu_matmul {{.*}} mxu = 6 rows = 256 :
// V4: tpu.mxu_load_weights {{.*}} mxu = 7 :
// V4: tpu.mxu_matmul {{.*}} mxu = 7 rows = 256 :
// Four 256-wide N tiles on four 256x256 MXUs.
// W256: module attributes {{{.*}}tpu.target = #tpu.target<name = "tpu7x"{{.*}}mxu_count = 4{{.*}}mxu_size = 256>}
// W256-LABEL: func.func @wide
// W256: tpu.mxu_load_weights {{.*}} mxu = 0 :
// W256: tpu.mxu_matmul {{.*}} mxu = 0 rows = 256 :
// W256: tpu.mxu_load_weights {{.*}} mxu = 1 :
// W256: tpu.mxu_matmul {{.*}} mxu = 1 rows = 256 :
// W256: tpu.mxu_load_weights {{.*}} mxu = 2 :
// W256: tpu.mxu_matmul {{.*}} mxu = 2 rows = 256 :
// W256: tpu.mxu_load_weights {{.*}} mxu = 3 :
// W256: tpu.mxu_matmul {{.*}} mxu = 3 rows = 256 :
// W256-NOT: mxu = 4
func.func @wide(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xf32> {
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xf32>
  return %d : tensor<256x1024xf32>
}

// -----

// One N tile: the 256 panel rows split in 8 parts of 32 (tpu-v4) or 4 parts
// of 64 (4 x 256x256); every MXU loads the same weight tile.
// V4-LABEL: func.func @narrow
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 0 :
// V4: tpu.mxu_matmul {{.*}} mxu = 0 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 1 :
// V4: tpu.mxu_matmul {{.*}} mxu = 1 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 2 :
// V4: tpu.mxu_matmul {{.*}} mxu = 2 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 3 :
// V4: tpu.mxu_matmul {{.*}} mxu = 3 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 4 :
// V4: tpu.mxu_matmul {{.*}} mxu = 4 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 5 :
// V4: tpu.mxu_matmul {{.*}} mxu = 5 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 6 :
// V4: tpu.mxu_matmul {{.*}} mxu = 6 rows = 32 :
// V4: tpu.mxu_load_weights %{{.+}}[%c{{[0-9]+}}_{{[0-9]+}}] mxu = 7 :
// V4: tpu.mxu_matmul {{.*}} mxu = 7 rows = 32 :
// W256-LABEL: func.func @narrow
// W256: tpu.mxu_load_weights {{.*}} mxu = 0 :
// W256: tpu.mxu_matmul {{.*}} mxu = 0 rows = 64 :
// W256: tpu.mxu_load_weights {{.*}} mxu = 1 :
// W256: tpu.mxu_matmul {{.*}} mxu = 1 rows = 64 :
// W256: tpu.mxu_load_weights {{.*}} mxu = 2 :
// W256: tpu.mxu_matmul {{.*}} mxu = 2 rows = 64 :
// W256: tpu.mxu_load_weights {{.*}} mxu = 3 :
// W256: tpu.mxu_matmul {{.*}} mxu = 3 rows = 64 :
func.func @narrow(%a: tensor<256x512xbf16>, %b: tensor<512x128xbf16>) -> tensor<256x128xf32> {
  %d = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]>
      : (tensor<256x512xbf16>, tensor<512x128xbf16>) -> tensor<256x128xf32>
  return %d : tensor<256x128xf32>
}

// -----

// A convolution's 128 output rows (8x16 pixels) split over the MXUs too.
// V4-LABEL: func.func @conv
// V4-COUNT-8: tpu.mxu_matmul {{.*}} rows = 16
// W256-LABEL: func.func @conv
// W256: tpu.mxu_matmul {{.*}} mxu = 0 rows = 32
// W256: tpu.mxu_matmul {{.*}} mxu = 3 rows = 32
func.func @conv(%x: tensor<1x8x16x64xbf16>, %w: tensor<1x1x64x128xbf16>) -> tensor<1x8x16x128xf32> {
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f">
       : (tensor<1x8x16x64xbf16>, tensor<1x1x64x128xbf16>) -> tensor<1x8x16x128xf32>
  return %0 : tensor<1x8x16x128xf32>
}
