"""Writes the softmax cross-entropy of a one-hot loss as XLA dumps it
before optimisation (issue 14 item 3: the seed report's one-hot).

usage: onehot_loss.py N FORM > loss.hlo

logits f32[N,10] (entry layout {0,1}: the batch minor, so 10 classes pad
to 16 rows, not 128 lanes) and labels s32[N]; the one-hot is
iota/broadcast/compare EQ/convert, then log-softmax, the product with the
one-hot, the mean and its negation. FORM:
  plain       the loss alone
  transposed  logits arrive as f32[10,N]{1,0} and are transposed, the
              transpose in the default layout {1,0} as before layout
              assignment (a 12.8x padded [N,10] if kept)
  second      the one-hot has a second consumer: the gradient
              (softmax - one_hot) / N, returned with layout {0,1}
"""
import sys

n = int(sys.argv[1])
form = sys.argv[2]
if form not in ("plain", "transposed", "second"):
    sys.exit(f"onehot_loss.py: unknown form '{form}'")
c = 10
param = f"f32[{c},{n}]{{1,0}}" if form == "transposed" else f"f32[{n},{c}]{{0,1}}"
results = f"(f32[], f32[{n},{c}]{{0,1}})" if form == "second" else "f32[]"
onehot = 'metadata={op_type="OneHot" op_name="loss/one_hot"}'
nc = f"{n},{c}"
lines = [
    f"HloModule onehot_loss_{form}, entry_computation_layout={{({param}, s32[{n}]{{0}})->{results}}}",
    "",
    "region_add {",
    "  a = f32[] parameter(0)",
    "  b = f32[] parameter(1)",
    "  ROOT s = f32[] add(a, b)",
    "}",
    "",
    "region_max {",
    "  a = f32[] parameter(0)",
    "  b = f32[] parameter(1)",
    "  ROOT m = f32[] maximum(a, b)",
    "}",
    "",
    "ENTRY main {",
]
if form == "transposed":
    lines += [f"  logits_t = f32[{c},{n}]{{1,0}} parameter(0)",
              f"  logits = f32[{nc}]{{1,0}} transpose(logits_t), dimensions={{1,0}}"]
else:
    lines += [f"  logits = f32[{nc}]{{0,1}} parameter(0)"]
lines += [
    f"  labels = s32[{n}]{{0}} parameter(1)",
    f"  iota = s32[{nc}]{{1,0}} iota(), iota_dimension=1, {onehot}",
    f"  lb = s32[{nc}]{{1,0}} broadcast(labels), dimensions={{0}}, {onehot}",
    f"  eq = pred[{nc}]{{1,0}} compare(lb, iota), direction=EQ, {onehot}",
    f"  one_hot = f32[{nc}]{{1,0}} convert(eq), {onehot}",
    "  ninf = f32[] constant(-inf)",
    f"  mx = f32[{n}]{{0}} reduce(logits, ninf), dimensions={{1}}, to_apply=region_max",
    f"  mxb = f32[{nc}]{{1,0}} broadcast(mx), dimensions={{0}}",
    f"  sh = f32[{nc}]{{1,0}} subtract(logits, mxb)",
    f"  ex = f32[{nc}]{{1,0}} exponential(sh)",
    "  zero = f32[] constant(0)",
    f"  se = f32[{n}]{{0}} reduce(ex, zero), dimensions={{1}}, to_apply=region_add",
    f"  lse = f32[{n}]{{0}} log(se)",
    f"  lseb = f32[{nc}]{{1,0}} broadcast(lse), dimensions={{0}}",
    f"  logp = f32[{nc}]{{1,0}} subtract(sh, lseb)",
    f"  prod = f32[{nc}]{{1,0}} multiply(one_hot, logp)",
    "  tot = f32[] reduce(prod, zero), dimensions={0,1}, to_apply=region_add",
    f"  count = f32[] constant({n})",
    "  mean = f32[] divide(tot, count)",
]
loss = 'f32[] negate(mean), metadata={op_name="loss"}'
if form == "second":
    lines += [
        f"  loss = {loss}",
        f"  p = f32[{nc}]{{1,0}} exponential(logp)",
        f"  d = f32[{nc}]{{1,0}} subtract(p, one_hot)",
        f"  countb = f32[{nc}]{{1,0}} broadcast(count), dimensions={{}}",
        f'  grad = f32[{nc}]{{0,1}} divide(d, countb), metadata={{op_name="grad"}}',
        f"  ROOT out = (f32[], f32[{nc}]{{0,1}}) tuple(loss, grad)",
    ]
else:
    lines += [f"  ROOT loss = {loss}"]
lines += ["}"]
print("\n".join(lines))
