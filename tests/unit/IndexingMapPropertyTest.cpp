//===- IndexingMapPropertyTest.cpp - The simplifier preserves meaning -----===//
//
// For random small maps, and for every map simplified while analysing the
// corpus and the examples of XLA's "Indexing Analysis" (tests/lit/analysis):
// at every point of the original domain (exhaustively up to 200,000 points
// for the random maps and 4,096 for the analysis's maps; otherwise the
// corners and a random sample), the simplified map has the same domain
// membership and the same results.
//
//===----------------------------------------------------------------------===//
#include "analysis/FusionIndexing.h"
#include "analysis/IndexingMap.h"
#include "analysis/OpIndexing.h"
#include "hlo_parser/Parser.h"
#include "TestUtils.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace hlo;
using mlir::AffineExpr;

namespace {

/// Checks `after` against `before` at the points of before's variable box:
/// all of them if there are at most `exhaustiveLimit`, else a sample.
/// Returns the number of points checked; reports the first mismatch.
int64_t checkEquivalent(const IndexingMap &before, const IndexingMap &after,
                        int64_t exhaustiveLimit = 200000,
                        int64_t samples = 20000) {
  std::vector<Interval> box;
  for (const IndexingVar &var : before.getDimVars())
    box.push_back(var.bounds);
  for (int64_t i = 0; i < before.getSymbolCount(); ++i)
    box.push_back(before.getSymbolVar(i).bounds);
  __int128 points = 1;
  for (const Interval &interval : box) {
    if (interval.isEmpty())
      return 0;
    points *= interval.size();
  }
  const size_t dims = before.getDimVars().size();
  std::vector<int64_t> point(box.size());
  std::mt19937_64 random(42);
  auto checkPoint = [&]() {
    std::vector<int64_t> dimValues(point.begin(), point.begin() + dims);
    std::vector<int64_t> symbolValues(point.begin() + dims, point.end());
    bool inBefore = before.isInDomain(dimValues, symbolValues);
    bool inAfter = after.isInDomain(dimValues, symbolValues);
    if (inBefore != inAfter) {
      ADD_FAILURE() << "domains differ at a point\nbefore:\n"
                    << before.toString() << "\nafter:\n" << after.toString();
      return false;
    }
    if (inBefore && before.evaluate(dimValues, symbolValues) !=
                        after.evaluate(dimValues, symbolValues)) {
      ADD_FAILURE() << "results differ at a point\nbefore:\n"
                    << before.toString() << "\nafter:\n" << after.toString();
      return false;
    }
    return true;
  };
  if (points <= exhaustiveLimit) {
    for (size_t i = 0; i < box.size(); ++i)
      point[i] = box[i].lower;
    int64_t checked = 0;
    while (true) {
      ++checked;
      if (!checkPoint())
        return checked;
      size_t i = 0;
      for (; i < box.size(); ++i) {
        if (++point[i] <= box[i].upper)
          break;
        point[i] = box[i].lower;
      }
      if (i == box.size())
        return checked;
    }
  }
  // Large domains: the corners and a random sample.
  for (int64_t n = 0; n < samples; ++n) {
    for (size_t i = 0; i < box.size(); ++i) {
      if (n < 2)
        point[i] = n == 0 ? box[i].lower : box[i].upper;
      else
        point[i] = box[i].lower + static_cast<int64_t>(
                                      random() % static_cast<uint64_t>(box[i].size()));
    }
    if (!checkPoint())
      return n + 1;
  }
  return samples;
}

class RandomMaps {
public:
  explicit RandomMaps(mlir::MLIRContext *context) : context(context) {}

