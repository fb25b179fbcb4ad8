//===- HostKernelTest.cpp - Hand-written MLIR kernels on the host ---------===//
//
// Kernels written in upstream MLIR (gpu, memref, arith, scf: the IR at the
// pipeline's split point, where later emitters' ops arrive), compiled by
// the host target into a shared object and run by the CPU launcher:
// barriers ordering shared-memory traffic, every gpu.shuffle mode with
// widths below 32 and out-of-range lanes (against the semantics
// convert-gpu-to-nvvm gives the same op on a GPU), atomics contending
// across blocks on several host threads, xla_gpu.mma_sync of every kind
// the host runs (against a plain matrix product), and the faults a GPU
// would hit: an out-of-bounds store and a barrier that not all threads
// reach.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "host/HostLauncher.h"
#include "host/WarpMatrixOps.h"
#include "hlo_parser/FloatFormat.h"
#include "pipeline/Compile.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <fstream>

using namespace hlo;
using namespace hlo::runtime;

namespace {

/// A shared object compiled from MLIR, loaded.
class HostKernels {
public:
  static std::unique_ptr<HostKernels> compile(const std::string &source, std::string &error) {
    auto kernels = std::unique_ptr<HostKernels>(new HostKernels());
    mlir::DialectRegistry registry;
    registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                    mlir::memref::MemRefDialect, mlir::gpu::GPUDialect, mlir::scf::SCFDialect,
                    mlir::vector::VectorDialect, mlir::math::MathDialect,
                    mlir::LLVM::LLVMDialect, mlir::cf::ControlFlowDialect,
                    xla_gpu::XlaGpuDialect>();
    mlir::MLIRContext context(registry);
    context.disableMultithreading();
    context.loadAllAvailableDialects();
    std::string diagnostics;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diagnostic) {
      diagnostics += diagnostic.str() + "\n";
      return mlir::success();
    });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    if (!module) {
      error = "parse: " + diagnostics;
      return nullptr;
    }
    pipeline::PipelineOptions options;
    options.target = pipeline::TargetKind::Host;
    pipeline::PassDumper dumper(options);
    llvm::Expected<pipeline::CompiledCode> compiled =
        pipeline::compileModule(*module, pipeline::OutputKind::SharedObject, options, dumper,
                                nullptr, pipeline::CompileStart::SplitPoint);
    if (!compiled) {
      error = llvm::toString(compiled.takeError());
      return nullptr;
    }
    for (const pipeline::CompiledKernel &kernel : compiled->kernels) {
      KernelSpec spec;
      spec.name = kernel.symbol;
      for (int i = 0; i < 3; ++i) {
        spec.block[i] = static_cast<unsigned>(kernel.block[i]);
        spec.grid[i] = static_cast<unsigned>(kernel.grid[i]);
      }
      spec.sharedMemoryBytes = static_cast<unsigned>(kernel.staticSharedBytes);
      spec.concurrentThreads = kernel.concurrentThreads;
      kernels->specs[spec.name] = spec;
    }
    llvm::SmallString<128> path;
    int fd = -1;
    if (llvm::sys::fs::createTemporaryFile("host-kernel-test", "so", fd, path)) {
      error = "cannot create a temporary file";
      return nullptr;
    }
    ::close(fd);
    kernels->path = path.str().str();
    std::ofstream(kernels->path, std::ios::binary) << compiled->code;
    kernels->library = dlopen(kernels->path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!kernels->library) {
      error = dlerror();
      return nullptr;
    }
    return kernels;
  }

  ~HostKernels() {
    if (library)
      dlclose(library);
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }

  LaunchResult launch(const std::string &name, std::vector<void *> buffers,
                      unsigned hostThreads = 2) {
    auto kernel = reinterpret_cast<HloHostKernel>(dlsym(library, name.c_str()));
    if (!kernel)
      return {LaunchResult::Error, "no kernel " + name};
    return HostLauncher(hostThreads).launch(kernel, specs.at(name), buffers, "sm_90");
  }

  std::map<std::string, KernelSpec> specs;

private:
  HostKernels() = default;
  std::string path;
  void *library = nullptr;
};

