//===- InlineSubgraphs.cpp - Subgraph functions into their kernels --------===//
//
// Owns xla-gpu-inline-subgraphs: each entry function (one that no pure_call
// names) gets its subgraph functions inlined level by level, with CSE
// before every level, so that calls with the same callee and the same
// arguments (pure_calls: the same value) are merged before they are
// inlined. Every distinct (function, arguments) pair is then computed once
// per thread.
//
// Why not upstream's inliner: it inlines bottom-up, which copies a callee
// into every caller before anything can be merged, so a DAG of subgraphs
// grows exponentially in code; XLA:GPU Emitters' remedy, keeping functions with
// several callers outlined, is linear in code but exponential in work, as
// each call recomputes its callee's own calls along every path
// (loop/mof_reshapes: about 22 ms per thread on the host).
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/CSE.h"

#include "llvm/ADT/DenseSet.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_INLINESUBGRAPHSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

int64_t countOps(Operation *root) {
  int64_t count = 0;
  root->walk([&](Operation *) { ++count; });
  return count;
}

/// Replaces `call` with a copy of its callee's body; false if the callee
/// has more than one block (it stays a call).
bool inlineCall(xla_gpu::PureCallOp call, func::FuncOp callee) {
  if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
    return false;
  Block &body = callee.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), call.getOperands());
  OpBuilder b(call);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value returned : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(returned));
  call.replaceAllUsesWith(results);
  call.erase();
  return true;
}

struct InlineSubgraphsPass : impl::InlineSubgraphsPassBase<InlineSubgraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::DenseSet<StringAttr> callees;
    module.walk([&](xla_gpu::PureCallOp call) {
      callees.insert(call.getCalleeAttr().getAttr());
    });
    for (auto function : module.getOps<func::FuncOp>())
      if (!callees.contains(function.getSymNameAttr()))
        inlineInto(function, symbols);
  }

  void inlineInto(func::FuncOp function, SymbolTable &symbols) {
    IRRewriter rewriter(&getContext());
    while (true) {
      DominanceInfo dominance;
      eliminateCommonSubExpressions(rewriter, dominance, function);
      SmallVector<xla_gpu::PureCallOp> calls;
      function.walk([&](xla_gpu::PureCallOp call) { calls.push_back(call); });
      // Over the budget, the remaining calls stay calls (linear in code).
      if (calls.empty() || countOps(function) > maxOps)
        return;
      bool inlined = false;
      for (xla_gpu::PureCallOp call : calls)
        inlined |= inlineCall(call, symbols.lookup<func::FuncOp>(call.getCallee()));
      if (!inlined)
        return;
    }
  }
};

} // namespace
} // namespace hlo::pipeline
