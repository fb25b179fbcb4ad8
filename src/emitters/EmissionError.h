//===- EmissionError.h - Why an emitter failed ------------------*- C++ -*-===//
//
// The error the emitters report a failure with: an llvm::Error carrying an
// EmissionFailure, the instruction the failure is about (null when it is
// about none) and the message the diagnostics print there. Emitter
// functions return it as llvm::Error or llvm::Expected<T>, so a failure
// cannot be dropped on the way to the fusion emitter, which reports it per
// kernel (FusionEmitter.cpp).
//
// Loop and branch bodies return llvm::Expected values too
// (EmitterBase::emitLoop, emitIf); a body built inside a region builder
// that cannot return (scf.for) yields its values unchanged and the
// function that built the region returns the first failure.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMISSIONERROR_H
#define HLO_EMITTERS_EMISSIONERROR_H

#include "llvm/Support/Error.h"

#include <string>

namespace hlo {

class HloInstruction;

/// An emitter's failure at an instruction.
class EmissionFailure : public llvm::ErrorInfo<EmissionFailure> {
public:
  static char ID;

  EmissionFailure(const HloInstruction *instruction, std::string message)
      : instructionValue(instruction), messageValue(std::move(message)) {}

  /// Where the failure is reported; null: at no instruction.
  const HloInstruction *instruction() const { return instructionValue; }
  std::string message() const override { return messageValue; }

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  const HloInstruction *instructionValue;
  std::string messageValue;
};

/// An EmissionFailure at `instruction` saying `message`.
[[nodiscard]] llvm::Error emissionError(const HloInstruction *instruction,
                                        std::string message);

} // namespace hlo

#endif // HLO_EMITTERS_EMISSIONERROR_H
