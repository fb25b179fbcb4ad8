//===- DotOp.cpp - dot ----------------------------------------------------===//
//
// dot with batch and contracting dimensions: output dimensions are the batch
// dimensions, then lhs's free ones, then rhs's. Operands are converted to the
// result type first; float sums accumulate in double and round once at the
// end; integer sums wrap in the result type. The contraction walks
// precomputed offsets, so large dots (10^9 multiply-adds) take seconds.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"
#include "Ops.h"

#include "hlo_parser/FloatFormat.h"

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

/// The dot as batches of row-by-row products: lhs rows (batch, lhs free
/// index) and rhs rows (batch, rhs free index), each of `depth` contracted
/// elements at the given offsets.
struct DotGeometry {
  int64_t batches = 1, lhsRows = 1, rhsRows = 1, depth = 1;
  std::vector<int64_t> lhsRowBase, rhsRowBase; // per batch * rows
  std::vector<int64_t> lhsStep, rhsStep;       // per contracted element
};

/// Row base offsets over [batch dims..., free dims...] of one operand.
std::vector<int64_t> rowBases(const Shape &shape, const std::vector<int64_t> &batch,
                              const std::vector<int64_t> &free) {
  std::vector<int64_t> strides = rowMajorStrides(shape.dimensions()), sizes, dimStrides;
  for (int64_t d : batch) {
    sizes.push_back(shape.dimension(d));
    dimStrides.push_back(strides[d]);
  }
  for (int64_t d : free) {
    sizes.push_back(shape.dimension(d));
    dimStrides.push_back(strides[d]);
  }
  std::vector<int64_t> bases;
  forEachIndex(sizes, [&](const std::vector<int64_t> &index, int64_t) {
    bases.push_back(linearIndex(index, dimStrides));
  });
  if (sizes.empty())
    bases.push_back(0);
  return bases;
}

DotGeometry dotGeometry(const HloInstruction &instruction, const Shape &lhsShape,
                        const Shape &rhsShape) {
  const std::vector<int64_t> &lhsBatch = instruction.intListAttr("lhs_batch_dims");
  const std::vector<int64_t> &rhsBatch = instruction.intListAttr("rhs_batch_dims");
  const std::vector<int64_t> &lhsContracting = instruction.intListAttr("lhs_contracting_dims");
  const std::vector<int64_t> &rhsContracting = instruction.intListAttr("rhs_contracting_dims");
  std::vector<int64_t> lhsFree = freeDims(lhsShape.rank(), lhsBatch, lhsContracting);
  std::vector<int64_t> rhsFree = freeDims(rhsShape.rank(), rhsBatch, rhsContracting);

  DotGeometry geometry;
  for (int64_t d : lhsBatch)
    geometry.batches *= lhsShape.dimension(d);
  for (int64_t d : lhsFree)
    geometry.lhsRows *= lhsShape.dimension(d);
  for (int64_t d : rhsFree)
    geometry.rhsRows *= rhsShape.dimension(d);
  geometry.lhsRowBase = rowBases(lhsShape, lhsBatch, lhsFree);
  geometry.rhsRowBase = rowBases(rhsShape, rhsBatch, rhsFree);

  std::vector<int64_t> lhsStrides = rowMajorStrides(lhsShape.dimensions());
  std::vector<int64_t> rhsStrides = rowMajorStrides(rhsShape.dimensions());
  std::vector<int64_t> contractingSizes;
  for (int64_t d : lhsContracting)
    contractingSizes.push_back(lhsShape.dimension(d));
  geometry.lhsStep.push_back(0); // no contracting dims: one product
  geometry.rhsStep.push_back(0);
  if (!contractingSizes.empty()) {
    geometry.lhsStep.clear();
    geometry.rhsStep.clear();
  }
  forEachIndex(contractingSizes, [&](const std::vector<int64_t> &k, int64_t) {
    int64_t lhs = 0, rhs = 0;
    for (size_t i = 0; i < k.size(); ++i) {
      lhs += k[i] * lhsStrides[lhsContracting[i]];
      rhs += k[i] * rhsStrides[rhsContracting[i]];
    }
    geometry.lhsStep.push_back(lhs);
    geometry.rhsStep.push_back(rhs);
  });
  geometry.depth = static_cast<int64_t>(geometry.lhsStep.size());
  return geometry;
}

