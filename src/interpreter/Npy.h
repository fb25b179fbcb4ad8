//===- Npy.h - NumPy .npy files --------------------------------*- C++ -*-===//
//
// Reads and writes arrays as NumPy .npy (format 1.0, C order, little-
// endian). Element types numpy lacks are stored as their bits: bf16 as
// '<V2' and the f8/f4 formats as '|V1' (what ml_dtypes' dtypes report;
// `np.load(f).view(ml_dtypes.bfloat16)` restores them); s4/s2 and u4/u2 one
// byte each as '|i1' / '|u1'.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_NPY_H
#define HLO_INTERPRETER_NPY_H

#include "support/ErrorOr.h"
#include "hlo_parser/Literal.h"

#include <optional>
#include <string>

namespace hlo::interp {

/// The numpy dtype descriptor used for `type` ('<f4', '|b1', '<V2', ...).
std::string npyDescriptor(PrimitiveType type);

std::string encodeNpy(const Literal &array);
/// Decodes .npy bytes into an array of `shape`'s element type; the file's
/// shape must equal `shape`'s dimensions and its dtype must have the same
/// element size and kind (raw bits '<V2'/'<u2' accepted for bf16, etc.).
ErrorOr<Literal> decodeNpy(const std::string &bytes, const Shape &shape);

Status writeNpyFile(const std::string &path, const Literal &array);
/// Reads and decodes the file; errors name the path.
ErrorOr<Literal> readNpyFile(const std::string &path, const Shape &shape);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_NPY_H
