"""Seeded random XLA HLO modules for differential testing (see difftest.py).

usage: hlogen.py SEED [-o FILE] [--exclude a,b]

generate(seed) returns a Program: the ENTRY computation as a list of Instr,
the called computations (reducers, comparators, loop bodies, branches) as
text, and the tolerance class of every value. Program.text() prints the
module as XLA writes it (HloModule line with entry_computation_layout,
called computations first, `ROOT` tuple of several results). The same seed
gives the same module on every machine (Python's `random` with an integer
seed only).

Shapes are random and mostly ragged (7, 129, 1000 ...); parameters and
results get random minor-to-major layouts; element types f32, bf16, s32 and
pred. Every value carries a tolerance class, the loosest of its operands'
and its op's:
  exact  integers, pred, data movement, selects and compares of exact values
  fp     correctly rounded f32 arithmetic and reductions (order may differ)
  transc transcendental functions (the emulator's polynomials)
  loose  bf16 values
  mxu    f32 dots/convolutions at DEFAULT precision (one bf16 MXU pass: the
         error is relative to the dot's terms, which a later clamp or
         cosine can make much larger than the result)
Ops whose result jumps when an input moves by one ulp (compare, floor, ceil,
round, sign, convert to integer, sort keys, gather/dynamic-slice indices)
only take exact operands, so their results stay comparable bit for bit.
Arguments are kept in each op's domain by construction (log/sqrt/rsqrt/
divide/power take |x| + 0.5; exp takes a clamped argument), as a JAX
program's own guards would.
"""
import random
import re
import sys

CLASSES = ["exact", "fp", "transc", "loose", "mxu"]
FLOAT = ("f32", "bf16")


def loosest(*classes):
    return max(classes, key=CLASSES.index)


class Instr:
    """One ENTRY instruction: `name = type opcode(operands), attrs`.
    `shape` is (dtype, dims) for arrays, None for tuples (`type` is then the
    tuple's text)."""

    def __init__(self, name, dtype, dims, opcode, operands, attrs="",
                 layout=None, tuple_type=None, cls="exact", value=None):
        self.name, self.dtype, self.dims = name, dtype, list(dims)
        self.opcode, self.operands, self.attrs = opcode, list(operands), attrs
        self.layout = layout if layout is not None else list(
            range(len(dims) - 1, -1, -1))
        self.tuple_type = tuple_type
        self.cls = cls
        self.value = value  # a constant's literal
        # Called computations: the names after to_apply=, body= ... in attrs.
        self.calls = re.findall(
            r"(?:to_apply|condition|body|true_computation|false_computation|select|"
            r"scatter)=([\w.]+)",
            attrs) + [c.strip() for m in re.findall(r"branch_computations=\{([^}]*)\}", attrs)
                      for c in m.split(",")]

    def type_text(self):
        if self.tuple_type is not None:
            return self.tuple_type
        return shape_text(self.dtype, self.dims, self.layout)

    def text(self):
        if self.opcode == "constant":
            return f"{self.name} = {self.type_text()} constant({self.value})"
        args = ", ".join(self.operands)
        return f"{self.name} = {self.type_text()} {self.opcode}({args}){self.attrs}"


def shape_text(dtype, dims, layout=None):
    if not dims:
        return f"{dtype}[]"
    if layout is None:
        layout = list(range(len(dims) - 1, -1, -1))
    return (f"{dtype}[{','.join(map(str, dims))}]"
            "{" + ",".join(map(str, layout)) + "}")


def scalar(dtype):
    return f"{dtype}[]"


class Program:
    def __init__(self, name):
        self.name = name
        self.instrs = []       # ENTRY, in order; parameters anywhere
        self.comps = {}        # called computation name -> text
        self.results = []      # names of the ROOT tuple's operands

    def by_name(self):
        return {i.name: i for i in self.instrs}

    def live(self):
        """The instructions the results use, in order."""
        table = self.by_name()
        seen, stack = set(), list(self.results)
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            stack.extend(table[n].operands)
        return [i for i in self.instrs if i.name in seen]

    def text(self):
        live = self.live()
        params = [i for i in live if i.opcode == "parameter"]
        for k, p in enumerate(params):
            p.attrs = ""
            p.operands = []
            p.param_index = k
        table = {i.name: i for i in live}
        outs = [table[r] for r in self.results]
        out_type = "(" + ", ".join(o.type_text() for o in outs) + ")"
        in_type = "(" + ", ".join(p.type_text() for p in params) + ")"
        lines = [f"HloModule {self.name}, entry_computation_layout="
                 f"{{{in_type}->{out_type}}}", ""]
        used = {c for i in live for c in i.calls}
        for c in self.comps:
            if c in used:
                lines += [self.comps[c], ""]
        lines.append("ENTRY main {")
        for i in live:
            if i.opcode == "parameter":
                lines.append(f"  {i.name} = {i.type_text()} parameter({i.param_index})")
            else:
                lines.append("  " + i.text())
        lines.append(f"  ROOT result = {out_type} tuple({', '.join(self.results)})")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def result_classes(self):
        table = self.by_name()
        return {r: table[r].cls for r in self.results}


