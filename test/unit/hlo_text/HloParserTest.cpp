//===- HloParserTest.cpp - HLO text parser --------------------------------===//

#include "compiler/hlo_text/HloParser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace tpuc::hlo_text;

namespace {

const std::string kCorpus = TPUC_HLO_CORPUS_DIR;

Module parseOk(llvm::StringRef text) {
  llvm::Expected<Module> module = parseHloModule(text, "t.hlo");
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError());
    return Module();
  }
  return std::move(*module);
}

Module parseCorpus(const std::string &name) {
  llvm::Expected<Module> module = parseHloModuleFile(kCorpus + "/" + name);
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError());
    return Module();
  }
  return std::move(*module);
}

/// "line:col: message" of a failed parse.
std::string parseError(llvm::StringRef text) {
  llvm::Expected<Module> module = parseHloModule(text, "t.hlo");
  if (module) {
    ADD_FAILURE() << "parsed:\n" << text.str();
    return "";
  }
  std::string result;
  llvm::handleAllErrors(module.takeError(), [&](const HloParseError &error) {
    result = std::to_string(error.getLoc().line) + ":" +
             std::to_string(error.getLoc().column) + ": " +
             error.getMessage();
  });
  return result;
}

#define SKIP_WITHOUT_CORPUS()                                                  \
  if (!std::filesystem::is_directory(kCorpus))                                 \
  GTEST_SKIP() << "no corpus at " << kCorpus

size_t countOpcode(const Computation &computation, llvm::StringRef opcode) {
  return llvm::count_if(computation.instructions, [&](const Instruction &i) {
    return i.opcode == opcode;
  });
}

TEST(HloCorpus, EveryFileParses) {
  SKIP_WITHOUT_CORPUS();
  int files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(kCorpus)) {
    if (entry.path().extension() != ".hlo")
      continue;
    ++files;
    llvm::Expected<Module> module = parseHloModuleFile(entry.path().string());
    EXPECT_TRUE(static_cast<bool>(module))
        << entry.path() << ": "
        << (module ? "" : llvm::toString(module.takeError()));
  }
  EXPECT_GE(files, 13);
}

