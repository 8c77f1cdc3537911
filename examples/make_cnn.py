#!/usr/bin/env python3
"""Writes cnn_pool_train_step.hlo: a CNN training step whose backward pass
has every convolution and pooling form JAX emits for a strided network.

usage: make_cnn.py [--hlo PATH] [--data DIR]

The model (NHWC, one SGD step with learning rate LR):
  x f32[8,16,16,3] -> conv 3x3 pad 1 to 8 channels (+b1) -> relu
  -> conv 3x3 stride 2 pad SAME (0_1) to 16 channels (+b2) -> relu
  -> max pool 3x3 stride 2 pad SAME (0_1) -> f32[8,4,4,16] -> flatten
  -> dense 10 (+b3) -> softmax cross-entropy against one-hot labels.

The HLO is written as XLA dumps `jax.jit(train_step, donate_argnums=0)`
before optimisation (the style of cnn_train_step.hlo; JAX is not installed
here, so this is not JAX's own output). The backward pass follows JAX's
transpose rules:
  - the strided conv's input gradient: `reverse` of the kernel, then a
    convolution with lhs_dilate=2x2, dim_labels=b01f_01oi->b01f and the
    padding of `_conv_general_vjp_lhs_padding` (2_1);
  - the kernel gradients: batch-contracting convolutions
    `dim_labels=f01b_i01o->01bf` with the output gradient as the window
    (rhs_dilate=2x2 for the strided conv);
  - the max pool's gradient: `select-and-scatter` with a `ge` select and
    an `add` scatter (`_reduce_window_chooser_jvp_rule`).
Parameters are the sorted keys of the params dict, then x and labels:
b1, b2, b3, w1, w2, w3, x, labels. Results: the six updated parameters
and the loss; result i aliases parameter i for i = 0..5.

With --data DIR, also writes the inputs DIR/argN_NAME.npy: He-initialised
weights and zero biases (seed 0), a batch x ~ U[-1, 1), and one-hot
labels of the argmax of a fixed random linear map of the pooled x.
"""
import argparse
import os

N, H, W, C0, C1, C2, K = 8, 16, 16, 3, 8, 16, 10
H2, W2 = 8, 8  # after the stride-2 conv
H3, W3 = 4, 4  # after the pool
FLAT = H3 * W3 * C2
LR = 0.1

PARAMS = [("b1", [C1]), ("b2", [C2]), ("b3", [K]), ("w1", [3, 3, C0, C1]),
          ("w2", [3, 3, C1, C2]), ("w3", [FLAT, K])]
INPUTS = [("x", [N, H, W, C0]), ("labels", [N, K])]


def shape(dims):
    if not dims:
        return "f32[]"
    layout = ",".join(str(d) for d in reversed(range(len(dims))))
    return "f32[%s]{%s}" % (",".join(str(d) for d in dims), layout)


class Module:
    def __init__(self):
        self.lines = []

    def op(self, name, dims, text, prim=None, line=None, bwd=False,
           elem="f32"):
        s = shape(dims)
        if elem != "f32":
            s = elem + s[3:]
        meta = ""
        if prim:
            scope = "transpose(jvp(loss_fn))" if bwd else "jvp(loss_fn)"
            if prim in ("mul", "sub") and line == 48:
                scope = None
            op_name = ("jit(train_step)/%s/%s" % (scope, prim) if scope
                       else "jit(train_step)/%s" % prim)
            meta = (', metadata={op_name="%s" source_file="examples/train.py"'
                    ' source_line=%d}' % (op_name, line))
        self.lines.append("  %s = %s %s%s" % (name, s, text, meta))
        return name


def regions():
    out = []
    for name, op, prim, line in [
            ("region_0.1", "maximum", "reduce_max", 39),
            ("region_1.2", "add", "reduce_sum", 39),
            ("region_2.3", "add", "reduce_sum", 40),
            ("region_3.4", "add", "reduce_sum", 40),
            ("region_4.5", "add", "reduce_sum", 39),
            ("region_5.6", "add", "reduce_sum", 37),
            ("region_6.7", "add", "reduce_sum", 34),
            ("region_7.8", "add", "reduce_sum", 32)]:
        var = prim + "." + name.split(".")[1]
        out.append("%s {\n"
                   "  %sa = f32[] parameter(0)\n"
                   "  %sb = f32[] parameter(1)\n"
                   "  ROOT %sc = f32[] %s(%sa, %sb)\n"
                   "}\n" % (name, var, var, var, op, var, var))
    out.append("max_pool.9 {\n"
               "  max.a = f32[] parameter(0)\n"
               "  max.b = f32[] parameter(1)\n"
               "  ROOT max.c = f32[] maximum(max.a, max.b)\n"
               "}\n")
    out.append("ge.10 {\n"
               "  ge.a = f32[] parameter(0)\n"
               "  ge.b = f32[] parameter(1)\n"
               "  ROOT ge.c = pred[] compare(ge.a, ge.b), direction=GE\n"
               "}\n")
    out.append("add.11 {\n"
               "  add.a = f32[] parameter(0)\n"
               "  add.b = f32[] parameter(1)\n"
               "  ROOT add.c = f32[] add(add.a, add.b)\n"
               "}\n")
    return out


