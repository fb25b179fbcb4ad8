//===- RuntimeTest.cpp - hlo-run's host side, without a GPU ---------------===//
//
// The manifest reader (and its JSON), the comparison rules, the physical
// buffer layout, the choice between whole-module and per-kernel runs, the
// per-kernel reference cases, and the error results (Status, ErrorOr: support/ErrorOr.h).
//
//===----------------------------------------------------------------------===//
#include "runtime/Comparison.h"
#include "support/Json.h"
#include "abi/LaunchManifest.h"
#include "runtime/ElementMagnitudes.h"
#include "runtime/ReductionTolerance.h"
#include "runtime/ReferenceCases.h"
#include "runtime/TensorMapLayout.h"
#include "support/ErrorOr.h"

#include "hlo_parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

using namespace hlo;
using namespace hlo::runtime;
using hlo::JsonValue;
using hlo::abi::ArrayShape;
using hlo::abi::TensorMapSpec;

TEST(BufferBytes, SubByteElementsPackedAsJaxStoresThem) {
  // JAX 0.10: jax.lax.bitcast_convert_type of
  // jnp.array([1,-2,3,-4,5,-6,7,-8,0,-1], jnp.int4).reshape(5, 2) to
  // jnp.int8 gives these bytes: element 2k in the low nibble of byte k.
  const std::vector<uint8_t> jaxBytes = {0xE1, 0xC3, 0xA5, 0x87, 0xF0};
  for (PrimitiveType type : {PrimitiveType::S4, PrimitiveType::U4}) {
    Shape physical(type, {10});
    Literal logical(physical);
    logical.intData() = {1, -2, 3, -4, 5, -6, 7, -8, 0, -1};
    if (type == PrimitiveType::U4)
      for (int64_t &value : logical.intData())
        value &= 0xf;
    EXPECT_EQ(physical.bufferBytes(), 5);
    std::vector<uint8_t> bytes = toBufferBytes(logical, physical);
    EXPECT_EQ(bytes, jaxBytes);
    EXPECT_EQ(fromBufferBytes(bytes.data(), physical).intData(), logical.intData());
  }
  // An odd count leaves the last high nibble zero; s4[100,9] is 450 bytes
  // as in XLA's layouts {1,0:E(4)}.
  Shape odd(PrimitiveType::S4, {3});
  Literal three(odd);
  three.intData() = {-1, -1, -1};
  EXPECT_EQ(toBufferBytes(three, odd), (std::vector<uint8_t>{0xFF, 0x0F}));
  EXPECT_EQ(Shape(PrimitiveType::S4, {100, 9}).bufferBytes(), 450);
  // A column-major layout packs by the physical offset.
  Shape columns(PrimitiveType::S4, {2, 2});
  Layout layout;
  layout.minorToMajor = {0, 1};
  columns.setLayout(layout);
  Literal square(Shape(PrimitiveType::S4, {2, 2}));
  square.intData() = {1, 2, 3, 4};
  EXPECT_EQ(toBufferBytes(square, columns), (std::vector<uint8_t>{0x31, 0x42}));
  // 2-bit elements four per byte (E(2)), the first in the low bits: JAX
  // gives bytes [0xC9, 0x93] for int2 [1,-2,0,-1,-1,0,1,-2].
  Shape pairs(PrimitiveType::S2, {2, 4});
  Literal twoBits(pairs);
  twoBits.intData() = {1, -2, 0, -1, -1, 0, 1, -2};
  std::vector<uint8_t> packed = toBufferBytes(twoBits, pairs);
  EXPECT_EQ(packed, (std::vector<uint8_t>{0xC9, 0x93}));
  EXPECT_EQ(fromBufferBytes(packed.data(), pairs).intData(), twoBits.intData());
  EXPECT_EQ(Shape(PrimitiveType::U2, {1001}).bufferBytes(), 251);
}

namespace {

const char *kManifest = R"({
  "module": "jit_gelu",
  "gpu_arch": "sm_90",
  "code": "gelu.ptx",
  "kernels": [
    {
      "name": "gelu_fusion",
      "hlo_instruction": "gelu_fusion",
      "emitter": "kLoop/LoopFusion",
      "grid": [24576, 1, 1],
      "block": [128, 1, 1],
      "shared_memory_bytes": 0,
      "parameters": [
        {"direction": "in", "binds": "parameter", "parameter": 0, "shape": [6, 512, 4096], "element_type": "bf16", "layout": [2, 1, 0], "bytes": 25165824, "alignment": 16},
        {"direction": "out", "binds": "output", "output": 0, "shape": [6, 512, 4096], "element_type": "bf16", "layout": [2, 1, 0], "bytes": 25165824, "alignment": 16}
      ]
    }
  ],
  "not_emitted": []
}
)";

std::unique_ptr<HloModule> parse(const std::string &text) {
  auto [module, errors] = parseHloModuleText(text);
  EXPECT_TRUE(module) << errors;
  return std::move(module);
}

std::string manifestError(const std::string &json) {
  ErrorOr<LaunchManifest> manifest = parseLaunchManifest(json);
  EXPECT_FALSE(manifest);
  return manifest.error();
}

KernelParameter parameter(bool isOutput, BufferBinding binding, int64_t number,
                          std::string buffer = "") {
  KernelParameter result;
  result.isOutput = isOutput;
  result.binding = binding;
  result.number = number;
  result.bufferName = std::move(buffer);
  result.shape = ArrayShape::rowMajor("f32", {4});
  result.bytes = 16;
  return result;
}

} // namespace

