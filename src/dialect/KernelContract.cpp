//===- KernelContract.cpp - What a kernel's entry function carries --------===//
//
// The accessors of KernelContract.h and the dialect's verifier of the
// contract's attributes.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

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
  setKernelLaunch(function, LaunchAttr::get(function->getContext(), grid, block));
}

void setKernelLaunch(Operation *function, LaunchAttr launch) {
  function->setAttr(kLaunchAttr, launch);
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
                                 ArrayRef<int64_t> grid, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> cluster, int64_t dynamicSharedMemory,
                                 int64_t maxRegisters) {
  for (auto [what, extents] : {std::pair{"grid", grid}, std::pair{"block", block},
                               std::pair{"cluster", cluster}}) {
    if (extents.empty() && StringRef(what) == "cluster")
      continue;
    if (extents.size() != 3)
      return emitError() << "a launch's " << what << " has three extents, not "
                         << extents.size();
    if (llvm::any_of(extents, [](int64_t extent) { return extent < 1; }))
      return emitError() << "a launch's " << what << " extents are at least 1";
  }
  if (!cluster.empty()) {
    // CUDA's programming guide: a grid is whole clusters, and no GPU runs
    // clusters of more than 16 blocks (8 without opting in).
    for (int i = 0; i < 3; ++i)
      if (grid[i] % cluster[i] != 0)
        return emitError() << "a launch's grid extent " << grid[i]
                           << " is not a multiple of its cluster extent " << cluster[i];
    if (cluster[0] * cluster[1] * cluster[2] > 16)
      return emitError() << "a launch's cluster has more than 16 blocks";
  }
  if (dynamicSharedMemory < 0)
    return emitError() << "a launch's dynamic shared memory is negative";
  if (maxRegisters < 0 || maxRegisters > 255)
    return emitError() << "a launch's max_registers is 0 (any) or at most 255, not "
                       << maxRegisters;
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
  if (name == kKeepLoopAttr && (!isa<scf::ForOp>(op) || !isa<UnitAttr>(value)))
    return op->emitOpError() << "'" << name << "' is a unit attribute of an scf.for";
  return success();
}

} // namespace hlo::xla_gpu
