//===- WarpgroupMmaTest.cpp - wgmma on the host ----------------------------===//
//
// The host runtime's warpgroup-collective wgmma (m64nNk16, m64nNk8 for
// TF32, m64nNk32 for 8-bit floats; operands in shared memory, K-major or
// N-major, unswizzled or 32-, 64- or 128-byte swizzled)
// against the PTX ISA: the accumulator layout as the ISA's wgmma D fragment figure
// states it (written out here, independently of the runtime), a plain
// matrix product as the oracle for every kind (TF32's low bits ignored)
// and several widths and core
// matrix strides, through the launcher with two warpgroups, and the
// faults: a partial warpgroup, threads that disagree, an operand outside
// shared memory.
//
//===----------------------------------------------------------------------===//
#include "host/HostLauncher.h"
#include "LauncherTestSpec.h"
#include "host/WarpgroupMma.h"

#include "hlo_parser/FloatFormat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace hlo;
using namespace hlo::runtime;

namespace {

// The ISA's figure for wgmma .m64nNk16 D (f32): warp w of the warpgroup
// holds rows 16w to 16w + 15; in each 8-column block j, lane l holds
// d[4j], d[4j+1] at row 16w + l/4, columns 8j + 2(l%4) and + 1, and
// d[4j+2], d[4j+3] eight rows below.
struct Position {
  int row, column;
};
Position isaD(int thread, int value) {
  int w = thread >> 5, l = thread & 31;
  int block = value >> 2, pair = value & 3;
  return {16 * w + (l >> 2) + (pair >= 2 ? 8 : 0), 8 * block + 2 * (l & 3) + (pair & 1)};
}

TEST(WarpgroupMma, AccumulatorPositionsFollowThePtxFigure) {
  for (int thread = 0; thread < 128; ++thread)
    for (int value = 0; value < 128; ++value) {
      FragmentPosition at = wgmmaAccumulatorPosition(thread, value);
      Position isa = isaD(thread, value);
      EXPECT_EQ(at.row, isa.row) << "thread " << thread << " d" << value;
      EXPECT_EQ(at.column, isa.column) << "thread " << thread << " d" << value;
    }
}

/// An operand of `rows` x 16 in the canonical layout: element (r, k) at
/// r/8 * stride + k/8 * leading + r%8 * 16 + k%8 * 2 bytes.
void place(std::vector<uint8_t> &bytes, size_t start, const std::vector<double> &matrix,
           int rows, uint32_t leading, uint32_t stride, PrimitiveType type) {
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < 16; ++k) {
      auto bits = static_cast<uint16_t>(encodeFloatBits(matrix[r * 16 + k], type));
      size_t at = start + r / 8 * stride + k / 8 * leading + r % 8 * 16 + k % 8 * 2;
      std::memcpy(&bytes[at], &bits, 2);
    }
}

/// Small multiples of 1/8, exact in bf16 and f16.
std::vector<double> values(int count, unsigned seed) {
  std::vector<double> result;
  for (int i = 0; i < count; ++i)
    result.push_back(static_cast<int>(((i + 1) * 2654435761u + seed * 40503u) >> 9) % 25 / 8.0 -
                     1.5);
  return result;
}

struct Layout {
  uint32_t aLeading, aStride, bLeading, bStride;
};

