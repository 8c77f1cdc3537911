// RUN: tpuc-opt %s --split-input-file --tpuc-sharding-propagation --tpuc-spmd-partition --verify-diagnostics

// A tile assignment that does not cover the module's partitions.
module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // expected-error @+1 {{'hlo.exponential' op tpuc-sharding-propagation: cannot partition by sharding {devices=[2,2]<=[4]}: its tile assignment lists 4 devices, the module has 8 partitions}}
    %y = hlo.exponential %x {hlo.sharding = "{devices=[2,2]<=[4]}"} : tensor<8x8xf32>
    return %y : tensor<8x8xf32>
  }
}

// -----

// Manual subgroups (shard_map) are not partitioned.
module attributes {hlo.num_partitions = 4 : i64} {
  // expected-error @+1 {{'func.func' op tpuc-sharding-propagation: cannot partition by sharding {devices=[2,1,2]<=[4] last_tile_dims={manual}}: only replicated subgroups are supported (last_tile_dims=manual)}}
  func.func @main(%x: tensor<8x8xf32> {hlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"}) -> tensor<8x8xf32> {
    return %x : tensor<8x8xf32>
  }
}

// -----

// Uneven blocks (XLA pads them; tpuc does not).
module attributes {hlo.num_partitions = 4 : i64} {
  // expected-error @+1 {{'func.func' op tpuc-sharding-propagation: cannot partition by sharding {devices=[1,4]<=[4]}: dimension 1 (6) does not divide into 4 equal blocks}}
  func.func @main(%x: tensor<8x6xf32> {hlo.sharding = "{devices=[1,4]<=[4]}"}) -> tensor<8x6xf32> {
    return %x : tensor<8x6xf32>
  }
}

// -----

// A maximal sharding.
module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // expected-error @+1 {{'hlo.negate' op tpuc-sharding-propagation: cannot partition by sharding {maximal device=1}: only tiled and replicated shardings of arrays are supported}}
    %y = hlo.negate %x {hlo.sharding = "{maximal device=1}"} : tensor<8x8xf32>
    return %y : tensor<8x8xf32>
  }
}

// -----

// A tiling of another rank.
module attributes {hlo.num_partitions = 4 : i64} {
  // expected-error @+1 {{'func.func' op tpuc-sharding-propagation: cannot partition by sharding {devices=[1,1,4]<=[4]}: it tiles 3 dimensions, the array has 2}}
  func.func @main(%x: tensor<8x8xf32> {hlo.sharding = "{devices=[1,1,4]<=[4]}"}) -> tensor<8x8xf32> {
    return %x : tensor<8x8xf32>
  }
}

// -----

// A module of one partition: both passes leave it as it is.
module {
  func.func @main(%x: tensor<8x8xf32> {hlo.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<8x8xf32> {
    return %x : tensor<8x8xf32>
  }
}
