//===- NvptxArchitectures.h - What the NVPTX target can write --*- C++ -*-===//
//
// The GPU architectures and PTX ISA versions the NVPTX target (LLVM's
// NVPTX back end and the toolkit's ptxas) can write: the driver checks
// --gpu-arch and --ptx-version against them. NvptxTarget.cpp answers.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_NVPTX_NVPTXARCHITECTURES_H
#define HLO_PIPELINE_NVPTX_NVPTXARCHITECTURES_H

#include "pipeline/Pipeline.h"

#include <string>
#include <vector>

namespace hlo::pipeline {

/// The GPU architectures hlo-compile compiles for: those LLVM's NVPTX target
/// knows, from sm_75 on, in order ("sm_75", ..., "sm_90a", ...).
std::vector<std::string> nvptxArchitectures();
/// The PTX ISA versions LLVM's NVPTX target writes ("3.2" ... "9.0").
std::vector<std::string> ptxVersions();
/// The oldest PTX ISA that has `arch` ("7.8" for sm_90); empty if unknown.
std::string minimumPtxVersion(const std::string &arch);
/// The architectures the toolkit's ptxas at `cudaPath` takes (from
/// `ptxas --help`); empty when there is no ptxas there.
std::vector<std::string> ptxasArchitectures(const std::string &cudaPath);

/// The PTX ISA version to emit: the newest that both LLVM 22 (9.0) and the
/// toolkit's ptxas (from `ptxas --version`) accept, e.g. "ptx87".
std::string ptxFeatureFor(const PipelineOptions &options);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_NVPTX_NVPTXARCHITECTURES_H