TEST(HloCorpus, ResNet50) {
  SKIP_WITHOUT_CORPUS();
  Module module = parseCorpus("resnet50_keras_jax_f32.hlo");
  EXPECT_EQ(module.name, "jit_predict_step");
  EXPECT_EQ(module.computations.size(), 16u);
  const Computation &entry = module.entry();
  EXPECT_EQ(entry.name, "main.16");
  EXPECT_EQ(entry.instructions.size(), 1699u);
  EXPECT_EQ(entry.signatureParams.size(), 321u);
  EXPECT_EQ(entry.signatureParams.back().name, "data.1");
  EXPECT_EQ(entry.signatureParams.back().shape.toString(), "f32[1,224,224,3]");
  EXPECT_EQ(entry.signatureResult.tupleElements.size(), 321u);
  EXPECT_EQ(countOpcode(entry, "convolution"), 53u);
  EXPECT_EQ(countOpcode(entry, "parameter"), 321u);
  EXPECT_EQ(entry.root().opcode, "tuple");
  EXPECT_EQ(entry.root().operands.size(), 321u);

  const Instruction *conv = entry.findInstruction("conv_general_dilated.53");
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->shape.toString(), "f32[1,112,112,64]{3,2,1,0}");
  EXPECT_EQ(conv->operands[1].name, "state_0__0_.1");
  const Attribute *window = conv->attr("window");
  ASSERT_TRUE(window);
  EXPECT_EQ(window->raw, "{size=7x7 stride=2x2}");
  ASSERT_EQ(window->window.size(), 2u);
  EXPECT_EQ(window->window[0].size, 7);
  EXPECT_EQ(window->window[1].stride, 2);
  EXPECT_EQ(window->window[1].padLow, 0);
  const ConvDimLabels &labels = conv->attr("dim_labels")->dimLabels;
  EXPECT_EQ(labels.inputBatch, 0);
  EXPECT_EQ(labels.inputFeature, 3);
  EXPECT_EQ(labels.inputSpatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(labels.kernelSpatial, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(labels.kernelInputFeature, 2);
  EXPECT_EQ(labels.kernelOutputFeature, 3);
  EXPECT_EQ(labels.outputFeature, 3);
  ASSERT_TRUE(conv->metadata());
  EXPECT_EQ(conv->metadata()->opName,
            "jit(predict_step)/conv1_conv/conv_general_dilated");
  EXPECT_EQ(conv->metadata()->stackFrameId, 38);
  EXPECT_EQ(conv->loc.line, 109u);
  EXPECT_EQ(conv->loc.column, 3u);

  const Attribute *pool = entry.findInstruction("reduce_window_max.7")
                              ->attr("window");
  EXPECT_EQ(pool->window[1].size, 3);
  EXPECT_EQ(pool->window[2].stride, 2);
  EXPECT_EQ(entry.findInstruction("reduce_window_max.7")
                ->attr("to_apply")
                ->names,
            (std::vector<std::string>{"region_0.4"}));

  const Instruction &pad = module.computations[0].root();
  EXPECT_EQ(pad.opcode, "pad");
  const std::vector<PadDim> &padding = pad.attr("padding")->padding;
  ASSERT_EQ(padding.size(), 4u);
  EXPECT_EQ(padding[1].low, 3);
  EXPECT_EQ(padding[2].high, 3);

  EXPECT_EQ(module.inputOutputAliases.size(), 320u);
  EXPECT_EQ(module.inputOutputAliases[0].outputIndex,
            (std::vector<int64_t>{1}));
  EXPECT_EQ(module.inputOutputAliases[0].parameterNumber, 0);
  EXPECT_EQ(module.inputOutputAliases[0].kind, "may-alias");
  ASSERT_TRUE(module.entryComputationLayout);
  EXPECT_EQ(module.entryComputationLayout->parameters.size(), 321u);

  const Instruction *negInf = entry.findInstruction("constant.29");
  ASSERT_TRUE(negInf && negInf->literal);
  ASSERT_EQ(negInf->literal->values.size(), 1u);
  EXPECT_TRUE(std::isinf(negInf->literal->values[0].floatValue));
  EXPECT_LT(negInf->literal->values[0].floatValue, 0);
}

TEST(HloCorpus, LayerNormEntryLayout) {
  SKIP_WITHOUT_CORPUS();
  Module module = parseCorpus("layer_norm_1x4096x768_bf16.hlo");
  ASSERT_TRUE(module.entryComputationLayout);
  const ComputationLayout &layout = *module.entryComputationLayout;
  ASSERT_EQ(layout.parameters.size(), 1u);
  EXPECT_EQ(layout.parameters[0].elementType, ElementType::BF16);
  EXPECT_EQ(layout.parameters[0].dims, (std::vector<int64_t>{1, 4096, 768}));
  EXPECT_EQ(layout.parameters[0].layout->minorToMajor,
            (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(layout.result.toString(), "bf16[1,4096,768]{2,1,0}");
  EXPECT_FALSE(module.entry().hasSignature);
  EXPECT_EQ(module.entry().root().opcode, "divide");
  const Instruction *reduce = module.entry().findInstruction("reduce_sum.14");
  EXPECT_EQ(reduce->attr("dimensions")->ints, (std::vector<int64_t>{2}));
}

TEST(HloCorpus, DlrmGathersAndAliases) {
  SKIP_WITHOUT_CORPUS();
  Module module = parseCorpus("dlrm_keras_jax_f32_test_step.hlo");
  EXPECT_EQ(module.inputOutputAliases.size(), 21u);
  EXPECT_EQ(module.inputOutputAliases[0].parameterNumber, 17);
  EXPECT_EQ(module.entry().root().operands.size(), 23u);
  const Instruction *elided = module.entry().findInstruction("constant.88");
  ASSERT_TRUE(elided && elided->literal);
  EXPECT_EQ(elided->literal->kind, Literal::Kind::Elided);
  const Instruction *array = module.entry().findInstruction("constant.89");
  ASSERT_EQ(array->literal->values.size(), 1u);
  EXPECT_EQ(array->literal->values[0].intValue, 3616);
  size_t gathers = 0;
  for (const Computation &c : module.computations)
    for (const Instruction &i : c.instructions)
      if (i.opcode == "gather") {
        ++gathers;
        EXPECT_EQ(i.attr("slice_sizes")->kind, AttrKind::IntList);
        EXPECT_EQ(i.attr("index_vector_dim")->kind, AttrKind::Int);
      }
  EXPECT_GT(gathers, 0u);
}

TEST(HloCorpus, GraphSageElidedConstantsAndAttributes) {
  SKIP_WITHOUT_CORPUS();
  Module module = parseCorpus("graphsage_tf.hlo");
  const Computation &entry = module.entry();
  const Instruction *table = entry.findInstruction("embedding_lookup.2");
  EXPECT_EQ(table->literal->kind, Literal::Kind::Elided);
  EXPECT_EQ(table->metadata()->sourceLine, 10);
  EXPECT_EQ(table->metadata()->opType, "GatherV2");
  const Instruction *dot = entry.findInstruction("MatMul_1.10");
  EXPECT_EQ(dot->attr("frontend_attributes")->stringMap,
            (StringPairs{{"grad_x", "false"}, {"grad_y", "false"}}));
  EXPECT_EQ(entry.findInstruction("arg2.1")->attr("parameter_replication")->raw,
            "{false}");
  EXPECT_EQ(module.attr("alias_passthrough_params")->kind, AttrKind::Bool);
}

TEST(HloCorpus, ScanStackFramesAndWhile) {
  SKIP_WITHOUT_CORPUS();
  Module module = parseCorpus("bench_scan_N2000_M3.hlo");
  EXPECT_EQ(module.stackFrameIndex.fileNames.size(), 3u);
  EXPECT_EQ(module.stackFrameIndex.fileNames[1], "<embedded module '_launcher'>");
  EXPECT_EQ(module.stackFrameIndex.stackFrames.size(), 11u);
  std::optional<SourceLocation> where = module.sourceLocation(11);
  ASSERT_TRUE(where);
  EXPECT_EQ(where->file, "jax_tests/example_b.py");
  EXPECT_EQ(where->function, "scan_N2000_M3");
  EXPECT_EQ(where->line, 11);
  EXPECT_FALSE(module.sourceLocation(12));
  const Instruction *loop = module.entry().findInstruction("while.6");
  EXPECT_EQ(loop->attr("condition")->names[0], "region_1.3");
  EXPECT_EQ(loop->attr("body")->names[0], "region_0.2");
  EXPECT_EQ(module.attr("allow_spmd_sharding_propagation_to_output")->raw,
            "{true,true}");
  const Instruction *slice =
      module.findComputation("region_0.2")->findInstruction("dynamic_slice.1");
  EXPECT_EQ(slice->attr("dynamic_slice_sizes")->ints,
            (std::vector<int64_t>{1, 3}));
}

TEST(HloCorpus, FusionBackendConfigAndImplicitRoot) {
  SKIP_WITHOUT_CORPUS();
  Module module = parseCorpus("xnn.parallel_dots.optimized.hlo");
  const Instruction *fusion = module.entry().findInstruction("f0");
  EXPECT_EQ(fusion->attr("kind")->stringValue, "kCustom");
  EXPECT_EQ(fusion->attr("calls")->names[0], "ynn_fusion_0");
  EXPECT_EQ(fusion->attr("backend_config")->raw,
            "{\"fusion_config\": {kind: \"__ynn_fusion\"}}");
  Module topk = parseCorpus("topk_logits_k10_1x50000_bf16.hlo");
  EXPECT_EQ(topk.entry().rootIndex, 2u);
  const Instruction &op = topk.entry().instructions[1];
  EXPECT_EQ(op.attr("k")->intValue, 10);
  EXPECT_TRUE(op.attr("largest")->boolValue);
  EXPECT_EQ(op.shape.toString(), "(bf16[1,10]{1,0}, s32[1,10]{1,0})");
  Module sort = parseCorpus("sort_full_1024x4096_bf16.hlo");
  const Instruction &compare = sort.computations[0].root();
  EXPECT_EQ(compare.attr("direction")->stringValue, "LT");
  EXPECT_EQ(compare.attr("type")->stringValue, "TOTALORDER");
  EXPECT_TRUE(std::isnan(
      sort.computations[0].instructions[2].literal->values[0].floatValue));
}

TEST(HloSyntax, ShapesAndLayouts) {
  Module module = parseOk(R"(
HloModule m, is_scheduled=true, buffer_donor={ (0, {}), (1, {1}) }
// a line comment
ENTRY %e (p: (f32[8,128]{1,0:T(8,128)(2,1)}, s32[<=5,?])) -> () {
  %p = (f32[8,128]{1,0:T(8,128)(2,1)S(1)}, s32[<=5,?]) parameter(0)
  %a = bf16[256]{0:T(256)E(16)} constant({...})
  %s = f32[]{:T(256)} constant(1.5e-3)
  %t = token[] after-all()
  %n = (f32[], (s32[], pred[])) tuple()
  ROOT %r = () tuple()
}, execution_thread="main"
)");
  const Computation &entry = module.entry();
  EXPECT_TRUE(module.isScheduled);
  ASSERT_EQ(module.bufferDonors.size(), 2u);
  EXPECT_EQ(module.bufferDonors[1].parameterIndex, (std::vector<int64_t>{1}));
  const Shape &p = entry.instructions[0].shape;
  ASSERT_TRUE(p.isTuple());
  const Layout &tiled = *p.tupleElements[0].layout;
  EXPECT_EQ(tiled.tiles,
            (std::vector<std::vector<int64_t>>{{8, 128}, {2, 1}}));
  EXPECT_EQ(tiled.memorySpace, 1);
  EXPECT_EQ(p.tupleElements[1].dims, (std::vector<int64_t>{5, kUnboundedDim}));
  EXPECT_EQ(p.tupleElements[1].dynamicDims, (std::vector<bool>{true, true}));
  EXPECT_TRUE(p.isDynamic());
  EXPECT_EQ(p.toString(),
            "(f32[8,128]{1,0:T(8,128)(2,1)S(1)}, s32[<=5,?])");
  EXPECT_EQ(entry.instructions[1].shape.layout->elementSizeInBits, 16);
  EXPECT_EQ(entry.instructions[2].shape.toString(), "f32[]{:T(256)}");
  EXPECT_DOUBLE_EQ(entry.instructions[2].literal->values[0].floatValue,
                   1.5e-3);
  EXPECT_EQ(entry.instructions[3].shape.elementType, ElementType::Token);
  EXPECT_EQ(entry.instructions[4].shape.toString(), "(f32[], (s32[], pred[]))");
  EXPECT_TRUE(entry.root().shape.isTuple());
  EXPECT_TRUE(entry.root().shape.tupleElements.empty());
  EXPECT_EQ(entry.attributes[0].stringValue, "main");
}

TEST(HloSyntax, AttributesAndLiterals) {
  Module module = parseOk(R"(HloModule m, entry_computation_layout={(f32[2,2]{1,0})->f32[2,2]{0,1}}, frontend_attributes={a="x\"y",b={"j":1}}

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  c = f32[2,2]{1,0} constant({ {1, -2.5}, {inf, -nan(0x7)} })
  i = s8[3] constant({-128, 0, 127})
  u = u64[1] constant({18446744073709551615})
  b = pred[2] constant({true, 0})
  z = c64[] constant((1, -2))
  tup = (s32[], f32[1]) constant((3, {4}))
  sl = f32[1,2] slice(f32[2,2]{1,0} c), slice={[0:1], [0:2:1]}
  pd = f32[3,5] pad(c, z), padding=0_1x1_2_1
  d = f32[2,2] dot(c, c), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={HIGHEST,DEFAULT}
  ar = f32[2,2] all-reduce(d), replica_groups={{0,1},{2,3}}, to_apply=add, channel_id=5
  ag = f32[2,2] all-gather(d), replica_groups=[2,2]<=[4]T(1,0), dimensions={0}, sharding={devices=[2,1]0,1}
  cc = f32[2,2] custom-call(ag), custom_call_target="MyTarget", api_version=API_VERSION_TYPED_FFI, backend_config="cfg", some_new_attr={1, 2}, flag=xyz, control-predecessors={ar}
  sh = f32[2,2] shuffle(cc), dimensions={0}, mode=permute, indices=s32[2,1]{1,0} { {1}, {0} }, flag=1
  ROOT r = f32[2,2]{0,1} copy(cc), metadata={op_name="r" source_line=3 unknown_field=7}
}
)");
  EXPECT_EQ(module.frontendAttributes,
            (StringPairs{{"a", "x\"y"}, {"b", "{\"j\":1}"}}));
  EXPECT_EQ(module.entryComputationLayout->result.layout->minorToMajor,
            (std::vector<int64_t>{0, 1}));
  const Computation &entry = module.entry();
  const std::vector<LiteralValue> &c = entry.instructions[0].literal->values;
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[1].floatValue, -2.5);
  EXPECT_TRUE(std::isinf(c[2].floatValue));
  EXPECT_TRUE(std::isnan(c[3].floatValue) && std::signbit(c[3].floatValue));
  EXPECT_EQ(entry.instructions[1].literal->values[0].intValue, -128);
  EXPECT_EQ(entry.instructions[2].literal->values[0].kind,
            LiteralValue::Kind::UInt);
  EXPECT_EQ(entry.instructions[2].literal->values[0].uintValue,
            18446744073709551615ull);
  EXPECT_FALSE(entry.instructions[3].literal->values[1].boolValue);
  EXPECT_EQ(entry.instructions[4].literal->values[0].imagValue, -2);
  const Literal &tuple = *entry.instructions[5].literal;
  ASSERT_EQ(tuple.tupleElements.size(), 2u);
  EXPECT_EQ(tuple.tupleElements[1].values[0].floatValue, 4);

  const Instruction *slice = entry.findInstruction("sl");
  ASSERT_TRUE(slice->operands[0].shape);
  EXPECT_EQ(slice->attr("slice")->slices[1].limit, 2);
  EXPECT_EQ(slice->attr("slice")->slices[1].stride, 1);
  const std::vector<PadDim> &pad = entry.findInstruction("pd")->attr("padding")
                                       ->padding;
  EXPECT_EQ(pad[1].interior, 1);
  EXPECT_EQ(entry.findInstruction("d")->attr("operand_precision")->names,
            (std::vector<std::string>{"HIGHEST", "DEFAULT"}));
  const Instruction *ar = entry.findInstruction("ar");
  EXPECT_EQ(ar->attr("replica_groups")->intLists,
            (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(ar->attr("channel_id")->intValue, 5);
  const Instruction *ag = entry.findInstruction("ag");
  EXPECT_EQ(ag->attr("replica_groups")->kind, AttrKind::Raw);
  EXPECT_EQ(ag->attr("replica_groups")->raw, "[2,2]<=[4]T(1,0)");
  EXPECT_EQ(ag->attr("sharding")->raw, "{devices=[2,1]0,1}");
  const Instruction *cc = entry.findInstruction("cc");
  EXPECT_EQ(cc->attr("custom_call_target")->stringValue, "MyTarget");
  EXPECT_EQ(cc->attr("backend_config")->kind, AttrKind::String);
  EXPECT_EQ(cc->attr("some_new_attr")->ints, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(cc->attr("flag")->kind, AttrKind::Identifier);
  EXPECT_EQ(cc->attr("control-predecessors")->names,
            (std::vector<std::string>{"ar"}));
  // A literal attribute: the shape, its layout, then the values.
  const Instruction *sh = entry.findInstruction("sh");
  EXPECT_EQ(sh->attr("indices")->kind, AttrKind::Raw);
  EXPECT_EQ(sh->attr("indices")->raw, "s32[2,1]{1,0} { {1}, {0} }");
  EXPECT_EQ(sh->attr("flag")->intValue, 1);
  const OpMetadata *metadata = entry.root().metadata();
  EXPECT_EQ(metadata->opName, "r");
  EXPECT_EQ(metadata->other, (StringPairs{{"unknown_field", "7"}}));
  EXPECT_EQ(entry.root().attr("metadata")->raw,
            "{op_name=\"r\" source_line=3 unknown_field=7}");
}

// One test per class of malformed input: exact position and message.
TEST(HloErrors, Header) {
  EXPECT_EQ(parseError(""),
            "1:1: expected 'HloModule' or a computation at the start of the "
            "module, found end of file");
  EXPECT_EQ(parseError("HloModul m"),
            "1:1: expected 'HloModule' or a computation at the start of the "
            "module, found 'HloModul'");
  EXPECT_EQ(parseError("HloModule m\n"), "2:1: module 'm' has no computations");
  EXPECT_EQ(parseError("HloModule m, entry_computation_layout={(f32[])}"),
            "1:47: expected '->' before the result shape, found '}'");
  EXPECT_EQ(parseError("HloModule m, input_output_alias={ {0}: (0, {}, "
                       "maybe) }"),
            "1:48: expected may-alias or must-alias, found 'maybe'");
}

TEST(HloErrors, TruncatedAndUnbalanced) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"),
            "4:1: unexpected end of file in computation 'e' (missing '}')");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0"),
            "3:24: expected ')' or ',' after the operands, found end of file");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "backend_config={\"x\": {1}\n"),
            "3:42: unbalanced '{': no matching '}'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] constant({...)"),
            "3:26: expected '}' after '{...', found ')'");
}

