//===- GemmFusion.cpp - Dots into GEMM fusions with their epilogues -------===//
//
// Each dot the tensor-core emitter takes (GemmAnalysis.h) becomes a GEMM
// fusion (kCustom, `__triton_gemm`, no tile config: the emitter picks its
// own), as XLA's GemmFusion and priority fusion make them:
//  - operands: chains of data movement and converts (bitcast, reshape,
//    transpose, slice, broadcast, copy, convert) that only the dot reads
//    are computed in the kernel while it stages tiles (an s8 weight read
//    as s8, not written out as bf16 first; a slice of a fused QKV
//    projection read in place);
//  - epilogue: the chain of one-operand ops (bitcast, reshape, copy,
//    convert) and then elementwise ops of that shape that only read the
//    dot's value once each (bias and residual adds, scales, activations),
//    with broadcasts of their other operands (and the converts and
//    reshapes under them), and operands computed from no parameter at
//    all (a causal mask from iotas).
// The fusion is checked with describeGemm before it replaces the dot; a
// dot it refuses keeps a smaller epilogue, or none, or stays a dot.
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"

#include "analysis/GemmAnalysis.h"

#include <functional>
#include <map>
#include <set>

namespace hlo::opt {
namespace {

/// Producers of a dot operand that move or convert data, one operand each.
bool isOperandPrologueOp(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::Convert:
  case HloOpcode::Bitcast:
  case HloOpcode::Reshape:
  case HloOpcode::Transpose:
  case HloOpcode::Slice:
  case HloOpcode::Broadcast:
  case HloOpcode::Copy:
    return true;
  default:
    return false;
  }
}

/// Whether `convert` narrows a value a kernel computes (an f32 softmax
/// made bf16 for the next GEMM): its producer's kernel then writes the
/// narrow type, where the GEMM would read the wide one. A convert of a
/// parameter (or of data movement on one) stays in the GEMM: no kernel
/// writes its input either way.
bool narrowsComputedValue(const HloInstruction &convert) {
  const HloInstruction *source = convert.operand(0);
  if (primitiveBitWidth(convert.shape().elementType()) >=
      primitiveBitWidth(source->shape().elementType()))
    return false;
  while (isOperandPrologueOp(source->opcode()) && source->opcode() != HloOpcode::Convert)
    source = source->operand(0);
  HloOpcode opcode = source->opcode();
  return opcode != HloOpcode::Parameter && opcode != HloOpcode::Constant &&
         opcode != HloOpcode::GetTupleElement;
}

/// The chain of prologue ops under `operand` that only the dot reads.
std::vector<HloInstruction *> operandChainOf(HloInstruction *operand) {
  std::vector<HloInstruction *> chain;
  for (HloInstruction *value = operand;
       chain.size() < 4 && value->users().size() == 1 && isOperandPrologueOp(value->opcode()) &&
       !(value->opcode() == HloOpcode::Convert && narrowsComputedValue(*value));
       value = value->operand(0))
    chain.push_back(value);
  return chain;
}

/// Whether `value` is computed from no parameter (iotas, constants and
/// elementwise ops on them, a few), so a kernel can compute it itself.
bool isComputedFromNothing(const HloInstruction *value, int &budget) {
  if (--budget < 0)
    return false;
  HloOpcode opcode = value->opcode();
  if (opcode == HloOpcode::Iota || opcode == HloOpcode::Constant)
    return value->shape().isArray() &&
           (opcode == HloOpcode::Iota || value->shape().elementCount() <= 1);
  if (!(isElementwiseOpcode(opcode) || opcode == HloOpcode::Broadcast ||
        opcode == HloOpcode::Reshape || opcode == HloOpcode::Bitcast))
    return false;
  for (const HloInstruction *operand : value->operands())
    if (!isComputedFromNothing(operand, budget))
      return false;
  return true;
}

bool isOneOperandPassThrough(HloOpcode opcode) {
  return opcode == HloOpcode::Bitcast || opcode == HloOpcode::Reshape ||
         opcode == HloOpcode::Copy || opcode == HloOpcode::Convert;
}

/// What the GEMM fusion of one dot computes, in the host computation.
struct GemmPlan {
  HloInstruction *dot = nullptr;
  /// Per dot operand, the producers computed in the kernel, from the dot
  /// down (empty: the operand is read as it is).
  std::vector<HloInstruction *> operandChain[2];
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
  FusedComputationBuilder builder(module, context);
  // Host values -> their values inside (parameters or copies).
  std::map<HloInstruction *, HloInstruction *> inside;
  auto parameterFor = [&](HloInstruction *value) {
    return inside[value] = builder.parameterFor(value);
  };
  auto clone = [&](HloInstruction *original, std::vector<HloInstruction *> newOperands) {
    return inside[original] = builder.clone(*original, newOperands);
  };
  // A value computed from no parameter, copied into the kernel.
  std::function<HloInstruction *(HloInstruction *)> cloneComputed = [&](HloInstruction *value) {
    auto found = inside.find(value);
    if (found != inside.end())
      return found->second;
    std::vector<HloInstruction *> newOperands;
    for (HloInstruction *operand : value->operands())
      newOperands.push_back(cloneComputed(operand));
    return clone(value, newOperands);
  };
  // A chain of one-operand ops (from its top down) copied into the
  // kernel on a parameter for what is under it.
  auto cloneChain = [&](const std::vector<HloInstruction *> &chain) {
    HloInstruction *value = parameterFor(chain.back()->operand(0));
    for (auto op = chain.rbegin(); op != chain.rend(); ++op)
      value = clone(*op, {value});
    return value;
  };
  // A broadcast with the converts and reshapes under it (a norm weight
  // made f32): the kernel reads the small operand.
  auto cloneBroadcast = [&](HloInstruction *broadcast) {
    std::vector<HloInstruction *> chain = {broadcast};
    while (isOneOperandPassThrough(chain.back()->operand(0)->opcode()))
      chain.push_back(chain.back()->operand(0));
    return cloneChain(chain);
  };
  std::vector<HloInstruction *> dotOperands;
  for (int i = 0; i < 2; ++i) {
    const std::vector<HloInstruction *> &chain = plan.operandChain[i];
    if (chain.empty()) {
      dotOperands.push_back(parameterFor(plan.dot->operand(i)));
      continue;
    }
    dotOperands.push_back(cloneChain(chain));
  }
  HloInstruction *value = clone(plan.dot, dotOperands);
  for (size_t e = 0; e < epilogueLength; ++e) {
    HloInstruction *op = plan.epilogue[e];
    std::vector<HloInstruction *> newOperands;
    for (HloInstruction *operand : op->operands()) {
      auto found = inside.find(operand);
      int budget = 32;
      if (found != inside.end())
        newOperands.push_back(found->second);
      else if (isComputedFromNothing(operand, budget))
        newOperands.push_back(cloneComputed(operand));
      else if (plan.broadcasts.count(operand))
        newOperands.push_back(cloneBroadcast(operand));
      else
        newOperands.push_back(parameterFor(operand));
    }
    value = clone(op, newOperands);
  }
  return {builder.finish(value), builder.operands};
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
    for (int i = 0; i < 2; ++i)
      plan.operandChain[i] = operandChainOf(dot.operand(i));
    plan.epilogue = epilogueCandidates(&dot);
    for (HloInstruction *op : plan.epilogue)
      for (HloInstruction *operand : op->operands())
        // Other readers of the broadcast keep theirs.
        if (operand->opcode() == HloOpcode::Broadcast)
          plan.broadcasts.insert(operand);
    // The longest epilogue the emitter takes, with the operands' producers
    // where it takes them, else with their converts alone, else with none.
    for (int prologue = 2; prologue >= 0; --prologue) {
      GemmPlan attempt = plan;
      for (auto &chain : attempt.operandChain) {
        if (prologue == 1)
          chain.erase(std::find_if(chain.begin(), chain.end(),
                                   [](const HloInstruction *op) {
                                     return op->opcode() != HloOpcode::Convert;
                                   }),
                      chain.end());
        if (prologue == 0)
          chain.clear();
      }
      if (prologue < 2 && attempt.operandChain[0].size() == plan.operandChain[0].size() &&
          attempt.operandChain[1].size() == plan.operandChain[1].size() && prologue != 0)
        continue; // the same attempt as before
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