TEST(WarpgroupMma, IsAPlainMatrixProductInTheCanonicalLayout) {
  // Core matrices packed (K neighbours 128 B apart), and spread with pads
  // (K neighbours after all row groups, as a [K/8][rows/8] tile stores
  // them).
  const Layout layouts[] = {{128, 256, 128, 256}, {8 * 144 + 16, 144, 0, 0}};
  for (uint32_t kind : {HLO_HOST_WGMMA_M64K16_F32_BF16, HLO_HOST_WGMMA_M64K16_F32_F16})
    for (uint32_t n : {8u, 24u, 256u})
      for (Layout layout : layouts) {
        if (layout.bStride == 0) { // B spread like A
          layout.bStride = 144;
          layout.bLeading = n / 8 * 144 + 16;
        }
        PrimitiveType type = kind == HLO_HOST_WGMMA_M64K16_F32_BF16 ? PrimitiveType::BF16
                                                                     : PrimitiveType::F16;
        std::vector<double> a = values(64 * 16, kind + 1), b = values(int(n) * 16, n);
        std::vector<uint8_t> shared(65536, 0xee);
        size_t bStart = 32768;
        place(shared, 0, a, 64, layout.aLeading, layout.aStride, type);
        place(shared, bStart, b, int(n), layout.bLeading, layout.bStride, type);
        std::vector<std::vector<float>> d(128, std::vector<float>(n / 2));
        std::array<float *, kThreadsPerWarpgroup> accumulators;
        for (int thread = 0; thread < 128; ++thread) {
          for (uint32_t v = 0; v < n / 2; ++v)
            d[thread][v] = static_cast<float>(thread % 7) - 3.0f;
          accumulators[thread] = d[thread].data();
        }
        WgmmaOperands operands{shared.data(), layout.aLeading, layout.aStride,
                               shared.data() + bStart, layout.bLeading, layout.bStride};
        Status done = warpgroupMma(kind, n, operands, accumulators);
        ASSERT_TRUE(done) << done.error();
        for (int thread = 0; thread < 128; ++thread)
          for (uint32_t v = 0; v < n / 2; ++v) {
            Position at = isaD(thread, int(v));
            double sum = static_cast<float>(thread % 7) - 3.0;
            for (int k = 0; k < 16; ++k)
              sum += a[at.row * 16 + k] * b[at.column * 16 + k];
            EXPECT_EQ(d[thread][v], static_cast<float>(sum))
                << "kind " << kind << " n " << n << " thread " << thread << " d" << v;
          }
      }
  std::array<float *, kThreadsPerWarpgroup> none{};
  EXPECT_FALSE(warpgroupMma(7, 8, {}, none));
  EXPECT_FALSE(warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, 12, {}, none));
}

/// An operand of `rows` x 16 in a swizzled layout, as the PTX ISA's
/// "shared memory matrix layout" figures draw it: rows of `swizzle`
/// bytes, 8-row groups `stride` apart, and in each 128-byte line of the
/// shared address space, 16-byte chunk c holding what would be chunk
/// c XOR (line % (swizzle / 16)).
void placeSwizzled(std::vector<uint8_t> &bytes, size_t start, const std::vector<double> &matrix,
                   int rows, uint32_t stride, uint32_t swizzle, PrimitiveType type) {
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < 16; ++k) {
      auto bits = static_cast<uint16_t>(encodeFloatBits(matrix[r * 16 + k], type));
      size_t linear = start + r / 8 * stride + r % 8 * swizzle + k * 2;
      size_t line = linear / 128, chunk = linear / 16 % 8;
      size_t at = line * 128 + (chunk ^ (line % (swizzle / 16))) * 16 + linear % 16;
      std::memcpy(&bytes[at], &bits, 2);
    }
}

TEST(WarpgroupMma, IsAPlainMatrixProductInSwizzledLayouts) {
  // Each mode, from the start of a swizzle atom and from a later 16
  // columns of K in it (the start advanced by 32 bytes, as a K loop
  // steps its descriptors).
  for (uint32_t swizzle : {32u, 64u, 128u})
    for (uint32_t step = 0; step < swizzle; step += 32) {
      uint32_t stride = 8 * swizzle;
      const uint32_t n = 24;
      std::vector<double> a = values(64 * 16, swizzle + step), b = values(int(n) * 16, step);
      std::vector<uint8_t> shared(65536, 0xee);
      size_t aStart = step, bStart = 32768 + step;
      placeSwizzled(shared, aStart, a, 64, stride, swizzle, PrimitiveType::BF16);
      placeSwizzled(shared, bStart, b, int(n), stride, swizzle, PrimitiveType::BF16);
      std::vector<std::vector<float>> d(128, std::vector<float>(n / 2, 0.5f));
      std::array<float *, kThreadsPerWarpgroup> accumulators;
      for (int thread = 0; thread < 128; ++thread)
        accumulators[thread] = d[thread].data();
      WgmmaOperands operands{shared.data() + aStart, 0, stride, shared.data() + bStart, 0,
                             stride, swizzle, shared.data()};
      Status done = warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, n, operands, accumulators);
      ASSERT_TRUE(done) << done.error();
      for (int thread = 0; thread < 128; ++thread)
        for (uint32_t v = 0; v < n / 2; ++v) {
          Position at = isaD(thread, int(v));
          double sum = 0.5;
          for (int k = 0; k < 16; ++k)
            sum += a[at.row * 16 + k] * b[at.column * 16 + k];
          EXPECT_EQ(d[thread][v], static_cast<float>(sum))
              << "swizzle " << swizzle << " step " << step << " thread " << thread << " d" << v;
        }
    }
  std::array<float *, kThreadsPerWarpgroup> none{};
  WgmmaOperands badMode;
  badMode.swizzle = 48;
  EXPECT_FALSE(warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, 8, badMode, none));
}

