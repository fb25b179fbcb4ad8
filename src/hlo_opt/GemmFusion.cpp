//===- GemmFusion.cpp - Dots into GEMM fusions with their epilogues -------===//
//
// Each dot the tensor-core emitter takes (GemmAnalysis.h) becomes a GEMM
// fusion (kCustom, `__triton_gemm`, no tile config: the emitter picks its
// own), as XLA's GemmFusion and priority fusion make them:
//  - operands: converts of its operands that only the dot reads are
//    computed in the kernel while it stages tiles (an s8 weight read as
//    s8, not written out as bf16 first);
//  - epilogue: the chain of one-operand ops (bitcast, reshape, copy,
//    convert) and then elementwise ops of that shape that only read the
//    dot's value once each (bias and residual adds, scales, activations),
//    with broadcasts of their other operands.
// The fusion is checked with describeGemm before it replaces the dot; a
// dot it refuses keeps a smaller epilogue, or none, or stays a dot.
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"

#include "analysis/GemmAnalysis.h"

#include <map>
#include <set>

namespace hlo::opt {
namespace {

bool isOneOperandPassThrough(HloOpcode opcode) {
  return opcode == HloOpcode::Bitcast || opcode == HloOpcode::Reshape ||
         opcode == HloOpcode::Copy || opcode == HloOpcode::Convert;
}

/// What the GEMM fusion of one dot computes, in the host computation.
struct GemmPlan {
  HloInstruction *dot = nullptr;
  /// Operand converts computed in the kernel, per dot operand (or null).
  HloInstruction *operandConvert[2] = {nullptr, nullptr};
  /// The epilogue, in order from the dot; the last is the fusion's value.
  std::vector<HloInstruction *> epilogue;
  /// Broadcasts fused with the epilogue.
  std::set<HloInstruction *> broadcasts;
};

/// The longest epilogue of `dot` as the emitter takes it.
std::vector<HloInstruction *> epilogueCandidates(HloInstruction *dot) {
  std::vector<HloInstruction *> chain;
  HloInstruction *value = dot;
  bool elementwisePhase = false;
  while (value->users().size() == 1) {
    HloInstruction *user = value->users().front();
    if (user->isRoot() && user->opcode() == HloOpcode::Tuple)
      break;
    HloOpcode opcode = user->opcode();
    if (!elementwisePhase && isOneOperandPassThrough(opcode)) {
      chain.push_back(user);
    } else if (isElementwiseOpcode(opcode) && user->shape().isArray() &&
               user->shape().dimensions() == value->shape().dimensions()) {
      // The dot's value once, at its own index.
      int reads = 0;
      for (const HloInstruction *operand : user->operands())
        reads += operand == value;
      if (reads != 1)
        break;
      elementwisePhase = true;
      chain.push_back(user);
    } else {
      break;
    }
    value = user;
  }
  return chain;
}

/// Builds the fused computation of `plan` with the first `epilogueLength`
/// epilogue ops; returns it and its operands.
std::pair<HloComputation *, std::vector<HloInstruction *>>
buildGemmComputation(const GemmPlan &plan, size_t epilogueLength, HloModule &module,
                     PassContext &context) {
  auto owned = std::make_unique<HloComputation>("");
  HloComputation *computation = module.addComputation(std::move(owned));
  std::map<HloInstruction *, HloInstruction *> inside;
  std::vector<HloInstruction *> operands;
  auto parameterFor = [&](HloInstruction *value) {
    auto [found, inserted] = inside.try_emplace(value, nullptr);
    if (inserted) {
      found->second = addParameter(*computation, static_cast<int64_t>(operands.size()),
                                   value->shape(),
                                   context.names.unique("param_" + std::to_string(operands.size())));
      operands.push_back(value);
    }
    return found->second;
  };
  auto clone = [&](HloInstruction *original, std::vector<HloInstruction *> newOperands) {
    HloInstruction *copy = cloneInstruction(*computation, *original, newOperands,
                                            context.names.unique(original->name()));
    inside[original] = copy;
    return copy;
  };
  std::vector<HloInstruction *> dotOperands;
  for (int i = 0; i < 2; ++i) {
    HloInstruction *operand = plan.dot->operand(i);
    if (HloInstruction *convert = plan.operandConvert[i])
      dotOperands.push_back(clone(convert, {parameterFor(convert->operand(0))}));
    else
      dotOperands.push_back(parameterFor(operand));
  }
  HloInstruction *value = clone(plan.dot, dotOperands);
  for (size_t e = 0; e < epilogueLength; ++e) {
    HloInstruction *op = plan.epilogue[e];
    std::vector<HloInstruction *> newOperands;
    for (HloInstruction *operand : op->operands()) {
      auto found = inside.find(operand);
      if (found != inside.end())
        newOperands.push_back(found->second);
      else if (plan.broadcasts.count(operand))
        newOperands.push_back(clone(operand, {parameterFor(operand->operand(0))}));
      else
        newOperands.push_back(parameterFor(operand));
    }
    value = clone(op, newOperands);
  }
  computation->setRoot(value);
  computation->finalizeParameters();
  computation->sortTopologically();
  return {computation, operands};
}

class GemmFusion : public HloPass {
public:
  llvm::StringRef name() const override { return "gemm-fusion"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *host : hostComputations(module)) {
      std::vector<HloInstruction *> dots;
      for (const auto &instruction : host->instructions())
        if (instruction->opcode() == HloOpcode::Dot)
          dots.push_back(instruction.get());
      for (HloInstruction *dot : dots)
        changed |= fuseDot(*dot, module, context);
      removeDeadInstructions(*host);
      host->sortTopologically();
    }
    removeUnusedComputations(module);
    return changed;
  }

private:
  bool fuseDot(HloInstruction &dot, HloModule &module, PassContext &context) {
    GemmPlan plan;
    plan.dot = &dot;
    for (int i = 0; i < 2; ++i) {
      HloInstruction *operand = dot.operand(i);
      if (operand->opcode() == HloOpcode::Convert && operand->users().size() == 1)
        plan.operandConvert[i] = operand;
    }
    plan.epilogue = epilogueCandidates(&dot);
    for (HloInstruction *op : plan.epilogue)
      for (HloInstruction *operand : op->operands())
        if (operand->opcode() == HloOpcode::Broadcast && operand->users().size() == 1)
          plan.broadcasts.insert(operand);
    // The longest epilogue the emitter takes; converts of operands only
    // where the emitter takes them too.
    for (int withConverts = 1; withConverts >= 0; --withConverts) {
      GemmPlan attempt = plan;
      if (!withConverts)
        attempt.operandConvert[0] = attempt.operandConvert[1] = nullptr;
      for (size_t length = attempt.epilogue.size() + 1; length-- > 0;) {
        auto [computation, operands] = buildGemmComputation(attempt, length, module, context);
        ErrorOr<GemmDescription> gemm = describeGemm(*computation);
        if (!gemm || !tensorCoresTake(gemm->input, context.device.computeCapability)) {
          module.removeComputationsIf(
              [&](const HloComputation &candidate) { return &candidate == computation; });
          continue;
        }
        computation->setName(context.names.unique("gemm_fusion_" + dot.name() + "_computation"));
        HloInstruction *result = length ? attempt.epilogue[length - 1] : &dot;
        HloInstruction *fusion = addFusionInstruction(
            *dot.parent(), computation, operands, context,
            R"({"fusion_backend_config":{"kind":"__triton_gemm"}})");
        fusion->setName(context.names.unique("gemm_fusion_" + dot.name()));
        result->replaceAllUsesWith(fusion);
        return true;
      }
    }
    return false;
  }
};

} // namespace

std::unique_ptr<HloPass> createGemmFusionPass() { return std::make_unique<GemmFusion>(); }

} // namespace hlo::opt
