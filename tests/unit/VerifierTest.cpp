//===- VerifierTest.cpp - HLO shape rules ---------------------------------===//
//
// For each rule: a well-formed instruction passes, and a broken one fails
// with a message naming the problem, at the instruction's location.
//
//===----------------------------------------------------------------------===//
#include "hlo_parser/Parser.h"
#include "hlo_parser/Verifier.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

const char *kAdd = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

/// Verifies `body` (instructions of an entry computation, plus kAdd);
/// returns the verifier's output ("" if well formed).
std::string verify(std::string_view body) {
  std::string text = std::string(kAdd) + "ENTRY e {\n" + std::string(body) + "\n}\n";
  auto [module, errors] = parseHloModuleText(text, "v.hlo");
  if (!module)
    return "PARSE ERROR: " + errors;
  return verifyModuleToString(*module);
}

void expectOk(std::string_view body) { EXPECT_EQ(verify(body), "") << body; }

void expectError(std::string_view body, std::string_view message) {
  std::string errors = verify(body);
  EXPECT_NE(errors.find(message), std::string::npos)
      << "expected '" << message << "' for:\n" << body << "\ngot:\n" << errors;
  EXPECT_NE(errors.find("v.hlo:"), std::string::npos);
}

} // namespace

TEST(Verifier, Elementwise) {
  expectOk("a = f32[2,3] parameter(0)\n b = f32[2,3] add(a, a)");
  expectOk("a = f32[2,3] parameter(0)\n b = pred[2,3] compare(a, a), direction=EQ");
  expectOk("a = f32[2] parameter(0)\n b = s8[2] convert(a)");
  expectOk("a = c64[2] parameter(0)\n b = f32[2] abs(a)");
  expectOk("a = f32[2] parameter(0)\n b = pred[2] is-finite(a)");
  expectOk("p = pred[2] parameter(0)\n a = f32[2] parameter(1)\n"
           " s = f32[2] select(p, a, a)");
  expectOk("a = f32[2] parameter(0)\n lo = f32[] parameter(1)\n"
           " c = f32[2] clamp(lo, a, lo)");
  expectError("a = f32[2,3] parameter(0)\n b = f32[3,2] add(a, a)",
              "result shape f32[3,2] does not match the expected f32[2,3]");
  expectError("a = f32[2] parameter(0)\n b = s32[2] parameter(1)\n"
              " c = f32[2] add(a, b)",
              "operands have different element types");
  expectError("a = f32[2] parameter(0)\n b = f32[3] parameter(1)\n"
              " c = f32[2] multiply(a, b)",
              "operand 1 has shape f32[3]");
  expectError("a = f32[2] parameter(0)\n s = f32[2] select(a, a, a)",
              "select's first operand must be pred");
  expectError("a = f32[2] parameter(0)\n b = f32[2] compare(a, a), direction=EQ",
              "does not match the expected pred[2]");
}

TEST(Verifier, ElementTypeClasses) {
  expectOk("a = c64[2] parameter(0)\n b = c64[2] exponential(a)");
  expectOk("a = pred[2] parameter(0)\n b = pred[2] xor(a, a)");
  expectOk("a = u8[2] parameter(0)\n b = u8[2] popcnt(a)");
  expectOk("a = bf16[2] parameter(0)\n b = bf16[2] floor(a)");
  expectError("a = s32[2] parameter(0)\n b = s32[2] exponential(a)",
              "takes floating-point or complex operands, not s32");
  expectError("a = c64[2] parameter(0)\n b = c64[2] floor(a)",
              "takes floating-point operands, not c64");
  expectError("a = f32[2] parameter(0)\n b = f32[2] and(a, a)",
              "takes pred or integer operands, not f32");
  expectError("a = pred[2] parameter(0)\n b = pred[2] shift-left(a, a)",
              "takes integer operands, not pred");
  expectError("a = f16[2] parameter(0)\n b = f16[2] count-leading-zeros(a)",
              "takes integer operands, not f16");
}

