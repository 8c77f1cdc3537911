//===- OpsCommand.cpp - `tpuc ops`: the XLA op coverage table ---------------===//
//
// Prints docs/op-coverage.md: every opcode of XLA's HLO_OPCODE_LIST
// (xla/hlo/ir/hlo_opcode.h) against the three things tpuc does with it:
// import, interpret, compile. Nothing in the table is written by hand: each
// opcode has a small probe module, and each column is whether that stage
// runs on it, with the stage's own error message where it does not. A
// test diffs the output against the doc, so neither can drift.
//
//===----------------------------------------------------------------------===//

#include "driver/codegen/Codegen.h"
#include "driver/commands/Commands.h"
#include "compiler/hlo_text/HloParser.h"
#include "compiler/importer/HloImporter.h"
#include "compiler/importer/ModuleLoader.h"
#include "compiler/interpreter/Interpreter.h"
#include "runtime/hostio/RandomInputs.h"
#include "runtime/target/Targets.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cl = llvm::cl;

namespace tpuc::driver {
namespace {
cl::SubCommand opsSub("ops", "Print the XLA op coverage table "
                             "(docs/op-coverage.md), measured on probes");

/// How an opcode's probe is built: a unary or binary elementwise op on
/// f32[8,128] or s32[8,128] parameters, or a hand-written module.
enum class Shape { UnaryF, UnaryI, BinaryF, BinaryI, Text };

struct Probe {
  const char *opcode;
  Shape shape;
  /// For Shape::Text: the module after its `HloModule` line.
  const char *text = "";
};

#define ADD_COMPUTATION                                                        \
  "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"                \
  "  ROOT s = f32[] add(a, b)\n}\n"
#define GE_COMPUTATION                                                         \
  "ge {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"                 \
  "  ROOT c = pred[] compare(a, b), direction=GE\n}\n"
#define LT_COMPUTATION                                                         \
  "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"                 \
  "  ROOT c = pred[] compare(a, b), direction=LT\n}\n"
#define ENTRY_P(SHAPE) "ENTRY e {\n  p = " SHAPE " parameter(0)\n"
#define ENTRY_F ENTRY_P("f32[8,128]")

/// XLA's HLO_OPCODE_LIST, in its order (openxla/xla at 0725a3a9).
const Probe kProbes[] = {
    {"abs", Shape::UnaryF},
    {"acos", Shape::UnaryF},
    {"acosh", Shape::UnaryF},
    {"add", Shape::BinaryF},
    {"add-dependency", Shape::Text,
     ENTRY_F "  t = token[] after-all()\n"
             "  ROOT r = f32[8,128] add-dependency(p, t)\n}\n"},
    {"after-all", Shape::Text,
     ENTRY_F "  t = token[] after-all()\n"
             "  ROOT r = f32[8,128] add-dependency(p, t)\n}\n"},
    {"all-gather", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] all-gather(p), replica_groups={}, "
             "dimensions={0}\n}\n"},
    {"all-gather-done", Shape::Text,
     ENTRY_F "  s = (f32[8,128], f32[8,128]) all-gather-start(p), "
             "replica_groups={}, dimensions={0}\n"
             "  ROOT r = f32[8,128] all-gather-done(s)\n}\n"},
    {"all-gather-start", Shape::Text,
     ENTRY_F "  s = (f32[8,128], f32[8,128]) all-gather-start(p), "
             "replica_groups={}, dimensions={0}\n"
             "  ROOT r = f32[8,128] all-gather-done(s)\n}\n"},
    {"all-reduce", Shape::Text,
     ADD_COMPUTATION ENTRY_F
     "  ROOT r = f32[8,128] all-reduce(p), replica_groups={}, to_apply=add\n}\n"},
    {"all-reduce-done", Shape::Text,
     ADD_COMPUTATION ENTRY_F
     "  s = f32[8,128] all-reduce-start(p), replica_groups={}, to_apply=add\n"
     "  ROOT r = f32[8,128] all-reduce-done(s)\n}\n"},
    {"all-reduce-start", Shape::Text,
     ADD_COMPUTATION ENTRY_F
     "  s = f32[8,128] all-reduce-start(p), replica_groups={}, to_apply=add\n"
     "  ROOT r = f32[8,128] all-reduce-done(s)\n}\n"},
    {"all-to-all", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] all-to-all(p), replica_groups={}, "
             "dimensions={0}\n}\n"},
    {"and", Shape::BinaryI},
    {"asin", Shape::UnaryF},
    {"asinh", Shape::UnaryF},
    {"async-done", Shape::Text,
     "c {\n  x = f32[8,128] parameter(0)\n  ROOT n = f32[8,128] negate(x)\n}\n"
     ENTRY_F "  s = ((f32[8,128]), f32[8,128], s32[]) async-start(p), calls=c\n"
     "  ROOT r = f32[8,128] async-done(s)\n}\n"},
    {"async-start", Shape::Text,
     "c {\n  x = f32[8,128] parameter(0)\n  ROOT n = f32[8,128] negate(x)\n}\n"
     ENTRY_F "  s = ((f32[8,128]), f32[8,128], s32[]) async-start(p), calls=c\n"
     "  ROOT r = f32[8,128] async-done(s)\n}\n"},
    {"async-update", Shape::Text,
     "c {\n  x = f32[8,128] parameter(0)\n  ROOT n = f32[8,128] negate(x)\n}\n"
     ENTRY_F "  s = ((f32[8,128]), f32[8,128], s32[]) async-start(p), calls=c\n"
     "  u = ((f32[8,128]), f32[8,128], s32[]) async-update(s)\n"
     "  ROOT r = f32[8,128] async-done(u)\n}\n"},
    {"atan", Shape::UnaryF},
    {"atan2", Shape::BinaryF},
    {"atanh", Shape::UnaryF},
    {"batch-norm-grad", Shape::Text,
     "ENTRY e {\n  x = f32[8,4,4,16] parameter(0)\n  s = f32[16] parameter(1)\n"
     "  m = f32[16] parameter(2)\n  v = f32[16] parameter(3)\n"
     "  g = f32[8,4,4,16] parameter(4)\n"
     "  ROOT r = (f32[8,4,4,16], f32[16], f32[16]) batch-norm-grad(x, s, m, v, "
     "g), epsilon=0.001, feature_index=3\n}\n"},
    {"batch-norm-inference", Shape::Text,
     "ENTRY e {\n  x = f32[8,4,4,16] parameter(0)\n  s = f32[16] parameter(1)\n"
     "  o = f32[16] parameter(2)\n  m = f32[16] parameter(3)\n"
     "  v = f32[16] parameter(4)\n"
     "  ROOT r = f32[8,4,4,16] batch-norm-inference(x, s, o, m, v), "
     "epsilon=0.001, feature_index=3\n}\n"},
    {"batch-norm-training", Shape::Text,
     "ENTRY e {\n  x = f32[8,4,4,16] parameter(0)\n  s = f32[16] parameter(1)\n"
     "  o = f32[16] parameter(2)\n"
     "  ROOT r = (f32[8,4,4,16], f32[16], f32[16]) batch-norm-training(x, s, "
     "o), epsilon=0.001, feature_index=3\n}\n"},
    {"bitcast", Shape::Text,
     ENTRY_F "  ROOT r = f32[1024] bitcast(p)\n}\n"},
    {"bitcast-convert", Shape::Text,
     ENTRY_F "  ROOT r = s32[8,128] bitcast-convert(p)\n}\n"},
    {"broadcast", Shape::Text,
     ENTRY_P("f32[128]") "  ROOT r = f32[8,128] broadcast(p), dimensions={1}\n}\n"},
    {"call", Shape::Text,
     "c {\n  x = f32[8,128] parameter(0)\n  ROOT n = f32[8,128] negate(x)\n}\n"
     ENTRY_F "  ROOT r = f32[8,128] call(p), to_apply=c\n}\n"},
    {"cbrt", Shape::UnaryF},
    {"ceil", Shape::UnaryF},
    {"cholesky", Shape::Text,
     ENTRY_P("f32[8,8]") "  ROOT r = f32[8,8] cholesky(p), lower=true\n}\n"},
    {"clamp", Shape::Text,
     "ENTRY e {\n  lo = f32[8,128] parameter(0)\n  x = f32[8,128] parameter(1)\n"
     "  hi = f32[8,128] parameter(2)\n"
     "  ROOT r = f32[8,128] clamp(lo, x, hi)\n}\n"},
    {"count-leading-zeros", Shape::UnaryI},
    {"collective-broadcast", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] collective-broadcast(p), "
             "replica_groups={}\n}\n"},
    {"collective-permute", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] collective-permute(p), "
             "source_target_pairs={{0,0}}\n}\n"},
    {"collective-permute-done", Shape::Text,
     ENTRY_F "  s = (f32[8,128], f32[8,128]) collective-permute-start(p), "
             "source_target_pairs={{0,0}}\n"
             "  ROOT r = f32[8,128] collective-permute-done(s)\n}\n"},
    {"collective-permute-start", Shape::Text,
     ENTRY_F "  s = (f32[8,128], f32[8,128]) collective-permute-start(p), "
             "source_target_pairs={{0,0}}\n"
             "  ROOT r = f32[8,128] collective-permute-done(s)\n}\n"},
    {"collective-reduce", Shape::Text,
     ADD_COMPUTATION ENTRY_F "  ROOT r = f32[8,128] collective-reduce(p), "
                             "replica_groups={}, to_apply=add\n}\n"},
    {"compare", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n  b = f32[8,128] parameter(1)\n"
     "  c = pred[8,128] compare(a, b), direction=LT, type=TOTALORDER\n"
     "  ROOT r = f32[8,128] select(c, a, b)\n}\n"},
    {"complex", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n  b = f32[8,128] parameter(1)\n"
     "  ROOT r = c64[8,128] complex(a, b)\n}\n"},
    {"concatenate", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n  b = f32[8,128] parameter(1)\n"
     "  ROOT r = f32[16,128] concatenate(a, b), dimensions={0}\n}\n"},
    {"conditional", Shape::Text,
     "t {\n  x = f32[8,128] parameter(0)\n  ROOT n = f32[8,128] negate(x)\n}\n"
     "f {\n  x = f32[8,128] parameter(0)\n  ROOT n = f32[8,128] abs(x)\n}\n"
     "ENTRY e {\n  i = s32[] parameter(0)\n  p = f32[8,128] parameter(1)\n"
     "  ROOT r = f32[8,128] conditional(i, p, p), "
     "branch_computations={t, f}\n}\n"},
    {"constant", Shape::Text,
     ENTRY_F "  c = f32[] constant(2)\n"
             "  b = f32[8,128] broadcast(c), dimensions={}\n"
             "  ROOT r = f32[8,128] multiply(p, b)\n}\n"},
    {"convert", Shape::Text,
     ENTRY_F "  ROOT r = bf16[8,128] convert(p)\n}\n"},
    {"convolution", Shape::Text,
     "ENTRY e {\n  x = f32[1,8,8,16] parameter(0)\n"
     "  w = f32[3,3,16,128] parameter(1)\n"
     "  ROOT r = f32[1,8,8,128] convolution(x, w), "
     "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n}\n"},
    {"copy", Shape::UnaryF},
    {"copy-done", Shape::Text,
     ENTRY_F "  s = (f32[8,128], f32[8,128], u32[]) copy-start(p)\n"
             "  ROOT r = f32[8,128] copy-done(s)\n}\n"},
    {"copy-start", Shape::Text,
     ENTRY_F "  s = (f32[8,128], f32[8,128], u32[]) copy-start(p)\n"
             "  ROOT r = f32[8,128] copy-done(s)\n}\n"},
    {"cosine", Shape::UnaryF},
    {"cosh", Shape::UnaryF},
    {"custom-call", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] custom-call(p), "
             "custom_call_target=\"Sharding\", sharding={replicated}\n}\n"},
    {"divide", Shape::BinaryF},
    {"domain", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] domain(p), domain={kind=\"sharding\", "
             "entry={maximal device=0}, exit={maximal device=0}}\n}\n"},
    {"dot", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n  b = f32[128,128] parameter(1)\n"
     "  ROOT r = f32[8,128] dot(a, b), lhs_contracting_dims={1}, "
     "rhs_contracting_dims={0}\n}\n"},
    {"dynamic-reshape", Shape::Text,
     ENTRY_F "  d = s32[] constant(1024)\n"
             "  ROOT r = f32[1024] dynamic-reshape(p, d)\n}\n"},
    {"dynamic-slice", Shape::Text,
     ENTRY_F "  i = s32[] constant(3)\n  j = s32[] constant(0)\n"
             "  ROOT r = f32[4,128] dynamic-slice(p, i, j), "
             "dynamic_slice_sizes={4,128}\n}\n"},
    {"dynamic-update-slice", Shape::Text,
     ENTRY_F "  u = f32[4,128] parameter(1)\n  i = s32[] constant(3)\n"
             "  j = s32[] constant(0)\n"
             "  ROOT r = f32[8,128] dynamic-update-slice(p, u, i, j)\n}\n"},
    {"erf", Shape::UnaryF},
    {"exponential", Shape::UnaryF},
    {"exponential-minus-one", Shape::UnaryF},
    {"fft", Shape::Text,
     ENTRY_P("c64[8,128]") "  ROOT r = c64[8,128] fft(p), fft_type=FFT, "
                           "fft_length={128}\n}\n"},
    {"floor", Shape::UnaryF},
    {"fusion", Shape::Text,
     "f {\n  x = f32[8,128] parameter(0)\n  n = f32[8,128] negate(x)\n"
     "  ROOT m = f32[8,128] multiply(n, x)\n}\n"
     ENTRY_F "  ROOT r = f32[8,128] fusion(p), kind=kLoop, calls=f\n}\n"},
    {"gather", Shape::Text,
     "ENTRY e {\n  t = f32[64,128] parameter(0)\n  i = s32[8,1] parameter(1)\n"
     "  ROOT r = f32[8,128] gather(t, i), offset_dims={1}, "
     "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
     "slice_sizes={1,128}\n}\n"},
    {"get-dimension-size", Shape::Text,
     ENTRY_F "  ROOT r = s32[] get-dimension-size(p), dimensions={1}\n}\n"},
    {"get-tuple-element", Shape::Text,
     ENTRY_F "  t = (f32[8,128], f32[8,128]) tuple(p, p)\n"
             "  ROOT r = f32[8,128] get-tuple-element(t), index=1\n}\n"},
    {"imag", Shape::Text,
     ENTRY_P("c64[8,128]") "  ROOT r = f32[8,128] imag(p)\n}\n"},
    {"infeed", Shape::Text,
     "ENTRY e {\n  t = token[] after-all()\n"
     "  i = (f32[8,128], token[]) infeed(t)\n"
     "  ROOT r = f32[8,128] get-tuple-element(i), index=0\n}\n"},
    {"iota", Shape::Text,
     "ENTRY e {\n  ROOT r = s32[8,128] iota(), iota_dimension=1\n}\n"},
    {"is-finite", Shape::Text,
     ENTRY_F "  f = pred[8,128] is-finite(p)\n"
             "  ROOT r = f32[8,128] select(f, p, p)\n}\n"},
    {"log", Shape::UnaryF},
    {"log-plus-one", Shape::UnaryF},
    {"logistic", Shape::UnaryF},
    {"map", Shape::Text,
     ADD_COMPUTATION "ENTRY e {\n  a = f32[8,128] parameter(0)\n"
                     "  b = f32[8,128] parameter(1)\n"
                     "  ROOT r = f32[8,128] map(a, b), dimensions={0,1}, "
                     "to_apply=add\n}\n"},
    {"maximum", Shape::BinaryF},
    {"minimum", Shape::BinaryF},
    {"mulhi", Shape::BinaryI},
    {"multiply", Shape::BinaryF},
    {"negate", Shape::UnaryF},
    {"not", Shape::UnaryI},
    {"opt-barrier", Shape::Text,
     ENTRY_F "  t = (f32[8,128]) tuple(p)\n"
             "  b = (f32[8,128]) opt-barrier(t)\n"
             "  ROOT r = f32[8,128] get-tuple-element(b), index=0\n}\n"},
    {"or", Shape::BinaryI},
    {"outfeed", Shape::Text,
     ENTRY_F "  t = token[] after-all()\n"
             "  o = token[] outfeed(p, t), outfeed_shape=f32[8,128]\n"
             "  ROOT r = f32[8,128] add-dependency(p, o)\n}\n"},
    {"pad", Shape::Text,
     ENTRY_F "  z = f32[] constant(0)\n"
             "  ROOT r = f32[16,128] pad(p, z), padding=4_4x0_0\n}\n"},
    {"parameter", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] copy(p)\n}\n"},
    {"partition-id", Shape::Text,
     "ENTRY e {\n  ROOT r = u32[] partition-id()\n}\n"},
    {"popcnt", Shape::UnaryI},
    {"power", Shape::BinaryF},
    {"ragged-all-to-all", Shape::Text,
     ENTRY_F "  o = f32[8,128] parameter(1)\n  a = s32[1] parameter(2)\n"
             "  ROOT r = f32[8,128] ragged-all-to-all(p, o, a, a, a, a), "
             "replica_groups={{0}}\n}\n"},
    {"ragged-dot", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n"
     "  b = f32[2,128,128] parameter(1)\n  g = s32[2] parameter(2)\n"
     "  ROOT r = f32[8,128] ragged-dot(a, b, g), lhs_contracting_dims={1}, "
     "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}\n}\n"},
    {"real", Shape::Text,
     ENTRY_P("c64[8,128]") "  ROOT r = f32[8,128] real(p)\n}\n"},
    {"recv", Shape::Text,
     "ENTRY e {\n  t = token[] after-all()\n"
     "  r = (f32[8,128], u32[], token[]) recv(t), channel_id=1\n"
     "  d = (f32[8,128], token[]) recv-done(r), channel_id=1\n"
     "  ROOT v = f32[8,128] get-tuple-element(d), index=0\n}\n"},
    {"recv-done", Shape::Text,
     "ENTRY e {\n  t = token[] after-all()\n"
     "  r = (f32[8,128], u32[], token[]) recv(t), channel_id=1\n"
     "  d = (f32[8,128], token[]) recv-done(r), channel_id=1\n"
     "  ROOT v = f32[8,128] get-tuple-element(d), index=0\n}\n"},
    {"reduce", Shape::Text,
     ADD_COMPUTATION ENTRY_F "  z = f32[] constant(0)\n"
                             "  ROOT r = f32[8] reduce(p, z), dimensions={1}, "
                             "to_apply=add\n}\n"},
    {"reduce-precision", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] reduce-precision(p), exponent_bits=8, "
             "mantissa_bits=7\n}\n"},
    {"reduce-scatter", Shape::Text,
     ADD_COMPUTATION ENTRY_F "  ROOT r = f32[8,128] reduce-scatter(p), "
                             "replica_groups={}, dimensions={0}, "
                             "to_apply=add\n}\n"},
    {"reduce-window", Shape::Text,
     ADD_COMPUTATION
     "ENTRY e {\n  p = f32[1,16,16,128] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[1,8,8,128] reduce-window(p, z), "
     "window={size=1x2x2x1 stride=1x2x2x1}, to_apply=add\n}\n"},
    {"remainder", Shape::BinaryF},
    {"replica-id", Shape::Text,
     "ENTRY e {\n  ROOT r = u32[] replica-id()\n}\n"},
    {"reshape", Shape::Text,
     ENTRY_F "  ROOT r = f32[4,256] reshape(p)\n}\n"},
    {"reverse", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] reverse(p), dimensions={0}\n}\n"},
    {"rng", Shape::Text,
     "ENTRY e {\n  a = f32[] constant(0)\n  b = f32[] constant(1)\n"
     "  ROOT r = f32[8,128] rng(a, b), distribution=rng_uniform\n}\n"},
    {"rng-bit-generator", Shape::Text,
     "ENTRY e {\n  s = u64[2] parameter(0)\n"
     "  ROOT r = (u64[2], u32[8,128]) rng-bit-generator(s), "
     "algorithm=rng_default\n}\n"},
    {"rng-get-and-update-state", Shape::Text,
     "ENTRY e {\n  ROOT r = u64[2] rng-get-and-update-state(), delta=1\n}\n"},
    {"round-nearest-afz", Shape::UnaryF},
    {"round-nearest-even", Shape::UnaryF},
    {"rsqrt", Shape::UnaryF},
    {"scaled-dot", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n  b = f32[128,128] parameter(1)\n"
     "  sa = f32[8,4] parameter(2)\n  sb = f32[4,128] parameter(3)\n"
     "  ROOT r = f32[8,128] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, "
     "rhs_contracting_dims={0}\n}\n"},
    {"scan", Shape::Text,
     "step {\n  x = f32[128] parameter(0)\n  c = f32[128] parameter(1)\n"
     "  s = f32[128] add(c, x)\n"
     "  ROOT t = (f32[128], f32[128]) tuple(s, s)\n}\n" ENTRY_F
     "  z = f32[] constant(0)\n  i = f32[128] broadcast(z), dimensions={}\n"
     "  ROOT r = (f32[8,128], f32[128]) scan(p, i), dimensions={0}, "
     "is_reverse=false, to_apply=step\n}\n"},
    {"scatter", Shape::Text,
     ADD_COMPUTATION
     "ENTRY e {\n  t = f32[64,128] parameter(0)\n  i = s32[8,1] parameter(1)\n"
     "  u = f32[8,128] parameter(2)\n"
     "  ROOT r = f32[64,128] scatter(t, i, u), update_window_dims={1}, "
     "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
     "index_vector_dim=1, to_apply=add\n}\n"},
    {"select", Shape::Text,
     "ENTRY e {\n  a = f32[8,128] parameter(0)\n  b = f32[8,128] parameter(1)\n"
     "  c = pred[8,128] compare(a, b), direction=GT\n"
     "  ROOT r = f32[8,128] select(c, a, b)\n}\n"},
    {"select-and-scatter", Shape::Text,
     GE_COMPUTATION ADD_COMPUTATION
     "ENTRY e {\n  x = f32[1,16,16,128] parameter(0)\n"
     "  s = f32[1,8,8,128] parameter(1)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[1,16,16,128] select-and-scatter(x, s, z), "
     "window={size=1x2x2x1 stride=1x2x2x1}, select=ge, scatter=add\n}\n"},
    {"send", Shape::Text,
     ENTRY_F "  t = token[] after-all()\n"
             "  s = (f32[8,128], u32[], token[]) send(p, t), channel_id=1\n"
             "  d = token[] send-done(s), channel_id=1\n"
             "  ROOT r = f32[8,128] add-dependency(p, d)\n}\n"},
    {"send-done", Shape::Text,
     ENTRY_F "  t = token[] after-all()\n"
             "  s = (f32[8,128], u32[], token[]) send(p, t), channel_id=1\n"
             "  d = token[] send-done(s), channel_id=1\n"
             "  ROOT r = f32[8,128] add-dependency(p, d)\n}\n"},
    {"set-dimension-size", Shape::Text,
     ENTRY_F "  d = s32[] constant(128)\n"
             "  ROOT r = f32[8,128] set-dimension-size(p, d), dimensions={1}\n}\n"},
    {"shift-left", Shape::BinaryI},
    {"shift-right-arithmetic", Shape::BinaryI},
    {"shift-right-logical", Shape::BinaryI},
    {"shuffle", Shape::Text,
     ENTRY_F "  ROOT r = f32[8,128] shuffle(p), dimensions={0,1}, "
             "mode=rotate, shifts={3,-5}\n}\n"},
    {"sign", Shape::UnaryF},
    {"sine", Shape::UnaryF},
    {"sinh", Shape::UnaryF},
    {"slice", Shape::Text,
     ENTRY_F "  ROOT r = f32[4,128] slice(p), slice={[2:6], [0:128]}\n}\n"},
    {"sort", Shape::Text,
     LT_COMPUTATION ENTRY_F "  ROOT r = f32[8,128] sort(p), dimensions={1}, "
                            "is_stable=true, to_apply=lt\n}\n"},
    {"sqrt", Shape::UnaryF},
    {"stochastic-convert", Shape::Text,
     ENTRY_F "  r = u32[8,128] parameter(1)\n"
             "  ROOT c = s32[8,128] stochastic-convert(p, r)\n}\n"},
    {"subtract", Shape::BinaryF},
    {"tan", Shape::UnaryF},
    {"tanh", Shape::UnaryF},
    {"topk", Shape::Text,
     ENTRY_F "  ROOT r = (f32[8,4], s32[8,4]) topk(p), k=4, largest=true\n}\n"},
    {"transpose", Shape::Text,
     ENTRY_F "  ROOT r = f32[128,8] transpose(p), dimensions={1,0}\n}\n"},
    {"triangular-solve", Shape::Text,
     "ENTRY e {\n  a = f32[8,8] parameter(0)\n  b = f32[8,128] parameter(1)\n"
     "  ROOT r = f32[8,128] triangular-solve(a, b), left_side=true, "
     "lower=true, transpose_a=NO_TRANSPOSE\n}\n"},
    {"tuple", Shape::Text,
     ENTRY_F "  ROOT r = (f32[8,128], f32[8,128]) tuple(p, p)\n}\n"},
    {"while", Shape::Text,
     "c {\n  s = (s32[], f32[8,128]) parameter(0)\n"
     "  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(3)\n"
     "  ROOT l = pred[] compare(i, n), direction=LT\n}\n"
     "b {\n  s = (s32[], f32[8,128]) parameter(0)\n"
     "  i = s32[] get-tuple-element(s), index=0\n"
     "  x = f32[8,128] get-tuple-element(s), index=1\n"
     "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
     "  y = f32[8,128] add(x, x)\n"
     "  ROOT t = (s32[], f32[8,128]) tuple(j, y)\n}\n"
     ENTRY_F "  z = s32[] constant(0)\n"
             "  t = (s32[], f32[8,128]) tuple(z, p)\n"
             "  w = (s32[], f32[8,128]) while(t), condition=c, body=b\n"
             "  ROOT r = f32[8,128] get-tuple-element(w), index=1\n}\n"},
    {"xor", Shape::BinaryI},
};

