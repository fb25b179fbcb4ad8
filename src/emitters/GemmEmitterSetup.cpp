//===- GemmEmitterSetup.cpp - The GEMM emitter's choices before emission -===//
//
// Owns what the tensor-core GEMM emitter (GemmEmitterImpl.h) decides before
// it emits anything: the mma kind of the dot's types, XLA's config (tile,
// warps, K step, stages), the tiling, the warpgroups of wgmma, how each
// operand is staged (threads, cp.async or TMA), the stages, the shared
// memory, the launch and its register bound -- and the factory that
// declines what it cannot build. GemmEmitter.cpp emits the kernel these
// describe.
//
//===----------------------------------------------------------------------===//
#include "emitters/GemmEmitter.h"

#include "emitters/GemmEmitterImpl.h"

#include "analysis/GemmAnalysis.h"
#include "dialect/MmaSyncKind.h"
#include "emitters/GemmTiling.h"
#include "hlo_parser/OpAttributes.h"
#include "support/BackendConfig.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;

namespace hlo {
namespace {

constexpr int64_t kWarpSize = 32;
/// The register file of an SM (sm_80 to sm_90: 64K 32-bit registers),
/// and the blocks a GEMM kernel's register bound leaves room for.
constexpr int64_t kRegistersPerSm = 65536, kBlocksPerSm = 4;
constexpr int64_t kThreadsPerWarpgroup = 128;
/// A warp-specialized producer's registers after setmaxnreg.dec: its
/// addresses, coordinates, tile position and loops (CUTLASS's keep 40; at
/// 40 the persistent producer of a bf16 8192x8192x1024 dot, its 16 K tiles
/// unrolled by LLVM, spilled 224 bytes; at 56, none, and the consumers
/// still get 224).
constexpr int64_t kProducerRegisters = 56;

xla_gpu::MmaSyncKind mmaKindOf(GemmInput input) {
  switch (input) {
  case GemmInput::BF16:
    return {16, 8, 16, xla_gpu::MmaInput::BF16};
  case GemmInput::F16:
    return {16, 8, 16, xla_gpu::MmaInput::F16};
  case GemmInput::TF32:
  case GemmInput::TF32x3:
    return {16, 8, 8, xla_gpu::MmaInput::TF32};
  case GemmInput::F64:
    return {8, 8, 4, xla_gpu::MmaInput::F64};
  case GemmInput::S8:
    return {16, 8, 32, xla_gpu::MmaInput::S8};
  case GemmInput::F8E4M3FN:
    return {16, 8, 32, xla_gpu::MmaInput::F8E4M3FN};
  case GemmInput::F8E5M2:
    return {16, 8, 32, xla_gpu::MmaInput::F8E5M2};
  }
  llvm_unreachable("a GEMM input type");
}

/// The mma.sync of a GEMM's A and B types.
xla_gpu::MmaSyncKind mmaKindFor(const GemmDescription &gemm) {
  xla_gpu::MmaSyncKind kind = mmaKindOf(gemm.input);
  if (gemm.inputB)
    kind.inputB = mmaKindOf(*gemm.inputB).input;
  return kind;
}

bool isFloat8(GemmInput input) {
  return input == GemmInput::F8E4M3FN || input == GemmInput::F8E5M2;
}

/// Whether wgmma multiplies `gemm`'s types: bf16, f16, TF32 or 3xTF32
/// (its K tiles three segments long), alike, or 8-bit floats, alike or
/// mixed (m64nNk32 takes e4m3 and e5m2 for A and B apart). Not s8
/// (accumulated in s32).
bool takesWgmma(const GemmDescription &gemm) {
  if (gemm.inputB)
    return isFloat8(gemm.input) && isFloat8(*gemm.inputB);
  return gemm.input == GemmInput::BF16 || gemm.input == GemmInput::F16 ||
         gemm.input == GemmInput::TF32 || gemm.input == GemmInput::TF32x3 ||
         isFloat8(gemm.input);
}

/// The step along K XLA's Triton GEMM gives its dot: the dot's
/// backend_config {"sizes":["32"]}.
std::optional<int64_t> configuredBlockK(const HloInstruction &dot) {
  std::optional<JsonValue> config = parseBackendConfig(backendConfigText(dot));
  const JsonValue *sizes = config ? config->find("sizes") : nullptr;
  if (!sizes || !sizes->isArray() || sizes->array().size() != 1)
    return std::nullopt;
  const JsonValue &size = sizes->array().front();
  double value = size.kind() == JsonValue::Kind::String ? std::atof(size.string().c_str())
                                                        : size.number();
  if (value < 1 || value > (1 << 16) || value != static_cast<int64_t>(value))
    return std::nullopt;
  return static_cast<int64_t>(value);
}

} // namespace

GemmEmitter::GemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                         const GpuDeviceInfo &device, GemmDescription gemm,
                         const EmitterOptions &options)
    : EmitterBase(analysis, fused, device), gemm(std::move(gemm)),
      mma(mmaKindFor(this->gemm)), plantedBug(options.plantedBug) {
  // XLA's tile and warps where its config names them (a tile of the
  // root's dimensions, which the epilogue's bitcasts may permute).
  // (None with --gemm-tiles=own: the tile the dot's shape gets.)
  GemmConfig config;
  if (!options.ownGemmTiles) {
    config.tile = configuredTile(analysis);
    if (config.tile)
      config.warps = analysis.blockLevelWarps;
    config.blockK = configuredBlockK(*this->gemm.dot);
  }
  // A tuned config (--gemm-configs) for this GEMM on this architecture
  // decides over both.
  const abi::GemmTuningEntry *entry =
      options.gemmConfigs ? options.gemmConfigs->find(device.arch, tuningKey()) : nullptr;
  std::optional<abi::GemmTuning> tuned;
  if (entry) {
    tuned = entry->tuning;
    config.tile = {tuned->blockM, tuned->blockN};
    config.warps = tuned->warps;
    config.blockK = tuned->blockK;
  }
  config.multiprocessors = device.smCount;
  config.wideLargeTile = device.features.wgmma && takesWgmma(this->gemm) &&
                         this->gemm.input != GemmInput::TF32;
  config.arch = device.arch;
  elementBytes =
      primitiveBitWidth(this->gemm.dot->operand(0)->shape().elementType()) / 8;
  tiling = chooseGemmTiling(this->gemm, mma, config, elementBytes,
                            device.sharedMemoryPerBlock);
  warpgroups = chooseWarpgroupTiling();
  // The emitter's own large wgmma tiles step K by 128 bytes (64 16-bit
  // elements), one 128-byte swizzled row per operand row, as Hopper's
  // GEMMs (CUTLASS, Triton) do: half the barriers and loop steps of 64.
  if (warpgroups && tiling.large && !config.tile)
    widenBlockK(tiling, mma, this->gemm, kWideBlockKBytes / elementBytes);
  // A tuned K step past what static shared memory holds (the tiling
  // halves it to fit 48 KiB): the tuned one, in dynamic shared memory,
  // as long as one stage of it fits there.
  if (tuned)
    for (int64_t blockK = tuned->blockK; blockK > tiling.blockK; blockK /= 2) {
      GemmTiling wider = tiling;
      widenBlockK(wider, mma, this->gemm, blockK);
      if (wider.sharedMemoryBytes(elementBytes) <= device.sharedMemoryPerBlockOptIn) {
        tiling = wider;
        break;
      }
    }
  staging[0] = stagingOf(0);
  staging[1] = stagingOf(1);
  // Software pipelining where an operand's copies can be async: XLA's
  // stages where its config names a tile (most say 1), two for the
  // emitter's own mma.sync tiles; fewer while the buffers do not fit.
  // (Not the large mma.sync tile: at 255 registers, a bf16 [32768,8192]
  // dot spilled 32 bytes with two stages on sm_90.)
  // With wgmma, the emitter's own tiles take four: one buffer pair read by
  // the product in flight, two loading ahead (see the K loop).
  // (A tuned config's stages, up to 8, where they fit.)
  int64_t wanted = tuned         ? tuned->stages
                   : config.tile ? analysis.blockLevelStages.value_or(1)
                   : warpgroups  ? 4
                                 : 2;
  wanted = std::clamp<int64_t>(wanted, 1, tuned ? 8 : 4);
  if (tiling.large && !warpgroups)
    wanted = 1;
  // Past 48 KiB the tiles go to dynamic shared memory (EmitterBase).
  while (wanted > 1 && wanted * sharedMemoryBytes() > device.sharedMemoryPerBlockOptIn)
    --wanted;
  if (wanted > 1 && (canCopyAsync(0) || canCopyAsync(1))) {
    stages = wanted;
    staging[0].async = canCopyAsync(0);
    staging[1].async = canCopyAsync(1);
  }
  // The in-flight wgmma K loop (3 or more stages) loads its tiles with TMA
  // where it can, and with cp.async or through registers where not.
  if (warpgroups && stages >= 3) {
    for (int operand : {0, 1})
      staging[operand].tma = canLoadWithTma(operand);
  }
  // Both by TMA: a producer warpgroup issues them (if its empty barriers
  // still fit).
  bool specialize = tuned ? tuned->warpSpecialized : options.warpSpecializedGemms;
  if (specialize && staging[0].tma && staging[1].tma) {
    warpSpecialization = WarpSpecialization{tiling.warps * kWarpSize, 0, 0};
    if (sharedMemoryBytes() > device.sharedMemoryPerBlockOptIn)
      warpSpecialization.reset();
  }
  // The output through shared memory, where its buffers fit: with fewer
  // stages if need be, down to three (a 128 x 256 bf16 tile keeps its
  // four: 192 KiB of stages and 32 KiB of buffers).
  if (warpSpecialization && options.tmaStoreGemmEpilogues && canStoreWithTma()) {
    epilogueByTma = true;
    while (sharedMemoryBytes() > device.sharedMemoryPerBlockOptIn && stages > 3)
      --stages;
    if (sharedMemoryBytes() > device.sharedMemoryPerBlockOptIn)
      epilogueByTma = false;
  }
  launch.threads[0] = tiling.warps * kWarpSize + (warpSpecialization ? kThreadsPerWarpgroup : 0);
  int64_t tiles = this->gemm.batchCount() * tiling.tilesM * tiling.tilesN;
  launch.blocks = splitGrid(tiles, device);
  bool persistent = tuned ? tuned->persistent : tiling.large && options.persistentGemms;
  if (warpSpecialization && persistent && device.smCount > 0) {
    warpSpecialization->persistent = true;
    launch.blocks = {std::min<int64_t>(tiles, device.smCount), 1, 1};
  }
  // Clusters of two blocks along M sharing B's K tiles by TMA multicast,
  // where asked for (a tuned config, or --gemm-cluster): a grid of whole
  // clusters over the tile rows counted up to even.
  int64_t clusterBlocks = tuned ? tuned->cluster : options.gemmClusterBlocks;
  int64_t pairedTiles =
      this->gemm.batchCount() * llvm::alignTo(tiling.tilesM, 2) * tiling.tilesN;
  if (clusterBlocks == 2 && canMulticastB() &&
      (warpSpecialization->persistent || pairedTiles <= device.blockDimLimitX)) {
    warpSpecialization->cluster = 2;
    launch.blocks = {pairedTiles, 1, 1};
    if (warpSpecialization->persistent)
      launch.blocks[0] = std::max<int64_t>(2, std::min(pairedTiles, device.smCount) / 2 * 2);
    launch.cluster = std::array<int64_t, 3>{2, 1, 1};
  }
  // Registers for four blocks an SM: without a bound ptxas aims at more
  // blocks and spills the accumulators and addresses (64 registers and
  // 12 bytes of spills where 104 fit, on a TF32 [4096,32000] x
  // [32000,2048] dot for sm_80); with room for fewer, it spends
  // registers freely. Three TF32 products hold each fragment twice (its
  // TF32 part and remainder): room for two blocks (a HIGHEST f32 dot on
  // 4 warps spilled 28 bytes at 128 registers on sm_80).
  // Large tiles hold four times the accumulators: room for one block (at
  // 128 registers a bf16 dot spilled 56 bytes with mma.sync on sm_80, and
  // a weight gradient, both operands copied element by element, 8 bytes
  // with wgmma on sm_90a).
  int64_t blocksPerSm = this->gemm.input == GemmInput::TF32x3 ? kBlocksPerSm / 2 : kBlocksPerSm;
  if (tiling.large || (warpSpecialization && warpSpecialization->persistent))
    blocksPerSm = 1;
  int64_t bound = kRegistersPerSm / (blocksPerSm * launch.threads[0]) / 8 * 8;
  // A warpgroup's thread holds N / 2 accumulators: room for them and as
  // many again (fewer blocks where N is large).
  if (warpgroups)
    bound = std::max(bound, warpgroups->width / 2 + 64);
  // But never more than the block can launch with (the register file over
  // its threads): a warp-specialized 128 x 256 tile launches at 168 and
  // its consumers rise to 224 (below).
  bound = std::min(bound, kRegistersPerSm / launch.threads[0] / 8 * 8);
  launch.maxRegisters = std::clamp<int64_t>(bound, 32, device.maxRegistersPerThread);
  // One block an SM and two or more consumer warpgroups: the producer
  // keeps 56 registers and its others go to the consumers (168 + 56 = 224
  // on 2 + 1 warpgroups, as CUTLASS's cooperative kernels split them). The bound is
  // then the registers the block launches with: ptxas gives such a kernel
  // exactly its .maxnreg, and the pool arithmetic counts on it.
  int64_t consumerGroups = tiling.warps / 4;
  if (warpSpecialization && blocksPerSm == 1 && consumerGroups >= 2 &&
      launch.maxRegisters % 8 == 0 && launch.maxRegisters > kProducerRegisters) {
    warpSpecialization->producerRegisters = kProducerRegisters;
    int64_t consumer =
        launch.maxRegisters + (launch.maxRegisters - kProducerRegisters) / consumerGroups;
    warpSpecialization->consumerRegisters = std::min<int64_t>(consumer / 8 * 8, 256);
    if (plantedBug == "setmaxnreg-overask")
      warpSpecialization->consumerRegisters += 8;
  }
}

