//===- CallInliner.cpp - Inline `call`s into their callers ----------------===//
//
// `call(args), to_apply=%f` becomes a copy of %f's instructions on the
// call's operands (JAX writes one per `jax.jit` or named scope inside the
// program): kernels then form across the call boundary, as in XLA's
// CallInliner. Calls to computations that run on the device's side of an
// asynchronous operation are left alone.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"


namespace hlo::opt {
namespace {

class CallInliner : public HloPass {
public:
  llvm::StringRef name() const override { return "call-inliner"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    // Inlining may expose calls of the callee: repeat until none is left.
    for (bool again = true; again;) {
      again = false;
      for (HloComputation *computation : hostComputations(module)) {
        std::vector<HloInstruction *> calls;
        for (const auto &instruction : computation->instructions())
          if (instruction->opcode() == HloOpcode::Call && !instruction->asyncWrappedOpcode() &&
              instruction->computationAttr("to_apply") &&
              !instruction->computationAttr("to_apply")->isDeclaration())
            calls.push_back(instruction.get());
        for (HloInstruction *call : calls) {
          HloInstruction *result = inlineComputation(
              *call->computationAttr("to_apply"), call->operands(),
              [&](const HloInstruction &original, const std::vector<HloInstruction *> &operands) {
                return cloneInstruction(*computation, original, operands,
                                        context.names.unique(original.name()));
              });
          call->replaceAllUsesWith(result);
          again = changed = true;
        }
        if (!calls.empty()) {
          removeDeadInstructions(*computation);
          computation->sortTopologically();
        }
      }
    }
    if (changed)
      removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createCallInlinerPass() { return std::make_unique<CallInliner>(); }

} // namespace hlo::opt