std::unique_ptr<HostKernels> compileOrFail(const std::string &source) {
  std::string error;
  std::unique_ptr<HostKernels> kernels = HostKernels::compile(source, error);
  EXPECT_TRUE(kernels) << error;
  return kernels;
}

// Each thread stores into shared memory, waits, reads its neighbour's slot;
// then overwrites its slot and reads the other neighbour's. Without the
// barriers a thread would read poison or the first round's values.
constexpr const char *kBarrierKernel = R"mlir(
memref.global "private" @slots : memref<64xi32, #gpu.address_space<workgroup>>
func.func @neighbours(%out: memref<256xi32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [4, 1, 1], block = [64, 1, 1]>} {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c2_i32 = arith.constant 2 : i32
  %c1000_i32 = arith.constant 1000 : i32
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %slots = memref.get_global @slots : memref<64xi32, #gpu.address_space<workgroup>>
  %ti = arith.index_cast %t : index to i32
  %bi = arith.index_cast %b : index to i32
  %bk = arith.muli %bi, %c1000_i32 : i32
  %mine = arith.addi %bk, %ti : i32
  memref.store %mine, %slots[%t] : memref<64xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %t1 = arith.addi %t, %c1 : index
  %next = arith.remui %t1, %c64 : index
  %first = memref.load %slots[%next] : memref<64xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %twice = arith.muli %first, %c2_i32 : i32
  memref.store %twice, %slots[%t] : memref<64xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %t63 = arith.addi %t, %c63 : index
  %previous = arith.remui %t63, %c64 : index
  %second = memref.load %slots[%previous] : memref<64xi32, #gpu.address_space<workgroup>>
  %base = arith.muli %b, %c64 : index
  %at = arith.addi %base, %t : index
  memref.store %second, %out[%at] : memref<256xi32>
  return
}
)mlir";

TEST(HostKernel, BarriersOrderSharedMemory) {
  auto kernels = compileOrFail(kBarrierKernel);
  ASSERT_TRUE(kernels);
  const KernelSpec &spec = kernels->specs.at("neighbours");
  EXPECT_EQ(spec.sharedMemoryBytes, 256u);
  EXPECT_TRUE(spec.concurrentThreads);
  std::vector<int32_t> out(256, -1);
  LaunchResult result = kernels->launch("neighbours", {out.data()});
  ASSERT_TRUE(result.ok()) << result.message;
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < 64; ++t)
      // Thread t reads slot t-1, where thread t-1 stored twice what slot t
      // held: 2 * (1000 b + t).
      ASSERT_EQ(out[b * 64 + t], 2 * (1000 * b + t)) << "block " << b << " thread " << t;
}

// gpu.shuffle as convert-gpu-to-nvvm lowers it: the first `width` lanes
// are the member mask (lanes at or past it do not shuffle here); the source
// lane of down/xor/idx is valid up to width - 1, of up from 32 - width; an
// invalid source gives the lane its own value.
struct GpuShuffleCase {
  const char *mode;
  int offset, width;
};
const GpuShuffleCase kShuffleCases[] = {
    {"down", 1, 32}, {"down", 5, 32},  {"down", 1, 16}, {"down", 9, 16}, {"xor", 1, 32},
    {"xor", 16, 32}, {"xor", 31, 32},  {"xor", 8, 16},  {"xor", 16, 16}, {"xor", 3, 4},
    {"idx", 0, 32},  {"idx", 7, 32},   {"idx", 40, 32}, {"idx", 20, 16}, {"idx", 3, 16},
    {"up", 1, 32},   {"up", 6, 32},    {"up", 1, 16},   {"up", 0, 8},
};

int expectedSourceLane(const GpuShuffleCase &c, int lane) {
  std::string mode = c.mode;
  int source = mode == "down"  ? lane + c.offset
               : mode == "xor" ? (lane ^ (c.offset & 31))
               : mode == "idx" ? (c.offset & 31)
                               : lane - c.offset;
  bool valid = mode == "up" ? source >= 32 - c.width : source <= c.width - 1;
  return valid ? source : -1;
}