TEST(Verifier, BitcastConvert) {
  expectOk("a = f32[2] parameter(0)\n b = s32[2] bitcast-convert(a)");
  expectOk("a = f32[2] parameter(0)\n b = u8[2,4] bitcast-convert(a)");
  expectOk("a = u8[2,4] parameter(0)\n b = f32[2] bitcast-convert(a)");
  expectError("a = u8[2,3] parameter(0)\n b = f32[2] bitcast-convert(a)",
              "needs a minor dimension of size 4");
}

TEST(Verifier, ElementSizesAreTheStoredOnes) {
  // 4-bit elements two per byte (XLA's E(4)), 2-bit ones four (E(2)),
  // with or without the item.
  expectOk("a = s4[4,2]{1,0:E(4)} parameter(0)\n b = s8[4] bitcast-convert(a)");
  expectOk("a = u4[3]{0} parameter(0)\n b = u4[3]{0:E(4)} negate(a)");
  expectOk("a = f32[3]{0:E(32)} parameter(0)");
  expectError("a = s4[4]{0:E(8)} parameter(0)",
              "unsupported: s4[4]{0:E(8)} stores its elements in 8 bits; "
              "hlo-compile stores s4 in 4");
  expectOk("a = s2[4]{0:E(2)} parameter(0)");
  expectError("a = u2[4]{0:E(4)} parameter(0)", "hlo-compile stores u2 in 2");
  expectError("a = pred[4]{0:E(1)} parameter(0)", "hlo-compile stores pred in 8");
}

TEST(Verifier, Broadcast) {
  expectOk("a = f32[3] parameter(0)\n b = f32[2,3] broadcast(a), dimensions={1}");
  expectOk("a = f32[] parameter(0)\n b = f32[2,3] broadcast(a), dimensions={}");
  expectError("a = f32[3] parameter(0)\n b = f32[2,3] broadcast(a), dimensions={0}",
              "operand dimension 0 (size 3) must equal result dimension 0");
  expectError("a = f32[3] parameter(0)\n b = f32[2,3] broadcast(a), dimensions={}",
              "must have one entry per operand dimension");
  expectError("a = f32[3] parameter(0)\n b = f32[3] broadcast(a), dimensions={1}",
              "out of range");
}

TEST(Verifier, ReshapeTransposeReverse) {
  expectOk("a = f32[2,3] parameter(0)\n b = f32[6] reshape(a)");
  expectError("a = f32[2,3] parameter(0)\n b = f32[5] reshape(a)",
              "changes the element count (6 vs 5)");
  expectOk("a = f32[2,3,4] parameter(0)\n b = f32[4,2,3] transpose(a), dimensions={2,0,1}");
  expectError("a = f32[2,3] parameter(0)\n b = f32[3,2] transpose(a), dimensions={0,0}",
              "must be a permutation");
  expectError("a = f32[2,3] parameter(0)\n b = f32[2,3] transpose(a), dimensions={1,0}",
              "does not match the expected f32[3,2]");
  expectOk("a = f32[2,3] parameter(0)\n b = f32[2,3] reverse(a), dimensions={1}");
  expectError("a = f32[2,3] parameter(0)\n b = f32[2,3] reverse(a), dimensions={2}",
              "are not unique dimensions");
}

