//===- WarpMatrixOpsTest.cpp - mma.sync and ldmatrix on the host ----------===//
//
// The host runtime's warp-collective matrix operations against the PTX
// ISA: the fragment layouts as the ISA's "matrix fragments for mma" tables
// state them per shape (written out here, independently of the runtime's
// tiling rule), a plain matrix product as the oracle for every mma.sync
// kind, ldmatrix in every width with and without .trans, and the faults
// a GPU would turn into wrong answers or hangs: a lane that never arrives,
// a partial warp, a row outside shared memory, sequential threads.
//
//===----------------------------------------------------------------------===//
#include "host/HostLauncher.h"
#include "host/WarpMatrixOps.h"

#include "hlo_parser/FloatFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace hlo;
using namespace hlo::runtime;

namespace {

/// An mma.sync kind as the test knows it: shape, element types and widths.
struct Kind {
  uint32_t id;
  const char *name;
  int m, n, k;
  PrimitiveType input, accumulator;
  /// B's type where it is not A's (mixed 8-bit floats).
  std::optional<PrimitiveType> inputB = std::nullopt;
  PrimitiveType bType() const { return inputB ? *inputB : input; }
};

const Kind kKinds[] = {
    {HLO_HOST_MMA_M16N8K16_F32_BF16, "m16n8k16.f32.bf16", 16, 8, 16, PrimitiveType::BF16,
     PrimitiveType::F32, std::nullopt},
    {HLO_HOST_MMA_M16N8K16_F32_F16, "m16n8k16.f32.f16", 16, 8, 16, PrimitiveType::F16,
     PrimitiveType::F32, std::nullopt},
    {HLO_HOST_MMA_M16N8K8_F32_TF32, "m16n8k8.f32.tf32", 16, 8, 8, PrimitiveType::F32,
     PrimitiveType::F32, std::nullopt},
    {HLO_HOST_MMA_M8N8K4_F64_F64, "m8n8k4.f64.f64", 8, 8, 4, PrimitiveType::F64,
     PrimitiveType::F64, std::nullopt},
    {HLO_HOST_MMA_M16N8K32_S32_S8, "m16n8k32.s32.s8", 16, 8, 32, PrimitiveType::S8,
     PrimitiveType::S32, std::nullopt},
    {HLO_HOST_MMA_M16N8K32_F32_E4M3, "m16n8k32.f32.e4m3", 16, 8, 32, PrimitiveType::F8E4M3FN,
     PrimitiveType::F32, std::nullopt},
    {HLO_HOST_MMA_M16N8K32_F32_E5M2, "m16n8k32.f32.e5m2", 16, 8, 32, PrimitiveType::F8E5M2,
     PrimitiveType::F32, std::nullopt},
    {HLO_HOST_MMA_M16N8K32_F32_E4M3_E5M2, "m16n8k32.f32.e4m3.e5m2", 16, 8, 32,
     PrimitiveType::F8E4M3FN, PrimitiveType::F32, PrimitiveType::F8E5M2},
    {HLO_HOST_MMA_M16N8K32_F32_E5M2_E4M3, "m16n8k32.f32.e5m2.e4m3", 16, 8, 32,
     PrimitiveType::F8E5M2, PrimitiveType::F32, PrimitiveType::F8E4M3FN},
};

struct Position {
  int row, column;
};

// The PTX ISA's fragment tables, per shape. groupID = lane / 4,
// threadID_in_group = lane % 4; A positions are (row, col) of M x K, B
// positions (row, col) of K x N, C positions (row, col) of M x N.
Position isaA(const Kind &kind, int lane, int i) {
  int g = lane / 4, t = lane % 4;
  switch (kind.k) {
  case 16: // m16n8k16, .f16/.bf16: a0..a7
    return {(i < 2 || (i >= 4 && i < 6)) ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  case 8: // m16n8k8 .tf32: a0..a3
    return {(i == 0 || i == 2) ? g : g + 8, i < 2 ? t : t + 4};
  case 4: // m8n8k4 .f64: a0
    return {g, t};
  default: // m16n8k32 .s8/.e4m3/.e5m2: a0..a15
    return {(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  }
}
Position isaB(const Kind &kind, int lane, int i) {
  int g = lane / 4, t = lane % 4;
  switch (kind.k) {
  case 16: // b0..b3
    return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
  case 8: // b0, b1
    return {i == 0 ? t : t + 4, g};
  case 4: // b0
    return {t, g};
  default: // b0..b7
    return {t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g};
  }
}
Position isaC(const Kind &kind, int lane, int i) {
  int g = lane / 4, t = lane % 4;
  if (kind.m == 8) // m8n8k4 .f64: c0, c1
    return {g, t * 2 + i};
  return {i < 2 ? g : g + 8, t * 2 + (i & 1)}; // c0..c3
}

int bitsOf(PrimitiveType type) { return primitiveBitWidth(type); }

TEST(WarpMatrixOps, FragmentPositionsFollowThePtxTables) {
  for (const Kind &kind : kKinds)
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < kind.m * kind.k / 32; ++i) {
        ErrorOr<FragmentPosition> at = mmaFragmentPosition(kind.id, MmaOperand::A, lane, i);
        ASSERT_TRUE(at) << at.error();
        Position isa = isaA(kind, lane, i);
        EXPECT_EQ(at->row, isa.row) << kind.name << " a" << i << " lane " << lane;
        EXPECT_EQ(at->column, isa.column) << kind.name << " a" << i << " lane " << lane;
      }
      for (int i = 0; i < kind.n * kind.k / 32; ++i) {
        ErrorOr<FragmentPosition> at = mmaFragmentPosition(kind.id, MmaOperand::B, lane, i);
        ASSERT_TRUE(at) << at.error();
        Position isa = isaB(kind, lane, i); // (k, n); the runtime's B is N x K
        EXPECT_EQ(at->row, isa.column) << kind.name << " b" << i << " lane " << lane;
        EXPECT_EQ(at->column, isa.row) << kind.name << " b" << i << " lane " << lane;
      }
      for (int i = 0; i < kind.m * kind.n / 32; ++i) {
        ErrorOr<FragmentPosition> at = mmaFragmentPosition(kind.id, MmaOperand::C, lane, i);
        ASSERT_TRUE(at) << at.error();
        Position isa = isaC(kind, lane, i);
        EXPECT_EQ(at->row, isa.row) << kind.name << " c" << i << " lane " << lane;
        EXPECT_EQ(at->column, isa.column) << kind.name << " c" << i << " lane " << lane;
      }
    }
  EXPECT_FALSE(mmaFragmentPosition(99, MmaOperand::A, 0, 0));
  EXPECT_FALSE(mmaFragmentPosition(HLO_HOST_MMA_M16N8K16_F32_BF16, MmaOperand::A, 0, 8));
}

/// Row-major matrices of one mma.sync, their elements exact in the input
/// type (small multiples of 1/8, or integers), so that the product is
/// exact in double and rounds once.
struct Problem {
  const Kind *kind;
  std::vector<double> a, b, c; // M x K, K x N, M x N
  std::vector<double> expected() const {
    std::vector<double> d(c);
    for (int i = 0; i < kind->m; ++i)
      for (int j = 0; j < kind->n; ++j) {
        double sum = c[i * kind->n + j];
        for (int l = 0; l < kind->k; ++l)
          sum += a[i * kind->k + l] * b[l * kind->n + j];
        d[i * kind->n + j] = kind->accumulator == PrimitiveType::S32 ? sum
                             : roundToFloatType(sum, kind->accumulator);
      }
    return d;
  }
};

Problem makeProblem(const Kind &kind, unsigned seed) {
  Problem problem{&kind, {}, {}, {}};
  bool integer = kind.input == PrimitiveType::S8;
  auto element = [&](unsigned i, int range) {
    unsigned x = (i * 2654435761u + seed * 40503u) >> 7;
    double value = static_cast<int>(x % (2 * range + 1)) - range;
    return integer ? value : value / 8;
  };
  auto input = [&](unsigned i, int range, PrimitiveType type) {
    double value = element(i, range);
    return integer ? value : roundToFloatType(value, type); // e5m2: 2 mantissa bits
  };
  for (int i = 0; i < kind.m * kind.k; ++i)
    problem.a.push_back(input(i, integer ? 127 : 12, kind.input));
  for (int i = 0; i < kind.k * kind.n; ++i)
    problem.b.push_back(input(i + 1000, integer ? 127 : 12, kind.bType()));
  for (int i = 0; i < kind.m * kind.n; ++i)
    problem.c.push_back(element(i + 2000, integer ? 1000 : 40));
  return problem;
}

uint64_t bitsOfValue(double value, PrimitiveType type) {
  if (type == PrimitiveType::S8 || type == PrimitiveType::S32)
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  return encodeFloatBits(value, type);
}
double valueOfBits(uint64_t bits, PrimitiveType type) {
  if (type == PrimitiveType::S32)
    return static_cast<int32_t>(bits);
  return decodeFloatBits(bits, type);
}

void store(std::vector<uint8_t> &registers, int i, int bits, uint64_t value) {
  std::memcpy(registers.data() + i * bits / 8, &value, bits / 8);
}
uint64_t load(const std::vector<uint8_t> &registers, int i, int bits) {
  uint64_t value = 0;
  std::memcpy(&value, registers.data() + i * bits / 8, bits / 8);
  return value;
}

TEST(WarpMatrixOps, EveryMmaKindIsAPlainMatrixProduct) {
  for (const Kind &kind : kKinds)
    for (unsigned seed : {1u, 2u, 3u}) {
      Problem problem = makeProblem(kind, seed);
      int in = bitsOf(kind.input), acc = bitsOf(kind.accumulator);
      std::vector<std::vector<uint8_t>> a(32), b(32), c(32), d(32);
      std::array<MmaLane, kLanesPerWarp> lanes;
      for (int lane = 0; lane < 32; ++lane) {
        a[lane].resize(kind.m * kind.k / 32 * in / 8);
        b[lane].resize(kind.n * kind.k / 32 * in / 8);
        c[lane].resize(kind.m * kind.n / 32 * acc / 8);
        d[lane].assign(c[lane].size(), 0xee);
        for (int i = 0; i < kind.m * kind.k / 32; ++i) {
          Position at = isaA(kind, lane, i);
          store(a[lane], i, in, bitsOfValue(problem.a[at.row * kind.k + at.column], kind.input));
        }
        for (int i = 0; i < kind.n * kind.k / 32; ++i) {
          Position at = isaB(kind, lane, i);
          store(b[lane], i, in, bitsOfValue(problem.b[at.row * kind.n + at.column], kind.bType()));
        }
        for (int i = 0; i < kind.m * kind.n / 32; ++i) {
          Position at = isaC(kind, lane, i);
          store(c[lane], i, acc,
                bitsOfValue(problem.c[at.row * kind.n + at.column], kind.accumulator));
        }
        lanes[lane] = {a[lane].data(), b[lane].data(), c[lane].data(), d[lane].data()};
      }
      Status done = warpMma(kind.id, lanes);
      ASSERT_TRUE(done) << done.error();
      std::vector<double> expected = problem.expected();
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < kind.m * kind.n / 32; ++i) {
          Position at = isaC(kind, lane, i);
          EXPECT_EQ(valueOfBits(load(d[lane], i, acc), kind.accumulator),
                    expected[at.row * kind.n + at.column])
              << kind.name << " seed " << seed << " d" << i << " lane " << lane;
        }
    }
}

TEST(WarpMatrixOps, Tf32IgnoresTheLow13BitsOfEachInput) {
  const Kind &kind = kKinds[2];
  ASSERT_EQ(kind.id, HLO_HOST_MMA_M16N8K8_F32_TF32);
  // A = all 1 + 2^-20 (below tf32's precision), B = all ones, C = 0: each
  // D element is K = 8 exactly.
  float one = 1.0f + std::ldexp(1.0f, -20);
  uint32_t oneBits;
  std::memcpy(&oneBits, &one, 4);
  uint32_t exactOne = 0x3f800000u;
  std::array<MmaLane, kLanesPerWarp> lanes;
  uint32_t a[32][4], b[32][2], c[32][4] = {}, d[32][4];
  for (int lane = 0; lane < 32; ++lane) {
    for (uint32_t &x : a[lane])
      x = oneBits;
    for (uint32_t &x : b[lane])
      x = exactOne;
    lanes[lane] = {a[lane], b[lane], c[lane], d[lane]};
  }
  ASSERT_TRUE(warpMma(kind.id, lanes));
  for (int lane = 0; lane < 32; ++lane)
    for (uint32_t x : d[lane]) {
      float value;
      std::memcpy(&value, &x, 4);
      EXPECT_EQ(value, 8.0f);
    }
}

// --- Through the launcher: kernels that run the operations -------------

KernelSpec spec(unsigned threads, bool concurrent, unsigned shared = 0) {
  KernelSpec kernel;
  kernel.name = "test";
  kernel.block = {threads, 1, 1};
  kernel.concurrentThreads = concurrent;
  kernel.sharedMemoryBytes = shared;
  return kernel;
}

unsigned threadOf(const HloHostThread *t) { return t->threadId[0]; }

// Each warp w computes D_w = A * B + C_w for bf16 m16n8k16 from global
// memory (A, B shared; C and D per warp), its fragments loaded and stored
// by the ISA tables.
const Kind &kBf16 = kKinds[0];
void bf16MmaKernel(void *const *buffers, HloHostThread *t) {
  auto *a = static_cast<const uint16_t *>(buffers[0]); // 16 x 16
  auto *b = static_cast<const uint16_t *>(buffers[1]); // 16 x 8
  auto *c = static_cast<const float *>(buffers[2]);    // warps x 16 x 8
  auto *d = static_cast<float *>(buffers[3]);
  unsigned lane = threadOf(t) % 32, warp = threadOf(t) / 32;
  uint16_t aRegisters[8], bRegisters[4];
  float cRegisters[4];
  for (int i = 0; i < 8; ++i) {
    Position at = isaA(kBf16, lane, i);
    aRegisters[i] = a[at.row * 16 + at.column];
  }
  for (int i = 0; i < 4; ++i) {
    Position at = isaB(kBf16, lane, i);
    bRegisters[i] = b[at.row * 8 + at.column];
  }
  for (int i = 0; i < 4; ++i) {
    Position at = isaC(kBf16, lane, i);
    cRegisters[i] = c[warp * 128 + at.row * 8 + at.column];
  }
  // In place: D is written over C.
  __hlo_host_mma_sync(t, kBf16.id, aRegisters, bRegisters, cRegisters, cRegisters);
  for (int i = 0; i < 4; ++i) {
    Position at = isaC(kBf16, lane, i);
    d[warp * 128 + at.row * 8 + at.column] = cRegisters[i];
  }
}

TEST(WarpMatrixOps, KernelsRunMmaSyncPerWarp) {
  Problem problem = makeProblem(kBf16, 7);
  std::vector<uint16_t> a, b;
  for (double x : problem.a)
    a.push_back(static_cast<uint16_t>(encodeFloatBits(x, PrimitiveType::BF16)));
  for (double x : problem.b)
    b.push_back(static_cast<uint16_t>(encodeFloatBits(x, PrimitiveType::BF16)));
  std::vector<float> c(2 * 128), d(2 * 128, -1);
  for (int i = 0; i < 128; ++i) {
    c[i] = static_cast<float>(problem.c[i]);
    c[128 + i] = 1000.0f; // the second warp's accumulator
  }
  HostLauncher launcher(1);
  LaunchResult result = launcher.launch(bf16MmaKernel, spec(64, true),
                                        {a.data(), b.data(), c.data(), d.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  std::vector<double> expected = problem.expected();
  Problem second = problem;
  second.c.assign(128, 1000.0);
  std::vector<double> expectedSecond = second.expected();
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(d[i], expected[i]) << "element " << i;
    EXPECT_EQ(d[128 + i], expectedSecond[i]) << "element " << i << " of the second warp";
  }
}

// ldmatrix: shared memory holds 4 matrices of 8 x 8 b16, matrix m's row r
// stored at row slot 8m + (7 - r) (reversed, so that the addresses
// matter); element (r, c) of matrix m is 1000 m + 10 r + c.
uint32_t ldmatrixCount = 4;
bool ldmatrixTranspose = false;
void ldmatrixKernel(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<uint32_t *>(buffers[0]); // 32 lanes x 4 registers
  auto *shared = static_cast<uint16_t *>(t->sharedMemory);
  unsigned lane = threadOf(t);
  // Lane l fills row slot l.
  unsigned matrix = lane / 8, row = 7 - lane % 8;
  for (int column = 0; column < 8; ++column)
    shared[lane * 8 + column] = static_cast<uint16_t>(1000 * matrix + 10 * row + column);
  __hlo_host_barrier(t);
  // Lane 8m + r gives the address of matrix m's row r.
  unsigned m = lane / 8, r = lane % 8;
  const void *rowAddress = shared + (8 * m + (7 - r)) * 8;
  uint32_t registers[4] = {0, 0, 0, 0};
  __hlo_host_ldmatrix(t, ldmatrixCount, ldmatrixTranspose, rowAddress, registers);
  std::memcpy(out + 4 * lane, registers, sizeof registers);
}

TEST(WarpMatrixOps, LdmatrixGivesEachLaneItsRowPairInEveryWidth) {
  HostLauncher launcher(1);
  for (uint32_t count : {1u, 2u, 4u})
    for (bool transpose : {false, true}) {
      ldmatrixCount = count;
      ldmatrixTranspose = transpose;
      std::vector<uint32_t> out(32 * 4, 0xdeadbeef);
      LaunchResult result =
          launcher.launch(ldmatrixKernel, spec(32, true, 512), {out.data()}, "sm_90");
      ASSERT_TRUE(result.ok()) << result.message;
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned m = 0; m < 4; ++m) {
          uint32_t got = out[4 * lane + m];
          if (m >= count) {
            EXPECT_EQ(got, 0u) << "lane " << lane << " register " << m << " is not written";
            continue;
          }
          // The PTX ISA: lane l holds row l/4, elements 2(l%4) and 2(l%4)+1
          // (of the transpose with .trans).
          unsigned r = lane / 4, c = 2 * (lane % 4);
          auto element = [&](unsigned row, unsigned column) {
            return transpose ? 1000 * m + 10 * column + row : 1000 * m + 10 * row + column;
          };
          uint32_t expected = element(r, c) | element(r, c + 1) << 16;
          EXPECT_EQ(got, expected) << "x" << count << (transpose ? ".trans" : "") << " lane "
                                   << lane << " matrix " << m;
        }
    }
}

// stmatrix, the inverse: lane l gives register m = 1000 m + 10 (l / 4) +
// 2 (l % 4) (low half) and that + 1 (high half), and lane 8m + r the
// address of matrix m's row r at row slot 8m + (7 - r); what lands in
// shared memory is copied out.
uint32_t stmatrixCount = 4;
void stmatrixKernel(void *const *buffers, HloHostThread *t) {
  auto *out = static_cast<uint16_t *>(buffers[0]); // 32 row slots x 8
  auto *shared = static_cast<uint16_t *>(t->sharedMemory);
  unsigned lane = threadOf(t);
  uint32_t registers[4];
  for (unsigned m = 0; m < 4; ++m) {
    uint32_t low = 1000 * m + 10 * (lane / 4) + 2 * (lane % 4);
    registers[m] = low | (low + 1) << 16;
  }
  unsigned m = lane / 8, r = lane % 8;
  __hlo_host_stmatrix(t, stmatrixCount, shared + (8 * m + (7 - r)) * 8, registers);
  std::memcpy(out + 8 * lane, shared + 8 * lane, 16);
}

TEST(WarpMatrixOps, StmatrixPutsEachLanesPairInItsRowInEveryWidth) {
  HostLauncher launcher(1);
  for (uint32_t count : {1u, 2u, 4u}) {
    stmatrixCount = count;
    std::vector<uint16_t> out(32 * 8, 0);
    LaunchResult result =
        launcher.launch(stmatrixKernel, spec(32, true, 512), {out.data()}, "sm_90a");
    ASSERT_TRUE(result.ok()) << result.message;
    for (unsigned slot = 0; slot < 32; ++slot) {
      unsigned m = slot / 8, r = 7 - slot % 8;
      for (unsigned c = 0; c < 8; ++c) {
        if (m >= count)
          continue; // not written (the block's fresh shared memory)
        EXPECT_EQ(out[8 * slot + c], 1000 * m + 10 * r + c)
            << "x" << count << " matrix " << m << " row " << r << " element " << c;
      }
    }
  }
}

// --- Faults ---------------------------------------------------------------

void mmaWithAnExitedLane(void *const *, HloHostThread *t) {
  if (threadOf(t) == 5)
    return;
  uint32_t a[4] = {}, b[2] = {}, c[4] = {};
  __hlo_host_mma_sync(t, HLO_HOST_MMA_M16N8K16_F32_BF16, a, b, c, c);
}

void mmaOfTwoKinds(void *const *, HloHostThread *t) {
  uint32_t a[8] = {}, b[8] = {}, c[4] = {};
  __hlo_host_mma_sync(t, threadOf(t) == 3 ? HLO_HOST_MMA_M16N8K16_F32_F16
                                          : HLO_HOST_MMA_M16N8K16_F32_BF16,
                      a, b, c, c);
}

void ldmatrixOutsideShared(void *const *, HloHostThread *t) {
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  uint32_t registers[4];
  __hlo_host_ldmatrix(t, 4, 0, shared + 16 * threadOf(t) + (threadOf(t) == 31 ? 8 : 0),
                      registers);
}

void stmatrixMisaligned(void *const *, HloHostThread *t) {
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  uint32_t registers[4] = {};
  __hlo_host_stmatrix(t, 4, shared + 16 * threadOf(t) + (threadOf(t) == 9 ? 4 : 0),
                      registers);
}

TEST(WarpMatrixOps, WhatAGpuWouldGetWrongIsAFault) {
  HostLauncher launcher(1);
  LaunchResult exited = launcher.launch(mmaWithAnExitedLane, spec(32, true), {}, "sm_90");
  EXPECT_FALSE(exited.ok());
  EXPECT_NE(exited.message.find("lane 5 of its warp exited without running"), std::string::npos)
      << exited.message;
  LaunchResult partial = launcher.launch(mmaWithAnExitedLane, spec(16, true), {}, "sm_90");
  EXPECT_FALSE(partial.ok());
  EXPECT_NE(partial.message.find("in a warp of fewer than 32 threads"), std::string::npos)
      << partial.message;
  LaunchResult mixed = launcher.launch(mmaOfTwoKinds, spec(32, true), {}, "sm_90");
  EXPECT_FALSE(mixed.ok());
  EXPECT_NE(mixed.message.find("runs another"), std::string::npos) << mixed.message;
  LaunchResult sequential = launcher.launch(mmaWithAnExitedLane, spec(32, false), {}, "sm_90");
  EXPECT_FALSE(sequential.ok());
  EXPECT_NE(sequential.message.find("need not run concurrently"), std::string::npos)
      << sequential.message;
  LaunchResult outside = launcher.launch(ldmatrixOutsideShared, spec(32, true, 512), {}, "sm_90");
  EXPECT_FALSE(outside.ok());
  EXPECT_NE(outside.message.find("ldmatrix with row address 504 bytes"), std::string::npos)
      << outside.message;
  LaunchResult misaligned =
      launcher.launch(stmatrixMisaligned, spec(32, true, 512), {}, "sm_90a");
  EXPECT_FALSE(misaligned.ok());
  EXPECT_NE(misaligned.message.find("stmatrix with row address 148 bytes"), std::string::npos)
      << misaligned.message;
}

} // namespace
