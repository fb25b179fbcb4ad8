//===- KernelCrashHandler.h - A crash inside a kernel, reported -*- C++ -*-===//
//
// Owns what happens when host-compiled kernel code crashes the process (a
// wild access the bounds checks did not cover, e.g. with
// --no-bounds-checks, or a GPU thread overflowing its fiber stack): a
// signal handler on an alternate stack names the kernel and the signal and
// exits with the mismatch code, instead of a bare segmentation fault.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_KERNELCRASHHANDLER_H
#define HLO_RUNTIME_HOST_KERNELCRASHHANDLER_H

#include <string>

namespace hlo::runtime {

/// While alive, a crash on this host thread is reported as a crash of
/// kernel `name`.
class KernelCrashScope {
public:
  explicit KernelCrashScope(const std::string &name);
  ~KernelCrashScope();
  KernelCrashScope(const KernelCrashScope &) = delete;
  KernelCrashScope &operator=(const KernelCrashScope &) = delete;

private:
  const char *previous;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_KERNELCRASHHANDLER_H
