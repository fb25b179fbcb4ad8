// XLA's cuBLAS GEMM custom-calls as cuBLASLt problems (runtime/GemmPlan):
// which layouts map, how, and the reasons given for those that do not.
#include "runtime/GemmPlan.h"

#include <gtest/gtest.h>

using namespace hlo;
using namespace hlo::runtime;

namespace {

hlo::abi::KernelParameter buffer(PrimitiveType type, std::vector<int64_t> dims,
                            std::vector<int64_t> minorToMajor) {
  hlo::abi::KernelParameter parameter;
  parameter.shape = {std::string(primitiveTypeName(type)), dims, std::move(minorToMajor)};
  parameter.bytes = Shape(type, dims).bufferBytes();
  return parameter;
}

hlo::abi::ProgramStep gemmStep(const std::string &target, const std::string &epilogue,
                          std::vector<hlo::abi::KernelParameter> arguments,
                          hlo::abi::KernelParameter result, const std::string &extra = "") {
  hlo::abi::ProgramStep step;
  step.kind = hlo::abi::ProgramStep::Kind::Library;
  step.target = target;
  step.backendConfig =
      R"({"gemm_backend_config":{"alpha_real":1,"beta":0,"dot_dimension_numbers":{)"
      R"("lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"],)"
      R"("lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"epilogue":")" +
      epilogue + "\"" + extra + "}}";
  step.arguments = std::move(arguments);
  step.results = {std::move(result), buffer(PrimitiveType::S8, {1024}, {0})};
  return step;
}

const GemmPlan &planOf(const std::variant<GemmPlan, std::string> &planned) {
  static GemmPlan none;
  if (auto *reason = std::get_if<std::string>(&planned)) {
    ADD_FAILURE() << "no plan: " << *reason;
    return none;
  }
  return std::get<GemmPlan>(planned);
}

} // namespace

TEST(GemmPlan, RowMajorResultIsComputedTransposed) {
  auto planned = planGemm(gemmStep("__cublas$lt$matmul", "BIAS",
                                   {buffer(PrimitiveType::BF16, {64, 128}, {1, 0}),
                                    buffer(PrimitiveType::BF16, {128, 32}, {1, 0}),
                                    buffer(PrimitiveType::BF16, {32}, {0})},
                                   buffer(PrimitiveType::BF16, {64, 32}, {1, 0})));
  const GemmPlan &plan = planOf(planned);
  EXPECT_TRUE(plan.swapped);
  EXPECT_EQ(plan.m, 32); // the rhs's free dimension: the bias runs along it
  EXPECT_EQ(plan.n, 64);
  EXPECT_EQ(plan.k, 128);
  EXPECT_EQ(plan.a.argument, 1u);
  EXPECT_FALSE(plan.a.transposed);
  EXPECT_EQ(plan.a.ld, 32);
  EXPECT_EQ(plan.b.argument, 0u);
  EXPECT_FALSE(plan.b.transposed);
  EXPECT_EQ(plan.b.ld, 128);
  EXPECT_EQ(plan.d.ld, 32);
  EXPECT_EQ(plan.epilogue, GemmPlan::Epilogue::Bias);
  ASSERT_TRUE(plan.biasArgument);
  EXPECT_EQ(*plan.biasArgument, 2u);
  ASSERT_TRUE(plan.workspaceResult);
  EXPECT_EQ(plan.workspaceBytes, 1024);
}

TEST(GemmPlan, Fp8TakesTheTNForm) {
  // XLA's f8 GEMMs: lhs [m, k] row-major, rhs [k, n] column-major, with
  // a_scale and b_scale after a and b.
  hlo::abi::KernelParameter scale = buffer(PrimitiveType::F32, {}, {});
  auto planned = planGemm(gemmStep("__cublas$lt$matmul$f8", "DEFAULT",
                                   {buffer(PrimitiveType::F8E4M3FN, {16, 64}, {1, 0}),
                                    buffer(PrimitiveType::F8E4M3FN, {64, 32}, {0, 1}), scale,
                                    scale},
                                   buffer(PrimitiveType::BF16, {16, 32}, {1, 0})));
  const GemmPlan &plan = planOf(planned);
  EXPECT_TRUE(plan.fp8);
  EXPECT_TRUE(plan.a.transposed);
  EXPECT_FALSE(plan.b.transposed);
  EXPECT_EQ(*plan.aScaleArgument, 2u);
  EXPECT_EQ(*plan.bScaleArgument, 3u);
  // A row-major rhs is not TN: cuBLASLt has no f8 kernel for it.
  auto notTN = planGemm(gemmStep("__cublas$lt$matmul$f8", "DEFAULT",
                                 {buffer(PrimitiveType::F8E4M3FN, {16, 64}, {1, 0}),
                                  buffer(PrimitiveType::F8E4M3FN, {64, 32}, {1, 0}), scale,
                                  scale},
                                 buffer(PrimitiveType::BF16, {16, 32}, {1, 0})));
  ASSERT_TRUE(std::holds_alternative<std::string>(notTN));
  EXPECT_NE(std::get<std::string>(notTN).find("TN"), std::string::npos);
}