/// An MN-major operand of `columns` x 16 (element (column, k) of
/// `matrix`) in the ISA's canonical MN-major layout: atoms of T = swizzle
/// / 2 columns `leading` apart, 8-k groups `stride` apart, k-rows of
/// `swizzle` bytes, then the address swizzle.
void placeMnMajor(std::vector<uint8_t> &bytes, size_t start, const std::vector<double> &matrix,
                  uint32_t columns, uint32_t leading, uint32_t stride, uint32_t swizzle) {
  uint32_t perAtom = swizzle / 2;
  for (uint32_t column = 0; column < columns; ++column)
    for (int k = 0; k < 16; ++k) {
      auto bits =
          static_cast<uint16_t>(encodeFloatBits(matrix[column * 16 + k], PrimitiveType::BF16));
      size_t linear = start + column / perAtom * leading + k / 8 * stride + k % 8 * swizzle +
                      column % perAtom * 2;
      size_t line = linear / 128, chunk = linear / 16 % 8;
      size_t at = line * 128 + (chunk ^ (line % (swizzle / 16))) * 16 + linear % 16;
      std::memcpy(&bytes[at], &bits, 2);
    }
}

TEST(WarpgroupMma, NMajorBIsTheSameProductFromRowsAlongN) {
  // B N-major (imm-trans-b): k-rows of `swizzle` bytes along N, written
  // here from the ISA's canonical MN-major layout -- atoms of T = swizzle
  // / 2 columns `leading` apart, 8-k groups `stride` apart -- and the
  // address swizzle (chunk ^= 128-byte line % (swizzle / 16)), then the
  // same product as B stored K-major.
  for (uint32_t swizzle : {32u, 64u, 128u}) {
    const uint32_t n = 128;
    uint32_t stride = 8 * swizzle, leading = 16 * swizzle; // an atom: 16 k-rows
    std::vector<double> a = values(64 * 16, swizzle + 7), b = values(int(n) * 16, swizzle + 1);
    std::vector<uint8_t> shared(65536, 0xee);
    size_t bStart = 32768;
    placeSwizzled(shared, 0, a, 64, 8 * swizzle, swizzle, PrimitiveType::BF16);
    placeMnMajor(shared, bStart, b, n, leading, stride, swizzle);
    std::vector<std::vector<float>> d(128, std::vector<float>(n / 2, 0.25f));
    std::array<float *, kThreadsPerWarpgroup> accumulators;
    for (int thread = 0; thread < 128; ++thread)
      accumulators[thread] = d[thread].data();
    WgmmaOperands operands{shared.data(), 0,       8 * swizzle, shared.data() + bStart,
                           leading,       stride,  swizzle,     shared.data(),
                           /*bTransposed=*/true};
    Status done = warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, n, operands, accumulators);
    ASSERT_TRUE(done) << done.error();
    for (int thread = 0; thread < 128; ++thread)
      for (uint32_t v = 0; v < n / 2; ++v) {
        Position at = isaD(thread, int(v));
        double sum = 0.25;
        for (int k = 0; k < 16; ++k)
          sum += a[at.row * 16 + k] * b[at.column * 16 + k];
        ASSERT_EQ(d[thread][v], static_cast<float>(sum))
            << "swizzle " << swizzle << " thread " << thread << " d" << v;
      }
    // Not whole atoms of N, or unswizzled: refused.
    operands.swizzle = 0;
    EXPECT_FALSE(warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, n, operands, accumulators));
  }
}