def build():
    m = Module()
    o = m.op
    arg = {}
    for i, (name, dims) in enumerate(PARAMS):
        arg[name] = "params__%s__.%d" % (name, i + 1)
    arg["x"], arg["labels"] = "x.7", "labels.8"
    params = [(arg[n], d, i, "params[\\'%s\\']" % n)
              for i, (n, d) in enumerate(PARAMS)]
    params += [(arg[n], d, 6 + i, n) for i, (n, d) in enumerate(INPUTS)]
    for var, dims, i, label in params:
        m.lines.append('  %s = %s parameter(%d), metadata={op_name="%s"}'
                       % (var, shape(dims), i, label))

    a1d, a2d = [N, H, W, C1], [N, H2, W2, C2]
    # Forward.
    c1 = o("conv_general_dilated.10", a1d,
           "convolution(%s, %s), window={size=3x3 pad=1_1x1_1}, "
           "dim_labels=b01f_01io->b01f" % (arg["x"], arg["w1"]),
           "conv_general_dilated", 30)
    bb1 = o("add.11", a1d, "broadcast(%s), dimensions={3}" % arg["b1"],
            "add", 30)
    a1 = o("add.12", a1d, "add(%s, %s)" % (c1, bb1), "add", 30)
    zero = o("constant.13", [], "constant(0)")
    z1 = o("max.14", a1d, "broadcast(%s), dimensions={}" % zero)
    h1 = o("max.15", a1d, "maximum(%s, %s)" % (a1, z1), "jvp(relu)/max", 30)
    c2 = o("conv_general_dilated.16", a2d,
           "convolution(%s, %s), window={size=3x3 stride=2x2 pad=0_1x0_1}, "
           "dim_labels=b01f_01io->b01f" % (h1, arg["w2"]),
           "conv_general_dilated", 31)
    bb2 = o("add.17", a2d, "broadcast(%s), dimensions={3}" % arg["b2"],
            "add", 31)
    a2 = o("add.18", a2d, "add(%s, %s)" % (c2, bb2), "add", 31)
    z2 = o("max.19", a2d, "broadcast(%s), dimensions={}" % zero)
    h2 = o("max.20", a2d, "maximum(%s, %s)" % (a2, z2), "jvp(relu)/max", 31)
    ninf = o("constant.21", [], "constant(-inf)")
    pool_window = "window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x0_1x0_1x0_0}"
    pool = o("reduce_window_max.22", [N, H3, W3, C2],
             "reduce-window(%s, %s), %s, to_apply=max_pool.9"
             % (h2, ninf, pool_window), "reduce_window_max", 32)
    flat = o("reshape.23", [N, FLAT], "reshape(%s)" % pool, "reshape", 33)
    d = o("dot_general.24", [N, K],
          "dot(%s, %s), lhs_contracting_dims={1}, rhs_contracting_dims={0}"
          % (flat, arg["w3"]), "dot_general", 34)
    bb3 = o("add.25", [N, K], "broadcast(%s), dimensions={1}" % arg["b3"],
            "add", 34)
    logits = o("add.26", [N, K], "add(%s, %s)" % (d, bb3), "add", 34)
    # Softmax cross-entropy (log_softmax, then -mean(sum(labels * logp))).
    mx = o("reduce_max.27", [N], "reduce(%s, %s), dimensions={1}, "
           "to_apply=region_0.1" % (logits, ninf), "reduce_max", 39)
    mx1 = o("broadcast_in_dim.28", [N, 1], "reshape(%s)" % mx,
            "broadcast_in_dim", 39)
    mxr = o("sub.29", [N], "reshape(%s)" % mx1, "sub", 39)
    mxb = o("sub.30", [N, K], "broadcast(%s), dimensions={0}" % mxr, "sub",
            39)
    sh = o("sub.31", [N, K], "subtract(%s, %s)" % (logits, mxb), "sub", 39)
    ex = o("exp.32", [N, K], "exponential(%s)" % sh, "exp", 39)
    se = o("reduce_sum.33", [N], "reduce(%s, %s), dimensions={1}, "
           "to_apply=region_1.2" % (ex, zero), "reduce_sum", 39)
    se1 = o("broadcast_in_dim.34", [N, 1], "reshape(%s)" % se,
            "broadcast_in_dim", 39)
    lg = o("log.35", [N, 1], "log(%s)" % se1, "log", 39)
    lgr = o("sub.36", [N], "reshape(%s)" % lg, "sub", 39)
    lgb = o("sub.37", [N, K], "broadcast(%s), dimensions={0}" % lgr, "sub",
            39)
    logp = o("sub.38", [N, K], "subtract(%s, %s)" % (sh, lgb), "sub", 39)
    ml = o("mul.39", [N, K], "multiply(%s, %s)" % (arg["labels"], logp),
           "mul", 40)
    r1 = o("reduce_sum.40", [N], "reduce(%s, %s), dimensions={1}, "
           "to_apply=region_2.3" % (ml, zero), "reduce_sum", 40)
    r0 = o("reduce_sum.41", [], "reduce(%s, %s), dimensions={0}, "
           "to_apply=region_3.4" % (r1, zero), "reduce_sum", 40)
    n = o("constant.42", [], "constant(%d)" % N)
    mean = o("div.43", [], "divide(%s, %s)" % (r0, n), "div", 40)
    loss = o("neg.44", [], "negate(%s)" % mean, "neg", 40)
    # Backward: d loss / d logits = softmax - labels, over N.
    one = o("constant.45", [], "constant(1)")
    m1 = o("neg.46", [], "negate(%s)" % one, "neg", 40, bwd=True)
    g = o("div.47", [], "divide(%s, %s)" % (m1, n), "div", 40, bwd=True)
    gb = o("broadcast_in_dim.48", [N], "broadcast(%s), dimensions={}" % g,
           "broadcast_in_dim", 40, bwd=True)
    gbb = o("broadcast_in_dim.49", [N, K],
            "broadcast(%s), dimensions={0}" % gb, "broadcast_in_dim", 40,
            bwd=True)
    dlogp = o("mul.50", [N, K], "multiply(%s, %s)" % (arg["labels"], gbb),
              "mul", 40, bwd=True)
    ndl = o("neg.51", [N, K], "negate(%s)" % dlogp, "neg", 39, bwd=True)
    sdl = o("reduce_sum.52", [N], "reduce(%s, %s), dimensions={1}, "
            "to_apply=region_4.5" % (ndl, zero), "reduce_sum", 39, bwd=True)
    sdl1 = o("reshape.53", [N, 1], "reshape(%s)" % sdl, "reshape", 39,
             bwd=True)
    q = o("div.54", [N, 1], "divide(%s, %s)" % (sdl1, se1), "div", 39,
          bwd=True)
    qr = o("reshape.55", [N], "reshape(%s)" % q, "reshape", 39, bwd=True)
    qb = o("broadcast_in_dim.56", [N, K], "broadcast(%s), dimensions={0}" % qr,
           "broadcast_in_dim", 39, bwd=True)
    qe = o("mul.57", [N, K], "multiply(%s, %s)" % (qb, ex), "mul", 39,
           bwd=True)
    dlog = o("add_any.58", [N, K], "add(%s, %s)" % (dlogp, qe), "add_any", 39,
             bwd=True)
    db3 = o("reduce_sum.59", [K], "reduce(%s, %s), dimensions={0}, "
            "to_apply=region_5.6" % (dlog, zero), "reduce_sum", 34, bwd=True)
    dw3 = o("dot_general.60", [FLAT, K],
            "dot(%s, %s), lhs_contracting_dims={0}, rhs_contracting_dims={0}"
            % (flat, dlog), "dot_general", 34, bwd=True)
    dflat = o("dot_general.61", [N, FLAT],
              "dot(%s, %s), lhs_contracting_dims={1}, rhs_contracting_dims={1}"
              % (dlog, arg["w3"]), "dot_general", 34, bwd=True)
    dpool = o("reshape.62", [N, H3, W3, C2], "reshape(%s)" % dflat,
              "reshape", 33, bwd=True)
    dh2 = o("select_and_scatter_add.63", a2d,
            "select-and-scatter(%s, %s, %s), %s, select=ge.10, scatter=add.11"
            % (h2, dpool, zero, pool_window), "select_and_scatter_add", 32,
            bwd=True)
    gt2 = o("gt.64", a2d, "compare(%s, %s), direction=GT" % (a2, z2),
            "jvp(relu)/gt", 31, elem="pred")
    da2 = o("select_n.65", a2d, "select(%s, %s, %s)" % (gt2, dh2, z2),
            "jvp(relu)/select_n", 31, bwd=True)
    db2 = o("reduce_sum.66", [C2], "reduce(%s, %s), dimensions={0,1,2}, "
            "to_apply=region_6.7" % (da2, zero), "reduce_sum", 31, bwd=True)
    dw2 = o("conv_general_dilated.67", [3, 3, C1, C2],
            "convolution(%s, %s), window={size=8x8 pad=0_1x0_1 "
            "rhs_dilate=2x2}, dim_labels=f01b_i01o->01bf" % (h1, da2),
            "conv_general_dilated", 31, bwd=True)
    rw2 = o("rev.68", [3, 3, C1, C2], "reverse(%s), dimensions={0,1}"
            % arg["w2"], "rev", 31, bwd=True)
    dh1 = o("conv_general_dilated.69", a1d,
            "convolution(%s, %s), window={size=3x3 pad=2_1x2_1 "
            "lhs_dilate=2x2}, dim_labels=b01f_01oi->b01f" % (da2, rw2),
            "conv_general_dilated", 31, bwd=True)
    gt1 = o("gt.70", a1d, "compare(%s, %s), direction=GT" % (a1, z1),
            "jvp(relu)/gt", 30, elem="pred")
    da1 = o("select_n.71", a1d, "select(%s, %s, %s)" % (gt1, dh1, z1),
            "jvp(relu)/select_n", 30, bwd=True)
    db1 = o("reduce_sum.72", [C1], "reduce(%s, %s), dimensions={0,1,2}, "
            "to_apply=region_7.8" % (da1, zero), "reduce_sum", 30, bwd=True)
    dw1 = o("conv_general_dilated.73", [3, 3, C0, C1],
            "convolution(%s, %s), window={size=16x16 pad=1_1x1_1}, "
            "dim_labels=f01b_i01o->01bf" % (arg["x"], da1),
            "conv_general_dilated", 30, bwd=True)
    # SGD.
    lr = o("constant.74", [], "constant(%g)" % LR)
    updated = []
    grads = {"b1": db1, "b2": db2, "b3": db3, "w1": dw1, "w2": dw2, "w3": dw3}
    num = 75
    for name, dims in PARAMS:
        lrb = o("mul.%d" % num, dims, "broadcast(%s), dimensions={}" % lr)
        step = o("mul.%d" % (num + 1), dims, "multiply(%s, %s)"
                 % (lrb, grads[name]), "mul", 48)
        updated.append(o("sub.%d" % (num + 2), dims, "subtract(%s, %s)"
                         % (arg[name], step), "sub", 48))
        num += 3
    results = [(u, d) for u, (_, d) in zip(updated, PARAMS)] + [(loss, [])]
    m.lines.append("  ROOT tuple.%d = (%s) tuple(%s)" % (
        num, ", ".join(shape(d) for _, d in results),
        ", ".join(v for v, _ in results)))

    alias = ", ".join("{%d}: (%d, {}, may-alias)" % (i, i)
                      for i in range(len(PARAMS)))
    ins = ", ".join(shape(d) for _, d in PARAMS + INPUTS)
    outs = ", ".join(shape(d) for _, d in results)
    header = ("HloModule jit_train_step, input_output_alias={ %s }, "
              "entry_computation_layout={(%s)->(%s)}\n\n" % (alias, ins, outs))
    return (header + "\n".join(regions()) + "\nENTRY main.%d {\n" % (num + 1)
            + "\n".join(m.lines) + "\n}\n")


