//===- SharedObjectLinker.h - An object file into a shared object -*- C++ -*-===//
//
// Owns turning the host target's object file into the shared object that
// hlo-run loads, with the system linker (binutils' `ld`, found on PATH or
// named by HLO_LD): no LLVM linker is part of our dependencies. The shared
// object may leave symbols undefined: the runtime interface
// (abi/HostKernelAbi.h), libm and the compiler runtime, which the loading
// process provides.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_HOST_SHAREDOBJECTLINKER_H
#define HLO_PIPELINE_HOST_SHAREDOBJECTLINKER_H

#include "pipeline/Pipeline.h"

#include <string>

namespace hlo::pipeline {

/// The bytes of a shared object linked from `object`, or an error with the
/// linker's diagnostics.
llvm::Expected<std::string> linkSharedObject(const std::string &object);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_HOST_SHAREDOBJECTLINKER_H
