//===- DotOp.cpp - dot ----------------------------------------------------===//
//
// dot with batch and contracting dimensions: output dimensions are the batch
// dimensions, then lhs's free ones, then rhs's. Operands are converted to the
// result type; float sums accumulate in double and round once at the end.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"
#include "Ops.h"

#include <algorithm>
#include <complex>

namespace hlo::interp {
namespace {

std::vector<int64_t> freeDims(int64_t rank, const std::vector<int64_t> &batch,
                              const std::vector<int64_t> &contracting) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end())
      dims.push_back(d);
  return dims;
}

} // namespace

Literal evaluateDot(const HloInstruction &instruction, const Operands &operands) {
  const Literal &lhs = *operands[0], &rhs = *operands[1];
  const std::vector<int64_t> &lhsBatch = instruction.intListAttr("lhs_batch_dims");
  const std::vector<int64_t> &rhsBatch = instruction.intListAttr("rhs_batch_dims");
  const std::vector<int64_t> &lhsContracting = instruction.intListAttr("lhs_contracting_dims");
  const std::vector<int64_t> &rhsContracting = instruction.intListAttr("rhs_contracting_dims");
  std::vector<int64_t> lhsFree = freeDims(lhs.shape().rank(), lhsBatch, lhsContracting);
  std::vector<int64_t> rhsFree = freeDims(rhs.shape().rank(), rhsBatch, rhsContracting);
  std::vector<int64_t> lhsStrides = rowMajorStrides(lhs.shape().dimensions());
  std::vector<int64_t> rhsStrides = rowMajorStrides(rhs.shape().dimensions());
  std::vector<int64_t> contractingSizes;
  for (int64_t d : lhsContracting)
    contractingSizes.push_back(lhs.shape().dimension(d));

  PrimitiveType resultType = instruction.shape().elementType();
  PrimitiveType lhsType = lhs.shape().elementType(), rhsType = rhs.shape().elementType();
  ElementClass resultClass = elementClass(resultType);
  Literal result(instruction.shape());
  std::vector<int64_t> lhsIndex(lhs.shape().rank()), rhsIndex(rhs.shape().rank());
  forEachIndex(instruction.shape().dimensions(), [&](const std::vector<int64_t> &out, int64_t linear) {
    size_t position = 0;
    for (size_t i = 0; i < lhsBatch.size(); ++i, ++position) {
      lhsIndex[lhsBatch[i]] = out[position];
      rhsIndex[rhsBatch[i]] = out[position];
    }
    for (int64_t d : lhsFree)
      lhsIndex[d] = out[position++];
    for (int64_t d : rhsFree)
      rhsIndex[d] = out[position++];
    std::complex<double> sum = 0;
    int64_t integerSum = 0;
    forEachIndex(contractingSizes, [&](const std::vector<int64_t> &k, int64_t) {
      for (size_t i = 0; i < k.size(); ++i) {
        lhsIndex[lhsContracting[i]] = k[i];
        rhsIndex[rhsContracting[i]] = k[i];
      }
      Scalar x = convertScalar(loadScalar(lhs, linearIndex(lhsIndex, lhsStrides)), lhsType, resultType);
      Scalar y = convertScalar(loadScalar(rhs, linearIndex(rhsIndex, rhsStrides)), rhsType, resultType);
      if (resultClass == ElementClass::Float || resultClass == ElementClass::Complex)
        sum += std::complex<double>(x.re, x.im) * std::complex<double>(y.re, y.im);
      else if (resultClass == ElementClass::Pred)
        integerSum |= x.i & y.i;
      else
        integerSum = wrapInteger(static_cast<int64_t>(static_cast<uint64_t>(integerSum) +
                                                      static_cast<uint64_t>(x.i) *
                                                          static_cast<uint64_t>(y.i)),
                                 resultType);
    });
    storeScalar(result, linear,
                roundScalar(Scalar{integerSum, sum.real(), sum.imag()}, resultType));
  });
  return result;
}

} // namespace hlo::interp