/// operand[base[row] + step[k]], converted to `resultType` as T, gathered
/// into contiguous rows of step.size() elements.
template <typename T>
std::vector<T> packedRows(const Literal &operand, const std::vector<int64_t> &base,
                          const std::vector<int64_t> &step, PrimitiveType resultType) {
  PrimitiveType type = operand.shape().elementType();
  std::vector<T> rows(base.size() * step.size());
  for (size_t row = 0; row < base.size(); ++row)
    for (size_t k = 0; k < step.size(); ++k) {
      Scalar x = convertScalar(loadScalar(operand, base[row] + step[k]), type, resultType);
      T &value = rows[row * step.size() + k];
      if constexpr (std::is_same_v<T, int64_t>)
        value = x.i;
      else if constexpr (std::is_same_v<T, double>)
        value = x.re;
      else
        value = T(x.re, x.im);
    }
  return rows;
}

/// Sum of products per output element (batch, lhs row, rhs row), in T.
template <typename T, typename Add, typename Multiply>
std::vector<T> contract(const DotGeometry &geometry, const Literal &lhs, const Literal &rhs,
                        PrimitiveType resultType, Add add, Multiply multiply) {
  std::vector<T> left = packedRows<T>(lhs, geometry.lhsRowBase, geometry.lhsStep, resultType);
  std::vector<T> right = packedRows<T>(rhs, geometry.rhsRowBase, geometry.rhsStep, resultType);
  int64_t depth = geometry.depth;
  std::vector<T> sums;
  sums.reserve(geometry.batches * geometry.lhsRows * geometry.rhsRows);
  for (int64_t b = 0; b < geometry.batches; ++b)
    for (int64_t i = 0; i < geometry.lhsRows; ++i)
      for (int64_t j = 0; j < geometry.rhsRows; ++j) {
        const T *l = left.data() + (b * geometry.lhsRows + i) * depth;
        const T *r = right.data() + (b * geometry.rhsRows + j) * depth;
        T sum = T();
        for (int64_t k = 0; k < depth; ++k)
          sum = add(sum, multiply(l[k], r[k]));
        sums.push_back(sum);
      }
  return sums;
}

} // namespace

Literal evaluateDot(const HloInstruction &instruction, const Operands &operands) {
  const Literal &lhs = *operands[0], &rhs = *operands[1];
  PrimitiveType resultType = instruction.shape().elementType();
  DotGeometry geometry = dotGeometry(instruction, lhs.shape(), rhs.shape());
  Literal result(instruction.shape());
  switch (elementClass(resultType)) {
  case ElementClass::Float: {
    std::vector<double> sums = contract<double>(
        geometry, lhs, rhs, resultType,
        [](double a, double b) { return a + b; }, [](double a, double b) { return a * b; });
    for (size_t i = 0; i < sums.size(); ++i)
      result.realData()[i] = roundToFloatType(sums[i], resultType);
    return result;
  }
  case ElementClass::Complex: {
    using Complex = std::complex<double>;
    std::vector<Complex> sums = contract<Complex>(
        geometry, lhs, rhs, resultType,
        [](Complex a, Complex b) { return a + b; }, [](Complex a, Complex b) { return a * b; });
    for (size_t i = 0; i < sums.size(); ++i)
      storeScalar(result, static_cast<int64_t>(i),
                  roundScalar(Scalar{0, sums[i].real(), sums[i].imag()}, resultType));
    return result;
  }
  case ElementClass::Pred: // or of ands
    result.intData() = contract<int64_t>(
        geometry, lhs, rhs, resultType,
        [](int64_t a, int64_t b) { return a | b; }, [](int64_t a, int64_t b) { return a & b; });
    return result;
  default: {
    IntegerWrap wrap(resultType);
    result.intData() = contract<int64_t>(
        geometry, lhs, rhs, resultType,
        [&](int64_t a, int64_t b) {
          return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
        },
        [&](int64_t a, int64_t b) {
          return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
        });
    return result;
  }
  }
}

} // namespace hlo::interp