TEST(HloErrors, BadTokens) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] @parameter(0)\n}"),
            "3:13: unexpected character '@'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] \xff\n}"),
            "3:13: unexpected byte 0xFF");
  EXPECT_EQ(parseError(llvm::StringRef("HloModule m\nENTRY e {\0}", 22)),
            "2:10: unexpected NUL byte");
  EXPECT_EQ(parseError("HloModule m /* open"),
            "1:13: unterminated /* comment");
  EXPECT_EQ(parseError("HloModule m, x=\"abc"), "1:16: unterminated string");
  EXPECT_EQ(parseError("HloModule m, x=\"a\\qb\""),
            "1:18: invalid escape sequence in string");
}

TEST(HloErrors, BadShapes) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2,x] parameter(0)\n}"),
            "3:13: expected a dimension size, found 'x'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f33[2] parameter(0)\n}"),
            "3:7: expected a shape (e.g. f32[2,3] or a tuple), found 'f33'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[99999999999999999999]"
                       " parameter(0)\n}"),
            "3:11: integer 99999999999999999999 does not fit in 64 bits");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[4294967296,"
                       "4294967296] parameter(0)\n}"),
            "3:7: shape has too many elements (more than 2^63)");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = token[2] after-all()\n}"),
            "3:7: token shapes have no dimensions");
  std::string deep = "HloModule m\nENTRY e {\n  a = " + std::string(300, '(');
  EXPECT_EQ(parseError(deep), "3:263: nesting is deeper than 256 levels");
}

