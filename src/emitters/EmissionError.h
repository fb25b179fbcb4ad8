//===- EmissionError.h - Why an emitter failed ------------------*- C++ -*-===//
//
// The error the emitters report a failure with: an llvm::Error carrying an
// EmissionFailure, the instruction the failure is about (null when it is
// about none) and the message the diagnostics print there. Emitter
// functions return it as llvm::Error or llvm::Expected<T>, so a failure
// cannot be dropped on the way to the fusion emitter, which reports it per
// kernel (FusionEmitter.cpp).
//
// DeferredError holds the error of a callback that can only fail by
// returning nothing (an emitLoop or emitIf body) until the function around
// it returns it.
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

/// The error a callback that fails by returning nothing leaves for the
/// function around it. As with the out-parameter it replaces, a later
/// error replaces an earlier one, and a failure that recorded none is
/// reported without instruction or message.
class DeferredError {
public:
  DeferredError() = default;
  DeferredError(const DeferredError &) = delete;
  DeferredError &operator=(const DeferredError &) = delete;
  /// An error recorded but never taken belonged to an emission that went
  /// on anyway: it is dropped, as before.
  ~DeferredError() { llvm::consumeError(std::move(error)); }

  /// Records `next` in place of what was recorded.
  void set(llvm::Error next) {
    llvm::consumeError(std::move(error));
    error = std::move(next);
  }
  /// The error recorded (none is left), or an EmissionFailure without
  /// instruction and message.
  [[nodiscard]] llvm::Error take();

private:
  llvm::Error error = llvm::Error::success();
};

} // namespace hlo

#endif // HLO_EMITTERS_EMISSIONERROR_H