class Generator:
    RAGGED = [1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 33, 64, 100, 127, 128, 129, 200, 256, 1000]

    def __init__(self, seed, exclude=()):
        self.exclude = set(exclude)
        self.r = random.Random(seed)
        self.p = Program(f"difftest_{seed}")
        self.count = 0
        self.nparams = 0

    # --- helpers ----------------------------------------------------------
    def fresh(self, stem):
        self.count += 1
        return f"{stem}.{self.count}"

    def add(self, instr):
        self.p.instrs.append(instr)
        return instr

    def rand_dims(self, rank=None, budget=4096):
        r = self.r
        rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4]) if rank is None else rank
        dims = []
        for _ in range(rank):
            rest = max(1, budget // max(1, _prod(dims)))
            choices = [d for d in self.RAGGED if d <= rest] or [1]
            dims.append(r.choice(choices))
        return dims

    def rand_layout(self, rank):
        layout = list(range(rank - 1, -1, -1))
        if rank >= 2 and self.r.random() < 0.4:
            self.r.shuffle(layout)
        return layout

    def param(self, dtype, dims):
        self.nparams += 1
        return self.add(Instr(self.fresh("p"), dtype, dims, "parameter", [],
                              layout=self.rand_layout(len(dims)), cls="exact"))

    def values(self, pred=None):
        return [i for i in self.p.instrs if i.tuple_type is None and
                (pred is None or pred(i))]

    def pick(self, pred=None):
        vals = self.values(pred)
        if not vals:
            return None
        # Prefer recent values: chains rather than a flat bag of ops.
        weights = [1.0 + k for k in range(len(vals))]
        return self.r.choices(vals, weights)[0]

    def same_shape(self, v, dtype=None, exact=False):
        dtype = dtype or v.dtype
        cands = self.values(lambda i: i.dtype == dtype and i.dims == v.dims and
                            (not exact or i.cls == "exact"))
        if cands and self.r.random() < 0.7:
            return self.r.choice(cands)
        if self.r.random() < 0.3 and v.dims:
            return self.broadcast_scalar(dtype, v.dims)
        return self.param(dtype, v.dims)

    def const(self, dtype, value):
        return self.add(Instr(self.fresh("constant"), dtype, [], "constant", [],
                              value=value, cls="exact"))

    def broadcast_scalar(self, dtype, dims, value=None):
        if value is None:
            value = {"f32": self.r.choice(["0.5", "-1.25", "2", "0", "3.5"]),
                     "bf16": self.r.choice(["0.5", "-1.25", "2", "0"]),
                     "s32": str(self.r.randint(-5, 9)),
                     "pred": self.r.choice(["true", "false"])}[dtype]
        c = self.const(dtype, value)
        return self.add(Instr(self.fresh("broadcast"), dtype, dims, "broadcast",
                              [c.name], attrs=", dimensions={}", cls="exact"))

    def positive(self, v):
        """|v| + 0.5: the argument of log, sqrt, rsqrt, a divisor, a base."""
        a = self.add(Instr(self.fresh("abs"), v.dtype, v.dims, "abs", [v.name], cls=v.cls))
        h = self.broadcast_scalar(v.dtype, v.dims, "0.5")
        return self.add(Instr(self.fresh("add"), v.dtype, v.dims, "add", [a.name, h.name],
                              cls=loosest(v.cls, "fp" if v.dtype == "f32" else "loose")))

    def mxu_cls(self, dtype):
        """The class of a DEFAULT-precision dot or convolution."""
        return "mxu" if dtype == "f32" else "loose"

    def float_cls(self, dtype, cls):
        return "loose" if dtype == "bf16" else cls

    def reducer(self, dtype, kind):
        name = f"{kind}_{dtype}"
        if name not in self.p.comps:
            op = {"add": "add", "max": "maximum", "min": "minimum",
                  "or": "or", "and": "and"}[kind]
            self.p.comps[name] = (
                f"{name} {{\n  a = {scalar(dtype)} parameter(0)\n"
                f"  b = {scalar(dtype)} parameter(1)\n"
                f"  ROOT c = {scalar(dtype)} {op}(a, b)\n}}")
        return name

    def init_value(self, dtype, kind):
        v = {("add", "f32"): "0", ("add", "bf16"): "0", ("add", "s32"): "0",
             ("max", "f32"): "-inf", ("max", "bf16"): "-inf",
             ("max", "s32"): "-2147483648", ("min", "f32"): "inf",
             ("min", "bf16"): "inf", ("min", "s32"): "2147483647",
             ("or", "pred"): "false", ("and", "pred"): "true"}[(kind, dtype)]
        return self.const(dtype, v)

    # --- ops --------------------------------------------------------------
    def op_unary(self):
        v = self.pick(lambda i: i.dtype in FLOAT + ("s32",) and i.dims)
        if v is None:
            return
        r = self.r
        if v.dtype == "s32":
            op = r.choice(["negate", "abs", "not", "sign", "popcnt", "clz"])
            op = {"clz": "count-leading-zeros"}.get(op, op)
            return self.add(Instr(self.fresh(op.split("-")[0]), "s32", v.dims, op,
                                  [v.name], cls=v.cls))
        if v.cls == "exact" and r.random() < 0.3:
            op = r.choice(["floor", "ceil", "round-nearest-even", "round-nearest-afz", "sign"])
            return self.add(Instr(self.fresh(op.split("-")[0]), v.dtype, v.dims, op,
                                  [v.name], cls=v.cls))
        op = r.choice(["negate", "abs", "exponential", "log", "sqrt", "rsqrt", "tanh",
                       "logistic", "sine", "cosine", "exponential-minus-one",
                       "log-plus-one", "cbrt", "erf", "tan", "atan2", "power"])
        cls = self.float_cls(v.dtype, "fp" if op in ("negate", "abs", "sqrt") else "transc")
        arg = v
        if op in ("log", "sqrt", "rsqrt", "log-plus-one"):
            arg = self.positive(v)
        elif op in ("exponential", "exponential-minus-one", "tan", "sine", "cosine"):
            lo = self.broadcast_scalar(v.dtype, v.dims, "-1.5" if op == "tan" else "-4")
            hi = self.broadcast_scalar(v.dtype, v.dims, "1.5" if op == "tan" else "4")
            arg = self.add(Instr(self.fresh("clamp"), v.dtype, v.dims, "clamp",
                                 [lo.name, v.name, hi.name], cls=v.cls))
        if op in ("atan2", "power"):
            w = self.same_shape(v)
            if op == "power":
                base = self.positive(v)
                lo = self.broadcast_scalar(v.dtype, v.dims, "-3")
                hi = self.broadcast_scalar(v.dtype, v.dims, "3")
                e = self.add(Instr(self.fresh("clamp"), v.dtype, v.dims, "clamp",
                                   [lo.name, w.name, hi.name], cls=w.cls))
                args = [base.name, e.name]
            else:
                args = [v.name, w.name]
            return self.add(Instr(self.fresh(op), v.dtype, v.dims, op, args,
                                  cls=loosest(cls, v.cls, w.cls)))
        return self.add(Instr(self.fresh(op.split("-")[0]), v.dtype, v.dims, op,
                              [arg.name], cls=loosest(cls, arg.cls)))

    def op_binary(self):
        v = self.pick(lambda i: i.dims and i.dtype != "pred")
        if v is None:
            return
        r = self.r
        if v.dtype == "s32":
            op = r.choice(["add", "subtract", "multiply", "maximum", "minimum", "and",
                           "or", "xor", "divide", "remainder", "shift-left",
                           "shift-right-logical", "shift-right-arithmetic"])
        else:
            # A float remainder jumps by the divisor where the dividend
            # crosses a multiple of it: exact operands only (like floor).
            op = r.choice(["add", "subtract", "multiply", "maximum", "minimum", "divide"] +
                          (["remainder"] if v.cls == "exact" else []))
        w = self.same_shape(v, exact=op == "remainder")
        a, b = (v, w) if r.random() < 0.5 else (w, v)
        if op in ("divide", "remainder") and v.dtype in FLOAT:
            b = self.positive(b)
        if op.startswith("shift"):
            b = self.add(Instr(self.fresh("and"), "s32", b.dims, "and",
                               [b.name, self.broadcast_scalar("s32", b.dims, "31").name],
                               cls=b.cls))
        cls = loosest(a.cls, b.cls)
        if v.dtype in FLOAT:
            cls = loosest(cls, self.float_cls(v.dtype, "fp"))
        return self.add(Instr(self.fresh(op.split("-")[0]), v.dtype, v.dims, op,
                              [a.name, b.name], cls=cls))

    def op_compare_select(self):
        v = self.pick(lambda i: i.dims and i.cls == "exact" and i.dtype != "pred")
        if v is None:
            return
        w = self.same_shape(v, exact=True)
        d = self.r.choice(["EQ", "NE", "LT", "LE", "GT", "GE"])
        ty = ", type=TOTALORDER" if v.dtype in FLOAT and self.r.random() < 0.2 else ""
        c = self.add(Instr(self.fresh("compare"), "pred", v.dims, "compare",
                           [v.name, w.name], attrs=f", direction={d}{ty}", cls="exact"))
        if self.r.random() < 0.2:
            o = self.same_shape(c, exact=True)
            op = self.r.choice(["and", "or", "xor"])
            c = self.add(Instr(self.fresh(op), "pred", v.dims, op, [c.name, o.name],
                               cls="exact"))
        x = self.pick(lambda i: i.dims == v.dims and i.dtype != "pred") or v
        y = self.same_shape(x)
        return self.add(Instr(self.fresh("select"), x.dtype, x.dims, "select",
                              [c.name, x.name, y.name], cls=loosest(x.cls, y.cls)))

    def op_convert(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        if v.cls != "exact" or v.dtype == "pred":
            to = self.r.choice([t for t in FLOAT if t != v.dtype] + ["f32"])
        else:
            to = self.r.choice([t for t in ("f32", "bf16", "s32", "pred") if t != v.dtype])
        cls = v.cls
        if to == "bf16" and v.dtype != "pred":
            cls = "loose"
        if v.dtype == "s32" and to in FLOAT:
            cls = loosest(cls, "fp")  # large integers round
        return self.add(Instr(self.fresh("convert"), to, v.dims, "convert", [v.name],
                              cls=cls))

    def op_broadcast(self):
        v = self.pick(lambda i: len(i.dims) <= 2)
        if v is None:
            return
        rank = len(v.dims) + self.r.randint(1, 2)
        dims_map = sorted(self.r.sample(range(rank), len(v.dims)))
        out = self.rand_dims(rank, budget=4096)
        for k, d in enumerate(dims_map):
            out[d] = v.dims[k]
        if _prod(out) > 1 << 16:
            return
        return self.add(Instr(self.fresh("broadcast"), v.dtype, out, "broadcast", [v.name],
                              attrs=dims_attr("dimensions", dims_map),
                              cls=v.cls))

    def op_reshape(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        n = _prod(v.dims)
        factors = [f for f in range(1, n + 1) if n % f == 0]
        out = []
        rest = n
        for _ in range(self.r.randint(0, 3)):
            f = self.r.choice([f for f in factors if rest % f == 0])
            out.append(f)
            rest //= f
        out.append(rest)
        if self.r.random() < 0.3:
            out.insert(self.r.randint(0, len(out)), 1)
        return self.add(Instr(self.fresh("reshape"), v.dtype, out, "reshape", [v.name],
                              cls=v.cls))

    def op_transpose(self):
        v = self.pick(lambda i: len(i.dims) >= 2)
        if v is None:
            return
        perm = list(range(len(v.dims)))
        self.r.shuffle(perm)
        return self.add(Instr(self.fresh("transpose"), v.dtype, [v.dims[p] for p in perm],
                              "transpose", [v.name],
                              attrs=dims_attr("dimensions", perm),
                              cls=v.cls))

    def op_slice(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        spec, out = [], []
        for d in v.dims:
            lo = self.r.randint(0, d - 1)
            hi = self.r.randint(lo + 1, d)
            st = self.r.choice([1, 1, 1, 2, 3])
            spec.append(f"[{lo}:{hi}" + (f":{st}" if st != 1 else "") + "]")
            out.append((hi - lo + st - 1) // st)
        return self.add(Instr(self.fresh("slice"), v.dtype, out, "slice", [v.name],
                              attrs=f", slice={{{', '.join(spec)}}}", cls=v.cls))

    def op_reverse(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        dims = sorted(self.r.sample(range(len(v.dims)), self.r.randint(1, len(v.dims))))
        return self.add(Instr(self.fresh("reverse"), v.dtype, v.dims, "reverse", [v.name],
                              attrs=dims_attr("dimensions", dims),
                              cls=v.cls))

    def op_concatenate(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        d = self.r.randrange(len(v.dims))
        parts, total = [v], v.dims[d]
        for _ in range(self.r.randint(1, 2)):
            dims = list(v.dims)
            dims[d] = self.r.choice([1, 3, 7, 8, 129])
            cands = self.values(lambda i: i.dtype == v.dtype and len(i.dims) == len(v.dims)
                                and all(a == b for k, (a, b) in enumerate(zip(i.dims, v.dims))
                                        if k != d))
            use_existing = cands and self.r.random() < 0.5
            w = self.r.choice(cands) if use_existing else self.param(v.dtype, dims)
            parts.append(w)
            total += w.dims[d]
        out = list(v.dims)
        out[d] = total
        if _prod(out) > 1 << 16:
            return
        return self.add(Instr(self.fresh("concatenate"), v.dtype, out, "concatenate",
                              [p.name for p in parts], attrs=f", dimensions={{{d}}}",
                              cls=loosest(*[p.cls for p in parts])))

    def op_pad(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        spec, out = [], []
        for d in v.dims:
            lo, hi = self.r.randint(-min(2, d - 1), 3), self.r.randint(-min(2, d - 1), 3)
            it = self.r.choice([0, 0, 0, 1, 2])
            size = lo + hi + d + (d - 1) * it
            if size < 1:
                lo, hi = 0, 0
                size = d + (d - 1) * it
            spec.append(f"{lo}_{hi}" + (f"_{it}" if it else ""))
            out.append(size)
        if _prod(out) > 1 << 16:
            return
        value = {"f32": "1.5", "bf16": "-2", "s32": "7", "pred": "true"}[v.dtype]
        c = self.const(v.dtype, value)
        return self.add(Instr(self.fresh("pad"), v.dtype, out, "pad", [v.name, c.name],
                              attrs=f", padding={'x'.join(spec)}", cls=v.cls))

    def op_iota(self):
        dims = self.rand_dims(self.r.randint(1, 3))
        d = self.r.randrange(len(dims))
        dtype = self.r.choice(["s32", "f32"])
        return self.add(Instr(self.fresh("iota"), dtype, dims, "iota", [],
                              attrs=f", iota_dimension={d}", cls="exact"))

    def reduce(self, v, dims, kind):
        """reduce(v) over `dims`. A bf16 sum of more than 8 elements is
        accumulated in f32 (convert, reduce, convert back), as JAX writes
        it: summed in bf16 the interpreter rounds after every add, as the
        HLO says, and the result drifts arbitrarily far from the f32
        accumulation the MXU and VPU kernels do (XLA TPU's too)."""
        out = [d for k, d in enumerate(v.dims) if k not in dims]
        n = _prod([v.dims[k] for k in dims])
        widen = kind == "add" and v.dtype == "bf16" and n > 8
        x = v
        if widen:
            x = self.add(Instr(self.fresh("convert"), "f32", v.dims, "convert", [v.name],
                               cls=v.cls))
        init = self.init_value(x.dtype, kind)
        cls = v.cls
        if kind == "add" and v.dtype in FLOAT:
            cls = loosest(cls, self.float_cls(v.dtype, "fp"))
        red = self.add(Instr(self.fresh(f"reduce_{kind}"), x.dtype, out, "reduce",
                             [x.name, init.name],
                             attrs=f", dimensions={{{','.join(map(str, dims))}}}, "
                             f"to_apply={self.reducer(x.dtype, kind)}", cls=cls))
        if widen:
            red = self.add(Instr(self.fresh("convert"), "bf16", out, "convert", [red.name],
                                 cls=cls))
        return red

    def op_reduce(self):
        v = self.pick(lambda i: i.dims and i.dtype != "pred")
        if v is None:
            return
        kind = self.r.choice(["add", "max", "min"])
        dims = sorted(self.r.sample(range(len(v.dims)), self.r.randint(1, len(v.dims))))
        return self.reduce(v, dims, kind)

    def op_dot(self):
        r = self.r
        dtype = r.choice(["f32", "f32", "bf16"] +
                         ([] if "int-dot" in self.exclude else ["s32"]))
        nb, nc = r.choice([0, 0, 1, 2]), r.choice([1, 1, 2])
        nl, nr = r.choice([0, 1, 1, 2]), r.choice([0, 1, 1])
        b = [r.choice([1, 2, 3, 5]) for _ in range(nb)]
        c = [r.choice([1, 7, 8, 33, 128, 129, 200]) for _ in range(nc)]
        fl = [r.choice([1, 5, 8, 17, 64, 100]) for _ in range(nl)]
        fr = [r.choice([1, 3, 8, 31, 128]) for _ in range(nr)]
        if _prod(b + c + fl) > 1 << 15 or _prod(b + c + fr) > 1 << 15:
            return

        def operand(free):
            kinds = ["b"] * nb + ["c"] * nc + ["f"] * len(free)
            r.shuffle(kinds)
            it = {"b": iter(b), "c": iter(c), "f": iter(free)}
            dims = [next(it[k]) for k in kinds]
            return dims, [k for k, x in enumerate(kinds) if x == "b"], \
                [k for k, x in enumerate(kinds) if x == "c"]

        ld, lb, lc = operand(fl)
        rd, rb, rc = operand(fr)
        lhs = self.pick(lambda i: i.dtype == dtype and i.dims == ld) or self.param(dtype, ld)
        rhs = self.pick(lambda i: i.dtype == dtype and i.dims == rd) or self.param(dtype, rd)
        attrs = ""
        if nb:
            attrs += f", lhs_batch_dims={{{','.join(map(str, lb))}}}, " \
                     f"rhs_batch_dims={{{','.join(map(str, rb))}}}"
        attrs += f", lhs_contracting_dims={{{','.join(map(str, lc))}}}, " \
                 f"rhs_contracting_dims={{{','.join(map(str, rc))}}}"
        cls = {"s32": "exact", "bf16": "loose", "f32": "mxu"}[dtype]
        if dtype == "f32" and r.random() < 0.5:
            attrs += ", operand_precision={highest,highest}"
            cls = "fp"
        return self.add(Instr(self.fresh("dot"), dtype, b + fl + fr, "dot",
                              [lhs.name, rhs.name], attrs=attrs,
                              cls=loosest(cls, lhs.cls, rhs.cls)))

    def op_dot_bias_relu(self):
        """dot + broadcast bias + relu (maximum with 0): the MLP layer chain."""
        m, k, n = self.r.choice([8, 17, 100]), self.r.choice([33, 128]), self.r.choice([31, 128])
        dtype = self.r.choice(["f32", "bf16"])
        x = self.param(dtype, [m, k])
        w = self.param(dtype, [k, n])
        d = self.add(Instr(self.fresh("dot"), dtype, [m, n], "dot", [x.name, w.name],
                           attrs=", lhs_contracting_dims={1}, rhs_contracting_dims={0}",
                           cls=self.mxu_cls(dtype)))
        bias = self.param(dtype, [n])
        bb = self.add(Instr(self.fresh("broadcast"), dtype, [m, n], "broadcast", [bias.name],
                            attrs=", dimensions={1}", cls="exact"))
        a = self.add(Instr(self.fresh("add"), dtype, [m, n], "add", [d.name, bb.name],
                           cls=self.mxu_cls(dtype)))
        z = self.broadcast_scalar(dtype, [m, n], "0")
        return self.add(Instr(self.fresh("maximum"), dtype, [m, n], "maximum",
                              [a.name, z.name], cls=self.mxu_cls(dtype)))

    def op_convolution(self):
        r = self.r
        dtype = r.choice(["f32", "bf16"])
        sp = r.choice([1, 2])
        n, ci, co = r.choice([1, 2]), r.choice([1, 3, 8]), r.choice([1, 4, 8])
        size = [r.choice([5, 7, 9, 16]) for _ in range(sp)]
        k = [r.choice([1, 2, 3]) for _ in range(sp)]
        st = [r.choice([1, 1, 2]) for _ in range(sp)]
        pad = [(r.randint(0, kk - 1), r.randint(0, kk - 1)) for kk in k]
        out = [(s + lo + hi - kk) // t + 1 for s, kk, t, (lo, hi) in zip(size, k, st, pad)]
        x = self.param(dtype, [n] + size + [ci])
        w = self.param(dtype, k + [ci, co])
        lab = "01"[:sp]
        window = (f"size={'x'.join(map(str, k))} stride={'x'.join(map(str, st))} "
                  f"pad={'x'.join(f'{a}_{b}' for a, b in pad)}")
        return self.add(Instr(self.fresh("convolution"), dtype, [n] + out + [co],
                              "convolution", [x.name, w.name],
                              attrs=f", window={{{window}}}, dim_labels=b{lab}f_{lab}io->b{lab}f",
                              cls=self.mxu_cls(dtype)))

    def op_reduce_window(self):
        v = self.pick(lambda i: i.dims and i.dtype in ("f32", "s32") and len(i.dims) <= 3)
        if v is None:
            return
        kind = self.r.choice(["add", "max", "min"])
        size, stride, pads, out = [], [], [], []
        for d in v.dims:
            w = self.r.randint(1, min(d, 3))
            s = self.r.choice([1, 1, 2])
            lo, hi = self.r.randint(0, w - 1), self.r.randint(0, w - 1)
            size.append(w)
            stride.append(s)
            pads.append(f"{lo}_{hi}")
            out.append((d + lo + hi - w) // s + 1)
        init = self.init_value(v.dtype, kind)
        cls = v.cls if kind != "add" or v.dtype == "s32" else loosest(v.cls, "fp")
        window = (f"size={'x'.join(map(str, size))} stride={'x'.join(map(str, stride))} "
                  f"pad={'x'.join(pads)}")
        return self.add(Instr(self.fresh("reduce-window"), v.dtype, out, "reduce-window",
                              [v.name, init.name],
                              attrs=f", window={{{window}}}, "
                              f"to_apply={self.reducer(v.dtype, kind)}",
                              cls=cls))

    def index_vector(self, n, limit):
        """s32[n] indices, exact, some out of range (XLA clamps/drops them)."""
        p = self.param("s32", [n])
        if self.r.random() < 0.5:
            return p
        c = self.broadcast_scalar("s32", [n], str(self.r.randint(1, max(1, limit))))
        return self.add(Instr(self.fresh("remainder"), "s32", [n], "remainder",
                              [p.name, c.name], cls="exact"))

    def op_gather(self):
        v = self.pick(lambda i: len(i.dims) in (2, 3))
        if v is None:
            return
        n = self.r.choice([1, 5, 17, 100])
        idx = self.index_vector(n, v.dims[0])
        sizes = [1] + v.dims[1:]
        return self.add(Instr(self.fresh("gather"), v.dtype, [n] + v.dims[1:], "gather",
                              [v.name, idx.name],
                              attrs=dims_attr("offset_dims", range(1, len(v.dims))) +
                              f", collapsed_slice_dims={{0}}, start_index_map={{0}}, "
                              f"index_vector_dim=1, slice_sizes={{{','.join(map(str, sizes))}}}",
                              cls=v.cls))

    def op_scatter(self):
        v = self.pick(lambda i: len(i.dims) == 2 and i.dtype in ("f32", "s32"))
        if v is None:
            return
        n = self.r.choice([1, 3, 17])
        idx = self.index_vector(n, v.dims[0])
        upd = self.param(v.dtype, [n, v.dims[1]])
        cls = loosest(v.cls, "fp" if v.dtype == "f32" else "exact")
        return self.add(Instr(self.fresh("scatter"), v.dtype, v.dims, "scatter",
                              [v.name, idx.name, upd.name],
                              attrs=", update_window_dims={1}, inserted_window_dims={0}, "
                              "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                              f"to_apply={self.reducer(v.dtype, 'add')}", cls=cls))

    def scalar_index(self, limit):
        """An exact s32[] index from a parameter (possibly out of range)."""
        if self.r.random() < 0.5:
            return self.const("s32", str(self.r.randint(-2, limit + 2)))
        p = self.param("s32", [3])
        s = self.add(Instr(self.fresh("slice"), "s32", [1], "slice", [p.name],
                           attrs=", slice={[1:2]}", cls="exact"))
        return self.add(Instr(self.fresh("reshape"), "s32", [], "reshape", [s.name],
                              cls="exact"))

    def op_dynamic_slice(self):
        v = self.pick(lambda i: i.dims)
        if v is None:
            return
        sizes = [self.r.randint(1, d) for d in v.dims]
        idx = [self.scalar_index(d - s) for d, s in zip(v.dims, sizes)]
        if self.r.random() < 0.5:
            return self.add(Instr(self.fresh("dynamic-slice"), v.dtype, sizes,
                                  "dynamic-slice", [v.name] + [i.name for i in idx],
                                  attrs=dims_attr("dynamic_slice_sizes", sizes),
                                  cls=v.cls))
        upd = self.param(v.dtype, sizes)
        return self.add(Instr(self.fresh("dynamic-update-slice"), v.dtype, v.dims,
                              "dynamic-update-slice", [v.name, upd.name] + [i.name for i in idx],
                              cls=loosest(v.cls, upd.cls)))

    def op_sort(self):
        v = self.pick(lambda i: i.dims and i.cls == "exact" and i.dtype != "pred"
                      and len(i.dims) <= 2)
        if v is None:
            return
        d = self.r.randrange(len(v.dims))
        direction = self.r.choice(["LT", "GT"])
        with_values = self.r.random() < 0.5
        name = self.fresh("compare_sort").replace(".", "_")
        ty = scalar(v.dtype)
        if with_values:
            w = self.pick(lambda i: i.dims == v.dims and i.dtype != "pred") or \
                self.param("f32", v.dims)
            wt = scalar(w.dtype)
            self.p.comps[name] = (
                f"{name} {{\n  a = {ty} parameter(0)\n  b = {ty} parameter(1)\n"
                f"  c = {wt} parameter(2)\n  d = {wt} parameter(3)\n"
                f"  ROOT lt = pred[] compare(a, b), direction={direction}\n}}")
            tt = "(" + shape_text(v.dtype, v.dims) + ", " + shape_text(w.dtype, w.dims) + ")"
            s = self.add(Instr(self.fresh("sort"), None, [], "sort", [v.name, w.name],
                               attrs=f", dimensions={{{d}}}, is_stable=true, to_apply={name}",
                               tuple_type=tt))
            k = self.add(Instr(self.fresh("get-tuple-element"), v.dtype, v.dims,
                               "get-tuple-element", [s.name], attrs=", index=0", cls="exact"))
            self.add(Instr(self.fresh("get-tuple-element"), w.dtype, w.dims,
                           "get-tuple-element", [s.name], attrs=", index=1", cls=w.cls))
            return k
        self.p.comps[name] = (
            f"{name} {{\n  a = {ty} parameter(0)\n  b = {ty} parameter(1)\n"
            f"  ROOT lt = pred[] compare(a, b), direction={direction}\n}}")
        return self.add(Instr(self.fresh("sort"), v.dtype, v.dims, "sort", [v.name],
                              attrs=f", dimensions={{{d}}}, is_stable=true, to_apply={name}",
                              cls="exact"))

    def op_while(self):
        """A counted loop: (counter, x) -> (counter + 1, f(x)) while counter < N."""
        v = self.pick(lambda i: i.dims and i.dtype in FLOAT and _prod(i.dims) <= 4096)
        if v is None:
            return
        trips = self.r.randint(0, 5)
        t = shape_text(v.dtype, v.dims)
        tt = f"(s32[], {t})"
        body, cond = self.fresh("body").replace(".", "_"), self.fresh("cond").replace(".", "_")
        f = self.r.choice(["tanh", "sine", "logistic", "negate"])
        op = self.r.choice(["add", "multiply", "subtract"])
        dims_all = ",".join(str(k) for k in range(len(v.dims)))
        self.p.comps[body] = (
            f"{body} {{\n  s = {tt} parameter(0)\n"
            f"  i = s32[] get-tuple-element(s), index=0\n"
            f"  x = {t} get-tuple-element(s), index=1\n"
            f"  one = s32[] constant(1)\n  i1 = s32[] add(i, one)\n"
            f"  fx = {t} {f}(x)\n"
            f"  h = {scalar(v.dtype)} constant(0.75)\n"
            f"  hb = {t} broadcast(h), dimensions={{}}\n"
            f"  y = {t} {op}(fx, hb)\n"
            f"  ROOT r = {tt} tuple(i1, y)\n}}")
        self.p.comps[cond] = (
            f"{cond} {{\n  s = {tt} parameter(0)\n"
            f"  i = s32[] get-tuple-element(s), index=0\n"
            f"  n = s32[] constant({trips})\n"
            f"  ROOT lt = pred[] compare(i, n), direction=LT\n}}")
        del dims_all
        zero = self.const("s32", "0")
        init = self.add(Instr(self.fresh("tuple"), None, [], "tuple", [zero.name, v.name],
                              tuple_type=tt))
        w = self.add(Instr(self.fresh("while"), None, [], "while", [init.name],
                           attrs=f", condition={cond}, body={body}", tuple_type=tt))
        cls = loosest(v.cls, self.float_cls(v.dtype, "transc"))
        self.add(Instr(self.fresh("get-tuple-element"), "s32", [], "get-tuple-element",
                       [w.name], attrs=", index=0", cls="exact"))
        return self.add(Instr(self.fresh("get-tuple-element"), v.dtype, v.dims,
                              "get-tuple-element", [w.name], attrs=", index=1", cls=cls))

    def op_conditional(self):
        v = self.pick(lambda i: i.dims and i.dtype in FLOAT and _prod(i.dims) <= 4096)
        if v is None:
            return
        t = shape_text(v.dtype, v.dims)
        nb = self.r.choice([2, 3])
        names = []
        for k in range(nb):
            n = self.fresh("branch").replace(".", "_")
            f = ["negate", "tanh", "abs", "exponential"][k] if k < 3 else "abs"
            arg = "x"
            extra = ""
            if f == "exponential":
                extra = (f"  lo = {scalar(v.dtype)} constant(-4)\n"
                         f"  lob = {t} broadcast(lo), dimensions={{}}\n"
                         f"  m = {t} maximum(x, lob)\n")
                arg = "m"
            self.p.comps[n] = (f"{n} {{\n  x = {t} parameter(0)\n{extra}"
                               f"  ROOT y = {t} {f}({arg})\n}}")
            names.append(n)
        p = self.param("s32", [3])
        s = self.add(Instr(self.fresh("slice"), "s32", [1], "slice", [p.name],
                           attrs=", slice={[0:1]}", cls="exact"))
        idx = self.add(Instr(self.fresh("reshape"), "s32", [], "reshape", [s.name],
                             cls="exact"))
        if nb == 2 and self.r.random() < 0.5:
            zero = self.const("s32", "0")
            pr = self.add(Instr(self.fresh("compare"), "pred", [], "compare",
                                [idx.name, zero.name], attrs=", direction=GT", cls="exact"))
            return self.add(Instr(self.fresh("conditional"), v.dtype, v.dims, "conditional",
                                  [pr.name, v.name, v.name],
                                  attrs=f", true_computation={names[0]}, "
                                  f"false_computation={names[1]}",
                                  cls=loosest(v.cls, self.float_cls(v.dtype, "transc"))))
        return self.add(Instr(self.fresh("conditional"), v.dtype, v.dims, "conditional",
                              [idx.name] + [v.name] * nb,
                              attrs=f", branch_computations={{{', '.join(names)}}}",
                              cls=loosest(v.cls, self.float_cls(v.dtype, "transc"))))

    def op_bits(self):
        """is-finite, bitcast-convert (both ways, the s32 -> f32 way as the
        uniform-random trick builds floats in [1, 2)), reduce-precision."""
        r = self.r
        kind = r.choice(["is-finite", "bitcast-f32", "bitcast-s32", "reduce-precision"])
        if kind == "bitcast-s32":
            v = self.pick(lambda i: i.dims and i.dtype == "s32")
            if v is None:
                return
            m = self.add(Instr(self.fresh("and"), "s32", v.dims, "and",
                               [v.name, self.broadcast_scalar("s32", v.dims, "8388607").name],
                               cls=v.cls))
            o = self.add(Instr(self.fresh("or"), "s32", v.dims, "or",
                               [m.name, self.broadcast_scalar("s32", v.dims, "1065353216").name],
                               cls=v.cls))
            return self.add(Instr(self.fresh("bitcast-convert"), "f32", v.dims,
                                  "bitcast-convert", [o.name], cls=v.cls))
        v = self.pick(lambda i: i.dims and i.dtype == "f32" and
                      (i.cls == "exact" or kind == "reduce-precision"))
        if v is None:
            return
        if kind == "bitcast-f32":
            return self.add(Instr(self.fresh("bitcast-convert"), "s32", v.dims,
                                  "bitcast-convert", [v.name], cls="exact"))
        if kind == "reduce-precision":
            e, m = r.choice([(5, 10), (8, 7), (4, 3), (8, 23)])
            return self.add(Instr(self.fresh("reduce-precision"), "f32", v.dims,
                                  "reduce-precision", [v.name],
                                  attrs=f", exponent_bits={e}, mantissa_bits={m}",
                                  cls=v.cls if v.cls == "exact" else "loose"))
        # |x| * 3e38 overflows to inf for |x| > 1.13: IEEE multiply, the same
        # on both sides.
        big = self.broadcast_scalar("f32", v.dims, "3e+38")
        x = self.add(Instr(self.fresh("multiply"), "f32", v.dims, "multiply",
                           [v.name, big.name], cls="exact"))
        return self.add(Instr(self.fresh("is-finite"), "pred", v.dims, "is-finite",
                              [x.name], cls="exact"))

    def op_select_and_scatter(self):
        """A max-pool gradient: scatter-add the source to each window's
        (first) maximum."""
        v = self.pick(lambda i: len(i.dims) == 2 and i.dtype == "f32" and i.cls == "exact")
        if v is None:
            return
        size, stride, pads, out = [], [], [], []
        for d in v.dims:
            w = self.r.randint(1, min(d, 3))
            s = self.r.choice([1, 2, w])
            lo, hi = self.r.randint(0, w - 1), self.r.randint(0, w - 1)
            size.append(w)
            stride.append(s)
            pads.append(f"{lo}_{hi}")
            out.append((d + lo + hi - w) // s + 1)
        src = self.param("f32", out)
        init = self.const("f32", "0")
        sel = self.fresh("select_ge").replace(".", "_")
        d = self.r.choice(["GE", "GT"])
        self.p.comps[sel] = (
            f"{sel} {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
            f"  ROOT c = pred[] compare(a, b), direction={d}\n}}")
        window = (f"size={'x'.join(map(str, size))} stride={'x'.join(map(str, stride))} "
                  f"pad={'x'.join(pads)}")
        return self.add(Instr(self.fresh("select-and-scatter"), "f32", v.dims,
                              "select-and-scatter", [v.name, src.name, init.name],
                              attrs=f", window={{{window}}}, select={sel}, "
                              f"scatter={self.reducer('f32', 'add')}",
                              cls="fp"))

    def op_argmax(self):
        """A variadic reduce: (max, index of the first max) along one
        dimension, as jnp.argmax writes it."""
        v = self.pick(lambda i: i.dims and i.dtype in ("f32", "s32") and i.cls == "exact"
                      and len(i.dims) <= 3)
        if v is None:
            return
        d = self.r.randrange(len(v.dims))
        out = [x for k, x in enumerate(v.dims) if k != d]
        idx = self.add(Instr(self.fresh("iota"), "s32", v.dims, "iota", [],
                             attrs=f", iota_dimension={d}", cls="exact"))
        kind = self.r.choice(["GT", "LT"])
        t = scalar(v.dtype)
        name = self.fresh("argmax").replace(".", "_")
        self.p.comps[name] = (
            f"{name} {{\n  a = {t} parameter(0)\n  i = s32[] parameter(1)\n"
            f"  b = {t} parameter(2)\n  j = s32[] parameter(3)\n"
            f"  better = pred[] compare(a, b), direction={kind}\n"
            f"  eq = pred[] compare(a, b), direction=EQ\n"
            f"  lower = pred[] compare(i, j), direction=LT\n"
            f"  tie = pred[] and(eq, lower)\n"
            f"  take = pred[] or(better, tie)\n"
            f"  m = {t} select(take, a, b)\n"
            f"  k = s32[] select(take, i, j)\n"
            f"  ROOT r = ({t}, s32[]) tuple(m, k)\n}}")
        init = self.init_value(v.dtype, "max" if kind == "GT" else "min")
        zero = self.const("s32", "0")
        tt = "(" + shape_text(v.dtype, out) + ", " + shape_text("s32", out) + ")"
        red = self.add(Instr(self.fresh("reduce"), None, [], "reduce",
                             [v.name, idx.name, init.name, zero.name],
                             attrs=f", dimensions={{{d}}}, to_apply={name}", tuple_type=tt))
        self.add(Instr(self.fresh("get-tuple-element"), v.dtype, out, "get-tuple-element",
                       [red.name], attrs=", index=0", cls="exact"))
        return self.add(Instr(self.fresh("get-tuple-element"), "s32", out,
                              "get-tuple-element", [red.name], attrs=", index=1",
                              cls="exact"))

    def op_take_along_axis(self):
        """A gather with operand batching dims (jnp.take_along_axis) along
        either axis of a 2-D value, or its transpose, the scatter-add with
        input batching dims of take_along_axis's gradient (f32/s32)."""
        v = self.pick(lambda i: len(i.dims) == 2)
        if v is None:
            return
        axis = self.r.choice([0, 1])
        batch = 1 - axis
        n = v.dims[axis]
        k = self.r.choice([1, 3, 8, 17])
        dims = [k, k]
        dims[batch] = v.dims[batch]
        p = self.param("s32", dims + [1])
        c = self.broadcast_scalar("s32", dims + [1], str(max(1, n)))
        idx = self.add(Instr(self.fresh("remainder"), "s32", dims + [1], "remainder",
                             [p.name, c.name], cls="exact"))
        if v.dtype in ("f32", "s32") and self.r.random() < 0.3:
            upd = self.param(v.dtype, dims)
            cls = loosest(v.cls, "fp" if v.dtype == "f32" else "exact")
            return self.add(Instr(self.fresh("scatter"), v.dtype, v.dims, "scatter",
                                  [v.name, idx.name, upd.name],
                                  attrs=f", update_window_dims={{}}, "
                                  f"inserted_window_dims={{{axis}}}, "
                                  f"input_batching_dims={{{batch}}}, "
                                  f"scatter_indices_batching_dims={{{batch}}}, "
                                  f"scatter_dims_to_operand_dims={{{axis}}}, "
                                  f"index_vector_dim=2, "
                                  f"to_apply={self.reducer(v.dtype, 'add')}", cls=cls))
        return self.add(Instr(self.fresh("gather"), v.dtype, dims, "gather",
                              [v.name, idx.name],
                              attrs=f", offset_dims={{}}, collapsed_slice_dims={{{axis}}}, "
                              f"start_index_map={{{axis}}}, "
                              f"operand_batching_dims={{{batch}}}, "
                              f"start_indices_batching_dims={{{batch}}}, index_vector_dim=2, "
                              "slice_sizes={1,1}", cls=v.cls))

    def op_reduce_then_elementwise(self):
        """reduce, broadcast back, elementwise (softmax / layer-norm shape)."""
        v = self.pick(lambda i: len(i.dims) >= 2 and i.dtype in FLOAT)
        if v is None:
            return
        d = len(v.dims) - 1 if self.r.random() < 0.7 else 0
        kind = self.r.choice(["add", "max"])
        keep = [k for k in range(len(v.dims)) if k != d]
        red = self.reduce(v, [d], kind)
        b = self.add(Instr(self.fresh("broadcast"), v.dtype, v.dims, "broadcast", [red.name],
                           attrs=dims_attr("dimensions", keep), cls=red.cls))
        return self.add(Instr(self.fresh("subtract"), v.dtype, v.dims, "subtract",
                              [v.name, b.name], cls=loosest(red.cls, v.cls)))

    OPS = [("unary", 10), ("binary", 10), ("compare_select", 5), ("convert", 4),
           ("broadcast", 4), ("reshape", 4), ("transpose", 4), ("slice", 4),
           ("reverse", 2), ("concatenate", 3), ("pad", 3), ("iota", 2), ("reduce", 5),
           ("dot", 4), ("dot_bias_relu", 2), ("convolution", 2), ("reduce_window", 3),
           ("gather", 2), ("scatter", 2), ("dynamic_slice", 3), ("sort", 2),
           ("while", 2), ("conditional", 2), ("reduce_then_elementwise", 3),
           ("bits", 3), ("select_and_scatter", 2), ("argmax", 2), ("take_along_axis", 2)]

    def run(self, nops=None):
        r = self.r
        for _ in range(r.randint(1, 3)):
            dtype = r.choice(["f32", "f32", "f32", "bf16", "s32"])
            self.param(dtype, self.rand_dims(r.randint(1, 3)))
        nops = nops or r.randint(4, 18)
        names, weights = zip(*self.OPS)
        made = 0
        while made < nops:
            op = r.choices(names, weights)[0]
            if getattr(self, "op_" + op)() is not None:
                made += 1
        # Results (a tuple ROOT): the last value, up to 5 values nothing
        # uses (so that little of the program is dead), sometimes one
        # more; never parameters or constants alone.
        cands = [i for i in self.values() if i.opcode not in ("parameter", "constant")]
        used = {o for i in self.p.instrs for o in i.operands}
        sinks = [i.name for i in cands if i.name not in used]
        outs = {cands[-1].name}
        outs.update(sinks[-5:])
        for _ in range(r.randint(0, 1)):
            outs.add(r.choice(cands).name)
        self.p.results = [i.name for i in self.p.instrs if i.name in outs]
        for i in self.p.instrs:
            if i.name in outs and len(i.dims) >= 2 and r.random() < 0.3:
                i.layout = self.rand_layout(len(i.dims))
        return self.p


def dims_attr(name, values):
    """`, name={1,0}`: an attribute holding a list of integers."""
    return f", {name}={{{','.join(map(str, values))}}}"


def _prod(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def generate(seed, exclude=()):
    """The module of `seed`. `exclude` names features the generator leaves
    out when difftest.py's EXCLUSIONS lists them (each a documented known
    gap): int-dot (dots f32/bf16 only). None is listed today."""
    return Generator(seed, exclude).run()


if __name__ == "__main__":
    args = sys.argv[1:]
    exclude = args[args.index("--exclude") + 1].split(",") if "--exclude" in args else ()
    text = generate(int(args[0]), exclude).text()
    if "-o" in args:
        with open(args[args.index("-o") + 1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