TEST(HloErrors, BadLayouts) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2,3]{0,0} "
                       "parameter(0)\n}"),
            "3:15: layout {0,0} is not a permutation of the dimensions 0..1");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2,3]{0} "
                       "parameter(0)\n}"),
            "3:15: layout has 1 dimensions but the shape has rank 2");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2]{0:T(8} "
                       "parameter(0)\n}"),
            "3:19: expected ')' to end the tile, found '}'");
}

TEST(HloErrors, Names) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
                       "  a = f32[] negate(a)\n}"),
            "4:3: instruction 'a' is already defined at 3:3");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  ROOT a = f32[] negate(b)\n}"),
            "3:25: use of undefined instruction 'b'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
                       "  b = f32[] parameter(0)\n}"),
            "4:23: parameter number 0 is already used by 'a'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  "
                       "ROOT b = f32[] call(a), to_apply=nowhere\n}"),
            "4:36: unknown computation 'nowhere'");
  EXPECT_EQ(parseError("HloModule m\nc {\n  a = f32[] parameter(0)\n}\n"
                       "ENTRY c {\n  a = f32[] parameter(0)\n}"),
            "5:7: computation 'c' is already defined at 2:1");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "control-predecessors={b}\n}"),
            "3:48: control predecessor 'b' is not an instruction defined "
            "before 'a'");
}