TEST(WarpgroupMma, MMajorAIsTheSameProductFromRowsAlongM) {
  // A M-major (imm-trans-a) and B N-major, as a weight gradient's
  // operands lie: the same product as both stored K-major. An A decoded
  // as if K-major (the flag dropped) gives another.
  for (uint32_t swizzle : {32u, 64u, 128u}) {
    const uint32_t n = 64;
    uint32_t stride = 8 * swizzle, leading = 16 * swizzle;
    std::vector<double> a = values(64 * 16, swizzle + 3), b = values(int(n) * 16, swizzle + 5);
    std::vector<uint8_t> shared(65536, 0xee);
    size_t bStart = 32768;
    placeMnMajor(shared, 0, a, 64, leading, stride, swizzle);
    placeMnMajor(shared, bStart, b, n, leading, stride, swizzle);
    std::vector<std::vector<float>> d(128, std::vector<float>(n / 2, 0.75f));
    std::array<float *, kThreadsPerWarpgroup> accumulators;
    for (int thread = 0; thread < 128; ++thread)
      accumulators[thread] = d[thread].data();
    WgmmaOperands operands{shared.data(), leading, stride,        shared.data() + bStart,
                           leading,       stride,  swizzle,       shared.data(),
                           /*bTransposed=*/true};
    operands.aTransposed = true;
    Status done = warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, n, operands, accumulators);
    ASSERT_TRUE(done) << done.error();
    for (int thread = 0; thread < 128; ++thread)
      for (uint32_t v = 0; v < n / 2; ++v) {
        Position at = isaD(thread, int(v));
        double sum = 0.75;
        for (int k = 0; k < 16; ++k)
          sum += a[at.row * 16 + k] * b[at.column * 16 + k];
        ASSERT_EQ(d[thread][v], static_cast<float>(sum))
            << "swizzle " << swizzle << " thread " << thread << " d" << v;
      }
    std::vector<std::vector<float>> wrong(128, std::vector<float>(n / 2, 0.75f));
    for (int thread = 0; thread < 128; ++thread)
      accumulators[thread] = wrong[thread].data();
    operands.aTransposed = false;
    operands.aLeading = 0;
    ASSERT_TRUE(warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, n, operands, accumulators));
    EXPECT_NE(wrong, d) << "swizzle " << swizzle << ": A's layout flag changes nothing";
    // Unswizzled, or 8-bit: refused.
    operands.aTransposed = true;
    operands.swizzle = 0;
    EXPECT_FALSE(warpgroupMma(HLO_HOST_WGMMA_M64K16_F32_BF16, n, operands, accumulators));
    operands.swizzle = swizzle;
    EXPECT_FALSE(warpgroupMma(HLO_HOST_WGMMA_M64K32_F32_E4M3_E4M3, n, operands, accumulators));
  }
}

TEST(WarpgroupMma, Tf32TakesEightColumnsOfKAndTheTop19Bits) {
  // f32 operands, 8 columns of K (32 bytes a row, as the 16-bit kinds'
  // 16), core matrices of 8 rows x 4 elements; each value carries low
  // bits below TF32's 10-bit mantissa, which the product must ignore.
  const uint32_t n = 16;
  auto valueOf = [](int i, unsigned seed) {
    return static_cast<float>(static_cast<int>((i + 3) * 2654435761u + seed) % 17) / 4.0f - 2.0f;
  };
  auto withNoise = [](float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits |= 0x0abc; // below bit 13
    float noisy;
    std::memcpy(&noisy, &bits, 4);
    return noisy;
  };
  for (uint32_t swizzle : {0u, 64u}) {
    std::vector<uint8_t> shared(65536, 0);
    size_t bStart = 32768;
    uint32_t leading = swizzle ? 16 : 128, stride = swizzle ? 8 * swizzle : 256;
    auto put = [&](size_t start, int rows, unsigned seed, std::vector<double> &matrix) {
      for (int r = 0; r < rows; ++r)
        for (int k = 0; k < 8; ++k) {
          float value = valueOf(r * 8 + k, seed);
          matrix.push_back(value);
          float stored = withNoise(value);
          size_t at;
          if (swizzle == 0) {
            at = start + r / 8 * stride + k / 4 * leading + r % 8 * 16 + k % 4 * 4;
          } else {
            size_t linear = start + r / 8 * stride + r % 8 * swizzle + k * 4;
            size_t line = linear / 128, chunk = linear / 16 % 8;
            at = line * 128 + (chunk ^ (line % (swizzle / 16))) * 16 + linear % 16;
          }
          std::memcpy(&shared[at], &stored, 4);
        }
    };
    std::vector<double> a, b;
    put(0, 64, 5, a);
    put(bStart, int(n), 9, b);
    std::vector<std::vector<float>> d(128, std::vector<float>(n / 2, 1.0f));
    std::array<float *, kThreadsPerWarpgroup> accumulators;
    for (int thread = 0; thread < 128; ++thread)
      accumulators[thread] = d[thread].data();
    WgmmaOperands operands{shared.data(), leading, stride, shared.data() + bStart, leading,
                           stride, swizzle, shared.data()};
    Status done = warpgroupMma(HLO_HOST_WGMMA_M64K8_F32_TF32, n, operands, accumulators);
    ASSERT_TRUE(done) << done.error();
    for (int thread = 0; thread < 128; ++thread)
      for (uint32_t v = 0; v < n / 2; ++v) {
        Position at = isaD(thread, int(v));
        double sum = 1.0;
        for (int k = 0; k < 8; ++k)
          sum += a[at.row * 8 + k] * b[at.column * 8 + k];
        EXPECT_EQ(d[thread][v], static_cast<float>(sum))
            << "swizzle " << swizzle << " thread " << thread << " d" << v;
      }
  }
}