TEST(GemmPlan, ReasonsForWhatCuBlasLtCannotExpress) {
  auto reasonOf = [](const std::variant<GemmPlan, std::string> &planned) {
    return std::holds_alternative<std::string>(planned) ? std::get<std::string>(planned)
                                                        : std::string("(planned)");
  };
  hlo::abi::KernelParameter lhs = buffer(PrimitiveType::F32, {8, 16}, {1, 0});
  hlo::abi::KernelParameter rhs = buffer(PrimitiveType::F32, {16, 4}, {1, 0});
  // The bias runs over the result's columns when it is column-major.
  EXPECT_NE(reasonOf(planGemm(gemmStep("__cublas$lt$matmul", "BIAS",
                                       {lhs, rhs, buffer(PrimitiveType::F32, {4}, {0})},
                                       buffer(PrimitiveType::F32, {8, 4}, {0, 1}))))
                .find("bias over the columns"),
            std::string::npos);
  EXPECT_NE(reasonOf(planGemm(gemmStep("__cublas$lt$matmul", "DEFAULT", {lhs, rhs},
                                       buffer(PrimitiveType::F32, {8, 4}, {1, 0}),
                                       R"(,"alpha_imag":1)")))
                .find("complex alpha"),
            std::string::npos);
  EXPECT_NE(reasonOf(planGemm(gemmStep("__cublas$lt$matmul", "SILU", {lhs, rhs},
                                       buffer(PrimitiveType::F32, {8, 4}, {1, 0}))))
                .find("epilogue SILU"),
            std::string::npos);
  // Contracting dimensions split around a free one: no single matrix.
  hlo::abi::ProgramStep split = gemmStep("__cublas$lt$matmul", "DEFAULT",
                                    {buffer(PrimitiveType::F32, {2, 8, 3}, {2, 1, 0}),
                                     buffer(PrimitiveType::F32, {2, 3, 4}, {2, 1, 0})},
                                    buffer(PrimitiveType::F32, {8, 4}, {1, 0}));
  split.backendConfig =
      R"({"gemm_backend_config":{"dot_dimension_numbers":{"lhs_contracting_dimensions":)"
      R"(["0","2"],"rhs_contracting_dimensions":["0","1"]}}})";
  EXPECT_NE(reasonOf(planGemm(split)).find("layouts"), std::string::npos);
  EXPECT_EQ(reasonOf(planGemm(gemmStep("__cublas$lt$matmul", "DEFAULT", {lhs, rhs},
                                       buffer(PrimitiveType::F32, {8, 4}, {1, 0})))),
            "(planned)");
}

// f32 at default precision runs as TF32, as XLA runs it; HIGHEST precision
// or an f32 algorithm does not; other types never do.
TEST(GemmPlan, Tf32WhereXlaUsesIt) {
  auto f32 = [](const std::string &extra) {
    return planGemm(gemmStep("__cublas$lt$matmul", "DEFAULT",
                             {buffer(PrimitiveType::F32, {16, 32}, {1, 0}),
                              buffer(PrimitiveType::F32, {32, 8}, {1, 0})},
                             buffer(PrimitiveType::F32, {16, 8}, {1, 0}), extra));
  };
  EXPECT_TRUE(planOf(f32("")).tf32);
  EXPECT_TRUE(planOf(f32(R"(,"precision_config":{"operand_precision":["DEFAULT","DEFAULT"],)"
                         R"("algorithm":"ALG_UNSET"})"))
                  .tf32);
  EXPECT_FALSE(planOf(f32(R"(,"precision_config":{"operand_precision":["HIGHEST","HIGHEST"],)"
                          R"("algorithm":"ALG_UNSET"})"))
                   .tf32);
  EXPECT_FALSE(planOf(f32(R"(,"precision_config":{"operand_precision":["DEFAULT","DEFAULT"],)"
                          R"("algorithm":"ALG_DOT_F32_F32_F32"})"))
                   .tf32);
  EXPECT_TRUE(planOf(f32(R"(,"precision_config":{"operand_precision":["HIGHEST","HIGHEST"],)"
                         R"("algorithm":"ALG_DOT_TF32_TF32_F32"})"))
                  .tf32);
  auto bf16 = planGemm(gemmStep("__cublas$lt$matmul", "DEFAULT",
                                {buffer(PrimitiveType::BF16, {16, 32}, {1, 0}),
                                 buffer(PrimitiveType::BF16, {32, 8}, {1, 0})},
                                buffer(PrimitiveType::BF16, {16, 8}, {1, 0})));
  EXPECT_FALSE(planOf(bf16).tf32);
}