TEST(HloErrors, RootAndEntry) {
  // No ROOT: as in XLA, the last instruction is the root.
  Module module = parseOk("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
                          "  b = f32[] negate(a)\n}");
  EXPECT_EQ(module.entry().rootIndex, 1u);
  EXPECT_TRUE(module.entry().root().isRoot);
  // No ENTRY: the last computation is the entry.
  Module noEntry = parseOk("HloModule m\nf {\n  a = f32[] parameter(0)\n}\n"
                           "g {\n  a = f32[] parameter(0)\n}");
  EXPECT_EQ(noEntry.entry().name, "g");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  ROOT a = f32[] "
                       "parameter(0)\n  ROOT b = f32[] negate(a)\n}"),
            "4:3: computation 'e' has more than one ROOT (the first is at "
            "3:3)");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n}\n"
                       "ENTRY f {\n  a = f32[] parameter(0)\n}"),
            "5:1: module has more than one ENTRY computation (the first is at "
            "2:1)");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n}"),
            "3:1: computation 'e' is empty");
}

// XLA's tests and fusion dumps leave out the header: the module is "_", the
// entry is the ENTRY computation, else the last one.
TEST(HloErrors, NoHeader) {
  Module fusion = parseOk("add {\n  a = f32[] parameter(0)\n}\n"
                          "%fusion (p: f32[]) -> f32[] {\n"
                          "  p = f32[] parameter(0)\n}");
  EXPECT_EQ(fusion.name, "_");
  EXPECT_EQ(fusion.computations.size(), 2u);
  EXPECT_EQ(fusion.entry().name, "fusion");
  Module entry = parseOk("ENTRY e {\n  a = f32[] parameter(0)\n}\n"
                         "f {\n  a = f32[] parameter(0)\n}");
  EXPECT_EQ(entry.entry().name, "e");
  EXPECT_EQ(parseError("{\n}"),
            "1:1: expected 'HloModule' or a computation at the start of the "
            "module, found '{'");
  EXPECT_EQ(parseError("f {\n}"), "2:1: computation 'f' is empty");
}