std::string shuffleKernel() {
  // 64 threads (two warps); case k writes out[k][t] = shuffled value and
  // valid[k][t], for lanes below the case's width.
  std::string body;
  int k = 0;
  for (const GpuShuffleCase &c : kShuffleCases) {
    body += llvm::formatv(R"mlir(
  %w{0} = arith.constant {2} : i32
  %o{0} = arith.constant {3} : i32
  %wi{0} = arith.constant {2} : index
  %in{0} = arith.cmpi ult, %lane, %wi{0} : index
  scf.if %in{0} {{
    %r{0}, %v{0} = gpu.shuffle {1} %value, %o{0}, %w{0} : f32
    %at{0} = arith.addi %t, %c{0}x64 : index
    memref.store %r{0}, %out[%at{0}] : memref<{4}xf32>
    %vi{0} = arith.extui %v{0} : i1 to i32
    memref.store %vi{0}, %valid[%at{0}] : memref<{4}xi32>
  }
)mlir",
                          k, c.mode, c.width, c.offset, std::size(kShuffleCases) * 64)
                .str();
    ++k;
  }
  std::string constants;
  for (size_t i = 0; i < std::size(kShuffleCases); ++i)
    constants += llvm::formatv("  %c{0}x64 = arith.constant {1} : index\n", i, i * 64).str();
  return llvm::formatv(R"mlir(
func.func @shuffles(%out: memref<{0}xf32>, %valid: memref<{0}xi32>)
    attributes {{xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [64, 1, 1]>} {{
{1}
  %t = gpu.thread_id x
  %lane = gpu.lane_id
  %ti = arith.index_cast %t : index to i32
  %tf = arith.sitofp %ti : i32 to f32
  %c100 = arith.constant 100.0 : f32
  %value = arith.addf %tf, %c100 : f32
{2}
  return
}
)mlir",
                       std::size(kShuffleCases) * 64, constants, body)
      .str();
}

TEST(HostKernel, GpuShuffleModesAndWidthsAsOnTheGpu) {
  auto kernels = compileOrFail(shuffleKernel());
  ASSERT_TRUE(kernels);
  size_t cases = std::size(kShuffleCases);
  std::vector<float> out(cases * 64, -1);
  std::vector<int32_t> valid(cases * 64, -1);
  LaunchResult result = kernels->launch("shuffles", {out.data(), valid.data()});
  ASSERT_TRUE(result.ok()) << result.message;
  for (size_t k = 0; k < cases; ++k) {
    const GpuShuffleCase &c = kShuffleCases[k];
    for (int t = 0; t < 64; ++t) {
      int lane = t % 32, warp = t / 32;
      std::string what = llvm::formatv("{0} {1} width {2}, thread {3}", c.mode, c.offset,
                                       c.width, t)
                             .str();
      if (lane >= c.width) {
        EXPECT_EQ(valid[k * 64 + t], -1) << what << " should not shuffle";
        continue;
      }
      int source = expectedSourceLane(c, lane);
      float expected = 100.0f + (source < 0 ? t : warp * 32 + source);
      EXPECT_EQ(out[k * 64 + t], expected) << what;
      EXPECT_EQ(valid[k * 64 + t], source < 0 ? 0 : 1) << what;
    }
  }
}

// 64 blocks of 128 threads on two host threads: integer add and signed
// max, float add, and a compare-and-swap loop (multiplication by 3, whose
// result does not depend on the order).
constexpr const char *kAtomicsKernel = R"mlir(
func.func @atomics(%counter: memref<1xi32>, %largest: memref<1xi32>, %sum: memref<1xf32>,
                   %product: memref<1xi32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [64, 1, 1], block = [128, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %onef = arith.constant 1.0 : f32
  %three = arith.constant 3 : i32
  %global = gpu.global_id x
  %g = arith.index_cast %global : index to i32
  %a = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32>) -> i32
  %m = memref.atomic_rmw maxs %g, %largest[%c0] : (i32, memref<1xi32>) -> i32
  %f = memref.atomic_rmw addf %onef, %sum[%c0] : (f32, memref<1xf32>) -> f32
  %p = memref.generic_atomic_rmw %product[%c0] : memref<1xi32> {
  ^bb0(%current: i32):
    %next = arith.muli %current, %three : i32
    memref.atomic_yield %next : i32
  }
  return
}
)mlir";

