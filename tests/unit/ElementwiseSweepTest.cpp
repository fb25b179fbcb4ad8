//===- ElementwiseSweepTest.cpp - Every elementwise op on every type ------===//
//
// Builds a one-instruction fusion for each elementwise opcode and element
// type (and each convert pair) and checks the contract of the front end and
// the emitters together: a type the op does not take is rejected by the
// verifier with the type class it needs; anything the verifier accepts
// emits MLIR that verifies, or is reported as unsupported by name from a
// short, known list. Nothing may crash or produce MLIR that fails to verify.
//
//===----------------------------------------------------------------------===//
#include "analysis/DeviceInfo.h"
#include "emitters/FusionEmitter.h"
#include "hlo_parser/Parser.h"
#include "hlo_parser/Verifier.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace hlo;

namespace {

const std::vector<std::string> kTypes = {
    "pred",     "s2",         "s4",         "s8",           "s16",
    "s32",      "s64",        "u2",         "u4",           "u8",
    "u16",      "u32",        "u64",        "f16",          "bf16",
    "f32",      "f64",        "f8e4m3fn",   "f8e5m2",       "f8e4m3fnuz",
    "f8e5m2fnuz", "f8e4m3b11fnuz", "f8e3m4", "f8e4m3",      "f8e8m0fnu",
    "f4e2m1fn", "c64",        "c128"};

const std::vector<std::string> kUnary = {
    "abs",   "cbrt",     "ceil",     "cosine",   "count-leading-zeros",
    "exponential", "exponential-minus-one", "floor", "imag", "is-finite",
    "log",   "log-plus-one", "logistic", "negate", "not", "popcnt", "real",
    "round-nearest-afz", "round-nearest-even", "rsqrt", "sign", "sine",
    "sqrt",  "tan",      "tanh",     "erf"};

const std::vector<std::string> kBinary = {
    "add",      "and",      "atan2",     "divide",
    "maximum",  "minimum",  "multiply",  "or",
    "power",    "remainder", "shift-left", "shift-right-arithmetic",
    "shift-right-logical", "subtract", "xor"};

/// Op/type pairs the verifier accepts but no emitter lowers yet; anything
/// else that fails to emit is a regression.
const std::set<std::string> kKnownUnsupported = {
    "cbrt:c64",      "cbrt:c128",      "atan2:c64",    "atan2:c128",
    "maximum:c64",   "maximum:c128",   "minimum:c64",  "minimum:c128",
    "remainder:c64", "remainder:c128", "clamp:c64",    "clamp:c128",
    "compare-LT:c64", "compare-LT:c128"};

struct Outcome {
  int emitted = 0, rejected = 0, unsupported = 0;
};

/// Runs one module; adds a failure (with `tag`) if the contract is broken.
void check(const std::string &tag, const std::string &text, Outcome &outcome) {
  auto [module, errors] = parseHloModuleText(text, "sweep.hlo");
  ASSERT_TRUE(module) << tag << ": " << errors;
  DiagnosticEngine diagnostics(module->source());
  if (!verifyModule(*module, diagnostics)) {
    ++outcome.rejected;
    EXPECT_NE(diagnostics.rendered().find(" takes "), std::string::npos)
        << tag << ": " << diagnostics.rendered();
    return;
  }
  mlir::MLIRContext context;
  auto emitted = emitModuleFusions(*module, deviceInfoForArch("sm_90").value(),
                                   context, diagnostics);
  if (emitted) {
    ++outcome.emitted;
    return;
  }
  ++outcome.unsupported;
  EXPECT_TRUE(kKnownUnsupported.count(tag)) << tag << ": " << diagnostics.rendered();
  EXPECT_NE(diagnostics.rendered().find("error: unsupported: "), std::string::npos)
      << tag << ": " << diagnostics.rendered();
}

std::string resultTypeOf(const std::string &op, const std::string &type) {
  if (op == "is-finite")
    return "pred";
  if (op == "abs" || op == "real" || op == "imag")
    return type == "c64" ? "f32" : type == "c128" ? "f64" : type;
  return type;
}

TEST(ElementwiseSweep, UnaryOps) {
  Outcome outcome;
  for (const std::string &op : kUnary)
    for (const std::string &type : kTypes)
      check(op + ":" + type,
            "fused {\n p = " + type + "[8] parameter(0)\n ROOT r = " +
                resultTypeOf(op, type) + "[8] " + op + "(p)\n}\n",
            outcome);
  RecordProperty("emitted", outcome.emitted);
  // Every op emits for at least f32.
  EXPECT_GE(outcome.emitted, static_cast<int>(kUnary.size()));
}

TEST(ElementwiseSweep, BinaryOps) {
  Outcome outcome;
  for (const std::string &op : kBinary)
    for (const std::string &type : kTypes)
      check(op + ":" + type,
            "fused {\n p = " + type + "[8] parameter(0)\n q = " + type +
                "[8] parameter(1)\n ROOT r = " + type + "[8] " + op +
                "(p, q)\n}\n",
            outcome);
  EXPECT_GE(outcome.emitted, static_cast<int>(kBinary.size()));
}

TEST(ElementwiseSweep, CompareSelectClamp) {
  Outcome outcome;
  for (const std::string &type : kTypes) {
    for (const char *direction : {"EQ", "LT"})
      check(std::string("compare-") + direction + ":" + type,
            "fused {\n p = " + type + "[8] parameter(0)\n q = " + type +
                "[8] parameter(1)\n ROOT r = pred[8] compare(p, q), "
                "direction=" + direction + "\n}\n",
            outcome);
    check("select:" + type,
          "fused {\n c = pred[8] parameter(0)\n p = " + type +
              "[8] parameter(1)\n q = " + type +
              "[8] parameter(2)\n ROOT r = " + type + "[8] select(c, p, q)\n}\n",
          outcome);
    check("clamp:" + type,
          "fused {\n lo = " + type + "[] parameter(0)\n x = " + type +
              "[8] parameter(1)\n ROOT r = " + type + "[8] clamp(lo, x, lo)\n}\n",
          outcome);
  }
  EXPECT_EQ(outcome.rejected, 0);
}

TEST(ElementwiseSweep, ConvertBetweenAllTypes) {
  Outcome outcome;
  for (const std::string &from : kTypes)
    for (const std::string &to : kTypes)
      check("convert:" + from + "->" + to,
            "fused {\n p = " + from + "[8] parameter(0)\n ROOT r = " + to +
                "[8] convert(p)\n}\n",
            outcome);
  EXPECT_EQ(outcome.emitted,
            static_cast<int>(kTypes.size() * kTypes.size()));
}

} // namespace
