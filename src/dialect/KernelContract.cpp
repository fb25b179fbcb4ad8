//===- KernelContract.cpp - What a kernel's entry function carries --------===//
//
// The accessors of KernelContract.h and the dialect's verifier of the
// contract's attributes.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace hlo::xla_gpu {

LaunchAttr getKernelLaunch(Operation *function) {
  if (!function || !isa<FunctionOpInterface>(function))
    return {};
  return function->getAttrOfType<LaunchAttr>(kLaunchAttr);
}

bool isKernel(Operation *function) {
  return getKernelLaunch(function) && !cast<FunctionOpInterface>(function).isExternal();
}

void setKernelLaunch(Operation *function, ArrayRef<int64_t> grid, ArrayRef<int64_t> block) {
  function->setAttr(kLaunchAttr, LaunchAttr::get(function->getContext(), grid, block));
}

StringRef getKernelEmitter(Operation *function) {
  auto emitter = function->getAttrOfType<StringAttr>(kEmitterAttr);
  return emitter ? emitter.getValue() : StringRef();
}

void setKernelEmitter(Operation *function, StringRef emitter) {
  function->setAttr(kEmitterAttr, StringAttr::get(function->getContext(), emitter));
}

std::optional<int64_t> getKernelIndex(Operation *function) {
  if (auto index = function->getAttrOfType<IntegerAttr>(kKernelIndexAttr))
    return index.getInt();
  return std::nullopt;
}

void setKernelIndex(Operation *function, int64_t index) {
  function->setAttr(kKernelIndexAttr,
                    IntegerAttr::get(IntegerType::get(function->getContext(), 64), index));
}

int64_t getKernelSharedMemoryBytes(Operation *function) {
  auto bytes = function->getAttrOfType<IntegerAttr>(kSharedMemoryBytesAttr);
  return bytes ? bytes.getInt() : 0;
}

void setKernelSharedMemoryBytes(Operation *function, int64_t bytes) {
  function->setAttr(kSharedMemoryBytesAttr,
                    IntegerAttr::get(IntegerType::get(function->getContext(), 64), bytes));
}

bool kernelNeedsConcurrentThreads(Operation *function) {
  return function->hasAttr(kConcurrentThreadsAttr);
}

void setKernelNeedsConcurrentThreads(Operation *function) {
  function->setAttr(kConcurrentThreadsAttr, UnitAttr::get(function->getContext()));
}

LogicalResult LaunchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> grid, ArrayRef<int64_t> block) {
  for (auto [what, extents] : {std::pair{"grid", grid}, std::pair{"block", block}}) {
    if (extents.size() != 3)
      return emitError() << "a launch's " << what << " has three extents, not "
                         << extents.size();
    if (llvm::any_of(extents, [](int64_t extent) { return extent < 1; }))
      return emitError() << "a launch's " << what << " extents are at least 1";
  }
  return success();
}

LogicalResult XlaGpuDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  Attribute value = attribute.getValue();
  auto onFunction = [&](bool wellTyped, StringRef expected) -> LogicalResult {
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError() << "'" << name << "' belongs on a kernel's function";
    if (!wellTyped)
      return op->emitOpError() << "'" << name << "' is " << expected;
    return success();
  };
  if (name == kLaunchAttr)
    return onFunction(isa<LaunchAttr>(value), "a #xla_gpu.launch");
  if (name == kEmitterAttr)
    return onFunction(isa<StringAttr>(value), "a string");
  if (name == kKernelIndexAttr)
    return onFunction(isa<IntegerAttr>(value) && cast<IntegerAttr>(value).getInt() >= 0,
                      "a non-negative integer");
  if (name == kSharedMemoryBytesAttr)
    return onFunction(isa<IntegerAttr>(value) && cast<IntegerAttr>(value).getInt() >= 0,
                      "a non-negative integer");
  if (name == kConcurrentThreadsAttr)
    return onFunction(isa<UnitAttr>(value), "a unit attribute");
  return success();
}

} // namespace hlo::xla_gpu
