//===- FusionAnalysisCorpusTest.cpp - Emitter choice against INDEX.tsv ----===//
//
// For every corpus module with an expected emitter (INDEX.tsv), the chosen
// kind matches; hero_analysis expectations about tiled transposes and
// in-place dynamic-update-slice hold. XLA's tests assume an RTX A6000
// (84 SMs), and so do these.
//
//===----------------------------------------------------------------------===//
#include "support/BackendConfig.h"
#include "analysis/FusionAnalysis.h"
#include "analysis/HeroAnalysis.h"
#include "analysis/KernelPlan.h"
#include "hlo_parser/Parser.h"

#include "TestUtils.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace hlo;

namespace {

using testing_utils::kCorpus;

struct IndexRow {
  std::string file, category, expected, note;
};

std::vector<IndexRow> indexRows() {
  std::vector<IndexRow> rows;
  for (const std::vector<std::string> &fields :
       testing_utils::corpusIndexRows()) {
    if (fields[3].empty() || fields[1] == "parser_negative")
      continue;
    rows.push_back({fields[0], fields[1], fields[3], fields[4]});
  }
  return rows;
}

std::unique_ptr<HloModule> load(const std::string &file) {
  return parseHloModuleText(testing_utils::readFile(kCorpus / "xla" / file), file,
                            testing_utils::corpusParseOptions())
      .module;
}

/// The fusion a test means: the entry root if it is a fusion, else the
/// first fusion, else the entry computation itself.
const HloInstruction *mainFusion(const HloModule &module) {
  const HloInstruction *root = module.entry()->root();
  if (root->opcode() == HloOpcode::Fusion)
    return root;
  for (const auto &inst : module.entry()->instructions())
    if (inst->opcode() == HloOpcode::Fusion)
      return inst.get();
  return nullptr;
}

FusionAnalysis analyze(const HloModule &module) {
  const HloInstruction *fusion = mainFusion(module);
  const HloComputation &computation =
      fusion ? *fusion->fusedComputation() : *module.entry();
  return analyzeFusion(computation, fusion, rtxA6000DeviceInfo());
}

/// INDEX.tsv's expected_emitter as a predicate on kindString().
std::string expectation(const IndexRow &row, bool &prefixOnly) {
  std::string expected = row.expected;
  prefixOnly = false;
  if (expected.rfind("kInputSlices", 0) == 0)
    return "kLoop/LoopFusion"; // the emitter was folded into the loop one
  if (expected == "kLoop->InPlaceDynamicUpdateSliceFusion")
    return "kLoop/InPlaceDynamicUpdateSliceFusion";
  if (expected == "kLoop,kReduction")
    return "kReduction"; // the whole computation: the producer-consumer case
  size_t space = expected.find(' ');
  if (space != std::string::npos)
    expected = expected.substr(0, space); // "(emulated; ...)" and the like
  if (expected.find('/') == std::string::npos) {
    prefixOnly = true;
    return expected + (expected == "kSort" ? "" : "/");
  }
  return expected;
}

/// Modules where we knowingly differ from INDEX.tsv, with what we choose
/// and why (also listed in the issue's closing note).
const std::map<std::string, std::pair<std::string, std::string>> &
knownDisagreements() {
  static const std::map<std::string, std::pair<std::string, std::string>>
      disagreements = {
          {"transpose/transpose_102_s4.hlo",
           {"kTranspose/TransposeFusion",
            "the packed tile rules we follow require a size-1 minor "
            "dimension (B); the corpus's XLA packed s4[16,64,4] with B=4"}},
          {"fusion_analysis/ReductionEpilogueFusionPartiallyFusedInConsumer.hlo",
           {"kLoop/LoopFusion",
            "XLA analyses a producer fused into this consumer; we analyse "
            "the fusion as written"}},
          {"fusion_analysis/ReductionEpilogueFusionPartiallyFusedInBoth.hlo",
           {"kLoop/LoopFusion",
            "XLA analyses a producer fused into this consumer; we analyse "
            "the fusion as written"}},
          {"hero_analysis/"
           "codegen_ir_emission_utils__CanEmitFusedDynamicUpdateSliceInPlace_"
           "SlicesDifferent.hlo",
           {"DUS in-place: true",
            "XLA's test gives the parameter and the output different buffer "
            "slices; buffer assignment is not modelled here (the updated "
            "parameter is taken to alias the output)"}},
      };
  return disagreements;
}

class EmitterChoice : public testing::TestWithParam<IndexRow> {};

TEST_P(EmitterChoice, MatchesIndex) {
  IndexRow row = GetParam();
  auto module = load(row.file);
  ASSERT_NE(module, nullptr);
  FusionAnalysis analysis = analyze(*module);
  auto known = knownDisagreements().find(row.file);
  if (known != knownDisagreements().end()) {
    RecordProperty("disagreement", known->second.second);
    row.expected = known->second.first; // still pin what we choose
  }
  if (row.expected.rfind("DUS in-place: ", 0) == 0) {
    bool expected = row.expected == "DUS in-place: true";
    const HloInstruction *fusion = mainFusion(*module);
    const HloComputation &computation =
        fusion ? *fusion->fusedComputation() : *module->entry();
    EXPECT_EQ(canEmitDynamicUpdateSliceInPlace(computation), expected);
    return;
  }
  if (row.expected.rfind("tiled transpose", 0) == 0 ||
      row.expected == "no tiled transpose") {
    const HloInstruction *fusion = mainFusion(*module);
    const HloComputation &computation =
        fusion ? *fusion->fusedComputation() : *module->entry();
    const HloInstruction &hero = findNonTrivialHero(*computation.root());
    auto description = getTiledTransposeDescription(hero);
    if (row.expected == "no tiled transpose") {
      EXPECT_FALSE(description.has_value());
      return;
    }
    ASSERT_TRUE(description.has_value());
    auto list = [](const std::vector<int64_t> &values) {
      std::string out = "[";
      for (size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
      return out + "]";
    };
    EXPECT_EQ("tiled transpose dims=" + list(description->dimensions) +
                  " perm=" + list(description->permutation),
              row.expected);
    return;
  }
  bool prefixOnly;
  std::string expected = expectation(row, prefixOnly);
  std::string actual = analysis.kindString();
  if (prefixOnly || expected == "kReduction")
    EXPECT_EQ(actual.substr(0, expected.size()), expected) << actual;
  else
    EXPECT_EQ(actual, expected);
}

std::string rowName(const testing::TestParamInfo<IndexRow> &info) {
  std::string name = info.param.file;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

void PrintTo(const IndexRow &row, std::ostream *out) {
  *out << row.file << " (" << row.expected << ")";
}

INSTANTIATE_TEST_SUITE_P(Corpus, EmitterChoice, testing::ValuesIn(indexRows()),
                         rowName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EmitterChoice);

/// reduction_utils: two fusions whose reductions are (not) multi-output
/// compatible.
TEST(HeroAnalysisCorpus, ReductionsMultiOutputCompatibility) {
  if (!fs::exists(kCorpus))
    GTEST_SKIP() << "no corpus";
  const std::pair<const char *, bool> cases[] = {
      {"ReductionsAreMultioutputFusionCompatible", true},
      {"ReductionsWithSameCanonicalizedDimsAreMultioutputFusionCompatible", true},
      {"ReductionsAreNotMultioutputFusionCompatible_DifferentOperandShapes", false},
      {"ReductionsAreNotMultioutputFusionCompatible_DifferentOutputShapes", false},
      {"ReductionsAreNotMultioutputFusionCompatible_DifferentReduceDimensions",
       false}};
  for (const auto &[name, compatible] : cases) {
    auto module = load(std::string("hero_analysis/reduction_utils__") + name + ".hlo");
    ASSERT_NE(module, nullptr) << name;
    std::vector<const HloInstruction *> roots;
    for (const auto &inst : module->entry()->instructions())
      if (inst->opcode() == HloOpcode::Fusion)
        roots.push_back(inst->fusedComputation()->root());
    ASSERT_EQ(roots.size(), 2u) << name;
    EXPECT_EQ(areReductionsMultiOutputCompatible(*roots[0], *roots[1]),
              compatible)
        << name;
  }
}

/// ir_emission_utils: which instruction is each root's hero.
TEST(HeroAnalysisCorpus, HeroesOfEpilogueFusions) {
  if (!fs::exists(kCorpus))
    GTEST_SKIP() << "no corpus";
  auto heroNames = [](const std::string &file) {
    auto module = load("hero_analysis/" + file + ".hlo");
    const HloComputation &computation = *mainFusion(*module)->fusedComputation();
    std::vector<std::string> names;
    for (const HloInstruction *root : getFusionRoots(computation))
      names.push_back(findNonTrivialHero(*root).name());
    return names;
  };
  EXPECT_EQ(heroNames("ir_emission_utils__FindReduceHeroEpilogueFusion").back(),
            "reduce.0");
  std::vector<std::string> twoUsers =
      heroNames("ir_emission_utils__FindReduceHeroEpilogueFusionTwoRootUsers");
  EXPECT_EQ(twoUsers[1], "reduce.1");
  EXPECT_EQ(twoUsers[2], "reduce.1");
  std::vector<std::string> alsoNonHero = heroNames(
      "ir_emission_utils__FindReduceHeroEpilogueFusionHeroAlsoUsedAsNonHero");
  EXPECT_EQ(alsoNonHero[1], "broadcast");
  EXPECT_EQ(alsoNonHero[2], "reduce.0");
  EXPECT_EQ(heroNames("ir_emission_utils__FindNonTrivialTransposeHeroInsideFusion")
                .front(),
            "t");
}

/// tests/claimed-modules.txt is exactly the modules of hero_analysis,
/// fusion_analysis and misc with a reduction, transpose, sort or scatter kernel (wrapped reduce
/// instructions included) that are whole modules (they define every
/// computation they call), so that none is forgotten when the analysis
/// changes.
TEST(ClaimedModules, ListsEveryReductionAndTransposeModuleOfTheMixedFolders) {
  if (!fs::exists(kCorpus))
    GTEST_SKIP() << "no corpus";
  std::set<std::string> withHero;
  for (const auto &fields : testing_utils::corpusIndexRows()) {
    const std::string &category = fields[1];
    if (category != "hero_analysis" && category != "fusion_analysis" && category != "misc")
      continue;
    auto [module, errors] =
        parseHloModuleText(testing_utils::readFile(kCorpus / "xla" / fields[0]), fields[0]);
    if (!module)
      continue;
    KernelPlan plan(*module);
    for (const KernelSource &kernel : plan.kernels()) {
      if (!kernel.computation || kernel.computation->isDeclaration())
        continue;
      EmitterKind kind =
          analyzeFusion(*kernel.computation, kernel.fusion, rtxA6000DeviceInfo()).kind;
      if (kind == EmitterKind::Reduction || kind == EmitterKind::Transpose ||
          kind == EmitterKind::Sort || kind == EmitterKind::Scatter)
        withHero.insert(fields[0]);
    }
  }
  std::set<std::string> listed;
  std::ifstream list(HLO_SOURCE_DIR "/tests/claimed-modules.txt");
  for (std::string line; std::getline(list, line);)
    if (!line.empty() && line[0] != '#')
      listed.insert(line);
  for (const std::string &file : withHero)
    EXPECT_TRUE(listed.count(file))
        << file << " has a reduction, transpose, sort or scatter kernel: list it";
  for (const std::string &file : listed)
    EXPECT_TRUE(withHero.count(file))
        << file << " has no reduction, transpose, sort or scatter kernel";
}

} // namespace

// backend_config as XLA reads it: keys with or without quotes.
TEST(BackendConfigJson, QuotesBareKeysOnly) {
  EXPECT_EQ(quoteBareJsonKeys(R"({kind: "__triton", cfg :{ sizes:[1, true], "c": "k: v"}})"),
            R"({"kind": "__triton", "cfg" :{ "sizes":[1, true], "c": "k: v"}})");
  auto kindOf = [](const std::optional<JsonValue> &value) -> std::string {
    const JsonValue *backend = value ? value->find("fusion_backend_config") : nullptr;
    const JsonValue *kind = backend ? backend->find("kind") : nullptr;
    return kind && kind->isString() ? kind->string() : "<none>";
  };
  std::optional<JsonValue> value =
      parseBackendConfig(R"({fusion_backend_config:{kind:"__triton_gemm"}})");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(kindOf(value), "__triton_gemm");
  std::optional<JsonValue> quoted =
      parseBackendConfig(R"("{\"fusion_backend_config\": {kind: \"__triton\"}}")");
  ASSERT_TRUE(quoted.has_value());
  EXPECT_EQ(kindOf(quoted), "__triton");
  EXPECT_FALSE(parseBackendConfig("{kind: }").has_value());
  EXPECT_FALSE(parseBackendConfig("").has_value());
}

TEST(BackendConfigJson, FusionKindsInEitherForm) {
  auto kindOf = [](const std::string &config) {
    auto [module, errors] = parseHloModuleText(R"(
f {
  a = f32[16,16] parameter(0)
  b = f32[16,16] parameter(1)
  ROOT d = f32[16,16] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}

ENTRY e {
  a = f32[16,16] parameter(0)
  b = f32[16,16] parameter(1)
  ROOT g = f32[16,16] fusion(a, b), kind=kCustom, calls=f, backend_config=)" + config + R"(
})", "test");
    EXPECT_NE(module, nullptr) << errors;
    return module ? analyze(*module).variant : FusionVariant::Loop;
  };
  // Triton GEMM kinds, read in either form: the tensor-core GEMM emitter
  // takes this dot (GemmAnalysis.h).
  EXPECT_EQ(kindOf(R"({"fusion_backend_config":{"kind":"__triton_gemm"}})"),
            FusionVariant::MmaSyncGemm);
  EXPECT_EQ(kindOf(R"({fusion_backend_config:{kind:"__triton_nested_gemm_fusion"}})"),
            FusionVariant::MmaSyncGemm);
  EXPECT_EQ(kindOf(R"({fusion_backend_config:{kind:"__custom_fusion"}})"),
            FusionVariant::CustomFusion);
  // A kind named only inside a string is not the fusion's kind (and a
  // fusion whose hero is a dot is a GEMM of ours whatever its kind).
  EXPECT_NE(kindOf(R"({"note":"not __triton_gemm"})"), FusionVariant::Triton);
  EXPECT_NE(kindOf(R"({"note":"__custom_fusion"})"), FusionVariant::CustomFusion);
  EXPECT_EQ(kindOf(R"({"note":"not __triton_gemm"})"), FusionVariant::MmaSyncGemm);
}