def write_data(outdir):
    import numpy as np
    rng = np.random.default_rng(0)
    os.makedirs(outdir, exist_ok=True)
    values = {}
    for name, dims in PARAMS:
        if name.startswith("b"):
            values[name] = np.zeros(dims, np.float32)
        else:
            fan_in = int(np.prod(dims[:-1]))
            values[name] = (rng.standard_normal(dims) *
                            np.sqrt(2.0 / fan_in)).astype(np.float32)
    x = rng.uniform(-1, 1, [N, H, W, C0]).astype(np.float32)
    teacher = rng.standard_normal([C0 * 4, K])
    pooled = x.reshape(N, 2, H // 2, 2, W // 2, C0).mean(axis=(2, 4))
    labels = np.eye(K, dtype=np.float32)[
        np.argmax(pooled.reshape(N, -1) @ teacher, axis=1)]
    values["x"], values["labels"] = x, labels
    for i, (name, _) in enumerate(PARAMS + INPUTS):
        np.save(os.path.join(outdir, "arg%d_%s.npy" % (i, name)), values[name])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--hlo", default=os.path.join(
        here, "cnn_pool_train_step.hlo"), help="where to write the HLO "
        "(default: examples/cnn_pool_train_step.hlo); '-' for stdout")
    parser.add_argument("--data", help="also write the inputs to DIR")
    args = parser.parse_args()
    text = build()
    if args.hlo == "-":
        print(text, end="")
    else:
        with open(args.hlo, "w") as f:
            f.write(text)
    if args.data:
        write_data(args.data)


if __name__ == "__main__":
    main()
