//===- DeadCode.cpp - Remove what no result needs -------------------------===//
//
// Instructions of host computations whose values reach neither the root
// nor a side effect are removed, and so are computations nothing calls any
// more; the instructions are left in an order where operands come first.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

namespace hlo::opt {
namespace {

class DeadCode : public HloPass {
public:
  llvm::StringRef name() const override { return "dce"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      changed |= removeDeadInstructions(*computation);
      computation->sortTopologically();
    }
    changed |= removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createDeadCodePass() { return std::make_unique<DeadCode>(); }

} // namespace hlo::opt
