//===- GemmCostModel.cpp - A GEMM kernel's time, estimated ----------------===//
#include "abi/GemmCostModel.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace hlo::abi {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// 1 GB/s moves 1000 bytes a microsecond.
double microsecondsToMove(double bytes, double gigabytesPerSecond) {
  return bytes / (gigabytesPerSecond * 1e3);
}

/// The fraction of the tensor cores' peak a block's mainloop keeps busy.
double mainloopEfficiency(const GemmTuning &t, const GemmDeviceFigures &device) {
  bool wgmma = device.wgmma && t.warps % 4 == 0 && t.blockM % 64 == 0;
  if (!wgmma) {
    // mma.sync: fragments through ldmatrix, a warp's tile at a time;
    // small tiles reuse each fragment less.
    double reuse = std::min(1.0, std::sqrt(double(t.blockM * t.blockN) / (64.0 * 64.0)));
    return device.mmaSyncFraction * (0.5 + 0.3 * reuse);
  }
  int64_t groupsM = t.blockM / 64, groups = t.warps / 4;
  int64_t groupsN = std::max<int64_t>(1, groups / std::max<int64_t>(groupsM, 1));
  int64_t width = t.blockN / groupsN;
  // A warpgroup's m64nN: the wider N, the more each A tile is reused
  // (the figures make 128 x 256 on two warpgroups about cuBLAS's 80% of
  // peak at 4096^3).
  double efficiency = width >= 256 ? 0.88 : width >= 128 ? 0.80 : width >= 64 ? 0.65 : 0.5;
  if (groups < 2)
    efficiency *= 0.85; // one warpgroup waits for its own products
  if (!t.warpSpecialized)
    efficiency *= 0.92; // loads issued between products
  return efficiency;
}

} // namespace

GemmDeviceFigures gemmDeviceFigures(std::string_view arch) {
  GemmDeviceFigures figures;
  std::string_view digits = arch.substr(std::min<size_t>(3, arch.size()));
  bool specific = !digits.empty() && digits.back() == 'a';
  if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f'))
    digits.remove_suffix(1);
  int capability = 90;
  std::from_chars(digits.data(), digits.data() + digits.size(), capability);
  figures.wgmma = capability == 90 && specific;
  if (capability >= 100) { // B200
    figures.multiprocessors = 148;
    figures.tensorTflops16 = 2250;
    figures.memoryGBs = 8000;
    figures.l2GBs = 20000;
  } else if (capability >= 90) { // H100 SXM
    figures.multiprocessors = 132;
  } else if (capability >= 89) { // L40S
    figures.multiprocessors = 142;
    figures.tensorTflops16 = 362;
    figures.mmaSyncFraction = 1.0;
    figures.memoryGBs = 864;
    figures.l2GBs = 3000;
    figures.sharedMemoryPerSm = 100 * 1024;
  } else { // A100 (and older parts, as if one)
    figures.multiprocessors = 108;
    figures.tensorTflops16 = 312;
    figures.mmaSyncFraction = 1.0;
    figures.memoryGBs = 2039;
    figures.l2GBs = 5000;
    figures.sharedMemoryPerSm = 164 * 1024;
  }
  return figures;
}

GemmCost estimateGemmCost(const GemmProblem &problem, const GemmTuning &tuning,
                          const GemmDeviceFigures &device, int64_t splits) {
  GemmCost cost;
  const GemmTuning &t = tuning;
  splits = std::max<int64_t>(1, splits);
  int64_t slice = ceilDiv(problem.k, splits);
  int64_t stageBytes = (t.blockM + t.blockN) * t.blockK * problem.inputBytes;
  // Blocks an SM holds at once: one for the persistent and the large
  // tiles (their register bound), else as shared memory allows, at most 4
  // -- and no more than there are blocks for each SM.
  // (A cluster pairs tile rows: counted up to a whole number of pairs.)
  int64_t cluster = std::max<int64_t>(1, t.cluster);
  int64_t tileRows = ceilDiv(ceilDiv(problem.m, t.blockM), cluster) * cluster;
  int64_t tiles = problem.batch * tileRows * ceilDiv(problem.n, t.blockN) * splits;
  int64_t resident = t.persistent || t.blockM * t.blockN >= 128 * 128
                         ? 1
                         : std::clamp<int64_t>(device.sharedMemoryPerSm /
                                                   std::max<int64_t>(1, t.stages * stageBytes),
                                               1, 4);
  resident = std::min(resident, ceilDiv(tiles, device.multiprocessors));
  double typeFactor = problem.inputBytes == 1 ? 2.0 : problem.tf32 ? 0.5 : 1.0;
  double flopsPerMicrosecond = device.tensorTflops16 * 1e6 * typeFactor /
                               double(device.multiprocessors) *
                               mainloopEfficiency(t, device) / double(resident);
  double compute = 2.0 * t.blockM * t.blockN * slice / flopsPerMicrosecond;
  // Operands: the SM's share of L2, or what the stages keep in flight
  // over the latency, whichever is less.
  double blockGBs = std::min(device.l2GBs / double(device.multiprocessors) / double(resident),
                             double(t.stages * stageBytes) / (device.latencyMicroseconds * 1e3));
  // In a cluster, a block reads its share of B from L2 (the multicast
  // brings the rest).
  double load = microsecondsToMove(
      double((t.blockM + double(t.blockN) / double(cluster)) * slice * problem.inputBytes),
      blockGBs);
  // The epilogue's stores (persistent: half of it beside the next tile's
  // loads); a non-persistent block first fills its pipeline.
  double storeGBs = device.memoryGBs / double(device.multiprocessors) / double(resident);
  int64_t outputBytes = splits > 1 ? 4 : problem.outputBytes;
  double epilogue =
      microsecondsToMove(double(t.blockM * t.blockN * outputBytes), storeGBs) *
      (t.persistent ? 0.5 : 1.0);
  double fill = t.persistent ? 0.0 : device.latencyMicroseconds;
  cost.tileMicroseconds = std::max(compute, load) + epilogue + fill;
  cost.rounds = ceilDiv(tiles, device.multiprocessors * resident);
  double blocks = double(cost.rounds) * cost.tileMicroseconds;
  // Every operand byte from DRAM once, and the results.
  double bytes = double(problem.batch) *
                 (double(problem.m * problem.k + problem.k * problem.n) * problem.inputBytes +
                  double(problem.m * problem.n) * outputBytes * splits);
  cost.dramMicroseconds = microsecondsToMove(bytes, device.memoryGBs);
  cost.microseconds = std::max(blocks, cost.dramMicroseconds) + device.launchMicroseconds;
  if (splits > 1) {
    double partials = double(problem.batch * problem.m * problem.n) *
                      (4.0 * splits + problem.outputBytes);
    cost.reductionMicroseconds =
        device.launchMicroseconds + microsecondsToMove(partials, device.memoryGBs);
    cost.microseconds += cost.reductionMicroseconds;
  }
  return cost;
}

} // namespace hlo::abi