std::string probeText(const Probe &probe) {
  std::string text = "HloModule probe\n";
  if (probe.shape == Shape::Text)
    return text + probe.text;
  bool isFloat = probe.shape == Shape::UnaryF || probe.shape == Shape::BinaryF;
  bool isBinary = probe.shape == Shape::BinaryF || probe.shape == Shape::BinaryI;
  std::string type = isFloat ? "f32[8,128]" : "s32[8,128]";
  text += "ENTRY e {\n  a = " + type + " parameter(0)\n";
  if (isBinary)
    text += "  b = " + type + " parameter(1)\n";
  text += "  ROOT r = " + type + " " + probe.opcode +
          (isBinary ? "(a, b)\n}\n" : "(a)\n}\n");
  return text;
}

/// One stage's outcome: ok, or the first error it reported.
struct Outcome {
  bool ok = false;
  bool ran = false;
  std::string error;
};

/// A table cell's text: no line breaks or pipes, bounded length.
std::string cellText(llvm::StringRef message) {
  std::string text;
  for (char c : message) {
    if (c == '\n')
      break;
    text += c == '|' ? '/' : c;
  }
  if (text.size() > 160)
    text = text.substr(0, 157) + "...";
  return text;
}

struct Row {
  Outcome import, interpret, compile;
};

