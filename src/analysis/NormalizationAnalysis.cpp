//===- NormalizationAnalysis.cpp - Rows of a normalization fusion ---------===//
#include "analysis/NormalizationAnalysis.h"

#include "analysis/FusionIndexing.h"

#include <algorithm>
#include <map>

using namespace mlir;

namespace hlo {
namespace {

/// Whether some result of `map` moves with dimension `dim`.
bool dependsOnDim(const IndexingMap &map, int64_t dim) {
  return llvm::any_of(map.getAffineMap().getResults(), [&](AffineExpr expr) {
    return expr.isFunctionOfDim(static_cast<unsigned>(dim));
  });
}

bool dependsOnSymbols(const IndexingMap &map) {
  for (int64_t s = 0; s < map.getSymbolCount(); ++s)
    for (AffineExpr expr : map.getAffineMap().getResults())
      if (expr.isFunctionOfSymbol(static_cast<unsigned>(s)))
        return true;
  return false;
}

} // namespace

int64_t NormalizationRows::rowElements() const {
  int64_t count = 1;
  for (int64_t dim : rowDims)
    count *= outputDims[dim];
  return count;
}

int64_t NormalizationRows::rowCount() const {
  int64_t count = 1;
  for (int64_t dim : batchDims)
    count *= outputDims[dim];
  return count;
}

int64_t NormalizationRows::reducedElements(const HloInstruction &reduction) {
  int64_t count = 1;
  for (int64_t dim : reduction.dimensions())
    count *= reduction.operand(0)->shape().dimension(dim);
  return count;
}

llvm::Expected<NormalizationRows> analyzeNormalizationRows(const HloComputation &computation,
                                                           MLIRContext *context) {
  auto unsupported = [](const std::string &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "unsupported: " + why);
  };
  NormalizationRows rows;
  int64_t outputs = rootOutputCount(computation);
  std::map<const HloInstruction *, std::vector<IndexingMap>> maps;
  for (int64_t output = 0; output < outputs; ++output) {
    const HloInstruction *failedAt = nullptr;
    auto computed =
        computeFusionOutputToInstructionIndexing(computation, output, context, &failedAt);
    if (!computed) {
      std::string error = llvm::toString(computed.takeError());
      return unsupported("no indexing through '" +
                         (failedAt ? failedAt->name() : computation.name()) + "': " + error);
    }
    std::map<const HloInstruction *, std::vector<IndexingMap>> &fromOutput = *computed;
    std::vector<int64_t> dims;
    const HloInstruction *root = computation.root();
    const Shape &shape = root->shape().isTuple() ? root->shape().tupleShapes()[output]
                                                 : root->shape();
    if (!shape.isArray())
      return unsupported("a nested tuple output");
    if (output == 0)
      rows.outputDims = shape.dimensions();
    else if (shape.dimensions() != rows.outputDims)
      return unsupported("outputs of different shapes in a normalization fusion");
    for (auto &[instruction, set] : fromOutput)
      for (IndexingMap &map : set) {
        map.simplify();
        addUnique(maps[instruction], map);
      }
  }
  int64_t rank = static_cast<int64_t>(rows.outputDims.size());
  std::vector<bool> inRow(static_cast<size_t>(rank), true);
  for (const auto &instruction : computation.instructions()) {
    if (instruction->opcode() != HloOpcode::Reduce)
      continue;
    auto found = maps.find(instruction.get());
    if (found == maps.end() || found->second.empty())
      continue;
    const std::vector<IndexingMap> &set = found->second;
    // Broadcast back: some output dimension moves no path's index.
    // (Dimensions of size 1 move nothing.)
    bool broadcastBack = false;
    for (int64_t d = 0; d < rank; ++d)
      broadcastBack |= rows.outputDims[d] > 1 && llvm::none_of(set, [&](const IndexingMap &map) {
        return dependsOnDim(map, d);
      });
    if (!broadcastBack)
      continue;
    if (!instruction->shape().isArray())
      return unsupported("variadic reduce '" + instruction->name() +
                         "' in a normalization fusion");
    const IndexingMap &first = set.front();
    for (const IndexingMap &map : set)
      if (dependsOnSymbols(map) ||
          map.getAffineMap().getResults() != first.getAffineMap().getResults())
        return unsupported("reduce '" + instruction->name() +
                           "' is read at several indices per row of the normalization fusion");
    for (int64_t d = 0; d < rank; ++d)
      if (dependsOnDim(first, d))
        inRow[d] = false;
    rows.reductions.push_back(instruction.get());
    rows.outputToReduction.push_back(first);
  }
  // No reduction broadcast back over a dimension larger than 1 (a softmax
  // of rows of one element): every reduce is elemental, a row is the minor
  // dimension.
  if (rows.reductions.empty() && rank > 0)
    std::fill(inRow.begin(), inRow.end() - 1, false);
  for (int64_t d = 0; d < rank; ++d)
    (inRow[d] ? rows.rowDims : rows.batchDims).push_back(d);
  if (rows.rowDims.empty())
    return unsupported("no row shares its reductions in this normalization fusion");
  return rows;
}

} // namespace hlo
