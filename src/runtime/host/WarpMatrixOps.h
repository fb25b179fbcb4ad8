//===- WarpMatrixOps.h - mma.sync, ldmatrix, stmatrix over a warp -*- C++ -*-===//
//
// Owns what the host target's warp-collective matrix operations compute
// once every lane of a warp has arrived (BlockRunner gathers the lanes):
// PTX's mma.sync (HloHostMmaKind in abi/HostKernelAbi.h), ldmatrix and stmatrix,
// with the operands spread over the 32 lanes as the PTX ISA's matrix
// fragment layouts say (abi/MmaFragmentLayout.h, the rule the compiler
// follows too). Plain functions of the lanes' operand pointers,
// so that the layouts are tested without a kernel (WarpMatrixOpsTest).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_WARPMATRIXOPS_H
#define HLO_RUNTIME_HOST_WARPMATRIXOPS_H

#include "support/ErrorOr.h"

#include <array>
#include <cstdint>

namespace hlo::runtime {

constexpr unsigned kLanesPerWarp = 32;

/// One lane's operands of an mma.sync: its A, B and C fragment registers
/// and where its D fragment goes (it may alias C).
struct MmaLane {
  const void *a = nullptr, *b = nullptr, *c = nullptr;
  void *d = nullptr;
};

/// D = A * B + C for the warp, an mma.sync of `kind` (HloHostMmaKind); the
/// error names an unknown kind. Each D is written after every lane's
/// operands are read.
Status warpMma(uint32_t kind, const std::array<MmaLane, kLanesPerWarp> &lanes);

/// Where value `value` of a lane's fragment of one operand of an mma.sync
/// lies in that operand: A is M x K, B is N x K (column-major K x N), C and
/// D are M x N.
struct FragmentPosition {
  int row = 0, column = 0;
};
enum class MmaOperand { A, B, C };
/// The position, or an error for an unknown kind or a value out of range.
ErrorOr<FragmentPosition> mmaFragmentPosition(uint32_t kind, MmaOperand operand, int lane,
                                              int value);

/// One lane's part of an ldmatrix: the row address it gives and where its
/// registers go (one per matrix).
struct LdmatrixLane {
  const void *rowAddress = nullptr;
  uint32_t *result = nullptr;
};

/// ldmatrix.m8n8.x`matrices`[.trans].b16 for the warp. The caller has
/// checked `matrices` (1, 2 or 4) and the row addresses.
void warpLdmatrix(uint32_t matrices, bool transpose,
                  const std::array<LdmatrixLane, kLanesPerWarp> &lanes);

/// One lane's part of a stmatrix: the row address it gives and its
/// registers (one per matrix).
struct StmatrixLane {
  void *rowAddress = nullptr;
  const uint32_t *values = nullptr;
};

/// stmatrix.m8n8.x`matrices`.b16 for the warp: register i of lane l holds
/// elements 2 * (l % 4) and 2 * (l % 4) + 1 of row l / 4 of matrix i
/// (low half first). The caller has checked `matrices` and the row
/// addresses.
void warpStmatrix(uint32_t matrices, const std::array<StmatrixLane, kLanesPerWarp> &lanes);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_WARPMATRIXOPS_H