TEST(Verifier, SliceAndDynamicSlices) {
  expectOk("a = f32[10] parameter(0)\n b = f32[3] slice(a), slice={[1:8:3]}");
  expectError("a = f32[10] parameter(0)\n b = f32[5] slice(a), slice={[6:11]}",
              "out of bounds of dimension 0 (size 10)");
  expectError("a = f32[10] parameter(0)\n b = f32[4] slice(a), slice={[1:8:3]}",
              "does not match the expected f32[3]");
  expectOk("a = f32[10,4] parameter(0)\n i = s32[] parameter(1)\n"
           " b = f32[2,4] dynamic-slice(a, i, i), dynamic_slice_sizes={2,4}");
  expectError("a = f32[10,4] parameter(0)\n i = s32[] parameter(1)\n"
              " b = f32[2,4] dynamic-slice(a, i), dynamic_slice_sizes={2,4}",
              "expects 2 scalar start indices");
  expectError("a = f32[10,4] parameter(0)\n i = s32[] parameter(1)\n"
              " b = f32[2,5] dynamic-slice(a, i, i), dynamic_slice_sizes={2,5}",
              "out of bounds of dimension 1");
  expectOk("a = f32[10,4] parameter(0)\n u = f32[2,4] parameter(1)\n"
           " i = s32[] parameter(2)\n b = f32[10,4] dynamic-update-slice(a, u, i, i)");
  expectError("a = f32[10,4] parameter(0)\n u = f32[2,5] parameter(1)\n"
              " i = s32[] parameter(2)\n b = f32[10,4] dynamic-update-slice(a, u, i, i)",
              "is larger than the operand's");
}

TEST(Verifier, PadAndConcatenate) {
  expectOk("a = f32[3] parameter(0)\n z = f32[] parameter(1)\n"
           " b = f32[8] pad(a, z), padding=1_2_1");
  expectOk("a = f32[3] parameter(0)\n z = f32[] parameter(1)\n"
           " b = f32[1] pad(a, z), padding=-1_-1");
  expectError("a = f32[3] parameter(0)\n z = f32[] parameter(1)\n"
              " b = f32[7] pad(a, z), padding=1_2_1",
              "does not match the expected f32[8]");
  expectError("a = f32[3] parameter(0)\n z = f32[] parameter(1)\n"
              " b = f32[2] pad(a, z), padding=1_2_-1",
              "interior padding must not be negative");
  expectOk("a = f32[2,3] parameter(0)\n b = f32[2,5] parameter(1)\n"
           " c = f32[2,8] concatenate(a, b), dimensions={1}");
  expectError("a = f32[2,3] parameter(0)\n b = f32[3,5] parameter(1)\n"
              " c = f32[2,8] concatenate(a, b), dimensions={1}",
              "differs in dimension 0");
}

TEST(Verifier, ReduceAndReduceWindow) {
  expectOk("a = f32[4,5] parameter(0)\n z = f32[] parameter(1)\n"
           " r = f32[5] reduce(a, z), dimensions={0}, to_apply=add");
  expectError("a = f32[4,5] parameter(0)\n z = f32[] parameter(1)\n"
              " r = f32[4] reduce(a, z), dimensions={0}, to_apply=add",
              "does not match the expected f32[5]");
  expectError("a = f32[4,5] parameter(0)\n z = f32[2] parameter(1)\n"
              " r = f32[5] reduce(a, z), dimensions={0}, to_apply=add",
              "init value 0 must be a scalar");
  expectError("a = f32[4,5] parameter(0)\n z = f32[] parameter(1)\n"
              " r = f32[5] reduce(a, z), dimensions={2}, to_apply=add",
              "must be unique dimensions");
  expectOk("a = f32[4,10] parameter(0)\n z = f32[] parameter(1)\n"
           " r = f32[3,5] reduce-window(a, z), window={size=2x2 stride=1x2}, to_apply=add");
  expectOk("a = f32[4,10] parameter(0)\n z = f32[] parameter(1)\n"
           " r = f32[6,10] reduce-window(a, z), window={size=2x3 pad=2_2x1_1 lhs_dilate=1x1 rhs_dilate=2x1}, to_apply=add");
  expectError("a = f32[4,10] parameter(0)\n z = f32[] parameter(1)\n"
              " r = f32[3,6] reduce-window(a, z), window={size=2x2 stride=1x2}, to_apply=add",
              "does not match the expected f32[3,5]");
}

