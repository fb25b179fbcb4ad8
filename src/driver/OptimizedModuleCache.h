//===- OptimizedModuleCache.h - The HLO pipeline's result kept --*- C++ -*-===//
//
// Owns keeping what the HLO pipeline (src/hlo_opt) made of an unoptimized
// input in the kernel cache (KernelCache.h), so that compiling the same
// input again skips the pipeline. The key hashes the input's text, the
// options the pipeline reads (--hlo-opt, --hlo-pass, the architecture,
// --gemm-tiles) and this build of hlo-compile. The entry is the optimized
// module's text and each instruction's place in the input, which the
// module read back from the text takes again: diagnostics after the
// pipeline point into the input as they do without the cache.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_DRIVER_OPTIMIZEDMODULECACHE_H
#define HLO_DRIVER_OPTIMIZEDMODULECACHE_H

#include "Options.h"

#include "hlo_parser/HloModule.h"

#include <memory>
#include <string>

namespace hlo::driver {

/// The key of `input`'s optimized module under `options`.
std::string optimizedModuleKey(std::string_view input, const Options &options);

/// The entry for `module`, optimized.
std::string packOptimizedModule(const HloModule &module);

/// The module an entry holds, its instructions placed in `input`; null if
/// the entry does not read back.
std::unique_ptr<HloModule> unpackOptimizedModule(std::string_view entry,
                                                 std::shared_ptr<const SourceFile> input);

} // namespace hlo::driver

#endif // HLO_DRIVER_OPTIMIZEDMODULECACHE_H