TEST(HostKernel, AtomicsContendAcrossBlocks) {
  auto kernels = compileOrFail(kAtomicsKernel);
  ASSERT_TRUE(kernels);
  EXPECT_FALSE(kernels->specs.at("atomics").concurrentThreads);
  int32_t counter = 0, largest = -5, product = 1;
  float sum = 0;
  LaunchResult result = kernels->launch("atomics", {&counter, &largest, &sum, &product});
  ASSERT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(counter, 64 * 128);
  EXPECT_EQ(largest, 64 * 128 - 1);
  EXPECT_EQ(sum, 8192.0f);
  uint32_t expected = 1;
  for (int i = 0; i < 64 * 128; ++i)
    expected *= 3;
  EXPECT_EQ(static_cast<uint32_t>(product), expected);
}

// One past the end: the last thread's store is reported with its index.
constexpr const char *kOffByOneKernel = R"mlir(
func.func @off_by_one(%in: memref<32xf32>, %out: memref<32xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1, 1]>} {
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  %x = memref.load %in[%t] : memref<32xf32>
  %t1 = arith.addi %t, %c1 : index
  memref.store %x, %out[%t1] : memref<32xf32>
  return
}
)mlir";

TEST(HostKernel, OutOfBoundsStoreIsReported) {
  auto kernels = compileOrFail(kOffByOneKernel);
  ASSERT_TRUE(kernels);
  std::vector<float> in(32, 1), out(33, 0);
  LaunchResult result = kernels->launch("off_by_one", {in.data(), out.data()});
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_EQ(result.message, "thread (31, 0, 0) of block (0, 0, 0): out-of-bounds store of "
                            "kernel parameter 1: index 32 in dimension 0 of extent 32");
  EXPECT_EQ(out[32], 0) << "the store must not happen";
}

// Only the first half of the block reaches the barrier.
constexpr const char *kMissedBarrierKernel = R"mlir(
func.func @missed_barrier(%out: memref<64xf32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [2, 1, 1], block = [64, 1, 1]>} {
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  %first = arith.cmpi ult, %t, %c32 : index
  scf.if %first {
    gpu.barrier
  }
  return
}
)mlir";

TEST(HostKernel, MissedBarrierIsReportedNotAHang) {
  auto kernels = compileOrFail(kMissedBarrierKernel);
  ASSERT_TRUE(kernels);
  std::vector<float> out(64, 0);
  LaunchResult result = kernels->launch("missed_barrier", {out.data()});
  ASSERT_EQ(result.status, LaunchResult::Fault);
  EXPECT_NE(result.message.find("block (0, 0, 0): a barrier not all threads of the block reach "
                                "(of 64 threads, 32 wait at a barrier"),
            std::string::npos)
      << result.message;
}

// Ids: a 2-D block in a 2-D grid; lanes and warps from the linear thread
// id.
constexpr const char *kIdsKernel = R"mlir(
func.func @ids(%out: memref<4x96x4xi32>)
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [2, 2, 1], block = [16, 6, 1]>} {
  %c16 = arith.constant 16 : index
  %c96 = arith.constant 96 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %lane = gpu.lane_id
  %warp = gpu.subgroup_id : index
  %warps = gpu.num_subgroups : index
  %gx = gpu.global_id x
  %row = arith.muli %ty, %c16 : index
  %t = arith.addi %row, %tx : index
  %brow = arith.muli %by, %c2 : index
  %b = arith.addi %brow, %bx : index
  %vl = arith.index_cast %lane : index to i32
  %vw = arith.index_cast %warp : index to i32
  %vn = arith.index_cast %warps : index to i32
  %vg = arith.index_cast %gx : index to i32
  memref.store %vl, %out[%b, %t, %c0] : memref<4x96x4xi32>
  memref.store %vw, %out[%b, %t, %c1] : memref<4x96x4xi32>
  memref.store %vn, %out[%b, %t, %c2] : memref<4x96x4xi32>
  memref.store %vg, %out[%b, %t, %c3] : memref<4x96x4xi32>
  return
}
)mlir";

