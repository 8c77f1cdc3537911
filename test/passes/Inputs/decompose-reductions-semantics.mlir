// Every rewrite of tpuc-decompose-reductions in one function, for
// `tpuc interpret` before and after the pass (tpuc-decompose-reductions.mlir).
func.func @main(%x: tensor<4x6x8xf32>, %y: tensor<2x3x4x5xf32>, %i: tensor<4x6x8xi32>)
    -> (tensor<6x8xf32>, tensor<4xf32>, tensor<3x5xf32>, tensor<2x4x5xf32>, tensor<6xf32>, tensor<6xi32>, tensor<6x8xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %izero = hlo.constant dense<0> : tensor<i32>
  %a = hlo.reduce(%x) init(%ninf) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.maximum %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %b = hlo.reduce(%x) init(%zero) dims = [1, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %c = hlo.reduce(%y) init(%zero) dims = [0, 2] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3x5xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %d = hlo.reduce(%y) init(%zero) dims = [1] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<2x4x5xf32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %0 = hlo.add %p, %q : tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  %m:2 = hlo.reduce(%x, %i) init(%ninf, %izero) dims = [0, 2] : (tensor<4x6x8xf32>, tensor<4x6x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>) {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = hlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = hlo.select %gt, %av, %bv : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %j = hlo.select %gt, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %v, %j : tensor<f32>, tensor<i32>
  }
  %f = hlo.fusion input(%x) : (tensor<4x6x8xf32>) -> tensor<6x8xf32> {
  ^bb0(%fx: tensor<4x6x8xf32>):
    %fz = hlo.constant dense<0.0> : tensor<f32>
    %r = hlo.reduce(%fx) init(%fz) dims = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32> {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %0 = hlo.add %p, %q : tensor<f32>
      hlo.return %0 : tensor<f32>
    }
    hlo.return %r : tensor<6x8xf32>
  }
  return %a, %b, %c, %d, %m#0, %m#1, %f : tensor<6x8xf32>, tensor<4xf32>, tensor<3x5xf32>, tensor<2x4x5xf32>, tensor<6xf32>, tensor<6xi32>, tensor<6x8xf32>
}
