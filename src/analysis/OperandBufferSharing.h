//===- OperandBufferSharing.h - Results that may take an operand's memory -*- C++ -*-===//
//
// Owns which operand's buffer a kernel's result may be written over when
// that operand is dead after the kernel, as XLA's dataflow analysis allows
// (CanShareOperandBufferWithUser): a loop fusion of one array result whose
// operand, of the result's very shape and layout, is read only by
// elementwise ops of the result's dimensions, so that every element of it
// is read by the thread that writes the same element of the result, before
// it writes it. The memory plan (driver/BufferPlan) decides whether the
// operand is dead; the kernel is the same either way. A reduction
// fusion's side output likewise (sideOutputSharableParameters).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_OPERANDBUFFERSHARING_H
#define HLO_ANALYSIS_OPERANDBUFFERSHARING_H

#include "hlo_parser/HloComputation.h"

#include <cstdint>
#include <vector>

namespace hlo {

/// The parameter of the fused computation `fused` (a loop fusion's) whose
/// buffer its result may share; -1 if none.
int64_t elementwiseSharableParameter(const HloComputation &fused);

/// Per root of a reduction fusion's computation (getFusionRoots): the
/// parameter whose buffer that array side output may share, or -1; as XLA
/// lets a reduction fusion's elementwise output take an operand's memory.
/// The parameter and the side output have as many elements of one width,
/// in row-major layouts; the side output is computed from the parameter
/// (not from a reduce's result, written after the reduction); and every
/// use of the parameter, and of what is computed from it, is an
/// elementwise op, a bitcast or reshape between such layouts (the linear
/// index kept), a reduce that reads it as an input and gives its result
/// only to the root, or the root. So each element is read only in the
/// iteration of the reduction emitter's loop that visits its linear index,
/// which writes the side output's element after reading it
/// (ReductionEmitter::emitPerThreadElements). Each parameter goes to at
/// most one side output. Whether the fusion is one group of reductions is
/// the emitter's to check.
std::vector<int64_t> sideOutputSharableParameters(const HloComputation &fused);

} // namespace hlo

#endif // HLO_ANALYSIS_OPERANDBUFFERSHARING_H