Row measure(const Probe &probe, const target::TargetSpec &target) {
  Row row;
  mlir::DialectRegistry registry;
  registerInputDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  std::string firstError;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
        firstError.empty())
      firstError = diag.str();
    return mlir::success();
  });
  auto stage = [&](Outcome &outcome, bool ok) {
    outcome.ran = true;
    outcome.ok = ok;
    if (!ok)
      outcome.error = firstError.empty() ? "failed" : firstError;
    firstError.clear();
    return ok;
  };

  std::string text = probeText(probe);
  llvm::Expected<hlo_text::Module> parsed =
      hlo_text::parseHloModule(text, "probe.hlo");
  if (!parsed) {
    stage(row.import, false);
    row.import.error = llvm::toString(parsed.takeError());
    return row;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importHloModule(*parsed, "probe.hlo", context);
  if (!stage(row.import, module && mlir::succeeded(verifyNoRecursion(*module))))
    return row;

  auto entry = module->lookupSymbol<mlir::func::FuncOp>("e");
  std::vector<interpreter::Tensor> args;
  bool inputsOk = true;
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::optional<interpreter::TensorSpec> spec =
        interpreter::tensorSpecOf(type);
    absl::StatusOr<hostio::HostArray> array =
        spec ? hostio::randomInput(
                   1, i, spec->dtype,
                   std::vector<int64_t>(spec->shape.begin(), spec->shape.end()))
             : absl::InvalidArgumentError("not an array parameter");
    if (!array.ok()) {
      firstError = std::string(array.status().message());
      inputsOk = false;
      break;
    }
    args.push_back(interpreter::Tensor::fromHostArray(*array));
  }
  interpreter::InterpreterOptions options;
  options.numThreads = 1;
  options.maxOps = 1000000;
  stage(row.interpret,
        inputsOk && mlir::succeeded(interpreter::interpret(entry, args, options)));

  mlir::PassManager pm(&context);
  pm.addPass(mlir::createInlinerPass());
  stage(row.compile, mlir::succeeded(pm.run(*module)) &&
                         mlir::succeeded(codegen::lowerToTpu(*module, target)));
  return row;
}

