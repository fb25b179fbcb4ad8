//===- IndexingMapTest.cpp - IndexingMap construction, text, composition --===//
#include "analysis/IndexingMap.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

IndexingMap parse(mlir::MLIRContext &context, std::string_view text) {
  llvm::Expected<IndexingMap> map = parseIndexingMap(text, &context);
  if (!map) {
    ADD_FAILURE() << llvm::toString(map.takeError());
    return IndexingMap();
  }
  return std::move(*map);
}

} // namespace

TEST(IndexingMap, TextRoundTripWithAllVariableKinds) {
  mlir::MLIRContext context;
  const char *text = "(d0, d1)[s0]{rt0} -> (d0 + rt0, -d1 + s0 * 2),\n"
                     "domain:\n"
                     "d0 in [0, 9],\n"
                     "d1 in [0, 19],\n"
                     "s0 in [0, 3],\n"
                     "rt0 in [0, 7],\n"
                     "d0 + s0 in [0, 5]";
  IndexingMap map = parse(context, text);
  EXPECT_EQ(map.getDimCount(), 2);
  EXPECT_EQ(map.getRangeVarCount(), 1);
  EXPECT_EQ(map.getRuntimeVarCount(), 1);
  EXPECT_EQ(map.toString(), text);
}

TEST(IndexingMap, NamedVariables) {
  mlir::MLIRContext context;
  const char *text = "(th_x, bl_x)[vector_index] -> (bl_x * 512 + th_x * 4 + "
                     "vector_index),\n"
                     "domain:\n"
                     "th_x in [0, 127],\n"
                     "bl_x in [0, 24575],\n"
                     "vector_index in [0, 3]";
  EXPECT_EQ(parse(context, text).toString(), text);
}

TEST(IndexingMap, ParseErrors) {
  mlir::MLIRContext context;
  // The error of a failed parse ("" if the text parsed).
  auto parseError = [&](std::string_view text) -> std::string {
    llvm::Expected<IndexingMap> map = parseIndexingMap(text, &context);
    return map ? "" : llvm::toString(map.takeError());
  };
  std::string error = parseError("(d0) -> (d1), domain: d0 in [0, 1]");
  EXPECT_NE(error.find("unknown variable 'd1'"), std::string::npos) << error;
  error = parseError("(d0) -> (d0)");
  EXPECT_NE(error.find("no bounds for 'd0'"), std::string::npos) << error;
  EXPECT_FALSE(parseError("(d0) -> (d0 +), domain: d0 in [0, 1]").empty());
}

TEST(IndexingMap, CompositionConstrainsTheIntermediateIndex) {
  mlir::MLIRContext context;
  // first: x -> x + 5 over [0, 9]; second accepts [0, 7] only.
  IndexingMap first = parse(context, "(d0) -> (d0 + 5), domain: d0 in [0, 9]");
  IndexingMap second = parse(context, "(d0)[s0] -> (d0 * 2 + s0), domain: "
                                      "d0 in [0, 7], s0 in [0, 1]");
  IndexingMap composed = composeIndexingMaps(first, second);
  composed.simplify();
  EXPECT_EQ(composed.toString(), "(d0)[s0] -> (d0 * 2 + s0 + 10),\n"
                                 "domain:\n"
                                 "d0 in [0, 2],\n"
                                 "s0 in [0, 1]");
}

TEST(IndexingMap, EqualityIgnoresNamesAndConstraintOrder) {
  mlir::MLIRContext context;
  IndexingMap a = parse(context, "(d0, d1) -> (d0), domain: d0 in [0, 9], "
                                 "d1 in [0, 9], d0 + d1 in [0, 5], "
                                 "d0 mod 3 in [0, 1]");
  IndexingMap b = parse(context, "(x, y) -> (x), domain: x in [0, 9], "
                                 "y in [0, 9], x mod 3 in [0, 1], "
                                 "x + y in [0, 5]");
  EXPECT_EQ(a, b);
  IndexingMap c = parse(context, "(d0, d1) -> (d1), domain: d0 in [0, 9], "
                                 "d1 in [0, 9]");
  EXPECT_NE(a, c);
}

TEST(IndexingMap, RemoveUnusedSymbolsRenumbers) {
  mlir::MLIRContext context;
  IndexingMap map = parse(context, "(d0)[s0, s1]{rt0, rt1} -> (s1 + rt1), "
                                   "domain: d0 in [0, 1], s0 in [0, 2], "
                                   "s1 in [0, 3], rt0 in [0, 4], rt1 in [0, 5]");
  EXPECT_TRUE(map.removeUnusedSymbols());
  EXPECT_EQ(map.toString(), "(d0)[s0]{rt0} -> (s0 + rt0),\n"
                            "domain:\n"
                            "d0 in [0, 1],\n"
                            "s0 in [0, 3],\n"
                            "rt0 in [0, 5]");
  EXPECT_FALSE(map.removeUnusedSymbols());
}

TEST(IndexingMap, EvaluateUsesAffineSemantics) {
  mlir::MLIRContext context;
  IndexingMap map = parse(context, "(d0) -> (d0 floordiv 4, d0 mod 4, d0 ceildiv 4), "
                                   "domain: d0 in [-9, 9]");
  EXPECT_EQ(map.evaluate({-5}, {}), (std::vector<int64_t>{-2, 3, -1}));
  EXPECT_TRUE(map.isInDomain({-9}, {}));
  EXPECT_FALSE(map.isInDomain({10}, {}));
}
