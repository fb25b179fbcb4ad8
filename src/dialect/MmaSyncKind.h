//===- MmaSyncKind.h - The tiles and types of xla_gpu.mma_sync --*- C++ -*-===//
//
// Owns the one table of the warp-level multiply-accumulates the dialect
// can express (xla_gpu.mma_sync's shapes and element types, as its ODS
// description lists them): the verifier checks an op against it and each
// target's lowering reads the op's kind from it.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DIALECT_MMASYNCKIND_H
#define HLO_DIALECT_MMASYNCKIND_H

#include "abi/MmaFragmentLayout.h"

#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace hlo::xla_gpu {

using abi::MmaFragmentOffset;

class MmaSyncOp;

/// The element types of an mma.sync's operands.
enum class MmaInput { BF16, F16, TF32, F64, S8, F8E4M3FN, F8E5M2 };

/// One warp-level multiply-accumulate: its tile and operand types.
struct MmaSyncKind {
  int64_t m, n, k;
  MmaInput input;
  /// B's type where it is not A's (mixed 8-bit floats: e4m3 x e5m2).
  std::optional<MmaInput> inputB = std::nullopt;
  MmaInput bInput() const { return inputB ? *inputB : input; }
  /// Values per lane of each operand's fragment.
  int64_t aValues() const { return m * k / 32; }
  int64_t bValues() const { return n * k / 32; }
  int64_t cValues() const { return m * n / 32; }
};

/// The operands of an mma.sync, as fragments see them: A is M x K, B is
/// N x K (column-major K x N), C and D are M x N.
enum class MmaOperand { A, B, C };

/// Where value `value` of a lane's fragment lies in its operand: the PTX
/// ISA's layout (abi/MmaFragmentLayout.h, which the host runtime follows
/// too).
MmaFragmentOffset mmaFragmentOffset(const MmaSyncKind &kind, MmaOperand operand,
                                    int64_t value);

/// The bits of one A or B element.
int64_t mmaInputBits(MmaInput input);

/// The kind of `op`, or why it is none (for the verifier's message).
llvm::Expected<MmaSyncKind> mmaSyncKindOf(MmaSyncOp op);

} // namespace hlo::xla_gpu

#endif // HLO_DIALECT_MMASYNCKIND_H
