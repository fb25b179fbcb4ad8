//===- TensorMapLayout.h - A TMA tensor map of a kernel's buffer -*- C++ -*-===//
//
// Owns what hlo-run hands cuTensorMapEncodeTiled for a kernel parameter the
// manifest passes as a tensor map (abi::TensorMapSpec): the element kind,
// the buffer's dimensions and byte strides in its layout's order (most
// minor first), the box and the swizzle, checked against the driver's
// documented rules so that a bad manifest is reported by name here rather
// than as CUDA_ERROR_INVALID_VALUE. Plain C++ without cuda.h: GpuContext
// maps the result onto the driver's enums.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_TENSORMAPLAYOUT_H
#define HLO_RUNTIME_TENSORMAPLAYOUT_H

#include "abi/LaunchManifest.h"
#include "support/ErrorOr.h"

#include <array>
#include <cstdint>

namespace hlo::runtime {

/// The element kinds a tensor map moves (CUtensorMapDataType's, by bits;
/// floats of 8 bits travel as bytes: the copy does not convert).
enum class TensorMapElement { U8, U16, U32, S32, U64, S64, F16, BF16, F32, F64 };

struct TensorMapLayout {
  TensorMapElement element = TensorMapElement::U8;
  int64_t elementBytes = 1;
  int rank = 0;
  /// Dimensions and box, most minor first; strides in bytes of dimensions
  /// 1..rank-1 (dimension 0 is contiguous).
  std::array<uint64_t, 5> dims{};
  std::array<uint64_t, 4> strides{};
  std::array<uint32_t, 5> box{};
  /// 0 (none), 32, 64 or 128.
  int swizzleBytes = 0;
};

/// The tensor map of `parameter` (which has a tensorMap, whose box and
/// swizzle the manifest reader checked), or why the driver would refuse it.
ErrorOr<TensorMapLayout> tensorMapLayout(const abi::KernelParameter &parameter);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_TENSORMAPLAYOUT_H
