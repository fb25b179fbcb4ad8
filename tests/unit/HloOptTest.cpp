//===- HloOptTest.cpp - The HLO pipeline's IR edits and its invariants ----===//
//
// The IR edits the passes are built on (replacing uses, removing dead
// instructions, ordering), and, over every unoptimized module of the
// corpus, what the pipeline promises of its result: it prints as HLO that
// parses and verifies, every kernel is a fusion (or a library call or a
// GEMM the emitters take), and two runs give the same text.
//
//===----------------------------------------------------------------------===//
#include "TestUtils.h"

#include "analysis/FusionAnalysis.h"
#include "analysis/ReductionAnalysis.h"
#include "hlo_opt/HloRewriting.h"
#include "hlo_opt/OptimizeModule.h"
#include "hlo_parser/Printer.h"
#include "hlo_parser/Verifier.h"

#include <gtest/gtest.h>

namespace hlo {
namespace {

using testing_utils::kCorpus;
using testing_utils::readFile;

std::unique_ptr<HloModule> parse(const std::string &text) {
  ParsedModule parsed = parseHloModuleText(text, "test.hlo");
  EXPECT_TRUE(parsed.module) << parsed.diagnostics;
  return std::move(parsed.module);
}

HloInstruction *named(const HloComputation &computation, const std::string &name) {
  for (const auto &instruction : computation.instructions())
    if (instruction->name() == name)
      return instruction.get();
  return nullptr;
}

TEST(HloRewritingTest, ReplaceUsesRemoveDeadAndSort) {
  auto module = parse(R"(
HloModule m
ENTRY main {
  p = f32[4]{0} parameter(0)
  a = f32[4]{0} negate(p)
  b = f32[4]{0} exponential(p)
  ROOT c = f32[4]{0} add(a, a)
})");
  HloComputation &entry = *module->entry();
  HloInstruction *a = named(entry, "a"), *b = named(entry, "b"), *c = named(entry, "c");
  a->replaceAllUsesWith(b);
  EXPECT_EQ(c->operand(0), b);
  EXPECT_EQ(c->operand(1), b);
  EXPECT_TRUE(a->users().empty());
  ASSERT_EQ(b->users().size(), 1u);
  EXPECT_EQ(b->users()[0], c);
  EXPECT_TRUE(opt::removeDeadInstructions(entry));
  EXPECT_EQ(named(entry, "a"), nullptr);
  ASSERT_EQ(named(entry, "p")->users().size(), 1u);
  // The root moves to a value appended after it; sorting puts it last.
  auto d = std::make_unique<HloInstruction>(HloOpcode::Negate, "d", c->shape());
  d->appendOperand(c);
  HloInstruction *added = entry.addInstruction(std::move(d));
  entry.setRoot(added);
  c->replaceOperand(1, named(entry, "p"));
  EXPECT_EQ(b->users().size(), 1u);
  entry.sortTopologically();
  EXPECT_EQ(entry.instructions().back().get(), added);
  EXPECT_EQ(verifyModuleToString(*module), "");
}

TEST(HloRewritingTest, NameUniquerAvoidsEveryNameOfTheModule) {
  auto module = parse(R"(
HloModule m
ENTRY main {
  fusion = f32[4]{0} parameter(0)
  ROOT fusion.1 = f32[4]{0} negate(fusion)
})");
  opt::NameUniquer names(*module);
  EXPECT_EQ(names.unique("fusion"), "fusion.2");
  EXPECT_EQ(names.unique("fusion"), "fusion.3");
  // A copy of fusion.1 is fusion.N, not fusion.1.1.
  EXPECT_EQ(names.unique("fusion.1"), "fusion.4");
  EXPECT_EQ(names.unique("main"), "main.1");
  EXPECT_EQ(names.unique("other"), "other");
}

/// The pipeline's result on the module at `path`, printed.
std::string optimized(const std::filesystem::path &path) {
  ParsedModule parsed = parseHloModuleText(readFile(path), path.string());
  EXPECT_TRUE(parsed.module) << parsed.diagnostics;
  if (!parsed.module)
    return "";
  opt::OptimizeOptions options;
  llvm::Error error = opt::optimizeModule(*parsed.module, options);
  EXPECT_FALSE(error) << llvm::toString(std::move(error));
  return printModule(*parsed.module);
}

class UnoptimizedCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UnoptimizedCorpusTest, ResultParsesVerifiesAndIsDeterministic) {
  std::filesystem::path path = kCorpus / "models" / GetParam();
  std::string first = optimized(path);
  ParsedModule reparsed = parseHloModuleText(first, GetParam() + " optimized");
  ASSERT_TRUE(reparsed.module) << reparsed.diagnostics;
  EXPECT_EQ(verifyModuleToString(*reparsed.module), "");
  EXPECT_TRUE(opt::unoptimizedReason(*reparsed.module).empty())
      << "the result has fusions: auto does not optimize it again";
  // No instruction XLA would launch a kernel for is left unfused.
  for (const auto &computation : reparsed.module->computations())
    for (const auto &instruction : computation->instructions()) {
      HloOpcode opcode = instruction->opcode();
      bool fusedAway = !(isElementwiseOpcode(opcode) && computation.get() == reparsed.module->entry());
      EXPECT_TRUE(fusedAway) << GetParam() << ": " << instruction->name() << " is not fused";
    }
  // A fusion with a reduce is a reduction kernel (the reduce its hero), not
  // a loop that computes the reduction again for each output element.
  // (Reductions the hero analysis computes faster elementally, such as
  // small ones, are loops, fused or not.)
  GpuDeviceInfo device;
  for (const auto &computation : reparsed.module->computations())
    for (const auto &instruction : computation->instructions()) {
      const HloComputation *body = instruction->fusedComputation();
      if (!body || !instruction->textAttr("backend_config").empty())
        continue;
      bool hasReduce = false;
      for (const auto &fused : body->instructions())
        hasReduce |= fused->opcode() == HloOpcode::Reduce &&
                     isReductionFromOrToContiguousDimensions(*fused);
      if (hasReduce)
        EXPECT_EQ(analyzeFusion(*body, instruction.get(), device).kind, EmitterKind::Reduction)
            << GetParam() << ": " << instruction->name();
    }
  EXPECT_EQ(first, optimized(path)) << "two runs differ";
}

std::vector<std::string> unoptimizedModules() {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(kCorpus / "models" / "jax"))
    if (entry.path().extension() == ".hlo")
      names.push_back("jax/" + entry.path().filename().string());
  for (const char *model : {"nv_maxtext_1n1g_jit_train_step_before_optimization.hlo",
                            "hlo_torax_iterhybrid_predictor_corrector_f64.hlo",
                            "hlo_gemma4_2b_bf16.hlo", "gpu_hlo.hlo"})
    names.push_back(model);
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Models, UnoptimizedCorpusTest, ::testing::ValuesIn(unoptimizedModules()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           std::string name = info.param;
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

} // namespace
} // namespace hlo
