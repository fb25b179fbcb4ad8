//===- EmitIndexing.h - --emit=indexing ------------------------*- C++ -*-===//
//
// Prints the indexing maps of the entry computation's root: for each
// operand (`operand N:`), its output-to-input maps (or, with
// --indexing=input-to-output, the maps from the operand to the root). A
// fusion root is composed through its fused computation, so its operands
// are the fusion's operands. Roots with several outputs print an
// `output K:` block per output.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_EMITINDEXING_H
#define HLO_DRIVER_EMITINDEXING_H

#include "hlo_parser/HloModule.h"

#include <string>
#include <vector>

namespace hlo::driver {

/// Appends the maps to `out`; on failure reports through `diagnostics` and
/// returns false.
bool emitIndexing(const HloModule &module, bool inputToOutput,
                  const std::vector<std::string> &kernels, std::string &out,
                  DiagnosticEngine &diagnostics);

} // namespace hlo::driver

#endif // HLO_DRIVER_EMITINDEXING_H
