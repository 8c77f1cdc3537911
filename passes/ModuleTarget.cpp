//===- ModuleTarget.cpp - The target a module is compiled for --------------===//

#include "passes/ModuleTarget.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace tpuc {

#define GEN_PASS_DEF_SETTARGET
#include "passes/Passes.h.inc"

namespace {

// The fields the command line can override, with their accessors.
struct Field {
  const char *name;
  uint64_t (exe::Target::*get)() const;
  void (exe::Target::*set)(uint64_t);
};
constexpr Field kFields[] = {
    {"hbm_bytes", &exe::Target::hbm_bytes, &exe::Target::set_hbm_bytes},
    {"hbm_reserved_bytes", &exe::Target::hbm_reserved_bytes,
     &exe::Target::set_hbm_reserved_bytes},
    {"hbm_limit_bytes", &exe::Target::hbm_limit_bytes,
     &exe::Target::set_hbm_limit_bytes},
    {"vmem_bytes", &exe::Target::vmem_bytes, &exe::Target::set_vmem_bytes},
};

} // namespace

void setModuleTarget(ModuleOp module, const target::TargetSpec &spec) {
  Builder b(module.getContext());
  const exe::Target &t = spec.machine;
  absl::StatusOr<target::TargetSpec> preset = target::lookupTarget(t.name());
  SmallVector<NamedAttribute> fields{
      b.getNamedAttr("name", b.getStringAttr(t.name()))};
  for (const Field &f : kFields)
    if (!preset.ok() || (preset->machine.*f.get)() != (t.*f.get)())
      fields.push_back(b.getNamedAttr(
          f.name, b.getI64IntegerAttr(static_cast<int64_t>((t.*f.get)()))));
  module->setAttr(kModuleTargetAttrName, b.getDictionaryAttr(fields));
}

FailureOr<target::TargetSpec> moduleTarget(ModuleOp module,
                                           StringRef fallbackName) {
  auto attr = module->getAttrOfType<DictionaryAttr>(kModuleTargetAttrName);
  if (!attr && module->hasAttr(kModuleTargetAttrName))
    return module.emitError() << kModuleTargetAttrName
                              << " must be a dictionary";
  auto name = attr ? attr.getAs<StringAttr>("name") : StringAttr();
  if (attr && !name)
    return module.emitError() << kModuleTargetAttrName
                              << " needs a string 'name'";
  llvm::StringRef chosen = name ? name.getValue() : fallbackName;
  absl::StatusOr<target::TargetSpec> spec =
      target::lookupTarget(absl::string_view(chosen.data(), chosen.size()));
  if (!spec.ok())
    return module.emitError() << std::string(spec.status().message());
  if (!attr)
    return *spec;
  for (NamedAttribute entry : attr) {
    if (entry.getName() == "name")
      continue;
    const Field *field = llvm::find_if(
        kFields, [&](const Field &f) { return entry.getName() == f.name; });
    auto value = dyn_cast<IntegerAttr>(entry.getValue());
    if (field == std::end(kFields) || !value || value.getInt() < 0)
      return module.emitError()
             << kModuleTargetAttrName << ": '" << entry.getName().getValue()
             << "' is not a non-negative hbm_bytes, hbm_reserved_bytes, "
                "hbm_limit_bytes or vmem_bytes";
    (spec->machine.*field->set)(static_cast<uint64_t>(value.getInt()));
  }
  return *spec;
}

namespace {

class SetTargetPass : public impl::SetTargetBase<SetTargetPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto attr = module->getAttrOfType<DictionaryAttr>(kModuleTargetAttrName);
    auto name = attr ? attr.getAs<StringAttr>("name") : StringAttr();
    if (name && name.getValue() == targetName) {
      // Keep the recorded overrides, but check them.
      if (failed(moduleTarget(module, targetName)))
        signalPassFailure();
      return;
    }
    absl::StatusOr<target::TargetSpec> spec =
        target::lookupTarget(std::string(targetName));
    if (!spec.ok()) {
      module.emitError() << std::string(spec.status().message());
      return signalPassFailure();
    }
    setModuleTarget(module, *spec);
  }
};

} // namespace
} // namespace tpuc
