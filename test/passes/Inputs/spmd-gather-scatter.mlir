// An embedding lookup and its gradient on a 2 x 4 mesh (partition
// p = 4 * a + b): the table is split along the feature dimension over b,
// the ids and the incoming gradient along the batch over a.
module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%table: tensor<16x8xf32> {hlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
                  %ids: tensor<6x1xi32> {hlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                  %grad: tensor<6x8xf32> {hlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"})
      -> (tensor<6x8xf32> {hlo.sharding = "{devices=[2,4]<=[8]}"},
          tensor<16x8xf32> {hlo.sharding = "{replicated}"},
          tensor<16x8xf32> {hlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) {
    // The rows of the ids' batch tile, the features of the table's tile.
    %rows = hlo.gather %table, %ids, dims = <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 8] : (tensor<16x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
    // The gradient's rows added into the table (ids repeat): each batch
    // tile scatters into zeros, an all-reduce over a sums the tiles.
    %sum = hlo.scatter(%table) at %ids updates(%grad), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> {hlo.sharding = "{replicated}"} : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<16x8xf32> {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    // The same into the table's feature tile: the gradient is cut to the
    // same features, each partition updates its tile.
    %tile = hlo.scatter(%table) at %ids updates(%grad), dims = <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<16x8xf32> {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    return %rows, %sum, %tile : tensor<6x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  }
}
