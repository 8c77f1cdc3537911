//===- GpuLibraryCalls.cpp - XLA's cuBLAS/cuDNN custom-calls --------------===//
//
// Reads the backend_config XLA's GPU backend writes on its library calls:
// GpuBackendConfig's `gemm_backend_config` (GemmBackendConfig) and
// `cudnn_conv_backend_config` (CudnnConvBackendConfig), printed as proto3
// JSON (int64 fields as strings, enums by name; older XLA wrote the inner
// message alone and activation modes as numbers).
//
//===----------------------------------------------------------------------===//

#include "compiler/importer/GpuLibraryCalls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

namespace tpuc::importer {
namespace {

namespace json = llvm::json;

constexpr llvm::StringLiteral kGemm = "__cublas$gemm";
constexpr llvm::StringLiteral kLtMatmul = "__cublas$lt$matmul";
constexpr llvm::StringLiteral kConvForward = "__cudnn$convForward";
constexpr llvm::StringLiteral kConvBiasActivation =
    "__cudnn$convBiasActivationForward";
constexpr llvm::StringLiteral kConvBackwardInput = "__cudnn$convBackwardInput";
constexpr llvm::StringLiteral kConvBackwardFilter =
    "__cudnn$convBackwardFilter";

/// How deeply `text`'s JSON arrays and objects nest (outside strings). The
/// JSON parser recurses once per level: a config nested without end would
/// exhaust the stack, so deep ones are refused before parsing.
int64_t nestingDepth(llvm::StringRef text) {
  int64_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

/// A proto3 JSON number: a JSON number or (int64) a string of one.
std::optional<double> number(const json::Value *value) {
  if (!value)
    return std::nullopt;
  if (std::optional<double> n = value->getAsNumber())
    return n;
  if (std::optional<llvm::StringRef> s = value->getAsString()) {
    double n;
    if (!s->getAsDouble(n))
      return n;
  }
  return std::nullopt;
}

/// `key` of `object` as a list of integers (absent: empty).
bool integers(const json::Object &object, llvm::StringRef key,
              llvm::SmallVectorImpl<int64_t> &out) {
  const json::Value *value = object.get(key);
  if (!value)
    return true;
  const json::Array *array = value->getAsArray();
  if (!array)
    return false;
  for (const json::Value &element : *array) {
    std::optional<double> n = number(&element);
    if (!n || *n != static_cast<int64_t>(*n))
      return false;
    out.push_back(static_cast<int64_t>(*n));
  }
  return true;
}

/// The message under `key` of XLA's GpuBackendConfig wrapper, or the
/// top-level object itself (the format before the wrapper).
const json::Object *innerConfig(const json::Object &top, llvm::StringRef key) {
  if (const json::Object *inner = top.getObject(key))
    return inner;
  return &top;
}

bool readGemm(const json::Object &config, llvm::StringRef target,
              GpuLibraryCall &call, std::string &message) {
  call.kind = GpuCallKind::Gemm;
  call.alpha = number(config.get("alpha_real")).value_or(1);
  call.beta = number(config.get("beta")).value_or(0);
  if (number(config.get("alpha_imag")).value_or(0) != 0) {
    message = "a complex alpha (alpha_imag) is not supported";
    return false;
  }
  const json::Object *dims = config.getObject("dot_dimension_numbers");
  if (!dims) {
    message = "the gemm's backend_config has no dot_dimension_numbers";
    return false;
  }
  if (!integers(*dims, "lhs_batch_dimensions", call.lhsBatch) ||
      !integers(*dims, "rhs_batch_dimensions", call.rhsBatch) ||
      !integers(*dims, "lhs_contracting_dimensions", call.lhsContracting) ||
      !integers(*dims, "rhs_contracting_dimensions", call.rhsContracting)) {
    message = "dot_dimension_numbers must hold lists of integers";
    return false;
  }
  if (const json::Object *precision = config.getObject("precision_config"))
    if (const json::Array *names = precision->getArray("operand_precision"))
      for (const json::Value &name : *names)
        if (std::optional<llvm::StringRef> s = name.getAsString())
          call.precision.push_back(s->str());
  llvm::StringRef epilogue =
      config.getString("epilogue").value_or("DEFAULT");
  call.bias = epilogue.starts_with("BIAS");
  call.aux = epilogue.ends_with("_AUX");
  llvm::StringRef activation = epilogue;
  activation.consume_front("BIAS");
  activation.consume_front("_");
  activation.consume_back("_AUX");
  std::optional<GpuActivation> act =
      llvm::StringSwitch<std::optional<GpuActivation>>(activation)
          .Cases({"", "DEFAULT"}, GpuActivation::None)
          .Case("RELU", GpuActivation::Relu)
          .Case("GELU", GpuActivation::Gelu)
          .Default(std::nullopt);
  if (!act || (call.aux && *act != GpuActivation::Gelu) ||
      (target == kGemm && epilogue != "DEFAULT")) {
    message = ("unsupported epilogue '" + epilogue + "' of '" + target + "'")
                  .str();
    return false;
  }
  call.activation = *act;
  return true;
}

bool readConv(const json::Object &config, llvm::StringRef target,
              GpuLibraryCall &call, std::string &message) {
  call.kind = target == kConvBackwardInput    ? GpuCallKind::ConvBackwardInput
              : target == kConvBackwardFilter ? GpuCallKind::ConvBackwardFilter
                                              : GpuCallKind::Convolution;
  call.bias = target == kConvBiasActivation;
  call.alpha = number(config.get("conv_result_scale")).value_or(1);
  call.sideScale = number(config.get("side_input_scale")).value_or(0);
  call.leakyAlpha = number(config.get("leakyrelu_alpha")).value_or(0);
  std::string mode = "kNone";
  if (const json::Value *value = config.get("activation_mode")) {
    if (std::optional<llvm::StringRef> s = value->getAsString())
      mode = s->str();
    else if (std::optional<int64_t> n = value->getAsInteger())
      mode = std::to_string(*n);
  }
  // By name, or by number as older XLA wrote stream_executor's
  // dnn::ActivationMode.
  std::optional<GpuActivation> act =
      llvm::StringSwitch<std::optional<GpuActivation>>(mode)
          .Cases({"kNone", "0"}, GpuActivation::None)
          .Cases({"kSigmoid", "1"}, GpuActivation::Sigmoid)
          .Cases({"kRelu", "2"}, GpuActivation::Relu)
          .Cases({"kRelu6", "3"}, GpuActivation::Relu6)
          .Cases({"kTanh", "5"}, GpuActivation::Tanh)
          .Cases({"kElu", "7"}, GpuActivation::Elu)
          .Cases({"kLeakyRelu", "8"}, GpuActivation::LeakyRelu)
          .Default(std::nullopt);
  if (!act) {
    message = "unsupported activation_mode '" + mode + "' of '" +
              target.str() + "'";
    return false;
  }
  if (!call.bias && *act != GpuActivation::None) {
    message = "'" + target.str() + "' takes no activation";
    return false;
  }
  call.activation = *act;
  return true;
}

} // namespace

bool isGpuLibraryTarget(llvm::StringRef target) {
  return target.starts_with("__cublas$") || target.starts_with("__cudnn$");
}

bool readsGpuLibraryTarget(llvm::StringRef target) {
  return llvm::is_contained({kGemm, kLtMatmul, kConvForward,
                             kConvBiasActivation, kConvBackwardInput,
                             kConvBackwardFilter},
                            target);
}

std::optional<GpuLibraryCall> readGpuLibraryCall(llvm::StringRef target,
                                                 llvm::StringRef backendConfig,
                                                 std::string &message) {
  bool gemm = target == kGemm || target == kLtMatmul;
  if (!readsGpuLibraryTarget(target)) {
    message = "XLA GPU library call '" + target.str() +
              "' is not read by tpuc (it reads cuBLAS gemms and cuDNN "
              "convolutions forward, backward and with bias and "
              "activation); the module's before-optimizations dump has the "
              "plain HLO";
    return std::nullopt;
  }
  json::Object empty;
  json::Value parsed(nullptr);
  const json::Object *top = &empty;
  if (!backendConfig.trim().empty()) {
    constexpr int64_t kMaxNesting = 64;
    if (nestingDepth(backendConfig) > kMaxNesting) {
      message = "backend_config nests deeper than " +
                std::to_string(kMaxNesting) + " levels";
      return std::nullopt;
    }
    llvm::Expected<json::Value> value = json::parse(backendConfig);
    if (!value) {
      message = "invalid backend_config JSON: " +
                llvm::toString(value.takeError());
      return std::nullopt;
    }
    parsed = std::move(*value);
    top = parsed.getAsObject();
    if (!top) {
      message = "backend_config must be a JSON object";
      return std::nullopt;
    }
  }
  GpuLibraryCall call;
  bool ok = gemm ? readGemm(*innerConfig(*top, "gemm_backend_config"), target,
                            call, message)
                 : readConv(*innerConfig(*top, "cudnn_conv_backend_config"),
                            target, call, message);
  if (!ok)
    return std::nullopt;
  return call;
}

} // namespace tpuc::importer