TEST(Json, ParsesNestedValuesAndReportsPositions) {
  ErrorOr<JsonValue> value =
      JsonValue::parse(R"({"a": [1, -2.5e1, true, null], "b": {"c": "x\"y\u00e9"}})");
  ASSERT_TRUE(value) << value.error();
  EXPECT_EQ(value->find("a")->array()[1].number(), -25);
  EXPECT_TRUE(value->find("a")->array()[2].boolean());
  EXPECT_EQ(value->find("b")->find("c")->string(), "x\"y\xc3\xa9");
  EXPECT_EQ(value->find("missing"), nullptr);
  ErrorOr<JsonValue> broken = JsonValue::parse("{\n  \"a\": [1,\n  }");
  EXPECT_FALSE(broken);
  EXPECT_EQ(broken.error().rfind("line 3, column 3:", 0), 0u) << broken.error();
  ErrorOr<JsonValue> trailing = JsonValue::parse("{} x");
  EXPECT_FALSE(trailing);
  EXPECT_NE(trailing.error().find("trailing characters"), std::string::npos);
}

TEST(LaunchManifest, ReadsWhatHloCompileWrites) {
  ErrorOr<LaunchManifest> manifest = parseLaunchManifest(kManifest);
  ASSERT_TRUE(manifest) << manifest.error();
  EXPECT_EQ(manifest->module, "jit_gelu");
  EXPECT_EQ(manifest->codeFile, "gelu.ptx");
  ASSERT_EQ(manifest->kernels.size(), 1u);
  const KernelSpec &kernel = manifest->kernels[0];
  EXPECT_EQ(kernel.name, "gelu_fusion");
  EXPECT_EQ(kernel.grid, (std::array<unsigned, 3>{24576, 1, 1}));
  EXPECT_EQ(kernel.block, (std::array<unsigned, 3>{128, 1, 1}));
  ASSERT_EQ(kernel.parameters.size(), 2u);
  EXPECT_FALSE(kernel.parameters[0].isOutput);
  EXPECT_EQ(kernel.parameters[0].binding, BufferBinding::Parameter);
  EXPECT_TRUE(kernel.parameters[1].isOutput);
  EXPECT_EQ(kernel.parameters[1].binding, BufferBinding::Output);
  EXPECT_EQ(kernel.parameters[1].shape.str(), "bf16[6,512,4096]{2,1,0}");
  EXPECT_EQ(kernel.parameters[1].bytes, 25165824);
}

TEST(LaunchManifest, ScratchBuffersRoundTrip) {
  ErrorOr<LaunchManifest> manifest = parseLaunchManifest(kManifest);
  ASSERT_TRUE(manifest) << manifest.error();
  manifest->kernels[0].parameters.push_back(
      parameter(true, BufferBinding::Scratch, 0, "sort#scratch0"));
  std::string json = printLaunchManifest(*manifest);
  EXPECT_NE(json.find("\"binds\": \"scratch\", \"buffer\": \"sort#scratch0\""),
            std::string::npos)
      << json;
  ErrorOr<LaunchManifest> back = parseLaunchManifest(json);
  ASSERT_TRUE(back) << back.error();
  const KernelParameter &scratch = back->kernels[0].parameters.back();
  EXPECT_EQ(scratch.binding, BufferBinding::Scratch);
  EXPECT_EQ(scratch.bufferName, "sort#scratch0");
  EXPECT_EQ(scratch.bytes, 16);
}

TEST(LaunchManifest, DynamicSharedMemoryRoundTripsWhenThere) {
  ErrorOr<LaunchManifest> manifest = parseLaunchManifest(kManifest);
  ASSERT_TRUE(manifest) << manifest.error();
  // Absent: none, and none is written.
  EXPECT_EQ(manifest->kernels[0].dynamicSharedMemoryBytes, 0u);
  EXPECT_EQ(printLaunchManifest(*manifest).find("dynamic_shared_memory_bytes"),
            std::string::npos);
  manifest->kernels[0].dynamicSharedMemoryBytes = 128 * 1024;
  std::string json = printLaunchManifest(*manifest);
  EXPECT_NE(json.find("\"dynamic_shared_memory_bytes\": 131072,"), std::string::npos) << json;
  ErrorOr<LaunchManifest> back = parseLaunchManifest(json);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->kernels[0].dynamicSharedMemoryBytes, 131072u);
}

TEST(LaunchManifest, ClustersRegisterBoundsAndTensorMapsRoundTrip) {
  ErrorOr<LaunchManifest> manifest = parseLaunchManifest(kManifest);
  ASSERT_TRUE(manifest) << manifest.error();
  KernelSpec &kernel = manifest->kernels[0];
  // Absent: none, and none is written (a manifest without them is as before).
  EXPECT_FALSE(kernel.cluster);
  EXPECT_EQ(kernel.maxRegisters, 0u);
  EXPECT_FALSE(kernel.parameters[0].tensorMap);
  std::string plain = printLaunchManifest(*manifest);
  for (const char *field : {"cluster", "max_registers", "tensor_map"})
    EXPECT_EQ(plain.find(field), std::string::npos) << field;
  kernel.cluster = std::array<unsigned, 3>{2, 1, 1};
  kernel.maxRegisters = 168;
  kernel.parameters[0].tensorMap = TensorMapSpec{{64, 8, 1}, 128};
  std::string json = printLaunchManifest(*manifest);
  EXPECT_NE(json.find("\"cluster\": [2, 1, 1],"), std::string::npos) << json;
  EXPECT_NE(json.find("\"tensor_map\": {\"box\": [64, 8, 1], \"swizzle_bytes\": 128}"),
            std::string::npos)
      << json;
  ErrorOr<LaunchManifest> back = parseLaunchManifest(json);
  ASSERT_TRUE(back) << back.error();
  const KernelSpec &read = back->kernels[0];
  ASSERT_TRUE(read.cluster);
  EXPECT_EQ(*read.cluster, (std::array<unsigned, 3>{2, 1, 1}));
  EXPECT_EQ(read.maxRegisters, 168u);
  ASSERT_TRUE(read.parameters[0].tensorMap);
  EXPECT_EQ(read.parameters[0].tensorMap->box, (std::vector<int64_t>{64, 8, 1}));
  EXPECT_EQ(read.parameters[0].tensorMap->swizzleBytes, 128);
  EXPECT_FALSE(read.parameters[1].tensorMap);
  // The grid (24576 blocks) is whole clusters, or the manifest is refused.
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string copy = json;
    copy.replace(copy.find(from), from.size(), to);
    return copy;
  };
  std::string odd = replaced("\"cluster\": [2, 1, 1]", "\"cluster\": [5, 1, 1]");
  EXPECT_EQ(manifestError(odd), "kernel 0: the grid is not a whole number of \"cluster\"s");
  std::string swizzle = replaced("\"swizzle_bytes\": 128", "\"swizzle_bytes\": 100");
  EXPECT_EQ(manifestError(swizzle),
            "kernel 0 parameter 0: a tensor map's \"swizzle_bytes\" is 0, 32, 64 or 128");
}

