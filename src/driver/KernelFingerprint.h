//===- KernelFingerprint.h - What a kernel's code depends on ----*- C++ -*-===//
//
// Owns the key of a kernel in the kernel cache (KernelCache.h): a 128-bit
// hash of the kernel's emitted MLIR (its function and every function and
// global it reaches, printed without the module's names: the kernel is
// `@K`, what it reaches `@S<N>` in the order it first reaches it, and
// without its place in the module, `xla_gpu.kernel_index`) and of a salt
// naming all else its code depends on (the compiler's build, the
// architecture, PTX version, optimization level, libdevice; KernelCodegen).
// Equal fusions of two modules, or of one module edited elsewhere, get one
// key whatever their instructions are called.
//
// Each kernel is then compiled under a name made from its key
// (`k<16 hex digits>`, KernelPtx.h cuts the PTX by it) and given its own
// name back when the PTX is joined.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_KERNELFINGERPRINT_H
#define HLO_DRIVER_KERNELFINGERPRINT_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace hlo::driver {

struct FingerprintedKernel {
  /// The launch (xla_gpu.kernel_index) whose function this is.
  int64_t launch = -1;
  /// The function's name as emitted: the kernel's name in the output.
  std::string name;
  /// 32 hex digits.
  std::string key;
  /// The name the function is compiled under.
  std::string symbol;
  /// An earlier kernel of the module with the same key (an index into the
  /// result), whose code this one shares: its function is erased.
  int64_t sameAs = -1;
};

/// The kernel functions of `module`, in module order, with their keys
/// under `salt`; each is renamed to its `symbol`, and a kernel equal to an
/// earlier one erased.
std::vector<FingerprintedKernel> fingerprintKernels(mlir::ModuleOp module,
                                                    llvm::StringRef salt);

} // namespace hlo::driver

#endif // HLO_DRIVER_KERNELFINGERPRINT_H