std::string GemmEmitter::tuningKey() const {
  auto inputName = [](GemmInput input) -> std::string {
    switch (input) {
    case GemmInput::BF16: return "bf16";
    case GemmInput::F16: return "f16";
    case GemmInput::TF32: return "tf32";
    case GemmInput::TF32x3: return "tf32x3";
    case GemmInput::F64: return "f64";
    case GemmInput::S8: return "s8";
    case GemmInput::F8E4M3FN: return "f8e4m3fn";
    case GemmInput::F8E5M2: return "f8e5m2";
    }
    llvm_unreachable("a GEMM input type");
  };
  const Shape &result = fused.root()->shape();
  std::string key = inputName(gemm.input) + "," + inputName(gemm.inputB.value_or(gemm.input)) +
                    "->" +
                    (result.isTuple() ? std::string("tuple") : std::string(primitiveTypeName(result.elementType()))) + " ";
  if (gemm.batchCount() > 1)
    key += "b" + std::to_string(gemm.batchCount()) + " ";
  key += "m" + std::to_string(gemm.m) + " n" + std::to_string(gemm.n) + " k" +
         std::to_string(gemm.k);
  key += std::string(" a:") + (isKMinor(0) ? "k" : "m") + " b:" + (isKMinor(1) ? "k" : "n");
  return key;
}

