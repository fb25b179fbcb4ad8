//===- EmitFusionAnalysis.cpp - --emit=fusion-analysis --------------------===//
#include "EmitFusionAnalysis.h"

#include "analysis/FusionAnalysis.h"
#include "analysis/KernelPlan.h"

namespace hlo::driver {

namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

void printAnalysis(const std::string &name, const FusionAnalysis &analysis,
                   std::string &out) {
  out += name + ": " + analysis.kindString();
  if (analysis.kind == EmitterKind::Library)
    out += " (not handled by an emitter)";
  out += "\n";
  for (size_t i = 0; i < analysis.roots.size(); ++i) {
    const HloInstruction *hero = analysis.heroes[i];
    out += "  root %" + analysis.roots[i]->name() + ": hero %" + hero->name();
    if (analysis.transpose && analysis.transpose->instruction == hero)
      out += " tiled transpose dims=" + list(analysis.transpose->dimensions) +
             " perm=" + list(analysis.transpose->permutation);
    if (analysis.reduction && hero->opcode() == HloOpcode::Reduce)
      out += " reduction " + analysis.reduction->toString();
    out += "\n";
  }
}

} // namespace

bool emitFusionAnalysis(const HloModule &module, const GpuDeviceInfo &device,
                        const std::vector<std::string> &kernels, std::string &out,
                        DiagnosticEngine &diagnostics) {
  std::vector<bool> found(kernels.size(), false);
  // With --kernel, only the kernels it names.
  auto requested = [&](const std::string &name) {
    if (kernels.empty())
      return true;
    bool named = false;
    for (size_t i = 0; i < kernels.size(); ++i)
      if (namesKernel(name, kernels[i]))
        named = found[i] = true;
    return named;
  };
  // Every fusion (library calls included), then the kernels the compile
  // makes of unfused instructions (or of a whole entry without fusions).
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions()) {
      if (instruction->opcode() != HloOpcode::Fusion || !requested(instruction->name()))
        continue;
      const HloComputation *fused = instruction->fusedComputation();
      if (!fused || fused->isDeclaration()) {
        diagnostics.error(instruction->sourceOffset(),
                          "fusion '" + instruction->name() +
                              "' calls a computation that is not defined");
        return false;
      }
      printAnalysis(instruction->name(),
                    analyzeFusion(*fused, instruction.get(), device), out);
    }
  KernelPlan plan(module);
  for (const KernelSource &kernel : plan.kernels())
    if (!kernel.fusion && requested(kernel.name))
      printAnalysis(kernel.name, analyzeFusion(*kernel.computation, nullptr, device), out);
  for (size_t i = 0; i < kernels.size(); ++i)
    if (!found[i]) {
      diagnostics.error(kNoOffset, "no kernel named '" + kernels[i] + "' in the module");
      return false;
    }
  return true;
}

} // namespace hlo::driver
