//===- FusionBuilder.cpp - Make and grow fusion instructions --------------===//
#include "FusionBuilder.h"
#include "FusionRules.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace hlo::opt {

const HloInstruction *fusionHero(const HloComputation &computation) {
  const HloInstruction *hero = nullptr;
  for (const auto &instruction : computation.instructions())
    switch (instruction->opcode()) {
    case HloOpcode::Dot:
    case HloOpcode::Reduce:
    case HloOpcode::Scatter:
    case HloOpcode::Sort:
      return instruction.get();
    case HloOpcode::DynamicUpdateSlice:
      if (!isElementalDynamicUpdateSlice(*instruction))
        return instruction.get();
      break;
    case HloOpcode::Transpose:
    case HloOpcode::Concatenate:
      if (!hero)
        hero = instruction.get();
      break;
    default:
      break;
    }
  if (hero)
    return hero;
  const HloInstruction *root = computation.root();
  while (root->opcode() == HloOpcode::Tuple && root->operandCount() > 0)
    root = root->operand(0);
  return root;
}

namespace {

/// XLA's kinds: reductions, scatters, transposes and concatenates are
/// kInput; the rest kLoop.
std::string_view fusionKind(const HloComputation &computation) {
  switch (fusionHero(computation)->opcode()) {
  case HloOpcode::Dot:
    return "kCustom";
  case HloOpcode::Reduce:
  case HloOpcode::Scatter:
  case HloOpcode::Transpose:
  case HloOpcode::Concatenate:
    return "kInput";
  default:
    return "kLoop";
  }
}

std::string heroWord(const HloComputation &computation) {
  std::string word(opcodeName(fusionHero(computation)->opcode()));
  std::replace(word.begin(), word.end(), '-', '_');
  return word;
}

AttrValue enumValue(std::string_view text) {
  AttrValue value;
  value.kind = AttrKind::Enum;
  value.text = text;
  return value;
}

} // namespace

HloInstruction *addFusionInstruction(HloComputation &into, HloComputation *computation,
                                     const std::vector<HloInstruction *> &operands,
                                     PassContext &context, std::string_view backendConfig) {
  std::string_view kind = fusionKind(*computation);
  std::string prefix = kind == "kCustom" ? "gemm_fusion_" : kind == "kInput" ? "input_" : "loop_";
  std::string name = context.names.unique(prefix + heroWord(*computation) +
                                          (kind == "kCustom" ? "" : "_fusion"));
  AttrValue calls;
  calls.kind = AttrKind::Computation;
  calls.computations = {computation};
  std::vector<HloAttribute> attributes = {{"kind", enumValue(kind)}, {"calls", calls}};
  if (!backendConfig.empty()) {
    AttrValue config;
    config.kind = AttrKind::Raw;
    config.text = backendConfig;
    attributes.push_back({"backend_config", config});
  }
  return addInstruction(into, HloOpcode::Fusion, name, computation->root()->shape(), operands,
                        std::move(attributes), fusionHero(*computation)->sourceOffset());
}

namespace {

std::string computationName(const HloComputation &computation) {
  return "fused_" + heroWord(computation);
}

/// Replaces `old` by `replacement` everywhere, and detaches `old`.
void replaceInstruction(HloInstruction &old, HloInstruction &replacement) {
  old.replaceAllUsesWith(&replacement);
  old.dropOperands();
}

} // namespace

FusedComputationBuilder::FusedComputationBuilder(HloModule &module, PassContext &context)
    : context(context) {
  computation = module.addComputation(std::make_unique<HloComputation>(""));
}

HloInstruction *FusedComputationBuilder::parameterFor(HloInstruction *value) {
  auto [found, inserted] = parameters.try_emplace(value, nullptr);
  if (inserted) {
    found->second = addParameter(*computation, static_cast<int64_t>(operands.size()),
                                 value->shape(),
                                 context.names.unique("param_" + std::to_string(operands.size())));
    operands.push_back(value);
  }
  return found->second;
}

