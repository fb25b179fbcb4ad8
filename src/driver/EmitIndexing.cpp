//===- EmitIndexing.cpp - --emit=indexing ---------------------------------===//
#include "EmitIndexing.h"

#include "analysis/FusionIndexing.h"
#include "analysis/KernelPlan.h"
#include "analysis/OpIndexing.h"

#include "mlir/IR/MLIRContext.h"

namespace hlo::driver {

namespace {

void printSets(const IndexingMapSets &sets, const char *label,
               std::string &out) {
  for (size_t i = 0; i < sets.size(); ++i) {
    out += std::string(label) + " " + std::to_string(i) + ":\n";
    for (const IndexingMap &map : sets[i])
      out += map.toString() + "\n";
  }
}

} // namespace

bool emitIndexing(const HloModule &module, bool inputToOutput,
                  const std::vector<std::string> &kernels, std::string &out,
                  DiagnosticEngine &diagnostics) {
  mlir::MLIRContext context;
  // The entry's root, or the one instruction --kernel names.
  const HloInstruction *root = module.entry()->root();
  if (kernels.size() > 1) {
    diagnostics.error(kNoOffset, "--emit=indexing prints one kernel's maps: name one --kernel");
    return false;
  }
  if (kernels.size() == 1) {
    root = nullptr;
    for (const auto &computation : module.computations())
      for (const auto &instruction : computation->instructions())
        if (!root && namesKernel(instruction->name(), kernels[0]))
          root = instruction.get();
    if (!root) {
      diagnostics.error(kNoOffset, "no instruction named '" + kernels[0] + "' in the module");
      return false;
    }
  }
  const HloComputation *fused = root->fusedComputation();
  if (fused && fused->isDeclaration()) {
    diagnostics.error(root->sourceOffset(),
                      "fusion '" + root->name() + "' calls '" + fused->name() +
                          "', which is not defined in this module");
    return false;
  }
  // The instruction without an indexing rule, where the error points.
  const HloInstruction *failedAt = root;
  int64_t outputs = fused ? rootOutputCount(*fused) : outputCount(*root);
  if (!inputToOutput) {
    for (int64_t output = 0; output < outputs; ++output) {
      llvm::Expected<IndexingMapSets> sets =
          fused ? computeFusionOutputToInputIndexing(*fused, output, &context, &failedAt)
                : computeOutputToInputIndexing(*root, output, &context);
      if (!sets) {
        diagnostics.error(failedAt->sourceOffset(), llvm::toString(sets.takeError()));
        return false;
      }
      if (outputs > 1)
        out += "output " + std::to_string(output) + ":\n";
      printSets(*sets, "operand", out);
    }
    return true;
  }
  for (int64_t operand = 0; operand < root->operandCount(); ++operand) {
    llvm::Expected<IndexingMapSets> computed =
        fused ? computeFusionInputToOutputIndexing(*fused, operand, &context, &failedAt)
              : computeInputToOutputIndexing(*root, operand, &context);
    if (!computed) {
      diagnostics.error(failedAt->sourceOffset(), llvm::toString(computed.takeError()));
      return false;
    }
    const IndexingMapSets &sets = *computed;
    out += "operand " + std::to_string(operand) + ":\n";
    if (sets.size() == 1) {
      for (const IndexingMap &map : sets[0])
        out += map.toString() + "\n";
    } else {
      printSets(sets, "output", out);
    }
  }
  return true;
}

} // namespace hlo::driver