std::optional<abi::GemmKernel> GemmEmitter::gemmKernel() const {
  abi::GemmTuning tuning;
  tuning.blockM = tiling.blockM;
  tuning.blockN = tiling.blockN;
  tuning.blockK = tiling.blockK;
  tuning.warps = tiling.warps;
  tuning.stages = stages;
  tuning.warpSpecialized = warpSpecialization.has_value();
  tuning.persistent = warpSpecialization && warpSpecialization->persistent;
  tuning.cluster = clusterBlocks();
  return abi::GemmKernel{tuningKey(), tuning};
}

std::optional<GemmEmitter::WarpgroupTiling> GemmEmitter::chooseWarpgroupTiling() const {
  const GemmTiling &t = tiling;
  if (!device.features.wgmma || !takesWgmma(gemm))
    return std::nullopt;
  // Whole warpgroups, each a 64-row slab of the tile by N columns, K in
  // steps of 32 bytes (16 16-bit, 8 TF32 or 32 8-bit columns).
  if (t.warps % 4 != 0 || t.blockM % 64 != 0 || (t.blockK * elementBytes) % 32 != 0)
    return std::nullopt;
  WarpgroupTiling result;
  result.groupsM = t.blockM / 64;
  int64_t groups = t.warps / 4;
  if (groups % result.groupsM != 0)
    return std::nullopt;
  result.groupsN = groups / result.groupsM;
  // The B tile holds the tile's columns rounded up to whole core matrices.
  if (t.sharedRowsB % result.groupsN != 0 || t.sharedRowsA != t.blockM)
    return std::nullopt;
  result.width = t.sharedRowsB / result.groupsN;
  if (result.width % 8 != 0 || result.width > 256)
    return std::nullopt;
  return result;
}

