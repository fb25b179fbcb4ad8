//===- TensorMapFixture.h - Tensor maps for the TMA model tests -*- C++ -*-===//
//
// What the host TMA models' tests (TmaBarriersTest, TmaStoresTest) share:
// the HloHostTensorMap of a row-major [rows][columns] u16 tensor, as
// hlo-run encodes one (abi/HostKernelAbi.h).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_TESTS_UNIT_TENSORMAPFIXTURE_H
#define HLO_TESTS_UNIT_TENSORMAPFIXTURE_H

#include "abi/HostKernelAbi.h"

#include <cstdint>

namespace hlo::test {

/// The map of a row-major [rows][columns] u16 tensor at `base`, with a
/// `boxColumns` x `boxRows` box and `swizzle` (bytes; 0: none).
inline HloHostTensorMap rowMajorU16Map(const void *base, uint32_t rows, uint32_t columns,
                                       uint32_t boxColumns, uint32_t boxRows,
                                       uint32_t swizzle) {
  HloHostTensorMap map{};
  map.base = base;
  map.rank = 2;
  map.elementBytes = 2;
  map.swizzle = swizzle;
  map.dims[0] = columns;
  map.dims[1] = rows;
  map.strides[0] = 2;
  map.strides[1] = uint64_t(columns) * 2;
  map.box[0] = boxColumns;
  map.box[1] = boxRows;
  return map;
}

} // namespace hlo::test

#endif // HLO_TESTS_UNIT_TENSORMAPFIXTURE_H