// XLA's tests leave out the shape of some ops; the parser infers it as XLA's
// does, and names the ops it cannot infer.
TEST(HloErrors, OmittedShapes) {
  Module module = parseOk(R"(HloModule m
ENTRY e {
  a = f32[2,3]{0,1} parameter(0)
  b = f32[3,4] parameter(1)
  n = negate(a)
  c = compare(n, a), direction=GT
  s = select(c, n, a)
  t = transpose(s), dimensions={1,0}
  d = dot(s, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  k = after-all()
  tu = tuple(t, d)
  ROOT g = get-tuple-element(tu), index=1
})");
  const Computation &entry = module.entry();
  auto shapeOf = [&](const char *name) {
    return entry.findInstruction(name)->shape.toString();
  };
  EXPECT_EQ(shapeOf("n"), "f32[2,3]"); // the operand's layout is not kept
  EXPECT_EQ(shapeOf("c"), "pred[2,3]");
  EXPECT_EQ(shapeOf("s"), "f32[2,3]");
  EXPECT_EQ(shapeOf("t"), "f32[3,2]");
  EXPECT_EQ(shapeOf("d"), "f32[2,4]");
  EXPECT_EQ(shapeOf("k"), "token[]");
  EXPECT_EQ(shapeOf("tu"), "(f32[3,2], f32[2,4])");
  EXPECT_EQ(shapeOf("g"), "f32[2,4]");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n"
                       "  ROOT b = broadcast(a), dimensions={0}\n}"),
            "4:12: expected a shape (e.g. f32[2,3] or a tuple) before "
            "'broadcast': tpuc infers it only for elementwise ops, compare, "
            "select, clamp, tuple, get-tuple-element, after-all, while, "
            "transpose, dot, convolution, reduce, reduce-window, pad, "
            "concatenate, sort, call, conditional, map, replica-id and "
            "partition-id");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n"
                       "  ROOT b = get-tuple-element(a), index=0\n}"),
            "4:12: cannot infer the shape of 'get-tuple-element' left out: it "
            "needs a tuple operand and an index in it");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = parameter(0)\n}"),
            "3:7: expected a shape (e.g. f32[2,3] or a tuple) before "
            "'parameter', found 'parameter'");
}