HloInstruction *FusedComputationBuilder::clone(const HloInstruction &original,
                                               const std::vector<HloInstruction *> &newOperands,
                                               bool takeName) {
  std::string key = original.opcode() == HloOpcode::Rng ? "" : valueKey(original, newOperands);
  if (!key.empty()) {
    auto found = copies.find(key);
    if (found != copies.end())
      return found->second;
  }
  HloInstruction *copy = cloneInstruction(
      *computation, original, newOperands,
      takeName ? original.name() : context.names.unique(original.name()));
  if (!key.empty())
    copies.emplace(std::move(key), copy);
  return copy;
}

HloInstruction *FusedComputationBuilder::inlineBody(const HloComputation &body,
                                                    const std::vector<HloInstruction *> &arguments,
                                                    bool takeNames) {
  return inlineComputation(body, arguments,
                           [&](const HloInstruction &original,
                               const std::vector<HloInstruction *> &newOperands) {
                             return clone(original, newOperands, takeNames);
                           });
}

HloComputation *FusedComputationBuilder::finish(HloInstruction *root) {
  computation->setRoot(root);
  computation->finalizeParameters();
  computation->sortTopologically();
  return computation;
}

HloInstruction *wrapInFusion(HloInstruction &instruction, PassContext &context) {
  HloComputation &parent = *instruction.parent();
  HloModule &module = *parent.parent();
  FusedComputationBuilder builder(module, context);
  std::vector<HloInstruction *> newOperands;
  for (HloInstruction *operand : instruction.operands())
    newOperands.push_back(builder.parameterFor(operand));
  HloComputation *computation = builder.finish(builder.clone(instruction, newOperands));
  computation->setName(context.names.unique(computationName(*computation)));
  HloInstruction *fusion = addFusionInstruction(parent, computation, builder.operands, context);
  replaceInstruction(instruction, *fusion);
  return fusion;
}

HloInstruction *fuseProducerInto(HloInstruction &consumer, HloInstruction &producer,
                                 PassContext &context) {
  HloComputation &parent = *consumer.parent();
  HloModule &module = *parent.parent();
  const HloComputation &consumerBody = *consumer.fusedComputation();
  FusedComputationBuilder builder(module, context);
  // The consumer's other operands first, in their order.
  for (HloInstruction *operand : consumer.operands())
    if (operand != &producer)
      builder.parameterFor(operand);
  std::vector<HloInstruction *> producerOperands;
  for (HloInstruction *operand : producer.operands())
    producerOperands.push_back(builder.parameterFor(operand));
  HloInstruction *producerValue =
      producer.opcode() == HloOpcode::Fusion
          ? builder.inlineBody(*producer.fusedComputation(), producerOperands)
          : builder.clone(producer, producerOperands);
  std::vector<HloInstruction *> arguments;
  for (HloInstruction *operand : consumer.operands())
    arguments.push_back(operand == &producer ? producerValue : builder.parameterFor(operand));
  // The consumer goes: its body's names move to the new computation.
  HloComputation *computation =
      builder.finish(builder.inlineBody(consumerBody, arguments, /*takeNames=*/true));
  computation->setName(context.names.unique(computationName(*computation)));
  std::string backendConfig(consumer.textAttr("backend_config"));
  HloInstruction *fusion =
      addFusionInstruction(parent, computation, builder.operands, context, backendConfig);
  replaceInstruction(consumer, *fusion);
  return fusion;
}

