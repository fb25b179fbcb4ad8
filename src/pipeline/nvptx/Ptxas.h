//===- Ptxas.h - PTX to cubin with the CUDA toolkit -------------*- C++ -*-===//
//
// Owns running the toolkit's ptxas on our PTX: the cubin, ptxas's
// diagnostics, and (-v) what each kernel uses.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_NVPTX_PTXAS_H
#define HLO_PIPELINE_NVPTX_PTXAS_H

#include "pipeline/Pipeline.h"

namespace hlo::pipeline {

/// Assembles PTX into a cubin with the toolkit's ptxas (-O3, the options'
/// architecture), or an error with ptxas's diagnostics. With `usage`,
/// ptxas also reports (-v) each kernel's resources.
llvm::Expected<std::string> runPtxas(const std::string &ptx, const PipelineOptions &options,
                                     std::vector<KernelResourceUsage> *usage = nullptr);

/// The per-kernel figures of `ptxas -v` output.
std::vector<KernelResourceUsage> parsePtxasVerbose(const std::string &log);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_NVPTX_PTXAS_H
