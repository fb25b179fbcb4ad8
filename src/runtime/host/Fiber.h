//===- Fiber.h - Cooperative threads for a block's GPU threads -*- C++ -*-===//
//
// Owns the execution contexts the host launcher runs a block's GPU threads
// on when they must run concurrently (barriers, warp shuffles): each GPU
// thread gets its own stack and runs until it blocks, then switches back to
// the block's scheduler. A switch saves and restores only what the calling
// convention says a callee keeps (a few registers and the stack pointer),
// in a dozen instructions on x86-64; other architectures use ucontext. No
// preemption, no OS threads: a block runs on one host thread.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_FIBER_H
#define HLO_RUNTIME_HOST_FIBER_H

#include <cstddef>
#include <memory>

namespace hlo::runtime {

/// A suspended execution: where to resume.
struct FiberContext {
  void *state = nullptr; // x86-64: the saved stack pointer; else a ucontext_t
};

/// A fiber's stack, with an inaccessible guard page below it. Memory is
/// reserved, not committed: untouched pages cost nothing.
class FiberStack {
public:
  explicit FiberStack(size_t bytes);
  ~FiberStack();
  FiberStack(const FiberStack &) = delete;
  FiberStack &operator=(const FiberStack &) = delete;
  char *top() const { return base + size; }
  char *bottom() const { return base; }
  bool valid() const { return base != nullptr; }

private:
  char *mapping = nullptr;
  char *base = nullptr;
  size_t size = 0, mappedSize = 0;
};

/// Prepares `context` to run `entry(argument)` on `stack` when first
/// switched to. `entry` must never return: it switches away for good.
void makeFiber(FiberContext &context, FiberStack &stack, void (*entry)(void *),
               void *argument);

/// Saves the running context in `from` and resumes `to`.
void switchFiber(FiberContext &from, FiberContext &to);

/// Releases what makeFiber allocated for `context` (ucontext only).
void destroyFiber(FiberContext &context);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_FIBER_H