std::string cell(const Outcome &outcome) {
  return !outcome.ran ? "-" : outcome.ok ? "yes" : "no";
}

int runOps() {
  absl::StatusOr<target::TargetSpec> target =
      target::lookupTarget(target::kDefaultTarget);
  if (!target.ok()) {
    llvm::errs() << "tpuc ops: " << std::string(target.status().message())
                 << "\n";
    return 1;
  }
  std::vector<Row> rows;
  int imported = 0, interpreted = 0, compiled = 0;
  for (const Probe &probe : kProbes) {
    rows.push_back(measure(probe, *target));
    imported += rows.back().import.ok;
    interpreted += rows.back().interpret.ok;
    compiled += rows.back().compile.ok;
  }
  int total = static_cast<int>(rows.size());
  llvm::raw_ostream &os = llvm::outs();
  os << "# XLA op coverage\n\n"
     << "Generated by `tpuc ops` (driver/commands/OpsCommand.cpp); do not "
        "edit. Every opcode of XLA's\n"
     << "`HLO_OPCODE_LIST` (xla/hlo/ir/hlo_opcode.h) has a small probe "
        "module (f32[8,128] operands\n"
     << "where the op allows; s32 for integer ops). A column is `yes` when "
        "that stage runs the probe:\n"
     << "`import` reads it (`tpuc import`), `interpret` runs it on random "
        "inputs (`tpuc interpret`),\n"
     << "`compile` lowers it to the tpu dialect for " << target::kDefaultTarget
     << " (`tpuc compile`). `-`: not tried\n"
     << "because the import failed. The last column is the first error of "
        "each stage that failed,\n"
     << "verbatim. `test/tools/ops.test` fails when this file and "
        "the code disagree;\n"
     << "regenerate it with `tpuc ops > docs/op-coverage.md`.\n\n"
     << "Totals: import " << imported << "/" << total << ", interpret "
     << interpreted << "/" << total << ", compile " << compiled << "/"
     << total << ".\n\n"
     << "| opcode | import | interpret | compile | first error |\n"
     << "|---|---|---|---|---|\n";
  for (auto [probe, row] : llvm::zip(kProbes, rows)) {
    // Interpret and compile both run after a successful import: show
    // each one's error.
    std::string notes;
    if (!row.import.ok)
      notes = cellText(row.import.error);
    if (row.interpret.ran && !row.interpret.ok)
      notes = "interpret: " + cellText(row.interpret.error);
    if (row.compile.ran && !row.compile.ok)
      notes += (notes.empty() ? "" : "; ") + std::string("compile: ") +
               cellText(row.compile.error);
    os << "| `" << probe.opcode << "` | " << cell(row.import) << " | "
       << cell(row.interpret) << " | " << cell(row.compile) << " | " << notes
       << " |\n";
  }
  return 0;
}
} // namespace

Command opsCommand{opsSub, runOps};

} // namespace tpuc::driver
