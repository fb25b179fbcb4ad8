//===- Ptxas.h - PTX to cubin with the CUDA toolkit -------------*- C++ -*-===//
#ifndef HLO_PIPELINE_NVPTX_PTXAS_H
#define HLO_PIPELINE_NVPTX_PTXAS_H

#include "pipeline/Pipeline.h"

namespace hlo::pipeline {

/// Assembles PTX into a cubin with the toolkit's ptxas (-O3, the options'
/// architecture); nullopt with `error` (ptxas's diagnostics) on failure.
std::optional<std::string> runPtxas(const std::string &ptx,
                                    const PipelineOptions &options,
                                    std::string &error);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_NVPTX_PTXAS_H
