//===- HloRewriting.h - Building blocks of the HLO passes -------*- C++ -*-===//
//
// Owns what every pass of src/hlo_opt needs to change a module: names that
// are unique in the module, cloning an instruction onto new operands (into
// any computation, keeping where it was written so that diagnostics still
// point into the user's file), the computations that run on the host side
// (where kernels are formed), side effects, and dead-code removal.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_HLOREWRITING_H
#define HLO_OPT_HLOREWRITING_H

#include "hlo_parser/HloModule.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hlo::opt {

/// Hands out instruction and computation names that no other one in the
/// module has: `base`, else `base.N` for the next free N (a trailing
/// `.N` of `base` itself is dropped first, so that copies of copies keep
/// short names). Constant time per name.
class NameUniquer {
public:
  explicit NameUniquer(const HloModule &module);
  std::string unique(const std::string &base);

private:
  std::unordered_set<std::string> taken;
  /// Per stem, the suffix to try next.
  std::unordered_map<std::string, int64_t> nextSuffix;
};

/// A copy of `original` (opcode, shape, attributes, literal, parameter
/// number, source offset) on `operands`, appended to `into`.
HloInstruction *cloneInstruction(HloComputation &into, const HloInstruction &original,
                                 const std::vector<HloInstruction *> &operands,
                                 std::string name);

/// The elementwise opcode a reducer applies (add, multiply, maximum,
/// minimum, and, or), if it is one op of its two parameters.
std::optional<HloOpcode> reducerOpcode(const HloComputation &reducer);

/// Whether `attribute` only annotates its instruction (metadata, sharding,
/// ...): two instructions that differ in it compute the same value.
bool isAnnotation(const HloAttribute &attribute);

/// What decides the value of `instruction` on `operands`: its opcode,
/// shape, operands, attributes (annotations aside) and literal; two
/// instructions with the same key compute the same value. Empty for
/// constants too large to compare this way.
std::string valueKey(const HloInstruction &instruction,
                     const std::vector<HloInstruction *> &operands);

/// Copies the instructions of `body` through `clone` (an instruction and
/// its new operands), its parameters bound to `arguments`; returns the
/// copy of its root.
HloInstruction *inlineComputation(
    const HloComputation &body, const std::vector<HloInstruction *> &arguments,
    const std::function<HloInstruction *(const HloInstruction &,
                                         const std::vector<HloInstruction *> &)> &clone);

/// A new instruction appended to `into`, with `operands` and `attributes`,
/// written at `sourceOffset` (where the instruction it stands for was).
HloInstruction *addInstruction(HloComputation &into, HloOpcode opcode, std::string name,
                               Shape shape, const std::vector<HloInstruction *> &operands,
                               std::vector<HloAttribute> attributes = {},
                               uint32_t sourceOffset = kNoOffset);

/// Element `index` of `tuple`'s value, appended to its computation.
HloInstruction *addGetTupleElement(HloInstruction &tuple, int64_t index, std::string name);

/// A new parameter `number` of `shape` appended to `into`.
HloInstruction *addParameter(HloComputation &into, int64_t number, const Shape &shape,
                             std::string name);

/// The entry and every computation its control flow (while, conditional,
/// call) reaches, transitively, entry first: where kernels are launched
/// from.
std::vector<HloComputation *> hostComputations(const HloModule &module);

/// Whether removing an unused `instruction` would change what the module
/// does (collectives, sends, outfeeds, custom-calls that say so, ...).
bool hasSideEffect(const HloInstruction &instruction);

/// Removes the instructions of `computation` whose values reach neither
/// its root nor a side effect (parameters stay); true if any was removed.
bool removeDeadInstructions(HloComputation &computation);

/// Computations no instruction of the module calls any more (the entry
/// stays), removed; true if any was.
bool removeUnusedComputations(HloModule &module);

} // namespace hlo::opt

#endif // HLO_OPT_HLOREWRITING_H