TEST(HostKernel, IdsLanesAndWarps) {
  auto kernels = compileOrFail(kIdsKernel);
  ASSERT_TRUE(kernels);
  std::vector<int32_t> out(4 * 96 * 4, -1);
  LaunchResult result = kernels->launch("ids", {out.data()});
  ASSERT_TRUE(result.ok()) << result.message;
  for (int by = 0; by < 2; ++by)
    for (int bx = 0; bx < 2; ++bx)
      for (int ty = 0; ty < 6; ++ty)
        for (int tx = 0; tx < 16; ++tx) {
          int t = ty * 16 + tx, b = by * 2 + bx;
          const int32_t *ids = &out[(b * 96 + t) * 4];
          ASSERT_EQ(ids[0], t % 32);
          ASSERT_EQ(ids[1], t / 32);
          ASSERT_EQ(ids[2], 3);
          ASSERT_EQ(ids[3], bx * 16 + tx);
        }
}

// xla_gpu.mma_sync on the host: each lane loads its fragments (laid out
// per lane in memory by the test, as the PTX ISA says) and stores D; two
// warps, each with its own C. The product is checked against a plain
// matrix product.
struct MmaCase {
  const char *name;
  int m, n, k;
  const char *input, *accumulator, *attributes;
  hlo::PrimitiveType inputType, accumulatorType;
  uint32_t kind;
};
const MmaCase kMmaCases[] = {
    {"bf16", 16, 8, 16, "bf16", "f32", "", hlo::PrimitiveType::BF16, hlo::PrimitiveType::F32,
     HLO_HOST_MMA_M16N8K16_F32_BF16},
    {"f16", 16, 8, 16, "f16", "f32", "", hlo::PrimitiveType::F16, hlo::PrimitiveType::F32,
     HLO_HOST_MMA_M16N8K16_F32_F16},
    {"tf32", 16, 8, 8, "f32", "f32", ", tf32", hlo::PrimitiveType::F32, hlo::PrimitiveType::F32,
     HLO_HOST_MMA_M16N8K8_F32_TF32},
    {"f64", 8, 8, 4, "f64", "f64", "", hlo::PrimitiveType::F64, hlo::PrimitiveType::F64,
     HLO_HOST_MMA_M8N8K4_F64_F64},
    {"s8", 16, 8, 32, "i8", "i32", "", hlo::PrimitiveType::S8, hlo::PrimitiveType::S32,
     HLO_HOST_MMA_M16N8K32_S32_S8},
};