// The shapes XLA's ShapeInference gives reductions, windows, pads,
// convolutions and calls when XLA's tests leave them out.
TEST(HloErrors, OmittedShapesOfStructuredOps) {
  Module module = parseOk(R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
lt {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT c = pred[] compare(x, y), direction=LT
}
ENTRY e {
  a = f32[16,32] parameter(0)
  i = s32[16,32] parameter(1)
  z = f32[] constant(0)
  zi = s32[] constant(0)
  r = reduce(a, z), dimensions={1}, to_apply=add
  v = reduce(a, i, z, zi), dimensions={0,1}, to_apply=add
  w = reduce-window(a, z), window={size=1x1 pad=1_2x3_4 stride=1x2}, to_apply=add
  wd = reduce-window(a, z), window={size=2x3 lhs_dilate=2x1 rhs_dilate=1x2}, to_apply=add
  p = pad(a, z), padding=0_1x2_-1_3
  k = concatenate(a, a, a), dimensions={0}
  img = f32[1,17,9,9] parameter(2)
  ker = f32[3,3,17,32] parameter(3)
  cv = convolution(img, ker), window={size=3x3 pad=1_1x0_0 stride=1x2}, dim_labels=bf01_01io->bf01
  so = sort(a, i), dimensions={1}, to_apply=lt
  c = call(a, a), to_apply=add
  m = map(i), to_apply=lt
  id = replica-id()
  rv = reverse(a), dimensions={0}
  ROOT o = optimization-barrier(c)
})");
  const Computation &entry = module.entry();
  auto shapeOf = [&](const char *name) {
    return entry.findInstruction(name)->shape.toString();
  };
  EXPECT_EQ(shapeOf("r"), "f32[16]");
  EXPECT_EQ(shapeOf("v"), "(f32[], s32[])");
  EXPECT_EQ(shapeOf("w"), "f32[19,20]");
  EXPECT_EQ(shapeOf("wd"), "f32[30,28]");
  EXPECT_EQ(shapeOf("p"), "f32[17,126]");
  EXPECT_EQ(shapeOf("k"), "f32[48,32]");
  EXPECT_EQ(shapeOf("cv"), "f32[1,32,9,4]");
  EXPECT_EQ(shapeOf("so"), "(f32[16,32], s32[16,32])");
  EXPECT_EQ(shapeOf("c"), "f32[]");
  EXPECT_EQ(shapeOf("m"), "pred[16,32]");
  EXPECT_EQ(shapeOf("id"), "u32[]");
  EXPECT_EQ(shapeOf("rv"), "f32[16,32]");
  EXPECT_EQ(shapeOf("o"), "f32[]");
  const char *head = "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n"
                     "  z = f32[] constant(0)\n";
  EXPECT_EQ(parseError(std::string(head) +
                       "  ROOT r = reduce(a), dimensions={0}\n}"),
            "5:12: cannot infer the shape of 'reduce' left out: it needs "
            "inputs and as many init values");
  EXPECT_EQ(parseError(std::string(head) +
                       "  ROOT r = pad(a, z), padding=0_-3\n}"),
            "5:12: cannot infer the shape of 'pad' left out: dimension 0 "
            "pads to a negative or overflowing size");
  EXPECT_EQ(parseError(std::string(head) +
                       "  ROOT r = pad(a, z), padding=0_0_9223372036854775807\n}"),
            "5:12: cannot infer the shape of 'pad' left out: dimension 0 "
            "pads to a negative or overflowing size");
  EXPECT_EQ(parseError(std::string(head) +
                       "  ROOT r = reduce-window(a, z), "
                       "window={size=2 lhs_dilate=9223372036854775807}\n}"),
            "5:12: cannot infer the shape of 'reduce-window' left out: its "
            "window is not positive or overflows in dimension 0");
  EXPECT_EQ(parseError(std::string(head) +
                       "  ROOT r = reduce-window(a, z), window={size=1x1}\n}"),
            "5:12: cannot infer the shape of 'reduce-window' left out: it "
            "needs a window of one dimension per input dimension");
  EXPECT_EQ(parseError(std::string(head) + "  ROOT r = call(a), to_apply=f\n}"
                                           "\nf {\n  ROOT p = f32[2] "
                                           "parameter(0)\n}"),
            "5:12: cannot infer the shape of 'call' left out: computation "
            "'f' is not defined before it");
}

