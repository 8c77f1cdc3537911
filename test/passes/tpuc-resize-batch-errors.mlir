// RUN: tpuc-opt %s --split-input-file --verify-diagnostics --tpuc-resize-batch='param=0 dim=0 size=64'

// A reshape that merges the batch with another dimension hard-codes it.
func.func @merged(%x: tensor<32x64xf32>) -> tensor<2048xf32> {
  // expected-error @+1 {{cannot re-specialize the batch: 'hlo.reshape' merges or splits the batch dimension (operand dimension 0 of 'tensor<32x64xf32>') with another dimension}}
  %0 = hlo.reshape %x : (tensor<32x64xf32>) -> tensor<2048xf32>
  return %0 : tensor<2048xf32>
}

// -----

// A non-splat constant with a batch dimension has one value per row.
func.func @table(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{cannot re-specialize the batch: 'hlo.constant' is a constant whose dimension 0 ('tensor<2x3xf32>') is the batch (only a splat resizes)}}
  %c = hlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = hlo.add %x, %c : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A slice of part of the batch fixes its size.
func.func @sliced(%x: tensor<32x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{cannot re-specialize the batch: 'hlo.slice' uses the batch as its operand dimension 0 ('tensor<32x8xf32>') in a way whose size is hard-coded}}
  %0 = hlo.slice %x [0:16:1, 0:8:1] : (tensor<32x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// expected-error @+1 {{no entry parameter '0' (@none takes 0 parameters}}
func.func @none() -> tensor<f32> {
  %0 = hlo.constant dense<0.0> : tensor<f32>
  return %0 : tensor<f32>
}
