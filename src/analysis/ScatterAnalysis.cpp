//===- ScatterAnalysis.cpp - A scatter in canonical form ------------------===//
#include "analysis/ScatterAnalysis.h"

#include "hlo_parser/OpAttributes.h"

#include <algorithm>

namespace hlo {
namespace {

bool contains(const std::vector<int64_t> &list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

} // namespace

ScatterCanonicalForm scatterCanonicalForm(const HloInstruction &scatter) {
  ScatterCanonicalForm form;
  form.arrays = (scatter.operandCount() - 1) / 2;
  const Shape &operand = scatter.operand(0)->shape();
  const Shape &indices = scatter.operand(form.arrays)->shape();
  const Shape &updates = scatter.operand(form.arrays + 1)->shape();
  form.operandDims = operand.dimensions();
  form.updateDims = updates.dimensions();
  form.indicesDims = indices.dimensions();
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(scatter);
  form.indexVectorDim = numbers.indexVectorDim;
  form.updateWindowDims = numbers.updateWindowDims;
  const std::vector<int64_t> &inserted = numbers.insertedWindowDims;
  const std::vector<int64_t> &toOperand = numbers.scatterDimsToOperandDims;
  const std::vector<int64_t> &inputBatching = numbers.inputBatchingDims;
  const std::vector<int64_t> &indicesBatching = numbers.scatterIndicesBatchingDims;
  for (int64_t d = 0; d < updates.rank(); ++d)
    if (!contains(form.updateWindowDims, d)) {
      form.updateScatterDims.push_back(d);
      form.sliceCount *= updates.dimension(d);
    }
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (!contains(inserted, d) && !contains(inputBatching, d))
      form.windowOperandDims.push_back(d);
  form.windowSize.assign(operand.rank(), 1);
  for (size_t j = 0; j < form.updateWindowDims.size() && j < form.windowOperandDims.size(); ++j) {
    form.windowSize[form.windowOperandDims[j]] = updates.dimension(form.updateWindowDims[j]);
    form.windowElements *= updates.dimension(form.updateWindowDims[j]);
  }
  form.starts.assign(operand.rank(), {});
  for (size_t k = 0; k < toOperand.size(); ++k)
    form.starts[toOperand[k]] = {ScatterCanonicalForm::Start::IndexColumn,
                                 static_cast<int64_t>(k)};
  // A batching dimension of the indices is a slice coordinate: its place
  // among the indices' dimensions other than the index vector's.
  for (size_t i = 0; i < inputBatching.size() && i < indicesBatching.size(); ++i) {
    int64_t dim = indicesBatching[i];
    form.starts[inputBatching[i]] = {ScatterCanonicalForm::Start::BatchPosition,
                                     dim < form.indexVectorDim ? dim : dim - 1};
  }
  return form;
}

int64_t scatterSlicesPerThread(int64_t slices, int64_t smCount) {
  int64_t perThread = (slices + 4 * smCount - 1) / (4 * smCount);
  return std::clamp<int64_t>(perThread, 1, 32);
}

} // namespace hlo
