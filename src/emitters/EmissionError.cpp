//===- EmissionError.cpp - Why an emitter failed --------------------------===//
#include "emitters/EmissionError.h"

#include "llvm/Support/raw_ostream.h"

namespace hlo {

char EmissionFailure::ID = 0;

void EmissionFailure::log(llvm::raw_ostream &os) const { os << messageValue; }

std::error_code EmissionFailure::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error emissionError(const HloInstruction *instruction, std::string message) {
  return llvm::make_error<EmissionFailure>(instruction, std::move(message));
}

} // namespace hlo