TEST(TensorMapLayout, DimensionsAndStridesInLayoutOrder) {
  KernelParameter parameter;
  // bf16[256,64]{1,0}: 64 contiguous elements a row, rows 128 bytes apart.
  parameter.shape = ArrayShape::rowMajor("bf16", {256, 64});
  parameter.tensorMap = TensorMapSpec{{64, 32}, 128};
  ErrorOr<TensorMapLayout> rows = tensorMapLayout(parameter);
  ASSERT_TRUE(rows) << rows.error();
  EXPECT_EQ(rows->element, TensorMapElement::BF16);
  EXPECT_EQ(rows->rank, 2);
  EXPECT_EQ(rows->dims[0], 64u);
  EXPECT_EQ(rows->dims[1], 256u);
  EXPECT_EQ(rows->strides[0], 128u);
  EXPECT_EQ(rows->box[0], 64u);
  EXPECT_EQ(rows->box[1], 32u);
  EXPECT_EQ(rows->swizzleBytes, 128);
  // Column-major {0,1}: dimension 0 is the contiguous one.
  parameter.shape.minorToMajor = {0, 1};
  parameter.tensorMap = TensorMapSpec{{32, 32}, 64};
  ErrorOr<TensorMapLayout> columns = tensorMapLayout(parameter);
  ASSERT_TRUE(columns) << columns.error();
  EXPECT_EQ(columns->dims[0], 256u);
  EXPECT_EQ(columns->strides[0], 512u);
  // 8-bit floats travel as bytes.
  parameter.shape = ArrayShape::rowMajor("f8e4m3fn", {128, 128});
  parameter.tensorMap = TensorMapSpec{{128, 16}, 128};
  ErrorOr<TensorMapLayout> fp8 = tensorMapLayout(parameter);
  ASSERT_TRUE(fp8) << fp8.error();
  EXPECT_EQ(fp8->element, TensorMapElement::U8);
}

TEST(TensorMapLayout, RefusesWhatTheDriverWouldByRule) {
  auto error = [](std::string type, std::vector<int64_t> dims, std::vector<int64_t> box,
                  int64_t swizzle) {
    KernelParameter parameter;
    parameter.shape = ArrayShape::rowMajor(type, std::move(dims));
    parameter.tensorMap = TensorMapSpec{std::move(box), swizzle};
    ErrorOr<TensorMapLayout> layout = tensorMapLayout(parameter);
    EXPECT_FALSE(layout);
    return layout ? std::string() : layout.error();
  };
  // Rows of 7 f32 (28 bytes) are not 16-byte strides.
  EXPECT_EQ(error("f32", {16, 7}, {4, 4}, 0),
            "a tensor map's stride of dimension 1 (28 bytes) is not a multiple of 16 below 2^40");
  EXPECT_EQ(error("f32", {16, 8}, {2, 4}, 0),
            "a tensor map's innermost box extent (8 bytes) is not a multiple of 16 bytes");
  EXPECT_EQ(error("f32", {16, 64}, {64, 4}, 128),
            "a tensor map's innermost box extent (256 bytes) exceeds its 128-byte swizzle");
  EXPECT_EQ(error("s4", {16, 64}, {64, 4}, 0),
            "a tensor map cannot hold s4 elements");
  EXPECT_EQ(error("f32", {2, 2, 2, 2, 2, 4}, {1, 1, 1, 1, 1, 4}, 0),
            "a tensor map has 1 to 5 dimensions, not 6");
}

TEST(LaunchManifest, RejectsBrokenManifestsWithWhere) {
  std::string manifest = kManifest;
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string copy = manifest;
    copy.replace(copy.find(from), from.size(), to);
    return copy;
  };
  EXPECT_EQ(manifestError(replaced("\"block\": [128, 1, 1]", "\"block\": [128, 1]")),
            "kernel 0: \"block\" must have 3 entries");
  EXPECT_EQ(manifestError(replaced("\"layout\": [2, 1, 0]", "\"layout\": [2, 2, 0]")),
            "kernel 0 parameter 0: layout is not a permutation of the dimensions");
  EXPECT_EQ(manifestError(replaced("\"element_type\": \"bf16\"", "\"element_type\": \"q7\"")),
            "kernel 0 parameter 0: unknown element type \"q7\"");
  EXPECT_EQ(manifestError(replaced("\"direction\": \"in\"", "\"direction\": \"sideways\"")),
            "kernel 0 parameter 0: \"direction\" must be \"in\" or \"out\"");
  EXPECT_EQ(manifestError(replaced("\"module\": \"jit_gelu\",", "")),
            "manifest: missing \"module\"");
  EXPECT_EQ(manifestError("[1, 2]"), "the manifest must be a JSON object");
}