TEST(Verifier, Dot) {
  expectOk("a = f32[8,2,3] parameter(0)\n b = f32[8,3,4] parameter(1)\n"
           " d = f32[8,2,4] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
           "lhs_contracting_dims={2}, rhs_contracting_dims={1}");
  expectOk("a = bf16[2,3] parameter(0)\n b = bf16[3,4] parameter(1)\n"
           " d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  expectError("a = f32[2,3] parameter(0)\n b = f32[5,4] parameter(1)\n"
              " d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
              "contracting dimension sizes differ");
  expectError("a = f32[2,3] parameter(0)\n b = f32[3,4] parameter(1)\n"
              " d = f32[4,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
              "does not match the expected f32[2,4]");
}

TEST(Verifier, TuplesAndControlFlow) {
  expectOk("a = f32[2] parameter(0)\n t = (f32[2], f32[2]) tuple(a, a)\n"
           " g = f32[2] get-tuple-element(t), index=1");
  expectError("a = f32[2] parameter(0)\n t = (f32[2], f32[2]) tuple(a, a)\n"
              " g = f32[2] get-tuple-element(t), index=2",
              "index 2 is out of range");
  expectError("a = f32[2] parameter(0)\n t = (f32[2], f32[3]) tuple(a, a)",
              "does not match the expected (f32[2], f32[2])");
  expectOk("a = f32[] parameter(0)\n c = f32[] call(a, a), to_apply=add");
  expectError("a = f32[] parameter(0)\n c = f32[] call(a), to_apply=add",
              "which takes 2 parameters, with 1 operands");
  expectOk("a = f32[4] parameter(0)\n m = f32[4] map(a, a), dimensions={0}, to_apply=add");
}

TEST(Verifier, Iota) {
  expectOk("i = s32[4,5] iota(), iota_dimension=1");
  expectError("i = s32[4,5] iota(), iota_dimension=2", "out of range for rank 2");
}

// The gather example of the StableHLO RFC "Add batching dims to
// stablehlo.gather and stablehlo.scatter": batching dims on operand and
// indices.
constexpr const char *kRfcGather =
    "operand = s32[2,3,4,2] parameter(0)\n"
    " indices = s64[2,2,3,2] parameter(1)\n"
    " g = s32[2,2,3,2,2] gather(operand, indices), offset_dims={3,4}, "
    "collapsed_slice_dims={1}, operand_batching_dims={0}, "
    "start_indices_batching_dims={1}, start_index_map={2,1}, "
    "index_vector_dim=3, slice_sizes={1,1,2,2}";

std::string replace(std::string text, std::string_view from,
                    std::string_view to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Verifier, GatherRfcExampleAndConstraints) {
  expectOk(kRfcGather);
  expectError(replace(kRfcGather, "offset_dims={3,4}", "offset_dims={3}"),
              "(C1)");
  expectError(replace(kRfcGather, "index_vector_dim=3", "index_vector_dim=5"),
              "(C2)");
  expectError(replace(kRfcGather, "start_index_map={2,1}", "start_index_map={2}"),
              "(C3)");
  expectError(replace(kRfcGather, "offset_dims={3,4}", "offset_dims={4,3}"),
              "(C4)");
  expectError(replace(kRfcGather, "offset_dims={3,4}", "offset_dims={3,7}"),
              "(C5)");
  expectError(replace(kRfcGather, "collapsed_slice_dims={1}",
                      "collapsed_slice_dims={0}"),
              "(C6)");
  expectError(replace(kRfcGather, "slice_sizes={1,1,2,2}", "slice_sizes={1,2,2,2}"),
              "(C9)");
  expectError(replace(kRfcGather, "slice_sizes={1,1,2,2}", "slice_sizes={2,1,2,2}"),
              "(C12)");
  expectError(replace(kRfcGather, "start_indices_batching_dims={1}",
                      "start_indices_batching_dims={3}"),
              "(C15)");
  expectError(replace(kRfcGather, "start_indices_batching_dims={1}",
                      "start_indices_batching_dims={2}"),
              "(C17) operand batching dimension 0 and start_indices batching "
              "dimension 2 differ in size");
  expectError(replace(kRfcGather, "start_index_map={2,1}", "start_index_map={2,0}"),
              "(C18)");
  expectError(replace(kRfcGather, "start_index_map={2,1}", "start_index_map={2,9}"),
              "(C19)");
  expectError(replace(kRfcGather, "slice_sizes={1,1,2,2}", "slice_sizes={1,1,2}"),
              "(C20)");
  expectError(replace(kRfcGather, "slice_sizes={1,1,2,2}", "slice_sizes={1,1,5,2}"),
              "(C21)");
  expectError(replace(kRfcGather, "g = s32[2,2,3,2,2]", "g = s32[2,2,3,2,3]"),
              "does not match the expected s32[2,2,3,2,2]");
  expectError(replace(kRfcGather, "g = s32[2,2,3,2,2]", "g = f32[2,2,3,2,2]"),
              "(C23)");
}

