//===- Manifest.cpp - The launch manifest from the emitters' records -----===//
#include "Manifest.h"
#include "BufferBindings.h"
#include "BufferPlan.h"
#include "ModuleProgram.h"

#include "analysis/OperandBufferSharing.h"

#include "abi/HostKernelAbi.h"

#include <algorithm>

namespace hlo::driver {

std::string checkLaunchRecords(const std::vector<KernelLaunchRecord> &records,
                               const std::vector<pipeline::CompiledKernel> &kernels) {
  // The manifest's grid and block are 32-bit, as cuLaunchKernel's are.
  for (const KernelLaunchRecord &record : records)
    for (int i = 0; i < 3; ++i)
      for (int64_t extent : {record.launch.blocks[i], record.launch.threads[i]})
        if (extent < 1 || extent > int64_t(UINT32_MAX))
          return "internal error: kernel '" + record.name + "': a launch extent of " +
                 std::to_string(extent) + " in dimension " + std::to_string(i) +
                 " does not fit cuLaunchKernel's 32 bits";
  std::vector<bool> found(records.size(), false);
  for (const pipeline::CompiledKernel &compiled : kernels) {
    int64_t index = compiled.kernelIndex;
    if (index < 0 || index >= static_cast<int64_t>(records.size()))
      continue;
    const KernelLaunchRecord &record = records[index];
    found[index] = true;
    std::string kernel = "internal error: kernel '" + record.name + "': ";
    if (compiled.symbol != record.name)
      return kernel + "lowered as '" + compiled.symbol + "'";
    if (llvm::ArrayRef(compiled.block) != llvm::ArrayRef(record.launch.threads) ||
        llvm::ArrayRef(compiled.grid) != llvm::ArrayRef(record.launch.blocks))
      return kernel + "the emitter's launch and the kernel's attributes differ";
    if (compiled.cluster != record.launch.cluster ||
        compiled.dynamicSharedBytes != record.launch.dynamicSharedMemoryBytes ||
        compiled.maxRegisters != record.launch.maxRegisters)
      return kernel + "the emitter's cluster, dynamic shared memory or register bound and "
                      "the kernel's attributes differ";
    if (compiled.staticSharedBytes != record.sharedMemoryBytes)
      return kernel + "the emitter allocates " + std::to_string(record.sharedMemoryBytes) +
             " bytes of shared memory, the code " + std::to_string(compiled.staticSharedBytes);
    if (compiled.concurrentThreads && !record.synchronizesThreads)
      return kernel + "the code synchronizes threads, which the emitter did not declare";
  }
  for (size_t i = 0; i < records.size(); ++i)
    if (!found[i] && !(records[i].sharesCodeOf >= 0 && found[records[i].sharesCodeOf]))
      return "internal error: kernel '" + records[i].name + "' is missing from the code";
  return "";
}

abi::LaunchManifest buildManifest(const HloModule &module, const KernelPlan &plan,
                                  const EmittedModule &emitted,
                                  const std::vector<pipeline::CompiledKernel> &compiled,
                                  const std::string &gpuArch, const std::string &target,
                                  const std::string &codeFile) {
  const std::vector<KernelLaunchRecord> &records = emitted.launches;
  // The compiled kernel of each launch record (checkLaunchRecords found
  // one for each, or for the record whose code it shares).
  std::vector<const pipeline::CompiledKernel *> codeOf(records.size(), nullptr);
  for (const pipeline::CompiledKernel &kernel : compiled)
    if (kernel.kernelIndex >= 0 && kernel.kernelIndex < static_cast<int64_t>(records.size()))
      codeOf[kernel.kernelIndex] = &kernel;
  for (size_t i = 0; i < records.size(); ++i)
    if (!codeOf[i] && records[i].sharesCodeOf >= 0)
      codeOf[i] = codeOf[records[i].sharesCodeOf];
  BufferAssignment buffers(module, plan);
  abi::LaunchManifest manifest;
  manifest.module = module.name();
  manifest.gpuArch = gpuArch;
  manifest.target = target;
  manifest.hostAbiVersion = target == "host" ? HLO_HOST_ABI_VERSION : 0;
  // The code file, relative to the manifest; none when it went to stdout.
  manifest.codeFile = codeFile;
  for (const KernelLaunchRecord &record : records) {
    const KernelSource &kernel = plan.kernels().at(static_cast<size_t>(record.planKernel));
    abi::KernelSpec spec;
    spec.name = record.name;
    spec.launchIndex = record.launchIndex;
    spec.launchCount = record.launchCount;
    // The HLO the kernel computes: a fusion or wrapped instruction by name,
    // or "" for a bare entry computation (the kernel is the whole entry).
    bool bareEntry = kernel.computation == module.entry();
    spec.hloInstruction = bareEntry ? "" : kernel.origin->name();
    spec.hloComputation = bareEntry ? "" : kernel.origin->parent()->name();
    spec.emitter = record.emitter;
    // The launch and shared memory are the code's: checkLaunchRecords,
    // which passed before the manifest is built, found code for every
    // record (its own or the one it shares) agreeing with the emitter's.
    const pipeline::CompiledKernel &code = *codeOf[&record - records.data()];
    for (int i = 0; i < 3; ++i) {
      spec.grid[i] = static_cast<unsigned>(code.grid[i]);
      spec.block[i] = static_cast<unsigned>(code.block[i]);
    }
    spec.sharedMemoryBytes = static_cast<unsigned>(code.staticSharedBytes);
    spec.dynamicSharedMemoryBytes = static_cast<unsigned>(code.dynamicSharedBytes);
    if (code.cluster)
      spec.cluster = {static_cast<unsigned>((*code.cluster)[0]),
                      static_cast<unsigned>((*code.cluster)[1]),
                      static_cast<unsigned>((*code.cluster)[2])};
    spec.maxRegisters = static_cast<unsigned>(code.maxRegisters);
    spec.concurrentThreads = record.synchronizesThreads;
    spec.gemm = record.gemm;
    const HloComputation &fused = *kernel.computation;
    // Inputs: the fusion's operands (a bare entry: the module parameters;
    // a wrapped instruction: its distinct operands).
    std::vector<const HloInstruction *> operands;
    if (bareEntry)
      operands.assign(fused.parameters().begin(), fused.parameters().end());
    else if (kernel.fusion)
      operands.assign(kernel.fusion->operands().begin(), kernel.fusion->operands().end());
    else // a wrapped instruction: one parameter per distinct operand
      for (const HloInstruction *operand : kernel.origin->operands())
        if (std::find(operands.begin(), operands.end(), operand) == operands.end())
          operands.push_back(operand);
    for (int64_t i = 0; i < fused.parameterCount(); ++i) {
      abi::KernelParameter input = bufferParameter(false, fused.parameter(i)->shape());
      for (const TensorMapParameter &map : record.tensorMaps)
        if (map.parameter == i)
          input.tensorMap = abi::TensorMapSpec{map.box, map.swizzleBytes};
      bindSlot(input, buffers.operandSlot(
                          i < static_cast<int64_t>(operands.size()) ? operands[i] : nullptr));
      spec.parameters.push_back(input);
    }
    std::vector<const Shape *> leaves;
    arrayLeaves(fused.resultShape(), leaves);
    const HloInstruction *origin = bareEntry ? module.entry()->root() : kernel.origin;
    for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      abi::KernelParameter output = bufferParameter(true, *leaves[leaf]);
      // (An output a kernel writes by TMA stores: the kernel parameter
      // after the inputs.)
      for (const TensorMapParameter &map : record.tensorMaps)
        if (map.parameter == fused.parameterCount() + static_cast<int64_t>(leaf))
          output.tensorMap = abi::TensorMapSpec{map.box, map.swizzleBytes};
      bindSlot(output, buffers.resultSlot(origin, leaf, leaves.size()));
      if (leaf < record.outputAliases.size())
        output.aliases = record.outputAliases[leaf];
      // An elementwise loop kernel may write over a dead operand, and a
      // reduction kernel's side output (the emitter says which).
      if (leaves.size() == 1 && output.aliases < 0 && record.tensorMaps.empty() &&
          record.emitter == "kLoop/LoopFusion" && !bareEntry)
        output.mayReuse = elementwiseSharableParameter(fused);
      if (leaf < record.outputMayReuse.size() && output.aliases < 0 && !bareEntry)
        output.mayReuse = record.outputMayReuse[leaf];
      spec.parameters.push_back(output);
    }
    for (size_t i = 0; i < record.scratchBuffers.size(); ++i) {
      abi::KernelParameter scratch = bufferParameter(true, record.scratchBuffers[i]);
      scratch.binding = abi::BufferBinding::Scratch;
      scratch.bufferName = abi::BufferId::scratchOf(origin->name(), i).str();
      spec.parameters.push_back(scratch);
    }
    manifest.kernels.push_back(std::move(spec));
  }
  // What runs between the kernels that hlo-compile does not generate.
  for (const HloInstruction *instruction : plan.notEmitted())
    manifest.notEmitted.emplace_back(instruction->name(),
                                     std::string(opcodeName(instruction->opcode())));
  // --keep-going: what did not compile, with the first line of its error.
  for (const FailedKernel &failure : emitted.failed) {
    std::string error = formatDiagnostic(module.source().get(), failure.offset,
                                         Severity::Error, failure.message);
    manifest.failed.emplace_back(failure.instruction->name(),
                                 error.substr(0, error.find('\n')));
  }
  describeProgram(module, plan, buffers, records, manifest);
  planModuleBuffers(manifest);
  return manifest;
}

} // namespace hlo::driver
