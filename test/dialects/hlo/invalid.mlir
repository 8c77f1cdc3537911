// RUN: tpuc-opt %s --split-input-file --verify-diagnostics
// One case per verifier message of the hlo dialect. Ops whose result type is
// inferred report the reason, then that inference failed.

func.func @select_types(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xbf16>) {
  // expected-error @+2 {{on_true and on_false must have the same type, got 'tensor<4xf32>' and 'tensor<4xbf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xbf16>) -> tensor<4xf32>
  return
}

// -----

func.func @select_pred_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) {
  // expected-error @+2 {{pred must be a scalar or have the shape of on_true}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.select %p, %a, %a : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_bound(%lo: tensor<2xf32>, %a: tensor<4xf32>, %hi: tensor<f32>) {
  // expected-error @+2 {{min must be a scalar or have the operand's shape, with its element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.clamp %lo, %a, %hi : (tensor<2xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.compare' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.compare EQ, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xi1>
  return
}

// -----

func.func @elementwise_types(%a: tensor<4xf32>, %b: tensor<4xbf16>) {
  // expected-error @+1 {{'hlo.add' op requires the same type for all operands and results}}
  %0 = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xbf16>) -> tensor<4xf32>
  return
}

// -----

func.func @float_only(%a: tensor<4xi32>) {
  // expected-error @+1 {{'hlo.exponential' op operand #0 must be statically shaped tensor of}}
  %0 = hlo.exponential %a : tensor<4xi32>
  return
}

// -----

func.func @dynamic_shape(%a: tensor<?xf32>) {
  // expected-error @+1 {{'hlo.negate' op operand #0 must be statically shaped tensor}}
  %0 = hlo.negate %a : tensor<?xf32>
  return
}

// -----

func.func @bitcast_same_width(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.bitcast_convert' op cannot bitcast 'tensor<4xf32>' to 'tensor<2xi32>': with 32-bit to 32-bit elements the shapes must be equal}}
  %0 = hlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @bitcast_narrowing(%a: tensor<4xf32>) {
  // expected-error @+1 {{with 32-bit to 16-bit elements the narrower shape must be the wider one with a minor dimension of size 2 appended}}
  %0 = hlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x4xbf16>
  return
}

// -----

func.func @convert_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = hlo.convert %a : (tensor<4xf32>) -> tensor<5xbf16>
  return
}

// -----

func.func @iota_dim() {
  // expected-error @+1 {{'hlo.iota' op iota dimension 2 is out of range for a rank-2 result}}
  %0 = hlo.iota dim = 2 : tensor<2x4xi32>
  return
}

// -----

func.func @broadcast_element(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op element types differ: 'f32' vs 'bf16'}}
  %0 = hlo.broadcast_in_dim %a, dims = [1] : (tensor<4xf32>) -> tensor<2x4xbf16>
  return
}

// -----

func.func @broadcast_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op broadcast_dimensions has 2 entries for a rank-1 operand}}
  %0 = hlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_range(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op broadcast dimension 2 is out of range for a rank-2 result}}
  %0 = hlo.broadcast_in_dim %a, dims = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_order(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op broadcast_dimensions must be strictly increasing, got 1 before 0}}
  %0 = hlo.broadcast_in_dim %a, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_size(%a: tensor<3xf32>) {
  // expected-error @+1 {{'hlo.broadcast_in_dim' op operand dimension 0 (size 3) must be 1 or equal to result dimension 1 (size 4)}}
  %0 = hlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.reshape' op cannot reshape 32 elements into 30}}
  %0 = hlo.reshape %a : (tensor<4x8xf32>) -> tensor<30xf32>
  return
}

// -----

func.func @reshape_element(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hlo.reshape' op element types differ: 'f32' vs 'i32'}}
  %0 = hlo.reshape %a : (tensor<4x8xf32>) -> tensor<32xi32>
  return
}

// -----

