//===- MarkSharedFunctions.cpp - Functions with several callers -----------===//
//
// Owns xla-gpu-mark-shared-functions: one walk counts the pure_calls to
// each function; those called more than once get `xla_gpu.shared`.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_MARKSHAREDFUNCTIONSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct MarkSharedFunctionsPass
    : impl::MarkSharedFunctionsPassBase<MarkSharedFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<StringAttr, int> callers;
    module.walk([&](xla_gpu::PureCallOp call) {
      ++callers[call.getCalleeAttr().getAttr()];
    });
    for (auto function : module.getOps<func::FuncOp>()) {
      if (callers.lookup(function.getSymNameAttr()) > 1)
        function->setAttr(xla_gpu::kSharedFunctionAttr, UnitAttr::get(&getContext()));
    }
  }
};

} // namespace
} // namespace hlo::pipeline
