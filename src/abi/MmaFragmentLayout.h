//===- MmaFragmentLayout.h - Where mma.sync fragments lie --------*- C++ -*-===//
//
// The PTX ISA's layout of mma.sync's matrix fragments over a warp's lanes,
// as one rule for every shape: the compiler's GEMM emitter places values
// by it (dialect/MmaSyncKind.h) and the host runtime's warp-collective
// mma.sync gathers them by it (runtime/host/WarpMatrixOps.cpp), so the
// two cannot disagree; WarpMatrixOpsTest checks it against the ISA's
// per-shape tables. Plain C++, header only: both tools include it.
//
// An operand (A: M x K, B: N x K, i.e. column-major K x N; C and D: M x N)
// is cut into tiles of 8 rows and a line: 128 bits of A or B, 256 bits of
// f64 A or B, 8 elements of C. A lane's register holds `perRegister`
// consecutive elements of row lane/4 of one tile, from element
// (lane%4) * perRegister of the line; the registers walk the tiles down
// the rows first.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_MMAFRAGMENTLAYOUT_H
#define HLO_ABI_MMAFRAGMENTLAYOUT_H

#include <cstdint>

namespace hlo::abi {

/// Value `value` of a lane's fragment lies at row lane/4 + rowOffset,
/// column (lane%4) * perRegister + columnOffset of its operand.
struct MmaFragmentOffset {
  int64_t rowOffset, columnOffset, perRegister;
};

/// The offset of `value` in an operand of `rows` rows whose elements have
/// `elementBits` bits; `accumulator` for C and D.
inline MmaFragmentOffset mmaFragmentOffset(int64_t rows, int64_t elementBits,
                                           bool accumulator, int64_t value) {
  int64_t perRegister = 2, line = 8;
  if (!accumulator && elementBits == 64) {
    perRegister = 1;
    line = 4;
  } else if (!accumulator) {
    perRegister = 32 / elementBits;
    line = 128 / elementBits;
  }
  int64_t reg = value / perRegister, rowTiles = rows / 8;
  return {(reg % rowTiles) * 8, (reg / rowTiles) * line + value % perRegister, perRegister};
}

} // namespace hlo::abi

#endif // HLO_ABI_MMAFRAGMENTLAYOUT_H
