//===- ScatterIndexInputs.h - Inputs that keep a scatter's promises -*- C++ -*-===//
//
// The generated indices of a scatter that promises unique_indices or
// indices_are_sorted. See ScatterIndexInputs.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_SCATTERINDEXINPUTS_H
#define HLO_INTERPRETER_SCATTERINDEXINPUTS_H

#include "hlo_parser/HloInstruction.h"
#include "hlo_parser/Literal.h"

#include <cstdint>
#include <optional>

namespace hlo::interp {

/// Indices of `shape` for `parameter` when it is (through fusions and
/// calls) the indices operand of a scatter that promises unique or sorted
/// indices; nullopt for any other parameter, or where the promise cannot
/// be kept in the index type.
std::optional<Literal> promisedScatterIndices(const HloInstruction &parameter,
                                              const Shape &shape, uint64_t seed);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_SCATTERINDEXINPUTS_H
