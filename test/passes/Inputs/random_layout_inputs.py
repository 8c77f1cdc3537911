"""Writes one random .npy per entry parameter of an HLO text module.

Reads the parameter shapes from the module's entry_computation_layout:
f32 values are standard normal x 0.5, integers are in [0, HIGH) (valid
indices into the smallest table). Prints the number of parameters.
Usage: random_layout_inputs.py MODULE.hlo OUT_DIR SEED HIGH
"""
import re
import sys

import numpy as np

text = open(sys.argv[1]).read()
layout = re.search(r"entry_computation_layout=\{\((.*?)\)->", text).group(1)
layout = re.sub(r"/\*.*?\*/", "", layout)
rng = np.random.default_rng(int(sys.argv[3]))
shapes = re.findall(r"(f32|s32)\[([0-9,]*)\]", layout)
for i, (kind, dims) in enumerate(shapes):
    shape = tuple(int(d) for d in dims.split(",")) if dims else ()
    if kind == "f32":
        value = (rng.standard_normal(shape) * 0.5).astype(np.float32)
    else:
        value = rng.integers(0, int(sys.argv[4]), shape).astype(np.int32)
    np.save(f"{sys.argv[2]}/in{i}.npy", value)
print(f"{len(shapes)} parameters")