TEST(WarpgroupMma, Float8TakesThirtyTwoColumnsOfKInEachOperandsFormat) {
  // 8-bit floats, 32 columns of K (32 bytes a row), in 128-byte swizzled
  // rows and in core matrices of 8 rows x 16 elements; each kind decodes A
  // and B in its own format (a mixed kind read as the other format would
  // differ: e5m2's byte 0x3c is 1.0, e4m3fn's 1.5). Values are multiples
  // of 1/4 up to 1.5, exact in both.
  const uint32_t n = 16;
  constexpr PrimitiveType e4m3 = PrimitiveType::F8E4M3FN, e5m2 = PrimitiveType::F8E5M2;
  struct Kind {
    uint32_t kind;
    PrimitiveType a, b;
  };
  const Kind kinds[] = {{HLO_HOST_WGMMA_M64K32_F32_E4M3_E4M3, e4m3, e4m3},
                        {HLO_HOST_WGMMA_M64K32_F32_E4M3_E5M2, e4m3, e5m2},
                        {HLO_HOST_WGMMA_M64K32_F32_E5M2_E4M3, e5m2, e4m3},
                        {HLO_HOST_WGMMA_M64K32_F32_E5M2_E5M2, e5m2, e5m2}};
  for (const Kind &kind : kinds)
    for (uint32_t swizzle : {0u, 128u}) {
      std::vector<uint8_t> shared(65536, 0);
      size_t bStart = 32768;
      uint32_t leading = swizzle ? 16 : 128, stride = swizzle ? 8 * swizzle : 512;
      auto put = [&](size_t start, int rows, unsigned seed, PrimitiveType type,
                     std::vector<double> &matrix) {
        for (int r = 0; r < rows; ++r)
          for (int k = 0; k < 32; ++k) {
            double value =
                static_cast<int>(((r * 32 + k + 1) * 2654435761u + seed) >> 7) % 13 / 4.0 - 1.5;
            matrix.push_back(value);
            auto bits = static_cast<uint8_t>(encodeFloatBits(value, type));
            size_t at;
            if (swizzle == 0) {
              at = start + r / 8 * stride + k / 16 * leading + r % 8 * 16 + k % 16;
            } else {
              size_t linear = start + r / 8 * stride + r % 8 * swizzle + k;
              size_t line = linear / 128, chunk = linear / 16 % 8;
              at = line * 128 + (chunk ^ (line % (swizzle / 16))) * 16 + linear % 16;
            }
            shared[at] = bits;
          }
      };
      std::vector<double> a, b;
      put(0, 64, kind.kind * 31, kind.a, a);
      put(bStart, int(n), 7, kind.b, b);
      std::vector<std::vector<float>> d(128, std::vector<float>(n / 2, -2.0f));
      std::array<float *, kThreadsPerWarpgroup> accumulators;
      for (int thread = 0; thread < 128; ++thread)
        accumulators[thread] = d[thread].data();
      WgmmaOperands operands{shared.data(), leading, stride, shared.data() + bStart, leading,
                             stride, swizzle, shared.data()};
      Status done = warpgroupMma(kind.kind, n, operands, accumulators);
      ASSERT_TRUE(done) << done.error();
      for (int thread = 0; thread < 128; ++thread)
        for (uint32_t v = 0; v < n / 2; ++v) {
          Position at = isaD(thread, int(v));
          double sum = -2.0;
          for (int k = 0; k < 32; ++k)
            sum += a[at.row * 32 + k] * b[at.column * 32 + k];
          EXPECT_EQ(d[thread][v], static_cast<float>(sum))
              << "kind " << kind.kind << " swizzle " << swizzle << " thread " << thread << " d"
              << v;
        }
      // No N-major B for 8-bit floats (imm-trans-b is 16-bit only).
      operands.bTransposed = true;
      EXPECT_FALSE(warpgroupMma(kind.kind, n, operands, accumulators));
    }
}