TEST(Comparison, TolerancesPerType) {
  EXPECT_EQ(defaultTolerance(PrimitiveType::S32).absolute, 0);
  EXPECT_EQ(defaultTolerance(PrimitiveType::F32).relative, 1e-5);
  EXPECT_EQ(defaultTolerance(PrimitiveType::BF16).relative, 1.0 / 64);
  EXPECT_EQ(defaultTolerance(PrimitiveType::F16).relative, 1.0 / 512);
}

TEST(Comparison, FloatsWithinBoundsNaNAndInfPositions) {
  Shape shape(PrimitiveType::F32, {4});
  Literal expected(shape), actual(shape);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expected.realData() = {1.0, nan, inf, 100.0};
  actual.realData() = {1.0 + 5e-6, nan, inf, 100.001};
  ComparisonResult result = compareArrays(expected, actual, {1e-5, 1e-5});
  EXPECT_TRUE(result.passed()) << result.firstMismatch;
  EXPECT_NEAR(result.maxAbsoluteError, 0.001, 1e-9);
  EXPECT_NEAR(result.maxRelativeError, 1e-5, 1e-9);

  actual.realData() = {1.0, 0.0, -inf, 200.0};
  result = compareArrays(expected, actual, {1e-5, 1e-5});
  EXPECT_EQ(result.mismatches, 3);
  EXPECT_EQ(result.firstMismatch, "at [1]: expected nan, got 0");
  actual.realData() = {nan, nan, inf, 100.0};
  EXPECT_EQ(compareArrays(expected, actual, {1, 1}).mismatches, 1); // NaN where none is due
}

