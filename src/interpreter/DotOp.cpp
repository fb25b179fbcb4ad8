//===- DotOp.cpp - dot ----------------------------------------------------===//
//
// dot with batch and contracting dimensions: output dimensions are the batch
// dimensions, then lhs's free ones, then rhs's. Operands are converted to the
// result type first; float sums accumulate in double, in contraction order,
// and round once at the end; integer sums wrap in the result type. Operands
// are packed into contiguous rows; float dots run 4x4 blocks of outputs over
// cache-sized column chunks on every core (the sums are the same as one
// element at a time: each is still one chain in k order), about 10^10
// multiply-adds a minute on two cores. The cuBLAS custom-calls
// (LibraryCalls.cpp) share floatDotSums.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"
#include "Ops.h"

#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <complex>

namespace hlo::interp {
namespace {


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

DotGeometry dotGeometry(const DotDimensions &dimensions, const Shape &lhsShape,
                        const Shape &rhsShape) {
  const std::vector<int64_t> &lhsBatch = dimensions.lhsBatch;
  const std::vector<int64_t> &rhsBatch = dimensions.rhsBatch;
  const std::vector<int64_t> &lhsContracting = dimensions.lhsContracting;
  const std::vector<int64_t> &rhsContracting = dimensions.rhsContracting;
  std::vector<int64_t> lhsFree = freeDimensions(lhsShape.rank(), lhsBatch, lhsContracting);
  std::vector<int64_t> rhsFree = freeDimensions(rhsShape.rank(), rhsBatch, rhsContracting);

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
  // (No contracting dimensions: forEachIndex visits the one empty index,
  // one product per element.)
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

/// Float sums of products, as `contract` computes them, in 4x4 blocks of
/// (lhs row, rhs row) over chunks of rhs rows that stay in cache; chunks
/// run on every core. Each sum is one chain in k order, as in `contract`.
std::vector<double> contractFloat(const DotGeometry &geometry, const std::vector<double> &left,
                                  const std::vector<double> &right) {
  const int64_t depth = geometry.depth, lhsRows = geometry.lhsRows, rhsRows = geometry.rhsRows;
  std::vector<double> sums(static_cast<size_t>(geometry.batches * lhsRows * rhsRows));
  // About 256 KiB of rhs rows per chunk.
  const int64_t chunkRows = std::max<int64_t>(4, (int64_t(32) << 10) / std::max<int64_t>(depth, 1) / 4 * 4);
  const int64_t chunksPerBatch = (rhsRows + chunkRows - 1) / chunkRows;
  const int64_t tasks = geometry.batches * chunksPerBatch;
  auto runChunk = [&](int64_t task) {
    int64_t b = task / chunksPerBatch;
    int64_t jBegin = (task % chunksPerBatch) * chunkRows;
    int64_t jEnd = std::min(rhsRows, jBegin + chunkRows);
    const double *lhsBatch = left.data() + b * lhsRows * depth;
    const double *rhsBatch = right.data() + b * rhsRows * depth;
    double *out = sums.data() + b * lhsRows * rhsRows;
    for (int64_t i = 0; i < lhsRows; i += 4) {
      int64_t rows = std::min<int64_t>(4, lhsRows - i);
      for (int64_t j = jBegin; j < jEnd; j += 4) {
        int64_t columns = std::min<int64_t>(4, jEnd - j);
        if (rows == 4 && columns == 4) {
          const double *l0 = lhsBatch + i * depth, *l1 = l0 + depth, *l2 = l1 + depth,
                       *l3 = l2 + depth;
          const double *r0 = rhsBatch + j * depth, *r1 = r0 + depth, *r2 = r1 + depth,
                       *r3 = r2 + depth;
          double acc[4][4] = {};
          for (int64_t k = 0; k < depth; ++k) {
            const double l[4] = {l0[k], l1[k], l2[k], l3[k]};
            const double r[4] = {r0[k], r1[k], r2[k], r3[k]};
            for (int x = 0; x < 4; ++x)
              for (int y = 0; y < 4; ++y)
                acc[x][y] += l[x] * r[y];
          }
          for (int x = 0; x < 4; ++x)
            for (int y = 0; y < 4; ++y)
              out[(i + x) * rhsRows + j + y] = acc[x][y];
          continue;
        }
        for (int64_t x = 0; x < rows; ++x)
          for (int64_t y = 0; y < columns; ++y) {
            const double *l = lhsBatch + (i + x) * depth, *r = rhsBatch + (j + y) * depth;
            double sum = 0;
            for (int64_t k = 0; k < depth; ++k)
              sum += l[k] * r[k];
            out[(i + x) * rhsRows + j + y] = sum;
          }
      }
    }
  };
  // Small dots on this thread; large ones on every core.
  forEachTask(tasks, double(geometry.batches) * lhsRows * rhsRows * depth, runChunk);
  return sums;
}

} // namespace

std::vector<double> floatDotSums(const DotDimensions &dimensions, const Literal &lhs,
                                 const Literal &rhs, PrimitiveType operandType) {
  DotGeometry geometry = dotGeometry(dimensions, lhs.shape(), rhs.shape());
  return contractFloat(
      geometry, packedRows<double>(lhs, geometry.lhsRowBase, geometry.lhsStep, operandType),
      packedRows<double>(rhs, geometry.rhsRowBase, geometry.rhsStep, operandType));
}

Literal evaluateDot(const HloInstruction &instruction, const Operands &operands) {
  const Literal &lhs = *operands[0], &rhs = *operands[1];
  PrimitiveType resultType = instruction.shape().elementType();
  DotDimensions dimensions = dotDimensionNumbers(instruction);
  Literal result(instruction.shape());
  if (elementClass(resultType) == ElementClass::Float) {
    std::vector<double> sums = floatDotSums(dimensions, lhs, rhs, resultType);
    for (size_t i = 0; i < sums.size(); ++i)
      result.realData()[i] = roundToFloatType(sums[i], resultType);
    return result;
  }
  DotGeometry geometry = dotGeometry(dimensions, lhs.shape(), rhs.shape());
  switch (elementClass(resultType)) {
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
