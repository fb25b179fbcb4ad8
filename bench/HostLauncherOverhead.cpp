//===- HostLauncherOverhead.cpp - What the CPU launcher's machinery costs -===//
//
// Prints, median of several runs on this machine:
//  - one fiber switch there and back: ours (Fiber.h) against glibc's
//    swapcontext, which Fiber.h would otherwise use (it also saves and
//    restores the signal mask with a system call);
//  - a trivial kernel's cost per GPU thread run one after another (no
//    barrier machinery) and on fibers;
//  - one barrier of a 1024-thread block.
// Usage: bench-host-launcher [ITERATIONS]
//
//===----------------------------------------------------------------------===//
#include "host/Fiber.h"
#include "host/HostLauncher.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ucontext.h>
#include <vector>

using namespace hlo::runtime;
using Clock = std::chrono::steady_clock;

namespace {

template <typename Work> double medianSeconds(Work work, int repeats = 7) {
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    auto start = Clock::now();
    work();
    times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Our fibers: a fiber that switches back to its caller forever.
FiberContext mainContext, pingContext;
void ping(void *) {
  while (true)
    switchFiber(pingContext, mainContext);
}

// glibc's ucontext, the same round trip.
ucontext_t mainUcontext, pingUcontext;
void pingUcontextEntry() {
  while (true)
    swapcontext(&pingUcontext, &mainUcontext);
}

void nothing(void *const *, HloHostThread *) {}

int barriersPerThread = 0;
void barriers(void *const *, HloHostThread *t) {
  for (int i = 0; i < barriersPerThread; ++i)
    __hlo_host_barrier(t);
}

KernelSpec spec(unsigned blocks, unsigned threads, bool concurrent) {
  KernelSpec kernel;
  kernel.name = "bench";
  kernel.grid = {blocks, 1, 1};
  kernel.block = {threads, 1, 1};
  kernel.concurrentThreads = concurrent;
  return kernel;
}

} // namespace

int main(int argc, char **argv) {
  long iterations = argc > 1 ? std::atol(argv[1]) : 2000000;

  FiberStack stack(64 * 1024);
  makeFiber(pingContext, stack, ping, nullptr);
  double ours = medianSeconds([&] {
    for (long i = 0; i < iterations; ++i)
      switchFiber(mainContext, pingContext);
  });
  std::vector<char> ucontextStack(64 * 1024);
  getcontext(&pingUcontext);
  pingUcontext.uc_stack.ss_sp = ucontextStack.data();
  pingUcontext.uc_stack.ss_size = ucontextStack.size();
  makecontext(&pingUcontext, pingUcontextEntry, 0);
  double glibc = medianSeconds([&] {
    for (long i = 0; i < iterations; ++i)
      swapcontext(&mainUcontext, &pingUcontext);
  });
  std::printf("fiber round trip (switch there and back): ours %.1f ns, glibc swapcontext "
              "%.1f ns\n",
              ours / iterations * 1e9, glibc / iterations * 1e9);

  HostLauncher launcher(1);
  const unsigned blocks = 4096, threads = 256;
  double threadCount = double(blocks) * threads;
  for (bool concurrent : {false, true}) {
    double seconds = medianSeconds(
        [&] { launcher.launch(nothing, spec(blocks, threads, concurrent), {}, "sm_90"); });
    std::printf("empty kernel, %u x %u threads, one host thread, %s: %.1f ns per GPU thread\n",
                blocks, threads, concurrent ? "on fibers" : "one after another",
                seconds / threadCount * 1e9);
  }
  barriersPerThread = 100;
  double seconds = medianSeconds(
      [&] { launcher.launch(barriers, spec(16, 1024, true), {}, "sm_90"); }, 3);
  std::printf("__syncthreads of a 1024-thread block: %.1f us per barrier (%.1f ns per "
              "thread)\n",
              seconds / (16.0 * barriersPerThread) * 1e6,
              seconds / (16.0 * barriersPerThread * 1024) * 1e9);
  return 0;
}
