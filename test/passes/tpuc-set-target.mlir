// tpuc-set-target records the target once; a record of the same preset
// keeps its overrides, one of another preset is replaced.
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v4 | FileCheck %s --check-prefix=SAME
// RUN: tpuc-opt %s --tpuc-set-target=target=tpu-v5e | FileCheck %s --check-prefix=OTHER
// RUN: tpuc-opt %s --tpuc-set-target | FileCheck %s --check-prefix=DEFAULT
// RUN: not tpuc-opt %s --tpuc-set-target=target=tpu-v9 2>&1 | FileCheck %s --check-prefix=BAD
// SAME: module attributes {tpuc.target = {name = "tpu-v4", vmem_bytes = 1048576 : i64}}
// OTHER: module attributes {tpuc.target = {name = "tpu-v5e"}}
// DEFAULT: module attributes {tpuc.target = {name = "tpu-v3"}}
// BAD: error: unknown target 'tpu-v9'
module attributes {tpuc.target = {name = "tpu-v4", vmem_bytes = 1048576 : i64}} {
}