func.func @transpose_size(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{permutation has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %a, dims = [0] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @transpose_range(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{permutation entry 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %a, dims = [2, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_repeat(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{permutation entry 0 appears more than once}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.transpose %a, dims = [0, 0] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'hlo.transpose' op failed to infer returned types}}
  // expected-error @+1 {{'hlo.transpose' op inferred type(s) 'tensor<8x4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  %0 = hlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reverse_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{reverse dimension 3 is out of range [0, 2)}}
  %0 = hlo.reverse %a, dims = [3] : tensor<4x8xf32>
  return
}

// -----

func.func @slice_count(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{start_indices has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %a [0:2:1] : (tensor<4x8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @slice_bounds(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice [0:9:1] of dimension 1 (size 8) needs 0 <= start <= limit <= size and stride >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.slice %a [0:4:1, 0:9:1] : (tensor<4x8xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @dynamic_slice_indices(%a: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{dynamic_slice has 1 start indices for a rank-2 operand}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %a, [%i], sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @dynamic_slice_sizes_count(%a: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{slice_sizes has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %a, [%i, %i], sizes = [2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_slice_size(%a: tensor<4x8xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{slice size 5 of dimension 0 is outside [0, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_slice %a, [%i, %i], sizes = [5, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dynamic_slice_index_type(%a: tensor<4x8xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'hlo.dynamic_slice' op operand #1 must be variadic of 0D tensor of}}
  %0 = hlo.dynamic_slice %a, [%i, %i], sizes = [2, 2] : (tensor<4x8xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @dus_update_type(%a: tensor<4x8xf32>, %u: tensor<2x2xbf16>, %i: tensor<i32>) {
  // expected-error @+2 {{update 'tensor<2x2xbf16>' must have the rank and element type of the operand 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_update_slice %a, %u, [%i, %i] : (tensor<4x8xf32>, tensor<2x2xbf16>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dus_indices(%a: tensor<4x8xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{dynamic_update_slice has 1 start indices for a rank-2 operand}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_update_slice %a, %u, [%i] : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dus_too_big(%a: tensor<4x8xf32>, %u: tensor<5x2xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{update dimension 0 (size 5) is larger than the operand's (4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.dynamic_update_slice %a, %u, [%i, %i] : (tensor<4x8xf32>, tensor<5x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+2 {{concatenate needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate() dim = 0 : () -> tensor<4xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<4xf32>) {
  // expected-error @+2 {{concatenate dimension 1 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate(%a, %a) dim = 1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @concat_types(%a: tensor<4xf32>, %b: tensor<4xbf16>) {
  // expected-error @+2 {{input 1 'tensor<4xbf16>' must have the rank and element type of input 0 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate(%a, %b) dim = 0 : (tensor<4xf32>, tensor<4xbf16>) -> tensor<8xf32>
  return
}

// -----

func.func @concat_other_dim(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+2 {{input 1 differs from input 0 in dimension 1, which is not the concatenated one}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.concatenate(%a, %b) dim = 0 : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @pad_value(%a: tensor<4xf32>, %v: tensor<1xf32>) {
  // expected-error @+2 {{padding value must be a rank-0 tensor of the operand's element type, got 'tensor<1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %a, %v, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_count(%a: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{edge_padding_low has 2 entries, expected 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %a, %v, low = [0, 0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_interior(%a: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{interior padding of dimension 0 is negative (-1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %a, %v, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  return
}

// -----

func.func @pad_negative(%a: tensor<4xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{padding makes dimension 0 negative in size (-1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.pad %a, %v, low = [-3], high = [-2], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  return
}

// -----

func.func @reduce_shapes(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{input 1 'tensor<4x4xf32>' does not have the shape of input 0 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = hlo.reduce(%a, %b) init(%z, %z) dims = [1] : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %u: tensor<f32>, %v: tensor<f32>):
    hlo.return %x, %y : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_init(%a: tensor<4x8xf32>, %z: tensor<i32>) {
  // expected-error @+2 {{init value 0 must be a rank-0 tensor of 'f32', got 'tensor<i32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.reduce(%a) init(%z) dims = [1] : (tensor<4x8xf32>, tensor<i32>) -> tensor<4xi32> {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    hlo.return %x : tensor<i32>
  }
  return
}

// -----

func.func @reduce_no_input() {
  // expected-error @+2 {{needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.reduce() init() dims = [] : () -> tensor<4xf32> {
  ^bb0:
    hlo.return
  }
  return
}

// -----

func.func @reduce_dim(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{reduce dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.reduce(%a) init(%z) dims = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @reduce_region_args(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op reducer takes 1 argument(s) of type(s) ('tensor<f32>'), expected ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.reduce(%a) init(%z) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @reduce_region_result(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'hlo.reduce' op reducer returns ('tensor<1xf32>'), expected ('tensor<f32>')}}
  %0 = hlo.reduce(%a) init(%z) dims = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = hlo.reshape %x : (tensor<f32>) -> tensor<1xf32>
    hlo.return %r : tensor<1xf32>
  }
  return
}

// -----

func.func @reduce_window_count(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{window_dimensions has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.reduce_window(%a) init(%z) {window_dimensions = array<i64: 2>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x8xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_padding(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{padding (low, high per dim) has 2 entries, expected 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.reduce_window(%a) init(%z) {window_dimensions = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_stride(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{window size, stride and dilations must be >= 1 (dim 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.reduce_window(%a) init(%z) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 0>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @reduce_window_result(%a: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{'hlo.reduce_window' op failed to infer returned types}}
  // expected-error @+1 {{'hlo.reduce_window' op inferred type(s) 'tensor<3x7xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  %0 = hlo.reduce_window(%a) init(%z) {window_dimensions = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @sas_init(%a: tensor<4x8xf32>, %s: tensor<2x4xf32>, %z: tensor<i32>) {
  // expected-error @+2 {{init value must be a rank-0 tensor of the source's element type, got 'tensor<i32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.select_and_scatter %a, %s, %z {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<i32>) -> tensor<4x8xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @sas_source(%a: tensor<4x8xf32>, %s: tensor<4x4xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{source 'tensor<4x4xf32>' must have one element per window; the windows form 'tensor<2x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.select_and_scatter %a, %s, %z {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x8xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @sas_select(%a: tensor<4x8xf32>, %s: tensor<2x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op select returns ('tensor<f32>'), expected ('tensor<i1>')}}
  %0 = hlo.select_and_scatter %a, %s, %z {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  } scatter {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @sas_scatter(%a: tensor<4x8xf32>, %s: tensor<2x4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'hlo.select_and_scatter' op scatter takes 1 argument(s) of type(s) ('tensor<f32>'), expected ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.select_and_scatter %a, %s, %z {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32> select {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

// Float operands may differ in precision (bf16 x f32, as XLA allows);
// a float and an integer may not.
func.func @dot_types(%a: tensor<2x3xf32>, %b: tensor<3x4xi32>) {
  // expected-error @+1 {{'hlo.dot_general' op operand element types differ: 'f32' vs 'i32'}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<3x4xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_batch_count(%a: tensor<2x3xf32>, %b: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op lhs and rhs have different numbers of batch dimensions}}
  %0 = hlo.dot_general %a, %b, dims = <rhs_batch = [0], lhs_contracting = [1], rhs_contracting = [1]> : (tensor<2x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_contract_count(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op lhs and rhs have different numbers of contracting dimensions}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1]> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @dot_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{lhs batch/contracting dimension 2 is out of range [0, 2)}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [2], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_repeat(%a: tensor<3x3xf32>, %b: tensor<3x3x4xf32>) {
  // expected-error @+1 {{lhs batch/contracting dimension 0 appears more than once}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [0], rhs_contracting = [1]> : (tensor<3x3xf32>, tensor<3x3x4xf32>) -> tensor<3x3x4xf32>
  return
}

// -----

func.func @dot_batch_size(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op batch dimension sizes differ: lhs dimension 0 is 2, rhs dimension 0 is 5}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1]> : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @dot_contract_size(%a: tensor<2x3xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op contracting dimension sizes differ: lhs dimension 1 is 3, rhs dimension 0 is 4}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op result shape must be 'tensor<2x4xf32>' (batch, lhs free, rhs free), got 'tensor<4x2xf32>'}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @dot_precision(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op precision_config has 1 entries, expected 0 or 2 (lhs, rhs)}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contracting = [1], rhs_contracting = [0]> {precision_config = [#hlo<precision HIGH>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_attr_field(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{unknown field 'lhs_contract', expected one of: lhs_batch, rhs_batch, lhs_contracting, rhs_contracting}}
  %0 = hlo.dot_general %a, %b, dims = <lhs_contract = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_attr_twice(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{field 'rhs_contracting' appears twice}}
  %0 = hlo.dot_general %a, %b, dims = <rhs_contracting = [1], rhs_contracting = [0]> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_attr_kind(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'hlo.dot_general' op attribute 'dot_dimension_numbers' failed to satisfy constraint: batch and contracting dimensions of a dot_general}}
  %0 = "hlo.dot_general"(%a, %b) {dot_dimension_numbers = #hlo.conv<"bf_io->bf">} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_labels_form(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{dim_labels 'b01f01io->b01f' is not of the form <input>_<kernel>-><output>}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f01io->b01f"> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_labels_unknown(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{unexpected label 'x' in 'b0xf' (expected 'b', 'f' and spatial digits below 2)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b0xf_01io->b01f"> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_labels_twice(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{label '0' appears twice in '00io'}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_00io->b01f"> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_labels_spatial(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{dim_labels 'b01f_0io->b01f' has different numbers of spatial dimensions in its parts}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_0io->b01f"> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

// Float operands may differ in precision (bf16 x f32), not in kind.
func.func @conv_types(%x: tensor<1x8x8x3xi32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op operand element types differ: 'i32' vs 'f32'}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x8x8x3xi32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<1x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input, kernel and result must all have rank 4 (dim_labels "b01f_01io->b01f"), got 3, 4 and 4}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{window_strides has 1 entries, expected 2}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_strides = array<i64: 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_reversal(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op window_reversal has 1 entries, expected 2}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {window_reversal = array<i1: true>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_dilation(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op strides and dilations must be >= 1 (spatial dimension 0)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {rhs_dilation = array<i64: 0, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_both_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op feature_group_count and batch_group_count cannot both be > 1}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_features(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input feature dimension (4) must equal kernel input features (3) times feature_group_count (1)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x8x8x4xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @conv_group_out(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x6xf32>) {
  // expected-error @+1 {{'hlo.convolution' op kernel output features (6) must be a multiple of feature_group_count (4)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {feature_group_count = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x6xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_batch_groups(%x: tensor<3x8x8x4xf32>, %w: tensor<3x3x4x4xf32>) {
  // expected-error @+1 {{'hlo.convolution' op input batch (3) and kernel output features (4) must be multiples of batch_group_count (2)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {batch_group_count = 2 : i64} : (tensor<3x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op result shape must be 'tensor<1x6x6x16xf32>', got 'tensor<1x8x8x16xf32>'}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return
}

// -----

func.func @conv_precision(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{'hlo.convolution' op precision_config has 3 entries, expected 0 or 2 (lhs, rhs)}}
  %0 = hlo.convolution %x, %w, dim_labels = <"b01f_01io->b01f"> {precision_config = [#hlo<precision HIGH>, #hlo<precision HIGH>, #hlo<precision HIGH>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return
}

// -----

func.func @gather_ivd(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{index_vector_dim 3 is out of range [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_missing_ivd(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+1 {{missing field 'index_vector_dim'}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_sizes(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{slice_sizes has 1 entries, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_sorted(%t: tensor<100x16x4xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{offset_dims must be sorted}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [2, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16, 4] : (tensor<100x16x4xf32>, tensor<8x1xi32>) -> tensor<8x16x4xf32>
  return
}

// -----

func.func @gather_collapsed_range(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{collapsed slice dimension 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_index_map(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{start_index_map has 2 entries but the index vector has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_batching(%t: tensor<8x100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{operand_batching_dims and start_indices_batching_dims differ in length}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, sizes = [1, 1, 16] : (tensor<8x100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_slice_size(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{slice size 17 of dimension 1 is outside [0, 16]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 17] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x17xf32>
  return
}

// -----

func.func @gather_collapsed_size(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{collapsed or batching dimension 0 must have slice size 0 or 1, got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [2, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_offset_count(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{offset_dims has 2 entries, expected 1 (operand rank minus collapsed and batching dimensions)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_offset_range(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{offset dimension 5 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [5], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_result(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>) {
  // expected-error @+2 {{'hlo.gather' op failed to infer returned types}}
  // expected-error @+1 {{'hlo.gather' op inferred type(s) 'tensor<8x16xf32>' are incompatible with return type(s) of operation 'tensor<16x8xf32>'}}
  %0 = hlo.gather %t, %i, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @scatter_types(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16xbf16>) {
  // expected-error @+2 {{input 0 and update 0 must have the shapes of input 0 and update 0 and one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xbf16>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_ivd(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16xf32>) {
  // expected-error @+2 {{index_vector_dim 3 is out of range [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 3> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_rank(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16x1xf32>) {
  // expected-error @+2 {{updates have rank 3, expected 2 (update_window_dims plus the index batch dimensions)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16x1xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_sorted(%t: tensor<100x16x4xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16x4xf32>) {
  // expected-error @+2 {{update_window_dims must be sorted}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [2, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16x4xf32>, tensor<8x1xi32>, tensor<8x16x4xf32>) -> tensor<100x16x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_cover(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16xf32>) {
  // expected-error @+2 {{update_window_dims, inserted_window_dims and input_batching_dims must together cover the input's 2 dimensions}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_to_operand(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16xf32>) {
  // expected-error @+2 {{scatter_dims_to_operand_dims has 2 entries but the index vector has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_window(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x17xf32>) {
  // expected-error @+2 {{update window dimension 1 (size 17) exceeds input dimension 1 (size 16)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x17xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_batch(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<7x16xf32>) {
  // expected-error @+2 {{update scatter dimension 0 (size 7) does not match the corresponding index batch dimension (size 8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<7x16xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_region(%t: tensor<100x16xf32>, %i: tensor<8x1xi32>, %u: tensor<8x16xf32>) {
  // expected-error @+1 {{'hlo.scatter' op update computation takes 2 argument(s) of type(s) ('tensor<i32>', 'tensor<i32>'), expected ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.scatter(%t) at %i updates(%u), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    hlo.return %a : tensor<i32>
  }
  return
}

// -----

func.func @sort_empty() {
  // expected-error @+2 {{sort needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  hlo.sort() dim = 0 : () -> () {
  ^bb0:
    %t = hlo.constant dense<true> : tensor<i1>
    hlo.return %t : tensor<i1>
  }
  return
}

// -----

func.func @sort_shapes(%a: tensor<4xf32>, %b: tensor<5xi32>) {
  // expected-error @+2 {{sort inputs must all have the shape of input 0 'tensor<4xf32>', got 'tensor<5xi32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = hlo.sort(%a, %b) dim = 0 : (tensor<4xf32>, tensor<5xi32>) -> (tensor<4xf32>, tensor<5xi32>) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %u: tensor<i32>, %v: tensor<i32>):
    %c = hlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return
}

// -----

func.func @sort_dim(%a: tensor<4xf32>) {
  // expected-error @+2 {{sort dimension 1 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.sort(%a) dim = 1 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = hlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  return
}

// -----

func.func @sort_comparator(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.sort' op comparator returns ('tensor<f32>'), expected ('tensor<i1>')}}
  %0 = hlo.sort(%a) dim = 0 : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @topk_rank(%a: tensor<f32>) {
  // expected-error @+2 {{topk operand must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = hlo.topk %a, k = 1 : (tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @topk_k(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{k = 9 exceeds the last dimension's size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = hlo.topk %a, k = 9 : (tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>)
  return
}

// -----

func.func @gte_index(%t: tuple<tensor<4xf32>>) {
  // expected-error @+2 {{index 1 is out of range for a tuple of 1 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = hlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  return
}

// -----

func.func @call_missing(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.call' op calls 'nowhere', which is not a func.func in scope}}
  %0 = hlo.call @nowhere(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @callee(%a: tensor<4xf32>) -> tensor<4xf32>

func.func @call_types(%a: tensor<4xbf16>) {
  // expected-error @+1 {{'hlo.call' op types do not match the callee's signature '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = hlo.call @callee(%a) : (tensor<4xbf16>) -> tensor<4xf32>
  return
}

// -----

func.func @while_cond(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.while' op cond returns ('tensor<4xf32>'), expected ('tensor<i1>')}}
  %0 = hlo.while(%a) : tensor<4xf32> cond {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  } do {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  return
}

// -----

func.func @while_body(%a: tensor<4xf32>, %p: tensor<i1>) {
  // expected-error @+1 {{'hlo.while' op body takes 0 argument(s) of type(s) (), expected ('tensor<4xf32>')}}
  %0 = hlo.while(%a) : tensor<4xf32> cond {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %p : tensor<i1>
  } do {
  ^bb0:
    hlo.return %a : tensor<4xf32>
  }
  return
}

// -----

func.func @conditional_pred(%p: tensor<i1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.conditional' op a pred index selects between exactly 2 branches, got 1}}
  %0 = hlo.conditional %p(%a) : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  return
}

// -----

func.func @conditional_none(%i: tensor<i32>) {
  // expected-error @+1 {{'hlo.conditional' op needs at least one branch}}
  %0 = hlo.conditional %i() : (tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @conditional_operands(%i: tensor<i32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.conditional' op has 1 branch operands for 2 branches}}
  %0 = hlo.conditional %i(%a) : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }, {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  return
}

// -----

func.func @conditional_branch(%i: tensor<i32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.conditional' op branch 1 returns ('tensor<4xf32>', 'tensor<4xf32>'), expected ('tensor<4xf32>')}}
  %0 = hlo.conditional %i(%a, %a) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }, {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_signature(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.fusion' op fused computation returns ('tensor<4xf32>'), expected ('tensor<4xbf16>')}}
  %0 = hlo.fusion loop(%a) : (tensor<4xf32>) -> tensor<4xbf16> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_isolated(%a: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = hlo.fusion loop(%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    %y = hlo.add %x, %a : tensor<4xf32>
    hlo.return %y : tensor<4xf32>
  }
  return
}

// -----

func.func @return_parent(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hlo.return' op expects parent op to be one of}}
  hlo.return %a : tensor<4xf32>
}

// -----

func.func @map_shape(%a: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{input 1 has type 'tensor<2xf32>', but every input must have the result's shape 'tensor<4xf32>'}}
  %0 = hlo.map(%a, %b) dims = [0] : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @map_dims(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{dimensions must list every dimension in order (0 to 1)}}
  %0 = hlo.map(%a) dims = [1, 0] : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%x: tensor<f32>):
    hlo.return %x : tensor<f32>
  }
  return
}

// -----

func.func @shift_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %0 = hlo.shift_left %a, %a : tensor<4xf32>
  return
}

// -----

func.func @replica_groups_rank(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica_groups must be a 2-D tensor, got rank 1}}
  %0 = hlo.collective_broadcast %x {replica_groups = dense<[0, 1]> : tensor<2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @replica_groups_padding(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica_groups row 0 has 1 at column 1; ids are >= 0 and -1 only pads the end of a row}}
  %0 = hlo.collective_broadcast %x {replica_groups = dense<[[-1, 1]]> : tensor<1x2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @global_ids_need_channel(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{use_global_device_ids needs a channel_id}}
  %0 = hlo.all_gather %x, dim = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @scatter_not_divisible(%x: tensor<3xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{dimension 0 of 'tensor<3xf32>' is not divisible by the group size 2}}
  %0 = hlo.reduce_scatter %x, dim = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<1xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = hlo.add %a, %b : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %0 : tensor<1xf32>
}

// -----

func.func @all_reduce_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{computation takes 2 argument(s) of type(s) ('tensor<i32>', 'tensor<i32>'), expected ('tensor<f32>', 'tensor<f32>')}}
  %0 = hlo.all_reduce(%x) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    hlo.return %a : tensor<i32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @permute_pairs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{source 0 appears twice in source_target_pairs}}
  %0 = hlo.collective_permute %x {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{invalid hlo.sharding "{devices=[2]0}": the tile assignment [2] needs 2 devices, found 1 at offset 12}}
func.func @bad_sharding(%x: tensor<4xf32> {hlo.sharding = "{devices=[2]0}"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{hlo.num_partitions must be a positive integer}}
module attributes {hlo.num_partitions = 0 : i64} {
}

// -----

// hlo.input_output_alias (XLA's donation), checked against the entry.
// expected-error @+1 {{hlo.input_output_alias must be an array of #hlo.alias}}
module attributes {hlo.input_output_alias = [{output_index = array<i64: 0>}]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{hlo.input_output_alias #hlo.alias<output_index = [2], parameter_number = 0, kind = may_alias>: @main has no result 2 (it has 2)}}
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [2], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %x, %x : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{@main has no parameter 1 (it has 1)}}
module attributes {hlo.input_output_alias = [#hlo.alias<parameter_number = 1, kind = must_alias>]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{output index {0, 1} is nested, but the entry's results are flat}}
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0, 1], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{output index {} names all 2 results of @main}}
module attributes {hlo.input_output_alias = [#hlo.alias<parameter_number = 0, kind = may_alias>]} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %x, %x : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{result 0 ('tensor<4xf32>') and parameter 1 ('tensor<8xf32>') differ in type}}
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 1, kind = may_alias>]} {
  func.func @main(%x: tensor<4xf32>, %y: tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
    return %x, %y : tensor<4xf32>, tensor<8xf32>
  }
}

// -----

// expected-error @+1 {{parameter 0 ('tuple<tensor<4xf32>>') has no index {1}}}
module attributes {hlo.input_output_alias = [#hlo.alias<parameter_number = 0, parameter_index = [1], kind = may_alias>]} {
  func.func @main(%t: tuple<tensor<4xf32>>) -> tensor<4xf32> {
    %x = hlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>>) -> tensor<4xf32>
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{parameter 0 {} is aliased twice}}
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>, #hlo.alias<output_index = [1], parameter_number = 0, kind = may_alias>]} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %x, %x : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{result 0 is aliased twice}}
module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 0, kind = may_alias>, #hlo.alias<output_index = [0], parameter_number = 1, kind = may_alias>]} {
  func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %x, %y : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{hlo.input_output_alias needs a public entry function}}
module attributes {hlo.input_output_alias = [#hlo.alias<parameter_number = 0, kind = may_alias>]} {
  func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{kind must be may_alias or must_alias, not 'maybe'}}
module attributes {hlo.input_output_alias = [#hlo.alias<parameter_number = 0, kind = maybe>]} {
}

// -----

// expected-error @+1 {{missing field 'kind'}}
module attributes {hlo.input_output_alias = [#hlo.alias<parameter_number = 0>]} {
}

// -----

func.func @rng_type(%a: tensor<f16>, %b: tensor<f16>) {
  // expected-error @+1 {{draws f32, bf16, s32 or u32 numbers, not 'f16'}}
  %0 = hlo.rng %a, %b, distribution = UNIFORM : (tensor<f16>, tensor<f16>) -> tensor<4xf16>
  return
}

// -----

func.func @rng_normal_int(%a: tensor<i32>, %b: tensor<i32>) {
  // expected-error @+1 {{draws normal numbers as floats only, not 'i32'}}
  %0 = hlo.rng %a, %b, distribution = NORMAL : (tensor<i32>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----

func.func @rng_bounds(%a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{takes its parameters as scalars of the result's element type, not 'tensor<4xf32>'}}
  %0 = hlo.rng %a, %b, distribution = UNIFORM : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @rng_state_type() {
  // expected-error @+1 {{returns the state as u64[2], not 'tensor<3xui64>'}}
  %0 = hlo.rng_get_and_update_state delta = 1 : tensor<3xui64>
  return
}

// -----

func.func @rng_state_delta() {
  // expected-error @+1 {{needs a non-negative delta, not -1}}
  %0 = hlo.rng_get_and_update_state delta = -1 : tensor<2xui64>
  return
}