namespace {

/// mergeSiblingFusions, and mergeProducerIntoConsumer where `second` is
/// `first`'s producer (`first` reads the copy of its value inside).
HloInstruction *mergeFusions(HloInstruction &first, HloInstruction &second,
                             bool secondFeedsFirst, bool distinctOutputs,
                             PassContext &context) {
  HloComputation &parent = *first.parent();
  FusedComputationBuilder builder(*parent.parent(), context);
  std::vector<HloInstruction *> outputs;
  HloInstruction *secondValue = nullptr;
  auto addOutputs = [&](HloInstruction &fusion, std::vector<HloInstruction *> &into) {
    std::vector<HloInstruction *> arguments;
    for (HloInstruction *operand : fusion.operands())
      arguments.push_back(secondValue && operand == &second ? secondValue
                                                            : builder.parameterFor(operand));
    HloInstruction *root =
        builder.inlineBody(*fusion.fusedComputation(), arguments, /*takeNames=*/true);
    if (root->opcode() == HloOpcode::Tuple)
      into.insert(into.end(), root->operands().begin(), root->operands().end());
    else
      into.push_back(root);
    return root;
  };
  // A producer is inlined first, so that its consumer reads its value.
  std::vector<HloInstruction *> secondOutputs;
  if (secondFeedsFirst)
    secondValue = addOutputs(second, secondOutputs);
  addOutputs(first, outputs);
  if (!secondFeedsFirst)
    addOutputs(second, secondOutputs);
  size_t secondOffset = outputs.size();
  outputs.insert(outputs.end(), secondOutputs.begin(), secondOutputs.end());
  // Each output a buffer of its own where the caller asks: a value both
  // compute is computed twice, not shared.
  for (size_t i = secondOffset; distinctOutputs && i < outputs.size(); ++i)
    if (std::find(outputs.begin(), outputs.begin() + static_cast<std::ptrdiff_t>(i),
                  outputs[i]) != outputs.begin() + static_cast<std::ptrdiff_t>(i))
      outputs[i] = cloneInstruction(*builder.computation, *outputs[i], outputs[i]->operands(),
                                    context.names.unique(outputs[i]->name()));
  // Values both fusions compute (hash-consed into one) are one output:
  // `where[i]` is output i's position in the merged tuple.
  std::vector<int64_t> where;
  std::vector<HloInstruction *> distinct;
  for (HloInstruction *output : outputs) {
    auto found = std::find(distinct.begin(), distinct.end(), output);
    where.push_back(found - distinct.begin());
    if (found == distinct.end())
      distinct.push_back(output);
  }
  outputs = distinct;
  std::vector<Shape> shapes;
  for (const HloInstruction *output : outputs)
    shapes.push_back(output->shape());
  HloInstruction *root = addInstruction(*builder.computation, HloOpcode::Tuple,
                                        context.names.unique("tuple"), Shape::tuple(shapes),
                                        outputs);
  HloComputation *computation = builder.finish(root);
  removeDeadInstructions(*computation); // the inner tuples
  computation->setName(context.names.unique(computationName(*computation)));
  HloInstruction *fusion = addFusionInstruction(parent, computation, builder.operands, context);
  auto rewire = [&](HloInstruction &old, int64_t offset) {
    if (old.shape().isTuple()) {
      // Its users are get-tuple-elements: they read the merged tuple.
      std::vector<HloInstruction *> users = old.users();
      for (HloInstruction *user : users) {
        for (HloAttribute &attribute : user->mutableAttributes())
          if (attribute.name == "index")
            attribute.value.intValue = where[attribute.value.intValue + offset];
        user->replaceOperand(0, fusion);
      }
    } else {
      old.replaceAllUsesWith(
          addGetTupleElement(*fusion, where[offset], context.names.unique("get-tuple-element")));
    }
    old.dropOperands();
  };
  rewire(first, 0);
  rewire(second, static_cast<int64_t>(secondOffset));
  return fusion;
}

} // namespace

HloInstruction *mergeSiblingFusions(HloInstruction &first, HloInstruction &second,
                                    PassContext &context, bool distinctOutputs) {
  return mergeFusions(first, second, /*secondFeedsFirst=*/false, distinctOutputs, context);
}

HloInstruction *mergeProducerIntoConsumer(HloInstruction &consumer, HloInstruction &producer,
                                          PassContext &context) {
  return mergeFusions(consumer, producer, /*secondFeedsFirst=*/true,
                      /*distinctOutputs=*/false, context);
}

void replaceFusionKeepingName(HloInstruction &old, HloInstruction &replacement,
                              const std::string &suffix, PassContext &context) {
  std::string name = old.name();
  old.replaceAllUsesWith(&replacement);
  old.dropOperands();
  old.setName(context.names.unique(name + suffix));
  replacement.setName(name);
}

} // namespace hlo::opt
