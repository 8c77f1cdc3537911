// RUN: tpuc-opt %s | tpuc-opt | FileCheck %s
// RUN: tpuc-opt %s --mlir-print-op-generic | tpuc-opt | FileCheck %s
// hlo.input_output_alias round-trips: empty lists are not printed, the kind
// always is; a tuple parameter's element is named by parameter_index.

// CHECK: module attributes {hlo.input_output_alias = [#hlo.alias<output_index = [0], parameter_number = 1, kind = may_alias>, #hlo.alias<output_index = [1], parameter_number = 0, parameter_index = [1], kind = must_alias>]}
module attributes {hlo.input_output_alias = [
    #hlo.alias<output_index = [0], parameter_number = 1, parameter_index = [], kind = may_alias>,
    #hlo.alias<kind = must_alias, parameter_index = [1], parameter_number = 0, output_index = [1]>]} {
  func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @main(%t: tuple<tensor<4xf32>, tensor<i32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>) {
    %i = hlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
    return %x, %i : tensor<4xf32>, tensor<i32>
  }
}