int64_t GemmEmitter::sharedMemoryBytes() const {
  int64_t elements = 0;
  for (const Staging &operand : staging) {
    int64_t tile = 1;
    for (int64_t size : operand.tileShape)
      tile *= size;
    elements += tile;
  }
  // TMA: the stages' mbarriers, 8 bytes each (full ones, and empty ones
  // with warp specialization), after the tiles (whose bytes are a
  // multiple of 16: the layout's start for the next global).
  // The empty ones follow the full ones, which the layout then pads to 16.
  int64_t barriers = staging[0].tma || staging[1].tma ? 8 * stages : 0;
  if (warpSpecialization)
    barriers += llvm::alignTo(barriers, 16);
  int64_t tiles = stages * elements * elementBytes;
  // The epilogue's buffers after the stages, at their swizzle's 1024.
  if (epilogueByTma)
    tiles = llvm::alignTo(tiles, 1024) + epilogueTileBytes();
  return tiles + barriers;
}

std::optional<std::pair<int64_t, int64_t>>
GemmEmitter::configuredTile(const FusionAnalysis &analysis) const {
  const std::vector<int64_t> &sizes = analysis.blockLevelTile;
  const HloInstruction *root = fused.root();
  if (!analysis.blockLevelWarps || sizes.size() != static_cast<size_t>(root->shape().rank()) ||
      !gemm.hasMatrixResult())
    return std::nullopt;
  int64_t rank = gemm.dot->shape().rank();
  if (root->shape().rank() != rank)
    return std::nullopt;
  // Root dimension i is dot dimension dotDimension[i], or -1 for a
  // dimension of size 1 the bitcasts add.
  std::vector<int64_t> dotDimension(rank);
  std::iota(dotDimension.begin(), dotDimension.end(), 0);
  if (gemm.epilogueChainTop != gemm.dot) {
    MLIRContext context(MLIRContext::Threading::DISABLED);
    std::optional<IndexingMap> toTop =
        heroToRootIndexing(gemm.dot, gemm.epilogueChainTop, &context);
    if (!toTop || toTop->getAffineMap().getNumResults() != rank)
      return std::nullopt;
    for (int64_t i = 0; i < rank; ++i) {
      AffineExpr result = toTop->getAffineMap().getResult(i);
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        dotDimension[i] = dim.getPosition();
      else if (isa<AffineConstantExpr>(result) && root->shape().dimension(i) == 1)
        dotDimension[i] = -1;
      else
        return std::nullopt;
    }
  }
  // Dot dimensions no root dimension names have size 1: a tile of 1.
  std::vector<int64_t> dotTile(rank, 1);
  std::vector<bool> named(rank, false);
  for (int64_t i = 0; i < rank; ++i)
    if (dotDimension[i] >= 0) {
      dotTile[dotDimension[i]] = sizes[i];
      named[dotDimension[i]] = true;
    }
  for (int64_t d = 0; d < rank; ++d)
    if (!named[d] && gemm.dot->shape().dimension(d) != 1)
      return std::nullopt;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (dotTile[d] != 1)
      return std::nullopt;
  return std::make_pair(dotTile[rank - 2], dotTile[rank - 1]);
}

llvm::Expected<std::unique_ptr<EmitterBase>>
createGemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                  const GpuDeviceInfo &device, const EmitterOptions &options) {
  if (device.computeCapability < 80)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported: the tensor-core GEMM emitter needs sm_80 or "
                                   "later, not " + device.arch);
  ErrorOr<GemmDescription> gemm = describeGemm(fused);
  if (!gemm)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported: this GEMM fusion (" + gemm.error() + ")");
  if (!tensorCoresTake(gemm->input, device.computeCapability))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unsupported: tensor cores multiply 8-bit floats from sm_89 "
                                   "on, not on " + device.arch);
  return std::make_unique<GemmEmitter>(analysis, fused, device, std::move(*gemm), options);
}

} // namespace hlo