  IndexingMap next() {
    int dims = 1 + pick(2), symbols = pick(2);
    std::vector<IndexingVar> dimVars, rangeVars;
    for (int i = 0; i < dims; ++i)
      dimVars.push_back({randomInterval(), ""});
    for (int i = 0; i < symbols; ++i)
      rangeVars.push_back({randomInterval(), ""});
    std::vector<AffineExpr> results;
    for (int i = 0, n = 1 + pick(2); i < n; ++i)
      results.push_back(expr(dims, symbols, 3));
    std::vector<IndexingConstraint> constraints;
    for (int i = 0, n = pick(3); i < n; ++i) {
      int64_t lower = pick(20) - 5;
      constraints.push_back({expr(dims, symbols, 2),
                             Interval{lower, lower + pick(25)}});
    }
    return IndexingMap(mlir::AffineMap::get(dims, symbols, results, context),
                       dimVars, rangeVars, {}, constraints);
  }

private:
  int pick(int n) { return static_cast<int>(random() % n); }
  Interval randomInterval() {
    int64_t lower = pick(4);
    return {lower, lower + pick(12)};
  }
  AffineExpr leaf(int dims, int symbols) {
    int choice = pick(dims + symbols + 1);
    if (choice < dims)
      return mlir::getAffineDimExpr(choice, context);
    if (choice < dims + symbols)
      return mlir::getAffineSymbolExpr(choice - dims, context);
    return mlir::getAffineConstantExpr(pick(21) - 10, context);
  }
  AffineExpr expr(int dims, int symbols, int depth) {
    if (depth == 0 || pick(4) == 0)
      return leaf(dims, symbols);
    AffineExpr lhs = expr(dims, symbols, depth - 1);
    switch (pick(5)) {
    case 0:
      return lhs + expr(dims, symbols, depth - 1);
    case 1:
      return lhs - expr(dims, symbols, depth - 1);
    case 2:
      return lhs * (pick(9) - 4);
    case 3:
      return lhs.floorDiv(1 + pick(8));
    default:
      return lhs % (1 + pick(8));
    }
  }

  mlir::MLIRContext *context;
  std::mt19937 random{20261121};
};

TEST(IndexingMapProperty, SimplifyPreservesRandomMaps) {
  mlir::MLIRContext context;
  RandomMaps maps(&context);
  int64_t points = 0, changed = 0;
  const int count = 12000;
  for (int i = 0; i < count; ++i) {
    IndexingMap original = maps.next();
    IndexingMap simplified = original;
    changed += simplified.simplify();
    points += checkEquivalent(original, simplified);
    if (HasFailure())
      return;
  }
  // The property only means something if the simplifier does work.
  EXPECT_GT(changed, count / 4);
  EXPECT_GT(points, 1000000);
  RecordProperty("maps", count);
  RecordProperty("points", std::to_string(points));
}

int64_t observedMaps = 0;

void checkObserved(const IndexingMap &before, const IndexingMap &after) {
  ++observedMaps;
  checkEquivalent(before, after, 4096, 1000);
}

std::vector<std::filesystem::path> analysedModules() {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path &corpus = testing_utils::kCorpus;
  std::filesystem::path lit = HLO_LIT_DIR;
  for (const char *folder :
       {"xla/loop", "xla/transpose", "xla/reduce_row", "xla/reduce_column",
        "xla/concatenate", "xla/dynamic_update_slice", "xla/scatter"})
    if (std::filesystem::exists(corpus / folder))
      for (const auto &entry : std::filesystem::directory_iterator(corpus / folder))
        if (entry.path().extension() == ".hlo")
          files.push_back(entry.path());
  for (const auto &entry : std::filesystem::directory_iterator(lit / "analysis"))
    if (entry.path().extension() == ".hlo")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(IndexingMapProperty, SimplifyPreservesEveryMapTheAnalysisProduces) {
  mlir::MLIRContext context;
  IndexingMap::setSimplifyObserver(checkObserved);
  observedMaps = 0;
  int modules = 0;
  for (const auto &path : analysedModules()) {
    std::ifstream stream(path);
    std::stringstream buffer;
    buffer << stream.rdbuf();
    auto [module, errors] =
        parseHloModuleText(buffer.str(), path.string(), testing_utils::corpusParseOptions());
    if (!module)
      continue;
    const HloInstruction *root = module->entry()->root();
    const HloComputation *computation = root->fusedComputation();
    if (!computation)
      computation = module->entry();
    ++modules;
    for (int64_t output = 0; output < rootOutputCount(*computation); ++output) {
      // Failures are fine here: only the maps simplified on the way count.
      llvm::consumeError(
          computeFusionOutputToInputIndexing(*computation, output, &context).takeError());
    }
    for (int64_t p = 0; p < computation->parameterCount(); ++p)
      llvm::consumeError(
          computeFusionInputToOutputIndexing(*computation, p, &context).takeError());
    if (HasFailure())
      break;
  }
  IndexingMap::setSimplifyObserver(nullptr);
  // Without the shared corpus beside the checkout, only the repository's
  // own test inputs are analysed.
  bool haveCorpus = std::filesystem::exists(testing_utils::kCorpus / "xla");
  EXPECT_GT(modules, haveCorpus ? 100 : 20);
  EXPECT_GT(observedMaps, haveCorpus ? 1000 : 200);
  RecordProperty("observed_maps", std::to_string(observedMaps));
}

} // namespace