std::string mmaKernel(const MmaCase &c) {
  int a = c.m * c.k / 32, b = c.n * c.k / 32, acc = c.m * c.n / 32;
  return llvm::formatv(R"mlir(
func.func @mma(%a: memref<32x{0}x{3}>, %b: memref<32x{1}x{3}>, %c: memref<64x{2}x{4}>,
               %d: memref<64x{2}x{4}>)
    attributes {{xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [64, 1, 1]>} {{
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  %lane = arith.remui %t, %c32 : index
  %fa = vector.load %a[%lane, %c0] : memref<32x{0}x{3}>, vector<{0}x{3}>
  %fb = vector.load %b[%lane, %c0] : memref<32x{1}x{3}>, vector<{1}x{3}>
  %fc = vector.load %c[%t, %c0] : memref<64x{2}x{4}>, vector<{2}x{4}>
  %fd = xla_gpu.mma_sync %fa, %fb, %fc {{shape = array<i64: {5}, {6}, {7}>{8}}
      : vector<{0}x{3}>, vector<{1}x{3}>, vector<{2}x{4}> -> vector<{2}x{4}>
  vector.store %fd, %d[%t, %c0] : memref<64x{2}x{4}>, vector<{2}x{4}>
  return
}
)mlir",
                       a, b, acc, c.input, c.accumulator, c.m, c.n, c.k, c.attributes)
      .str();
}

TEST(HostKernel, MmaSyncIsAPlainMatrixProductPerWarp) {
  for (const MmaCase &c : kMmaCases) {
    SCOPED_TRACE(c.name);
    auto kernels = compileOrFail(mmaKernel(c));
    ASSERT_TRUE(kernels);
    EXPECT_TRUE(kernels->specs.at("mma").concurrentThreads);
    bool integer = c.inputType == hlo::PrimitiveType::S8;
    int inBytes = hlo::primitiveBitWidth(c.inputType) / 8;
    int accBytes = hlo::primitiveBitWidth(c.accumulatorType) / 8;
    // Row-major A (M x K), B (K x N), C per warp (M x N): small exact values.
    auto value = [&](int i, int range) {
      double x = static_cast<int>((i * 7919u + 13u) % (2 * range + 1)) - range;
      return integer ? x : x / 4;
    };
    std::vector<double> a(c.m * c.k), b(c.k * c.n), acc(2 * c.m * c.n);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = value(static_cast<int>(i), integer ? 100 : 6);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = value(static_cast<int>(i) + 500, integer ? 100 : 6);
    for (size_t i = 0; i < acc.size(); ++i)
      acc[i] = value(static_cast<int>(i) + 900, integer ? 1000 : 20);
    auto bitsOf = [&](double x, hlo::PrimitiveType type) -> uint64_t {
      if (type == hlo::PrimitiveType::S8 || type == hlo::PrimitiveType::S32)
        return static_cast<uint64_t>(static_cast<int64_t>(x));
      return hlo::encodeFloatBits(x, type);
    };
    auto put = [](std::vector<uint8_t> &memory, size_t index, int bytes, uint64_t bits) {
      std::memcpy(memory.data() + index * bytes, &bits, bytes);
    };
    int aValues = c.m * c.k / 32, bValues = c.n * c.k / 32, cValues = c.m * c.n / 32;
    std::vector<uint8_t> aLanes(32 * aValues * inBytes), bLanes(32 * bValues * inBytes),
        cLanes(64 * cValues * accBytes), dLanes(64 * cValues * accBytes, 0xee);
    for (int lane = 0; lane < 64; ++lane) {
      int warp = lane / 32, l = lane % 32;
      for (int i = 0; i < aValues && warp == 0; ++i) {
        auto at = *mmaFragmentPosition(c.kind, MmaOperand::A, l, i);
        put(aLanes, l * aValues + i, inBytes, bitsOf(a[at.row * c.k + at.column], c.inputType));
      }
      for (int i = 0; i < bValues && warp == 0; ++i) {
        auto at = *mmaFragmentPosition(c.kind, MmaOperand::B, l, i); // (n, k)
        put(bLanes, l * bValues + i, inBytes, bitsOf(b[at.column * c.n + at.row], c.inputType));
      }
      for (int i = 0; i < cValues; ++i) {
        auto at = *mmaFragmentPosition(c.kind, MmaOperand::C, l, i);
        put(cLanes, lane * cValues + i, accBytes,
            bitsOf(acc[warp * c.m * c.n + at.row * c.n + at.column], c.accumulatorType));
      }
    }
    LaunchResult result = kernels->launch(
        "mma", {aLanes.data(), bLanes.data(), cLanes.data(), dLanes.data()});
    ASSERT_TRUE(result.ok()) << result.message;
    for (int lane = 0; lane < 64; ++lane)
      for (int i = 0; i < cValues; ++i) {
        int warp = lane / 32;
        auto at = *mmaFragmentPosition(c.kind, MmaOperand::C, lane % 32, i);
        double expected = acc[warp * c.m * c.n + at.row * c.n + at.column];
        for (int l = 0; l < c.k; ++l)
          expected += a[at.row * c.k + l] * b[l * c.n + at.column];
        uint64_t bits = 0;
        std::memcpy(&bits, dLanes.data() + (lane * cValues + i) * accBytes, accBytes);
        double got = c.accumulatorType == hlo::PrimitiveType::S32
                         ? static_cast<int32_t>(bits)
                         : hlo::decodeFloatBits(bits, c.accumulatorType);
        ASSERT_EQ(got, expected) << "lane " << lane << " d" << i;
      }
  }
}

} // namespace
