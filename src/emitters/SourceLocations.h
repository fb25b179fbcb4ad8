//===- SourceLocations.h - HLO instructions as MLIR locations ---*- C++ -*-===//
//
// Owns the MLIR location of an HLO instruction: `file:line:col` of its
// text. The emitters put it on every op they build for the instruction, so
// that diagnostics about emitted IR name the HLO, and, with -lineinfo, the
// PTX's .loc lines lead Nsight Compute back to the HLO that each instruction
// computes.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_SOURCELOCATIONS_H
#define HLO_EMITTERS_SOURCELOCATIONS_H

#include "hlo_parser/HloInstruction.h"
#include "hlo_parser/SourceFile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include <string>

namespace hlo {

class SourceLocations {
public:
  SourceLocations(const SourceFile *file, mlir::MLIRContext *context)
      : file(file), context(context) {}

  /// Where `instruction` is written; unknown without a file or offset.
  mlir::Location of(const HloInstruction *instruction) const {
    if (!file || !instruction || instruction->sourceOffset() == kNoOffset)
      return mlir::UnknownLoc::get(context);
    auto [line, column] = file->lineAndColumn(instruction->sourceOffset());
    return mlir::FileLineColLoc::get(context, file->name(), line, column);
  }

  /// "file:line:col: " for a location that holds one (fused or not), else
  /// "": where an MLIR diagnostic about emitted IR points in the HLO.
  static std::string prefixOf(mlir::Location location) {
    std::string prefix;
    location->walk([&](mlir::Location inner) {
      if (auto position = mlir::dyn_cast<mlir::FileLineColLoc>(inner)) {
        prefix = position.getFilename().str() + ":" + std::to_string(position.getLine()) +
                 ":" + std::to_string(position.getColumn()) + ": ";
        return mlir::WalkResult::interrupt();
      }
      return mlir::WalkResult::advance();
    });
    return prefix;
  }

private:
  const SourceFile *file;
  mlir::MLIRContext *context;
};

} // namespace hlo

#endif // HLO_EMITTERS_SOURCELOCATIONS_H
