//===- FusionBuilder.h - Make and grow fusion instructions ------*- C++ -*-===//
//
// Owns the HLO side of fusing: an instruction wrapped into a fusion of its
// own, a producer (an instruction or a fusion) fused into a consumer fusion
// in place of the parameters that read it, and the names and kinds XLA
// gives fusions (`loop_add_fusion`, `input_reduce_fusion`, computations
// `fused_add`, ...). Fused computations are rebuilt, not edited: the
// parameters are renumbered after the consumer's remaining operands and
// the producer's operands, each instruction once.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_FUSIONBUILDER_H
#define HLO_OPT_FUSIONBUILDER_H

#include "HloPass.h"

#include <map>
#include <unordered_map>

namespace hlo::opt {

/// Builds a fused computation (appended to the module, unnamed until its
/// hero is known): a parameter for each outside value, once; copies of
/// inside instructions, hash-consed (a producer fused into two consumers
/// that are then fused together is computed once).
class FusedComputationBuilder {
public:
  FusedComputationBuilder(HloModule &module, PassContext &context);
  /// The parameter that stands for outside value `value`.
  HloInstruction *parameterFor(HloInstruction *value);
  /// A copy of `original` on `newOperands`, or the equal copy made before.
  /// The copy takes `original`'s name where `original` is about to go
  /// (`takeName`), else a new one.
  HloInstruction *clone(const HloInstruction &original,
                        const std::vector<HloInstruction *> &newOperands,
                        bool takeName = false);
  /// Copies `body` (a fused computation) with its parameters bound to
  /// `arguments`; returns the copy of its root. With `takeNames`, the
  /// copies keep the names of `body`'s instructions (the caller removes
  /// `body`: renaming what a fusion rebuilds each time cost more than the
  /// rest of priority fusion).
  HloInstruction *inlineBody(const HloComputation &body,
                             const std::vector<HloInstruction *> &arguments,
                             bool takeNames = false);
  /// Sets the root, numbers the parameters, orders the instructions.
  HloComputation *finish(HloInstruction *root);

  HloComputation *computation;
  /// The outside values, in parameter order: the fusion's operands.
  std::vector<HloInstruction *> operands;

private:
  PassContext &context;
  std::map<HloInstruction *, HloInstruction *> parameters;
  std::unordered_map<std::string, HloInstruction *> copies;
};

/// The instruction a fused computation is named after: its reduce,
/// scatter, sort, transpose, concatenate or dynamic-update-slice if it has
/// one, else its root (through tuples).
const HloInstruction *fusionHero(const HloComputation &computation);

/// Replaces `instruction` by a fusion that computes it; returns the fusion.
HloInstruction *wrapInFusion(HloInstruction &instruction, PassContext &context);

/// Replaces `consumer` (a fusion) by one that also computes `producer`
/// (read by `consumer`) inside; returns it. `producer` itself stays, with
/// one user less.
HloInstruction *fuseProducerInto(HloInstruction &consumer, HloInstruction &producer,
                                 PassContext &context);

/// Replaces fusions `first` and `second` by one multi-output fusion that
/// computes both (reading their common operands once, and common
/// subexpressions once); their users read its tuple's elements. Neither
/// may reach the other. An output both compute is one output, unless
/// `distinctOutputs` (each keeps a buffer of its own: the zeros that two
/// scatters update in place). Returns it.
HloInstruction *mergeSiblingFusions(HloInstruction &first, HloInstruction &second,
                                    PassContext &context, bool distinctOutputs = false);

/// Replaces fusion `consumer` and its producer, the fusion `producer`
/// (not a tuple; read by others too), by one multi-output fusion that
/// computes the producer's value once inside, for the consumer and as an
/// output for the producer's other users (XLA's producer-consumer
/// multi-output fusion). No other user of the producer may reach the
/// consumer. Returns it.
HloInstruction *mergeProducerIntoConsumer(HloInstruction &consumer, HloInstruction &producer,
                                          PassContext &context);

/// A fusion instruction of `kind` (kLoop, kInput, kCustom) calling
/// `computation` on `operands`, appended to `into` with a name from `hero`.
HloInstruction *addFusionInstruction(HloComputation &into, HloComputation *computation,
                                     const std::vector<HloInstruction *> &operands,
                                     PassContext &context, std::string_view backendConfig = "");

/// Replaces `old` (a fusion a pass rewrote into others) by `replacement`
/// in every use, which takes `old`'s name (what the kernels and XLA's
/// dumps call it); `old`, detached, is renamed with `suffix` for the dead
/// code pass to remove.
void replaceFusionKeepingName(HloInstruction &old, HloInstruction &replacement,
                              const std::string &suffix, PassContext &context);

} // namespace hlo::opt

#endif // HLO_OPT_FUSIONBUILDER_H
