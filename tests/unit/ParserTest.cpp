//===- ParserTest.cpp - Modules, computations, instructions, attributes ---===//
#include "hlo_parser/OpAttributes.h"
#include "hlo_parser/Parser.h"
#include "hlo_parser/Printer.h"

#include <gtest/gtest.h>

using namespace hlo;

namespace {

std::unique_ptr<HloModule> parseOk(std::string_view text) {
  auto [module, errors] = parseHloModuleText(text, "test.hlo");
  EXPECT_NE(module, nullptr) << errors;
  return std::move(module);
}

std::string parseError(std::string_view text) {
  auto [module, errors] = parseHloModuleText(text, "test.hlo");
  EXPECT_EQ(module, nullptr) << "unexpectedly parsed:\n" << text;
  return errors;
}

} // namespace

TEST(Parser, TestHarnessConventions) {
  // No header, no ENTRY (last computation), no ROOT (last instruction).
  auto module = parseOk(R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  sum = f32[] add(a, b)
}
fused {
  p0 = f32[64, 64] parameter(0)
  c = f32[] constant(0)
  r = f32[64] reduce(p0, c), dimensions={1}, to_apply=add
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_FALSE(module->hasHeader());
  EXPECT_EQ(module->name(), "test");
  EXPECT_EQ(module->entry()->name(), "fused");
  EXPECT_EQ(module->entry()->root()->name(), "r");
  EXPECT_EQ(module->entry()->root()->computationAttr("to_apply")->name(), "add");
  EXPECT_EQ(module->entry()->parameterCount(), 1);
  EXPECT_EQ(module->computations()[0]->root()->opcode(), HloOpcode::Add);
}

TEST(Parser, XlaDumpFormat) {
  auto module = parseOk(R"(HloModule m, is_scheduled=true, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

ENTRY %main.3 (Arg_0.1: f32[4]) -> f32[4] {
  %Arg_0.1 = f32[4]{0} parameter(0), metadata={op_name="x"}
  %constant.2 = f32[] constant(2), metadata={op_type="mul" source_line=3}
  %broadcast = f32[4]{0} broadcast(f32[] %constant.2), dimensions={}
  ROOT %multiply.3 = f32[4]{0} multiply(f32[4]{0} %Arg_0.1, f32[4]{0} %broadcast), metadata={op_type="mul" op_name="jit(f)/mul" source_file="/tmp/a.py" source_line=3}, backend_config={"outer":{"x":1}}
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->name(), "m");
  ASSERT_EQ(module->attributes().size(), 2u);
  EXPECT_EQ(module->attributes()[1].text, "{(f32[4]{0})->f32[4]{0}}");
  const HloInstruction *root = module->entry()->root();
  EXPECT_EQ(root->textAttr("metadata"),
            R"({op_type="mul" op_name="jit(f)/mul" source_file="/tmp/a.py" source_line=3})");
  EXPECT_EQ(root->textAttr("backend_config"), R"({"outer":{"x":1}})");
  EXPECT_EQ(root->operand(1)->dimensions().size(), 0u);
}

TEST(Parser, TypedAttributes) {
  auto module = parseOk(R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[10,20] parameter(0)
  z = f32[] constant(0)
  s = f32[5,10] slice(p), slice={[0:10:2], [5:15]}
  pd = f32[12,39] pad(p, z), padding=1_1x0_0_1
  rw = f32[4,8] reduce-window(s, z), window={size=2x3 stride=1x1 pad=0_0x0_0 rhs_dilate=1x1}, to_apply=add
  ROOT c = pred[10,20] compare(p, p), direction=LT, type=TOTALORDER
}
)");
  ASSERT_NE(module, nullptr);
  const auto &instructions = module->entry()->instructions();
  const AttrValue *slice = instructions[2]->findAttribute("slice");
  ASSERT_NE(slice, nullptr);
  ASSERT_EQ(slice->slices.size(), 2u);
  EXPECT_EQ(slice->slices[0].stride, 2);
  EXPECT_EQ(slice->slices[1].start, 5);
  const AttrValue *padding = instructions[3]->findAttribute("padding");
  EXPECT_EQ(padding->padding[1].interior, 1);
  const AttrValue *window = instructions[4]->findAttribute("window");
  ASSERT_EQ(window->window.size(), 2u);
  EXPECT_EQ(window->window[1].size, 3);
  EXPECT_EQ(module->entry()->root()->textAttr("direction"), "LT");
  std::string printed = printModule(*module);
  EXPECT_NE(printed.find("slice={[0:10:2], [5:15]}"), std::string::npos);
  EXPECT_NE(printed.find("padding=1_1x0_0_1"), std::string::npos);
  EXPECT_NE(printed.find("window={size=2x3}"), std::string::npos) << printed;
}

TEST(Parser, GatherWithBatchingDims) {
  auto module = parseOk(R"(
ENTRY e {
  operand = s32[2,3,4,2] parameter(0)
  indices = s64[2,2,3,2] parameter(1)
  ROOT g = s32[2,2,3,2,2] gather(operand, indices), offset_dims={3,4}, collapsed_slice_dims={1}, operand_batching_dims={0}, start_indices_batching_dims={1}, start_index_map={2,1}, index_vector_dim=3, slice_sizes={1,1,2,2}, indices_are_sorted=false
}
)");
  ASSERT_NE(module, nullptr);
  const HloInstruction *gather = module->entry()->root();
  GatherDimensionNumbers numbers = gatherDimensionNumbers(*gather);
  EXPECT_EQ(numbers.offsetDims, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(numbers.collapsedSliceDims, std::vector<int64_t>{1});
  EXPECT_EQ(numbers.operandBatchingDims, std::vector<int64_t>{0});
  EXPECT_EQ(numbers.startIndicesBatchingDims, std::vector<int64_t>{1});
  EXPECT_EQ(numbers.startIndexMap, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(numbers.sliceSizes, (std::vector<int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(numbers.indexVectorDim, 3);
  EXPECT_FALSE(numbers.indicesAreSorted);
}

// The typed views of OpAttributes.h decode what the text says.
TEST(Parser, TypedOpAttributes) {
  auto module = parseOk(R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  x = f32[4,8] parameter(0)
  y = f32[4,8,16] parameter(1)
  i = s32[3,1] parameter(2)
  u = f32[3,16] parameter(3)
  o = f32[16] parameter(4)
  c = pred[4,8] compare(x, x), direction=GE, type=TOTALORDER
  d = f32[4,16] dot(x, y), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT s = f32[16] scatter(o, i, u), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, unique_indices=true, to_apply=add
}
)");
  ASSERT_NE(module, nullptr);
  auto find = [&](std::string_view name) -> const HloInstruction * {
    for (const auto &instruction : module->entry()->instructions())
      if (instruction->name() == name)
        return instruction.get();
    return nullptr;
  };
  Comparison comparison = comparisonOf(*find("c"));
  EXPECT_EQ(comparison.direction, ComparisonDirection::Ge);
  EXPECT_EQ(comparison.type, ComparisonType::TotalOrder);
  EXPECT_EQ(toString(comparison.direction), "GE");
  DotDimensionNumbers dot = dotDimensionNumbers(*find("d"));
  EXPECT_EQ(dot.lhsBatch, std::vector<int64_t>{0});
  EXPECT_EQ(dot.rhsBatch, std::vector<int64_t>{0});
  EXPECT_EQ(dot.lhsContracting, std::vector<int64_t>{1});
  EXPECT_EQ(dot.rhsContracting, std::vector<int64_t>{1});
  ScatterDimensionNumbers scatter = scatterDimensionNumbers(*find("s"));
  EXPECT_TRUE(scatter.updateWindowDims.empty());
  EXPECT_EQ(scatter.insertedWindowDims, std::vector<int64_t>{0});
  EXPECT_EQ(scatter.scatterDimsToOperandDims, std::vector<int64_t>{0});
  EXPECT_EQ(scatter.indexVectorDim, 1);
  EXPECT_TRUE(scatter.uniqueIndices);
  EXPECT_FALSE(scatter.indicesAreSorted);
}

TEST(Parser, SugarForms) {
  auto module = parseOk(R"(
ENTRY e {
  p = (f32[10], f16[10]) parameter(0)
  a = f32[10] add(f32[10] p#0, p#0)
  t = tuple(a, p#1)
  n = f32[] exponential(f32[] parameter(1))
}
)");
  ASSERT_NE(module, nullptr);
  const HloComputation *entry = module->entry();
  // p#0 becomes one get-tuple-element, shared by both uses.
  EXPECT_EQ(entry->instructions()[1]->opcode(), HloOpcode::GetTupleElement);
  EXPECT_EQ(entry->instructions()[2]->operand(0),
            entry->instructions()[2]->operand(1));
  // The tuple's shape was inferred.
  const HloInstruction *tuple = entry->instructions()[4].get();
  EXPECT_EQ(tuple->shape().toString(), "(f32[10]{0}, f16[10]{0})");
  // The nested parameter became an instruction of its own.
  EXPECT_EQ(entry->parameterCount(), 2);
  EXPECT_EQ(entry->root()->operand(0)->opcode(), HloOpcode::Parameter);
}

TEST(Parser, InlineComputationsAndAsyncSugar) {
  // Operands must be defined before they are used.
  EXPECT_NE(parseError(R"(
ENTRY main {
  start = ((s32[]), s32[], s32[]) call-start(c), to_apply={
    arg = s32[] parameter(0)
    ROOT neg = s32[] negate(arg)
  }
  c = s32[] constant(1)
}
)").find("instruction does not exist: c"),
            std::string::npos);
  auto module = parseOk(R"(
ENTRY main {
  c = s32[] constant(1)
  start = ((s32[]), s32[], s32[]) call-start(c), to_apply={
    arg = s32[] parameter(0)
    ROOT neg = s32[] negate(arg)
  }
  ROOT done = s32[] call-done(start)
}
)");
  ASSERT_NE(module, nullptr);
  ASSERT_EQ(module->computations().size(), 2u);
  EXPECT_EQ(module->computations()[0]->name(), "start.to_apply");
  const HloInstruction *start = module->entry()->instructions()[1].get();
  EXPECT_EQ(start->opcode(), HloOpcode::AsyncStart);
  EXPECT_EQ(start->asyncWrappedOpcode(), HloOpcode::Call);
  EXPECT_NE(printModule(*module).find("call-start(%c), to_apply=%start.to_apply"),
            std::string::npos);
}

constexpr const char *kCallsUndefined = R"(
ENTRY e {
  p = f32[4] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[] reduce(p, c), dimensions={0}, to_apply=scalar_add
}
)";

TEST(Parser, UndefinedComputationIsAnError) {
  auto [module, errors] = parseHloModuleText(kCallsUndefined, "test.hlo");
  EXPECT_EQ(module, nullptr);
  EXPECT_NE(errors.find("test.hlo:5:57: error: computation 'scalar_add' is not defined in "
                        "this module"),
            std::string::npos)
      << errors;
}

TEST(Parser, UndefinedComputationCanBeAWarnedDeclaration) {
  ParseOptions options;
  options.allowUndefinedComputations = true;
  auto [module, errors] = parseHloModuleText(kCallsUndefined, "test.hlo", options);
  ASSERT_NE(module, nullptr);
  EXPECT_NE(errors.find("test.hlo:5:57: warning: computation 'scalar_add' is "
                        "not defined in this module"),
            std::string::npos)
      << errors;
  ASSERT_EQ(module->declarations().size(), 1u);
  EXPECT_TRUE(module->entry()->root()->computationAttr("to_apply")->isDeclaration());
}

TEST(Parser, StackFrameSections) {
  auto module = parseOk(R"(HloModule m

FileNames
1 "a.py"

StackFrames
1 {file_location_id=1 parent_frame_id=1}

ENTRY e {
  ROOT c = pred[] constant(true), metadata={stack_frame_id=1}
}
)");
  ASSERT_NE(module, nullptr);
  ASSERT_EQ(module->sections().size(), 2u);
  EXPECT_EQ(module->sections()[1].entries[0].second,
            "{file_location_id=1 parent_frame_id=1}");
}

TEST(Parser, EveryOpcodeSpellingParses) {
  // Each opcode of XLA's list parses as an instruction name (the attribute
  // and operand rules are exercised elsewhere).
  int count = 0;
#define HLO_OPCODE(Enum, Name, Arity)                                          \
  EXPECT_EQ(parseOpcodeName(Name), HloOpcode::Enum);                           \
  EXPECT_EQ(opcodeName(HloOpcode::Enum), Name);                                \
  ++count;
#include "hlo_parser/HloOpcode.def"
  EXPECT_GE(count, 130);
}

TEST(Parser, NamesThatAreNotIdentifiersRoundTrip) {
  // Found by the fuzzer: a parameter named %0p was printed bare in the
  // computation signature, where it does not read back.
  const char *text = R"(HloModule %9lives
comp {
  %0p = f32[] parameter(0)
  ROOT %-x = f32[] negate(%0p)
}
)";
  auto module = parseOk(text);
  ASSERT_NE(module, nullptr);
  std::string printed = printModule(*module);
  EXPECT_NE(printed.find("HloModule %9lives"), std::string::npos) << printed;
  EXPECT_NE(printed.find("ENTRY %comp (%0p: f32[]) -> f32[] {"),
            std::string::npos)
      << printed;
  auto reparsed = parseOk(printed);
  ASSERT_NE(reparsed, nullptr);
  EXPECT_EQ(printModule(*reparsed), printed);
}

TEST(Parser, DiagnosticsHaveLocationSourceLineAndCaret) {
  std::string errors = parseError("ENTRY e {\n  a = f32[] foo(b)\n}\n");
  EXPECT_EQ(errors, "test.hlo:2:13: error: unknown opcode 'foo'\n"
                    "  a = f32[] foo(b)\n"
                    "            ^\n");
}

TEST(Parser, Errors) {
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] add(x, y)\n}").find(
                "instruction does not exist: x"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[2] broadcast(f32[] b), dimensions={}\n}")
                .find("instruction does not exist: b"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(0), calls=x\n}")
                .find("unexpected attribute \"calls\""),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] negate(a), "
                       "metadata={}, metadata={}\n}")
                .find("given twice"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(0)\n  a = f32[] negate(a)\n}")
                .find("instruction 'a' is already defined"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[2] parameter(0)\n  b = f32[2] "
                       "transpose(a)\n}")
                .find("attribute dimensions is expected but not seen"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] add(a)\n}")
                .find("add expects 2 operands, but has 1"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n}").find("has no instructions"),
            std::string::npos);
  EXPECT_NE(parseError("").find("no computation"), std::string::npos);
  // A misspelled comparison direction is an error, not a silent GE.
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(0)\n  ROOT c = pred[] compare(a, a), "
                       "direction=LTE\n}")
                .find("error: unknown comparison direction 'LTE'; expected EQ, NE, LT, "
                      "LE, GT or GE"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(0)\n").find(
                "expected '}' to end computation 'e'"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  a = f32[] parameter(1)\n}").find(
                "parameter numbers"),
            std::string::npos);
  EXPECT_NE(parseError("ENTRY e {\n  b = tuple()\n  a = transpose(b), "
                       "dimensions={}\n}")
                .find("cannot infer the shape of transpose"),
            std::string::npos);
  std::string deep = "ENTRY e {\n  a = " + std::string(500, '(') + "\n}";
  EXPECT_NE(parseError(deep).find("nesting is deeper"), std::string::npos);
}
