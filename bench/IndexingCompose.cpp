//===- IndexingCompose.cpp - Fusion indexing benchmark --------------------===//
//
// bench-indexing [--repeat N]: composes and simplifies the output-to-input
// maps of a 20-op fusion of reshapes, transposes, broadcasts, a reduce and
// elementwise ops, N times (default 200), and prints the median time per
// analysis in microseconds. The issue's goal: under 1 ms.
//
//===----------------------------------------------------------------------===//
#include "analysis/FusionIndexing.h"
#include "hlo_parser/Parser.h"

#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static const char *kFusion = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
fused {
  p0 = f32[32,64,128] parameter(0)
  p1 = f32[128,2048] parameter(1)
  t0 = f32[128,32,64] transpose(p0), dimensions={2,0,1}
  r0 = f32[128,2048] reshape(t0)
  e0 = f32[128,2048] exponential(r0)
  a0 = f32[128,2048] add(e0, p1)
  r1 = f32[128,32,64] reshape(a0)
  t1 = f32[64,128,32] transpose(r1), dimensions={2,0,1}
  r2 = f32[64,4096] reshape(t1)
  n0 = f32[64,4096] negate(r2)
  t2 = f32[4096,64] transpose(n0), dimensions={1,0}
  r3 = f32[16,256,64] reshape(t2)
  z = f32[] constant(0)
  s0 = f32[16,64] reduce(r3, z), dimensions={1}, to_apply=add
  b0 = f32[16,256,64] broadcast(s0), dimensions={0,2}
  d0 = f32[16,256,64] divide(r3, b0)
  r4 = f32[4096,64] reshape(d0)
  t3 = f32[64,4096] transpose(r4), dimensions={1,0}
  r5 = f32[64,128,32] reshape(t3)
  t4 = f32[128,32,64] transpose(r5), dimensions={1,2,0}
  ROOT l = f32[128,32,64] log(t4)
}
)";

int main(int argc, char **argv) {
  int repeat = 200;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--repeat")
      repeat = std::max(1, std::atoi(argv[i + 1]));
  auto [module, errors] = hlo::parseHloModuleText(kFusion, "bench.hlo");
  if (!module) {
    std::fprintf(stderr, "%s", errors.c_str());
    return 1;
  }
  const hlo::HloComputation &fused = *module->entry();
  mlir::MLIRContext context;
  std::vector<double> times;
  size_t maps = 0;
  for (int r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    llvm::Expected<hlo::IndexingMapSets> computed =
        hlo::computeFusionOutputToInputIndexing(fused, 0, &context);
    if (!computed) {
      std::fprintf(stderr, "%s\n", llvm::toString(computed.takeError()).c_str());
      return 1;
    }
    const hlo::IndexingMapSets &sets = *computed;
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    maps = sets[0].size() + sets[1].size();
    if (r == 0)
      for (const auto &set : sets)
        for (const auto &map : set)
          std::printf("%s\n", map.toString().c_str());
  }
  std::sort(times.begin(), times.end());
  std::printf("20-op fusion (%d instructions), %zu parameter maps: median "
              "%.1f us, min %.1f us over %d runs\n",
              static_cast<int>(fused.instructionCount()), maps,
              times[times.size() / 2], times.front(), repeat);
  return 0;
}
