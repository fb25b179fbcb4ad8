//===- Ops.h - The interpreter's op families -------------------*- C++ -*-===//
//
// Internal: one entry point per op family, each in its own file. Every
// function takes the instruction and its evaluated operands and returns the
// instruction's value; families that call computations (reduce, sort, ...)
// take the Evaluator.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_OPS_H
#define HLO_INTERPRETER_OPS_H

#include "ArrayUtils.h"

namespace hlo::interp {

class Evaluator;
using Operands = std::vector<const Literal *>;

/// broadcast, reshape, bitcast, transpose, slice, dynamic-slice,
/// dynamic-update-slice, pad, concatenate, reverse, iota, copy.
bool isShapeOpcode(HloOpcode opcode);
Literal evaluateShapeOp(const HloInstruction &instruction, const Operands &operands);

/// reduce, reduce-window, select-and-scatter, map.
Literal evaluateReduce(const HloInstruction &instruction, const Operands &operands,
                       Evaluator &evaluator);
Literal evaluateReduceWindow(const HloInstruction &instruction,
                             const Operands &operands, Evaluator &evaluator);
Literal evaluateSelectAndScatter(const HloInstruction &instruction,
                                 const Operands &operands, Evaluator &evaluator);
Literal evaluateMap(const HloInstruction &instruction, const Operands &operands,
                    Evaluator &evaluator);

Literal evaluateGather(const HloInstruction &instruction, const Operands &operands);
Literal evaluateScatter(const HloInstruction &instruction, const Operands &operands,
                        Evaluator &evaluator);
Literal evaluateDot(const HloInstruction &instruction, const Operands &operands);
Literal evaluateSort(const HloInstruction &instruction, const Operands &operands,
                     Evaluator &evaluator);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_OPS_H