// --- Through the launcher ---------------------------------------------------


unsigned threadOf(const HloHostThread *t) { return t->threadId[0]; }

// Two warpgroups multiply the same A (64 x 16) and B (16 x 16, as N x K)
// from shared memory, packed; warpgroup g starts from accumulators g.
void wgmmaKernel(void *const *buffers, HloHostThread *t) {
  auto *operands = static_cast<const uint8_t *>(buffers[0]); // A then B, canonical bytes
  auto *out = static_cast<float *>(buffers[1]);             // 256 threads x 8
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  unsigned thread = threadOf(t);
  for (unsigned i = thread; i < 64 * 32 + 16 * 32; i += 256)
    shared[i] = operands[i];
  __hlo_host_barrier(t);
  float d[8];
  for (float &x : d)
    x = static_cast<float>(thread / 128);
  __hlo_host_wgmma(t, HLO_HOST_WGMMA_M64K16_F32_BF16, 16, 0, shared, 128, 256, shared + 64 * 32,
                   128, 256, d);
  std::memcpy(out + 8 * thread, d, sizeof d);
}

TEST(WarpgroupMma, KernelsRunItPerWarpgroup) {
  std::vector<double> a = values(64 * 16, 3), b = values(16 * 16, 4);
  std::vector<uint8_t> operands(64 * 32 + 16 * 32);
  place(operands, 0, a, 64, 128, 256, PrimitiveType::BF16);
  place(operands, 64 * 32, b, 16, 128, 256, PrimitiveType::BF16);
  std::vector<float> out(256 * 8, -1);
  HostLauncher launcher(1);
  LaunchResult result =
      launcher.launch(wgmmaKernel, concurrentBlockSpec(256, 4096), {operands.data(), out.data()}, "sm_90");
  ASSERT_TRUE(result.ok()) << result.message;
  for (unsigned thread = 0; thread < 256; ++thread)
    for (int v = 0; v < 8; ++v) {
      Position at = isaD(int(thread % 128), v);
      double sum = thread / 128;
      for (int k = 0; k < 16; ++k)
        sum += a[at.row * 16 + k] * b[at.column * 16 + k];
      EXPECT_EQ(out[8 * thread + v], static_cast<float>(sum)) << "thread " << thread;
    }
}

void wgmmaDisagreeing(void *const *, HloHostThread *t) {
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  float d[4] = {};
  uint32_t stride = threadOf(t) == 70 ? 512 : 256;
  __hlo_host_wgmma(t, HLO_HOST_WGMMA_M64K16_F32_BF16, 8, 0, shared, 128, stride, shared + 2048, 128,
                   256, d);
}

void wgmmaOutsideShared(void *const *, HloHostThread *t) {
  auto *shared = static_cast<uint8_t *>(t->sharedMemory);
  float d[4] = {};
  __hlo_host_wgmma(t, HLO_HOST_WGMMA_M64K16_F32_BF16, 8, 0, shared, 128, 256, shared + 3968, 128,
                   256, d);
}

TEST(WarpgroupMma, WhatAGpuWouldGetWrongIsAFault) {
  HostLauncher launcher(1);
  LaunchResult partial = launcher.launch(wgmmaDisagreeing, concurrentBlockSpec(64, 4096), {}, "sm_90");
  EXPECT_FALSE(partial.ok());
  EXPECT_NE(partial.message.find("in a warpgroup of fewer than 128 threads"), std::string::npos)
      << partial.message;
  LaunchResult disagreeing = launcher.launch(wgmmaDisagreeing, concurrentBlockSpec(128, 4096), {}, "sm_90");
  EXPECT_FALSE(disagreeing.ok());
  EXPECT_NE(disagreeing.message.find("of its warpgroup runs another"), std::string::npos)
      << disagreeing.message;
  LaunchResult outside = launcher.launch(wgmmaOutsideShared, concurrentBlockSpec(128, 4096), {}, "sm_90");
  EXPECT_FALSE(outside.ok());
  EXPECT_NE(outside.message.find("inside its 4096 bytes of shared memory"), std::string::npos)
      << outside.message;
}

} // namespace