// An f16 sum whose terms add up beyond 65504 may overflow a partial sum
// in the kernel's order (+inf in one thread, -inf in another: NaN) where the
// interpreter's exact sum rounds to -inf (issue 52, fuzz seed 93221): only
// there are infinities and NaN accepted, whatever the bound.
TEST(Comparison, OverflowingNarrowSumsAcceptNonFiniteOnly) {
  Shape shape(PrimitiveType::F16, {3});
  Literal expected(shape), actual(shape), magnitudes(Shape(PrimitiveType::F64, {3}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expected.realData() = {-inf, 10.0, 10.0};
  actual.realData() = {nan, nan, 10.0};
  magnitudes.realData() = {1e5, 60000.0, 1e5};
  ReductionDepth depth;
  depth.elements = 4096;
  depth.unitRoundoff = std::ldexp(1.0, -11);
  depth.accumulatorLimit = 65504;
  Tolerance tolerance =
      reductionTolerance(defaultTolerance(PrimitiveType::F16), depth, PrimitiveType::F16);
  ComparisonResult result = compareArrays(expected, actual, tolerance, &magnitudes);
  // Element 1's terms fit in f16: its NaN is a bug.
  EXPECT_EQ(result.mismatches, 1);
  EXPECT_EQ(result.firstMismatch, "at [1]: expected 10, got nan");
  EXPECT_EQ(result.overflowElements, 2);
  // Accumulated in f32 (the limit stays infinite), the same NaN fails.
  depth.accumulatorLimit = std::numeric_limits<double>::infinity();
  tolerance = reductionTolerance(defaultTolerance(PrimitiveType::F16), depth, PrimitiveType::F16);
  EXPECT_EQ(compareArrays(expected, actual, tolerance, &magnitudes).mismatches, 2);
}

TEST(Comparison, IntegersExactly) {
  Shape shape(PrimitiveType::U8, {2, 2});
  Literal expected(shape), actual(shape);
  expected.intData() = {1, 2, 3, 255};
  actual.intData() = {1, 2, 3, 254};
  ComparisonResult result = compareArrays(expected, actual, {100, 100});
  EXPECT_EQ(result.mismatches, 1);
  EXPECT_EQ(result.firstMismatch, "at [1, 1]: expected 255, got 254");
}

TEST(BufferBytes, PhysicalLayoutRoundTrip) {
  // s32[2,3]{0,1}: column-major in memory.
  Shape physical(PrimitiveType::S32, {2, 3});
  Layout layout;
  layout.minorToMajor = {0, 1};
  physical.setLayout(layout);
  Literal logical(Shape(PrimitiveType::S32, {2, 3}));
  logical.intData() = {1, 2, 3, 4, 5, 6};
  std::vector<uint8_t> bytes = toBufferBytes(logical, physical);
  std::vector<int32_t> words(6);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  EXPECT_EQ(words, (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(fromBufferBytes(bytes.data(), physical).intData(), logical.intData());
}

TEST(ModuleMode, ChosenOnlyWhenKernelsCoverTheEntry) {
  auto module = parse(R"(HloModule m
f1 {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
f2 {
  p = f32[4] parameter(0)
  ROOT e = f32[4] exponential(p)
}
ENTRY e {
  a = f32[4] parameter(0)
  x = f32[4] fusion(a), kind=kLoop, calls=f1
  ROOT y = f32[4] fusion(x), kind=kLoop, calls=f2
}
)");
  LaunchManifest manifest;
  KernelSpec first, second;
  first.name = first.hloInstruction = "x";
  first.parameters = {parameter(false, BufferBinding::Parameter, 0),
                      parameter(true, BufferBinding::Buffer, 0, "x")};
  second.name = second.hloInstruction = "y";
  second.parameters = {parameter(false, BufferBinding::Buffer, 0, "x"),
                       parameter(true, BufferBinding::Output, 0)};
  manifest.kernels = {first, second};
  EXPECT_EQ(moduleModeBlocker(manifest, *module), "");

  LaunchManifest reversed = manifest;
  std::swap(reversed.kernels[0], reversed.kernels[1]);
  EXPECT_EQ(moduleModeBlocker(reversed, *module),
            "kernel y reads 'x', which no earlier kernel writes");
  LaunchManifest partial = manifest;
  partial.kernels.pop_back();
  EXPECT_EQ(moduleModeBlocker(partial, *module),
            "output 0 is not written by a kernel, copy or library call");
  LaunchManifest stale = manifest;
  stale.kernels[0].parameters[0].shape = ArrayShape::rowMajor("f32", {8});
  EXPECT_EQ(moduleModeBlocker(stale, *module),
            "kernel x binds f32[8] to parameter 0, which is f32[4]");
  LaunchManifest library = manifest;
  library.notEmitted = {{"cc", "custom-call"}};
  EXPECT_EQ(moduleModeBlocker(library, *module),
            "the module calls custom-call 'cc', which hlo-compile does not generate");
  // With a program, library calls run where it places them, if the
  // interpreter can run them; conditionals run if the manifest binds their
  // branches' buffers; a call step does not run.
  auto entryStep = [](ProgramStep::Kind kind, const std::string &instruction) {
    ProgramStep step;
    step.kind = kind;
    step.computation = "e";
    step.instruction = instruction;
    step.target = "__cublas$lt$matmul";
    return step;
  };
  library.program = {entryStep(ProgramStep::Kind::Library, "cc")};
  EXPECT_EQ(moduleModeBlocker(library, *module),
            "library call 'cc' (__cublas$lt$matmul): no such instruction in computation 'e'");
  library.program = {entryStep(ProgramStep::Kind::Conditional, "c")};
  EXPECT_EQ(moduleModeBlocker(library, *module),
            "the manifest does not bind the buffers of 'c' (a loop state or branch operand not "
            "built by a tuple instruction, or a manifest of an older hlo-compile)");
  library.program = {entryStep(ProgramStep::Kind::Call, "k")};
  EXPECT_EQ(moduleModeBlocker(library, *module),
            "the module's program has a host step 'k' in computation 'e', which module mode "
            "does not run");
}

TEST(KernelCases, FusionWrappedAndBareEntry) {
  auto module = parse(R"(HloModule m
fused {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT s = f32[4] subtract(p0, p1)
}
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  f = f32[4] fusion(a, b), kind=kLoop, calls=fused
  ROOT w = f32[4] add(f, f)
}
)");
  interp::Evaluator evaluator(*module);
  KernelSpec fusion;
  fusion.name = fusion.hloInstruction = "f";
  fusion.parameters = {parameter(false, BufferBinding::Parameter, 0),
                       parameter(false, BufferBinding::Parameter, 1),
                       parameter(true, BufferBinding::Buffer, 0, "f")};
  Literal given(Shape(PrimitiveType::F32, {4}));
  given.realData() = {10, 20, 30, 40};
  KernelCase check = buildKernelCase(fusion, *module, evaluator, 1, {{0, given}});
  ASSERT_EQ(check.inputs.size(), 2u);
  ASSERT_EQ(check.expected.size(), 1u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(check.expected[0].realData()[i],
              static_cast<double>(static_cast<float>(given.realData()[i] -
                                                     check.inputs[1].realData()[i])));

  // A wrapped instruction takes each distinct operand once.
  KernelSpec wrapped;
  wrapped.name = wrapped.hloInstruction = "w";
  wrapped.parameters = {parameter(false, BufferBinding::Buffer, 0, "f"),
                        parameter(true, BufferBinding::Output, 0)};
  check = buildKernelCase(wrapped, *module, evaluator, 2, {});
  ASSERT_EQ(check.inputs.size(), 1u);
  EXPECT_EQ(check.expected[0].realData()[0], 2 * check.inputs[0].realData()[0]);

  // A scratch buffer is neither an input nor a result of the HLO.
  KernelSpec withScratch = fusion;
  withScratch.parameters.push_back(
      parameter(true, BufferBinding::Scratch, 0, "f#scratch0"));
  check = buildKernelCase(withScratch, *module, evaluator, 1, {});
  EXPECT_EQ(check.inputs.size(), 2u);
  EXPECT_EQ(check.expected.size(), 1u);

  KernelSpec mismatched = wrapped;
  mismatched.parameters.insert(mismatched.parameters.begin(),
                               parameter(false, BufferBinding::Parameter, 0));
  EXPECT_THROW(buildKernelCase(mismatched, *module, evaluator, 2, {}), std::runtime_error);
}

namespace {

constexpr const char *kF32Add = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

const std::string kScatterAdd = std::string("HloModule scatter_add\n") + kF32Add + R"(
maximum {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] maximum(a, b)
}
ENTRY main {
  operand = f32[100,8] parameter(0)
  indices = s32[400,1] parameter(1)
  updates = f32[400,8] parameter(2)
  added = f32[100,8] scatter(operand, indices, updates), update_window_dims={1},
    inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1,
    to_apply=add
  unique = f32[100,8] scatter(operand, indices, updates), update_window_dims={1},
    inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1,
    unique_indices=true, to_apply=add
  ints = s32[100,8] parameter(3)
  int_updates = s32[400,8] parameter(4)
  maxed = s32[100,8] scatter(ints, indices, int_updates), update_window_dims={1},
    inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1,
    to_apply=maximum
  ROOT t = (f32[100,8], f32[100,8], s32[100,8]) tuple(added, unique, maxed)
}
)";

// A module run as its kernels: a row sum kernel, a bf16 kernel after it,
// a library GEMM, and a kernel with no float reduction on another path.
const std::string kStagedModule = std::string("HloModule staged\n") + kF32Add + R"(
summed_computation {
  p = f32[64,1024] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[64] reduce(p, z), dimensions={1}, to_apply=add
}
scaled_computation {
  p = f32[64] parameter(0)
  ROOT c = bf16[64] convert(p)
}
negated_computation {
  p = f32[64,1024] parameter(0)
  ROOT n = f32[64,1024] negate(p)
}
ENTRY main {
  x = f32[64,1024] parameter(0)
  w = bf16[64,64] parameter(1)
  summed = f32[64] fusion(x), kind=kInput, calls=summed_computation
  scaled = bf16[64] fusion(summed), kind=kLoop, calls=scaled_computation
  row = bf16[1,64] bitcast(scaled)
  gemm = (bf16[1,64], s8[0]) custom-call(row, w), custom_call_target="__cublas$gemm"
  product = bf16[1,64] get-tuple-element(gemm), index=0
  negated = f32[64,1024] fusion(x), kind=kLoop, calls=negated_computation
  ROOT t = (bf16[1,64], f32[64,1024]) tuple(product, negated)
}
)";

const HloInstruction *named(const HloModule &module, const std::string &name) {
  for (const auto &instruction : module.entry()->instructions())
    if (instruction->name() == name)
      return instruction.get();
  return nullptr;
}

} // namespace

// Across kernels the stages' errors add: the sum's own 4 sqrt(1024) 2^-24
// and its f32 result's rounding (2 2^-24), then one bf16 rounding (2 2^-8)
// per stage the difference reaches whose result a later stage reads -- the
// convert kernel's (the library GEMM's is its output's default); within one
// kernel the depth is unchanged.
TEST(ReductionTolerance, StagesOfAModuleAddTheirErrors) {
  auto [module, errors] = parseHloModuleText(kStagedModule);
  ASSERT_NE(module, nullptr) << errors;
  std::vector<ReductionDepth> depths = moduleOutputDepths(*module->entry());
  ASSERT_EQ(depths.size(), 2u);
  double sum = 4 * std::sqrt(1024.0) * std::ldexp(1.0, -24);
  double bf16Flip = 2 * std::ldexp(1.0, -8);
  // One depth for the whole result: its deepest path.
  // (The last stage's own rounding is the output type's default.)
  EXPECT_NEAR(reductionGrowth(depths[0]), sum + 2 * std::ldexp(1.0, -24) + bf16Flip, 1e-12);
  EXPECT_EQ(depths[0].elements, 1);
  // The same entry seen as one kernel multiplies its reductions.
  std::vector<ReductionDepth> whole = reductionDepths(*module->entry());
  EXPECT_EQ(whole[0].elements, 1024);
  EXPECT_NEAR(reductionGrowth(whole[0]), sum, 1e-12);
  // The sum run as a library call (a Triton GEMM fusion, say) is the
  // interpreter's on both sides: no difference arises on this path.
  EXPECT_EQ(reductionGrowth(moduleOutputDepths(*module->entry(), {"summed"})[0]), 0);
  // A path without a float reduction stays exact.
  EXPECT_EQ(reductionGrowth(moduleOutputDepths(*named(*module, "negated")->fusedComputation())[0]),
            0);
}

// A loop kernel sums a reduce in order in one thread: its bound is the
// deterministic (n - 1) u (fuzz seed 90394: 64416 terms of 0.001 erred by
// 3.7e-4 of their sum, 6x the 4 sqrt(n) u a tree of random roundings
// gets), f32's unit for an f16/bf16 sum the elemental reduce widens,
// whose partial sums then cannot overflow f16.
TEST(ReductionTolerance, SumsInOneThreadTakeTheDeterministicBound) {
  EXPECT_TRUE(emitterReducesInOneThread("kLoop/LoopFusion"));
  EXPECT_TRUE(emitterReducesInOneThread("kTranspose/TransposeFusion"));
  EXPECT_FALSE(emitterReducesInOneThread("kReduction/RowReductionFusion"));
  EXPECT_FALSE(emitterReducesInOneThread("kBlockLevel/NormalizationFusion"));
  EXPECT_FALSE(emitterReducesInOneThread(""));
  auto [module, errors] = parseHloModuleText(kStagedModule);
  ASSERT_NE(module, nullptr) << errors;
  const HloComputation &summed = *named(*module, "summed")->fusedComputation();
  double u = std::ldexp(1.0, -24);
  EXPECT_NEAR(reductionGrowth(reductionDepths(summed, {}, /*inOneThread=*/true)[0]), 1023 * u,
              1e-15);
  EXPECT_NEAR(reductionGrowth(reductionDepths(summed)[0]), 4 * std::sqrt(1024.0) * u, 1e-15);
  // Module mode: the fusion named as an in-thread kernel, and the stages'
  // growth adds up from there.
  double inThread = reductionGrowth(moduleOutputDepths(*module->entry(), {}, {"summed"})[0]);
  double tree = reductionGrowth(moduleOutputDepths(*module->entry())[0]);
  EXPECT_NEAR(inThread - tree, 1023 * u - 4 * std::sqrt(1024.0) * u, 1e-12);

  auto [narrow, narrowErrors] = parseHloModuleText(R"(HloModule narrow
add {
  a = f16[] parameter(0)
  b = f16[] parameter(1)
  ROOT s = f16[] add(a, b)
}
ENTRY main {
  p = f16[4000] parameter(0)
  z = f16[] constant(0)
  ROOT r = f16[] reduce(p, z), dimensions={0}, to_apply=add
})");
  ASSERT_NE(narrow, nullptr) << narrowErrors;
  ReductionDepth depth = reductionDepths(*narrow->entry(), {}, true)[0];
  EXPECT_NEAR(depth.sequentialGrowth, 3999 * u, 1e-15);
  // Accumulated in f32: no partial sum overflows f16's range.
  EXPECT_GT(depth.accumulatorLimit, 1e38);
  // In a tree (XLA's reduction kernels), f16 partial sums stay f16.
  EXPECT_EQ(reductionDepths(*narrow->entry())[0].accumulatorLimit, 65504);
}

// Repeated indices make a float scatter-add order dependent: its depth is
// the slices that may land on one element plus the operand; unique
// indices and exact combiners keep the default tolerance.
TEST(ReductionTolerance, ScatterAddGrowsWithTheSlicesThatMayRepeat) {
  auto [module, errors] = parseHloModuleText(kScatterAdd);
  ASSERT_NE(module, nullptr) << errors;
  ReductionDepth added = reductionDepthOf(*named(*module, "added"));
  EXPECT_EQ(added.elements, 401);
  EXPECT_GT(added.unitRoundoff, 0);
  EXPECT_EQ(reductionDepthOf(*named(*module, "unique")).elements, 1);
  EXPECT_EQ(reductionDepthOf(*named(*module, "maxed")).elements, 1);
  Tolerance base{1e-5, 1e-5};
  Tolerance widened = reductionTolerance(base, added, PrimitiveType::F32);
  // 4 sqrt(401) 2^-24 of each element's magnitude; the base unchanged.
  EXPECT_NEAR(widened.growth, 4 * std::sqrt(401.0) * std::ldexp(1.0, -24), 1e-12);
  EXPECT_EQ(widened.absolute, base.absolute);
  EXPECT_EQ(reductionTolerance(base, reductionDepthOf(*named(*module, "unique")),
                               PrimitiveType::F32)
                .growth,
            0);
}

// A cuBLAS GEMM runs in cuBLASLt on a GPU and in the interpreter for the
// reference: its output's tolerance grows with the products each element
// sums (K = 256 here), accumulated in f32.
TEST(ReductionTolerance, CublasGemmsSumInTheirOwnOrder) {
  auto [module, errors] = parseHloModuleText(R"(HloModule gemm
ENTRY main {
  a = f32[8,256] parameter(0)
  b = f32[256,4] parameter(1)
  gemm = (f32[8,4], s8[64]) custom-call(a, b), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"alpha_real":1,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"],"lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"epilogue":"DEFAULT"}}
  ROOT product = f32[8,4] get-tuple-element(gemm), index=0
}
)");
  ASSERT_NE(module, nullptr) << errors;
  double u = std::ldexp(1.0, -24);
  // (Its own result's rounding is the output type's default.) At default
  // precision cuBLAS multiplies f32 as TF32, as XLA runs it: each product
  // also errs by up to 2 * 2^-11 of itself.
  EXPECT_NEAR(reductionGrowth(moduleOutputDepths(*module->entry())[0]),
              4 * std::sqrt(256.0) * u + std::ldexp(1.0, -10), 1e-12);
  // At HIGHEST precision, f32 products: the sum's growth alone.
  auto [highest, highestErrors] = parseHloModuleText(R"(HloModule gemm
ENTRY main {
  a = f32[8,256] parameter(0)
  b = f32[256,4] parameter(1)
  gemm = (f32[8,4], s8[64]) custom-call(a, b), custom_call_target="__cublas$lt$matmul", backend_config={"gemm_backend_config":{"alpha_real":1,"beta":0,"dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"],"lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"precision_config":{"operand_precision":["HIGHEST","HIGHEST"],"algorithm":"ALG_UNSET"},"epilogue":"DEFAULT"}}
  ROOT product = f32[8,4] get-tuple-element(gemm), index=0
}
)");
  ASSERT_NE(highest, nullptr) << highestErrors;
  EXPECT_NEAR(reductionGrowth(moduleOutputDepths(*highest->entry())[0]),
              4 * std::sqrt(256.0) * u, 1e-12);
}

// A dot's magnitudes are its sums of |a||b| per element; a product's,
// |b| m_a + |a| m_b; an exponential's, exp(x) m_x (first order); the
// comparison scales the growth by them, never by the array's largest
// value.
TEST(ElementMagnitudes, FollowTheTermsOfEachElement) {
  auto [module, errors] = parseHloModuleText(R"(HloModule m
ENTRY main {
  a = f32[2,2] parameter(0)
  b = f32[2,1] parameter(1)
  d = f32[2,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[2,1] exponential(d)
  p = f32[2,1] multiply(d, e)
  ROOT t = (f32[2,1], f32[2,1], f32[2,1]) tuple(d, e, p)
}
)");
  ASSERT_NE(module, nullptr) << errors;
  Literal a(Shape(PrimitiveType::F32, {2, 2})), b(Shape(PrimitiveType::F32, {2, 1}));
  a.realData() = {1, -1, 0.5, 0.25};
  b.realData() = {2, 2};
  interp::Evaluator evaluator(*module);
  ValueWithMagnitudes result =
      evaluateWithMagnitudes(evaluator, *module->entry(),
                             {std::make_shared<const Literal>(a), std::make_shared<const Literal>(b)});
  ASSERT_EQ(result.magnitudes.size(), 3u);
  // d = {0, 1.5}: terms |1*2| + |-1*2| = 4 and 1 + 0.5 = 1.5.
  EXPECT_DOUBLE_EQ(result.magnitudes[0].realData()[0], 4);
  EXPECT_DOUBLE_EQ(result.magnitudes[0].realData()[1], 1.5);
  EXPECT_NEAR(result.magnitudes[1].realData()[0], std::exp(0.0) * 4, 1e-4);
  EXPECT_NEAR(result.magnitudes[1].realData()[1], std::exp(1.5) * 1.5, 1e-4);
  // d * e at element 0: |e| m_d + |d| m_e = 1 * 4 + 0.
  EXPECT_NEAR(result.magnitudes[2].realData()[0], 4, 1e-4);

  // The cancelled element (d = 0, terms 4) may err by growth x 4; the other
  // by growth x 1.5 only, whatever the first allows.
  Literal expected = arrayLeaves(*result.value)[0];
  Literal actual = expected;
  Tolerance tolerance{0, 0, 0.01};
  actual.realData()[0] = 0.039;
  actual.realData()[1] = 1.5 + 0.016;
  ComparisonResult compared = compareArrays(expected, actual, tolerance, &result.magnitudes[0]);
  EXPECT_EQ(compared.mismatches, 1);
  EXPECT_EQ(compared.wideElements, 1);
  actual.realData()[1] = 1.5 + 0.014;
  EXPECT_TRUE(compareArrays(expected, actual, tolerance, &result.magnitudes[0]).passed());
}

TEST(Status, SuccessAndFailureCarryTheirMessage) {
  Status success = Status::success();
  EXPECT_TRUE(success.ok());
  EXPECT_TRUE(static_cast<bool>(success));
  EXPECT_EQ(success.error(), "");
  Status failure = Status::failure("cuMemAlloc failed: out of memory");
  EXPECT_FALSE(failure.ok());
  EXPECT_FALSE(static_cast<bool>(failure));
  EXPECT_EQ(failure.error(), "cuMemAlloc failed: out of memory");
  // A failure may have nothing more to say (its error was reported).
  EXPECT_FALSE(Status::failure("").ok());
}

TEST(ErrorOr, HoldsAValueOrAFailure) {
  ErrorOr<uint64_t> buffer = uint64_t(256);
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ(*buffer, 256u);
  EXPECT_TRUE(buffer.status().ok());

  ErrorOr<uint64_t> missing = Status::failure("cannot allocate 8 bytes");
  EXPECT_FALSE(missing);
  EXPECT_EQ(missing.error(), "cannot allocate 8 bytes");
  // Passed on as a Status, and from there into another ErrorOr.
  ErrorOr<std::string> passedOn = missing.status();
  EXPECT_EQ(passedOn.error(), "cannot allocate 8 bytes");

  ErrorOr<std::string> where = "on the GPU by cuBLASLt";
  ASSERT_TRUE(where);
  EXPECT_EQ(where->size(), 22u);
}

TEST(ErrorOr, MovesOutAnOwningValue) {
  auto make = [](bool ok) -> ErrorOr<std::unique_ptr<int>> {
    if (!ok)
      return Status::failure("no driver");
    auto value = std::make_unique<int>(7);
    return value;
  };
  ErrorOr<std::unique_ptr<int>> made = make(true);
  ASSERT_TRUE(made);
  std::unique_ptr<int> owned = std::move(*made);
  EXPECT_EQ(*owned, 7);
  EXPECT_EQ(make(false).error(), "no driver");
}

// An f16 sum accumulated in f16 (XLA's kernel: add.rn.f16 per step) against
// the interpreter's exactly rounded sum, then converted to s32 (issue 52,
// item 2: 51 against 52 for 2048 values): the integer may differ by the
// float's bound, rounded up, and by no more; other integers stay exact.
TEST(ReductionTolerance, IntegersConvertedFromReducedFloatsKeepTheirBound) {
  auto [module, errors] = parseHloModuleText(R"(HloModule m
add {
  a = f16[] parameter(0)
  b = f16[] parameter(1)
  ROOT s = f16[] add(a, b)
}
ENTRY main {
  p = f16[2,2048] parameter(0)
  z = f16[] constant(0)
  r = f16[2] reduce(p, z), dimensions={1}, to_apply=add
  c = s32[2] convert(r)
  i = s32[2] parameter(1)
  ROOT t = (s32[2], s32[2]) tuple(c, i)
}
)");
  ASSERT_NE(module, nullptr) << errors;
  std::vector<ReductionDepth> depths = reductionDepths(*module->entry());
  ASSERT_EQ(depths.size(), 2u);
  EXPECT_TRUE(depths[0].roundedFromFloat);
  EXPECT_FALSE(depths[1].roundedFromFloat);
  Tolerance converted = reductionTolerance(defaultTolerance(PrimitiveType::S32), depths[0],
                                           PrimitiveType::S32);
  double growth = 4 * std::sqrt(2048.0) * std::ldexp(1.0, -11);
  EXPECT_NEAR(converted.growth, growth, 1e-12);
  EXPECT_EQ(reductionTolerance(defaultTolerance(PrimitiveType::S32), depths[1],
                               PrimitiveType::S32)
                .growth,
            0);
  // Terms of magnitude 600: up to ceil(0.0884 * 600) = 54 apart.
  Literal expected(Shape(PrimitiveType::S32, {2})), actual = expected;
  Literal terms(Shape(PrimitiveType::F64, {2}));
  expected.intData() = {52, 7};
  terms.realData() = {600, 600};
  actual.intData() = {51, 7 + 54};
  EXPECT_TRUE(compareArrays(expected, actual, converted, &terms).passed());
  actual.intData()[1] = 7 + 55;
  EXPECT_EQ(compareArrays(expected, actual, converted, &terms).mismatches, 1);
  actual.intData()[1] = 7;
  EXPECT_FALSE(compareArrays(expected, actual, defaultTolerance(PrimitiveType::S32), &terms)
                   .passed());
}