// XLA's parser takes an instruction (shape optional, no attributes) where an
// operand goes; it becomes an instruction named `<opcode>.anon` before its
// user.
TEST(HloErrors, NestedInstructions) {
  Module module = parseOk(R"(HloModule m
ENTRY e {
  add.anon = f32[] parameter(1)
  ROOT r = f32[] add(f32[] add(f32[] parameter(0), f32[] constant(1)), add(negate(add.anon), add.anon))
})");
  const Computation &entry = module.entry();
  std::vector<std::string> names;
  for (const Instruction &inst : entry.instructions)
    names.push_back(inst.name + ":" + inst.shape.toString());
  EXPECT_EQ(names, (std::vector<std::string>{
                       "add.anon:f32[]", "parameter.anon:f32[]",
                       "constant.anon:f32[]", "add.anon.1:f32[]",
                       "negate.anon:f32[]", "add.anon.2:f32[]", "r:f32[]"}));
  EXPECT_EQ(entry.root().operands[0].name, "add.anon.1");
  EXPECT_EQ(entry.root().operands[1].name, "add.anon.2");
  EXPECT_EQ(entry.findInstruction("parameter.anon")->parameterNumber, 0);
  EXPECT_EQ(entry.findInstruction("constant.anon")->loc.column, 52u);
  const char *head = "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n";
  auto rootError = [&](const char *root) {
    return parseError(std::string(head) + "  ROOT r = f32[2] " + root + "\n}");
  };
  // Attributes cannot follow a nested instruction (as in XLA: the ',' is
  // the next operand's).
  EXPECT_EQ(rootError("add(a, f32[2] sort(a), dimensions={0})"),
            "4:42: attribute 'dimensions' in an operand list: attributes "
            "follow the ')', and a nested instruction has none (XLA's parser "
            "takes none either)");
  EXPECT_EQ(rootError("add(a, negate(b))"),
            "4:33: use of undefined instruction 'b'");
  EXPECT_EQ(rootError("add(a, f32[2] parameter(0))"),
            "4:43: parameter number 0 is already used by 'a'");
  EXPECT_EQ(rootError("add(a, constant(1))"),
            "4:26: expected a shape (e.g. f32[2,3] or a tuple) before "
            "'constant', found 'constant'");
  EXPECT_EQ(rootError("add(a, f32[2] negate(a)"),
            "5:1: expected ')' or ',' after the operands, found '}'");
  EXPECT_EQ(rootError("add(a, f32[2] a b)"),
            "4:35: expected ')' or ',' after the operands, found 'b'");
  EXPECT_EQ(rootError("add(a, broadcast(a))"),
            "4:26: expected a shape (e.g. f32[2,3] or a tuple) before "
            "'broadcast': tpuc infers it only for elementwise ops, compare, "
            "select, clamp, tuple, get-tuple-element, after-all, while, "
            "transpose, dot, convolution, reduce, reduce-window, pad, "
            "concatenate, sort, call, conditional, map, replica-id and "
            "partition-id");
  std::string deep = std::string(head) + "  ROOT r = f32[2] ";
  for (int i = 0; i < 300; ++i)
    deep += "negate(";
  deep += "a";
  for (int i = 0; i < 300; ++i)
    deep += ")";
  EXPECT_EQ(parseError(deep + "\n}").substr(0, 40),
            "4:1818: nesting is deeper than 256 level");
}

// One value for an array shape fills it.
TEST(HloErrors, SplatLiteral) {
  Module module = parseOk("HloModule m\nENTRY e {\n"
                          "  ROOT c = f32[3072] constant(0.3)\n}");
  const Literal &literal = *module.entry().root().literal;
  ASSERT_EQ(literal.values.size(), 1u);
  EXPECT_EQ(literal.values[0].floatValue, 0.3);
}

TEST(HloErrors, Literals) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[2,2] constant({ {1, "
                       "2}, {3} })\n}"),
            "3:35: literal has 1 elements in dimension 1 but the shape "
            "f32[2,2] has 2");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = s8[] constant(128)\n}"),
            "3:21: integer 128 does not fit in s8");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = s32[] constant(1.5)\n}"),
            "3:22: expected an integer for element type s32, found '1.5'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] constant(1e999)\n}"),
            "3:22: floating-point constant 1e999 is out of range");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = (f32[], f32[]) "
                       "constant((1))\n}"),
            "3:31: tuple literal has 1 elements but its shape (f32[], f32[]) "
            "has 2");
}

TEST(HloErrors, Attributes) {
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "index=x\n}"),
            "3:33: expected an integer for 'index', found 'x'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "window={size=3x3 stride=2}\n}"),
            "3:34: window field 'stride' has 1 entries but 'size' has 2");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "window={size=3 bogus=1}\n}"),
            "3:42: unknown window field 'bogus'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "dim_labels=bf01_oi01->bf0\n}"),
            "3:38: dim_labels bf01_oi01->bf0 have different numbers of "
            "spatial dimensions");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "dim_labels=bb01_oi01->bf01\n}"),
            "3:38: dimension label 'b' appears twice in the input labels "
            "'bb01'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), "
                       "slice={[0:2}\n}"),
            "3:38: expected ']' to end the slice range, found '}'");
  EXPECT_EQ(parseError("HloModule m\nENTRY e {\n  a = f32[] parameter(0), =1\n}"),
            "3:27: expected an attribute name (like dimensions=), found '='");
}

} // namespace
