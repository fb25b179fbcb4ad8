//===- OperandBufferSharing.h - Results that may take an operand's memory -*- C++ -*-===//
//
// Owns which operand's buffer a kernel's result may be written over when
// that operand is dead after the kernel, as XLA's dataflow analysis allows
// (CanShareOperandBufferWithUser): a loop fusion of one array result whose
// operand, of the result's very shape and layout, is read only by
// elementwise ops of the result's dimensions, so that every element of it
// is read by the thread that writes the same element of the result, before
// it writes it. The memory plan (driver/BufferPlan) decides whether the
// operand is dead; the kernel is the same either way.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_OPERANDBUFFERSHARING_H
#define HLO_ANALYSIS_OPERANDBUFFERSHARING_H

#include "hlo_parser/HloComputation.h"

#include <cstdint>

namespace hlo {

/// The parameter of the fused computation `fused` (a loop fusion's) whose
/// buffer its result may share; -1 if none.
int64_t elementwiseSharableParameter(const HloComputation &fused);

} // namespace hlo

#endif // HLO_ANALYSIS_OPERANDBUFFERSHARING_H
