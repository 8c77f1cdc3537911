// Resharding between tilings of a 2 x 4 mesh (partition p = 4 * a + b).
module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8x16xf32> {hlo.sharding = "{devices=[2,4]<=[8]}"},
                  %w: tensor<16x8xf32> {hlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
      -> (tensor<8x16xf32> {hlo.sharding = "{devices=[2,2,2]<=[2,2,2]T(2,1,0) last_tile_dim_replicate}"},
          tensor<8x8xf32> {hlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={replicated}}"}) {
    // Columns gathered over b: rows split over a, copies over b.
    %y = hlo.negate %x {hlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : tensor<8x16xf32>
    // The split over a moves from rows to columns: an all-to-all over a.
    %z = hlo.exponential %y {hlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"} : tensor<8x16xf32>
    // A device order that is no arithmetic on the partition id.
    %v = hlo.sine %z {hlo.sharding = "{devices=[4,2]0,5,2,7,1,4,3,6}"} : tensor<8x16xf32>
    // x (rows over a, columns over b) times w (rows over b): the contraction
    // is summed over b.
    %d = hlo.dot_general %x, %w, dims = <lhs_contracting = [1], rhs_contracting = [0]> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    return %v, %d : tensor<8x16xf32>, tensor<8x8xf32>
  }
}