// The same RFC's scatter example.
constexpr const char *kRfcScatter =
    "input = f32[2,3,4,2] parameter(0)\n"
    " indices = s64[2,2,3,2] parameter(1)\n"
    " updates = f32[2,2,3,2,2] parameter(2)\n"
    " s = f32[2,3,4,2] scatter(input, indices, updates), "
    "update_window_dims={3,4}, inserted_window_dims={1}, "
    "input_batching_dims={0}, scatter_indices_batching_dims={1}, "
    "scatter_dims_to_operand_dims={2,1}, index_vector_dim=3, to_apply=add";

TEST(Verifier, ScatterRfcExampleAndConstraints) {
  expectOk(kRfcScatter);
  expectError(replace(kRfcScatter, "update_window_dims={3,4}",
                      "update_window_dims={3}"),
              "(C2)");
  expectError(replace(kRfcScatter, "updates = f32[2,2,3,2,2]",
                      "updates = f32[2,2,4,2,2]"),
              "(C4)");
  expectError(replace(kRfcScatter, "updates = f32[2,2,3,2,2]",
                      "updates = f32[2,2,3,5,2]"),
              "(C4)");
  expectError(replace(kRfcScatter, "updates = f32[2,2,3,2,2]",
                      "updates = s32[2,2,3,2,2]"),
              "(C6)");
  expectError(replace(kRfcScatter, "update_window_dims={3,4}",
                      "update_window_dims={4,3}"),
              "(C7)");
  expectError(replace(kRfcScatter, "inserted_window_dims={1}",
                      "inserted_window_dims={0}"),
              "(C9)");
  expectError(replace(kRfcScatter, "scatter_indices_batching_dims={1}",
                      "scatter_indices_batching_dims={3}"),
              "(C16)");
  expectError(replace(kRfcScatter, "scatter_indices_batching_dims={1}",
                      "scatter_indices_batching_dims={2}"),
              "(C18)");
  expectError(replace(kRfcScatter, "scatter_dims_to_operand_dims={2,1}",
                      "scatter_dims_to_operand_dims={2}"),
              "(C19)");
  expectError(replace(kRfcScatter, "scatter_dims_to_operand_dims={2,1}",
                      "scatter_dims_to_operand_dims={2,0}"),
              "(C20)");
  expectError(replace(kRfcScatter, "index_vector_dim=3", "index_vector_dim=9"),
              "(C22)");
  expectError(replace(kRfcScatter, "s = f32[2,3,4,2]", "s = f32[2,3,4,3]"),
              "does not match the expected f32[2,3,4,2]");
}

TEST(Verifier, ReportsEveryViolationAtItsInstruction) {
  std::string errors = verify("a = f32[2] parameter(0)\n"
                              " b = f32[3] negate(a)\n"
                              " c = f32[4] negate(a)");
  EXPECT_NE(errors.find("v.hlo:9:2: error: negate 'b'"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("v.hlo:10:2: error: negate 'c'"), std::string::npos)
      << errors;
}
