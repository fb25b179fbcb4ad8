//===- Manifest.cpp - The launch manifest from the emitters' records -----===//
#include "Manifest.h"
#include "ModuleProgram.h"

#include "dialect/XlaGpuDialect.h"

#include "abi/HostKernelAbi.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <algorithm>

namespace hlo::driver {
namespace {

/// Array leaves of a (possibly nested tuple) shape, in order.
void arrayLeaves(const Shape &shape, std::vector<const Shape *> &leaves) {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      arrayLeaves(element, leaves);
    return;
  }
  leaves.push_back(&shape);
}

abi::KernelParameter parameter(bool isOutput, const Shape &shape) {
  abi::KernelParameter result;
  result.isOutput = isOutput;
  result.shape = shape;
  result.shape.setLayout(shape.layoutOrDefault());
  result.bytes = shape.elementCount() * primitiveByteWidth(shape.elementType());
  return result;
}

/// The instruction whose buffer `value` is: bitcasts only reinterpret
/// their operand's bytes (XLA gives them no buffer of their own).
const HloInstruction *bufferOwner(const HloInstruction *value) {
  while (value && value->opcode() == HloOpcode::Bitcast)
    value = value->operand(0);
  return value;
}

/// The entry output `value` is (its root, or an array element of its root
/// tuple, seen through bitcasts), or -1.
int64_t entryOutputOf(const HloInstruction *value) {
  const HloInstruction *root = value->parent()->root();
  if (bufferOwner(root) == value && value->shape().isArray())
    return 0;
  for (int64_t i = 0; root->opcode() == HloOpcode::Tuple && i < root->operandCount(); ++i)
    if (bufferOwner(root->operand(i)) == value && root->operand(i)->shape().isArray())
      return i;
  return -1;
}

/// What a kernel's input binds to: a module parameter, a module output an
/// earlier kernel wrote (the entry's root, or an array element of its
/// tuple), or another kernel's (or instruction's) result buffer; bitcasts
/// bind to their operand's buffer, a get-tuple-element of a kernel's tuple
/// to that kernel's output.
void bindInput(abi::KernelParameter &parameter, const HloInstruction *operand) {
  operand = bufferOwner(operand);
  const HloComputation *entry = operand ? operand->parent()->parent()->entry() : nullptr;
  if (operand && operand->opcode() == HloOpcode::Parameter && operand->parent() == entry) {
    parameter.binding = abi::BufferBinding::Parameter;
    parameter.number = operand->parameterNumber();
    return;
  }
  if (operand && operand->parent() == entry) {
    if (int64_t output = entryOutputOf(operand); output >= 0) {
      parameter.binding = abi::BufferBinding::Output;
      parameter.number = output;
      return;
    }
  }
  parameter.binding = abi::BufferBinding::Buffer;
  parameter.bufferName = operand ? operand->name() : std::string("?");
  // An element of a kernel's tuple result: that kernel's output buffer.
  if (!operand || operand->opcode() != HloOpcode::GetTupleElement)
    return;
  const HloInstruction *tuple = operand->operand(0);
  if (tuple->opcode() == HloOpcode::Fusion && tuple->shape().isTuple() &&
      tuple->shape().tupleShapes().size() > 1 && operand->shape().isArray())
    parameter.bufferName = tuple->name() + "#" + std::to_string(operand->intAttr("index"));
}

/// What output leaf `leaf` of the kernel rooted at `origin` binds to.
void bindOutput(abi::KernelParameter &parameter, const HloModule &module,
                const HloInstruction *origin, size_t leaf, size_t leafCount) {
  const HloInstruction *root = module.entry()->root();
  if (origin == bufferOwner(root)) {
    parameter.binding = abi::BufferBinding::Output;
    parameter.number = static_cast<int64_t>(leaf);
    return;
  }
  // A tuple root of the kernel's result, or of get-tuple-elements of its
  // leaves (a sort's or multi-output fusion's results put in the entry's
  // tuple).
  if (root->opcode() == HloOpcode::Tuple)
    for (int64_t i = 0; i < root->operandCount(); ++i) {
      const HloInstruction *operand = bufferOwner(root->operand(i));
      bool whole = operand == origin && leafCount == 1;
      bool element = operand->opcode() == HloOpcode::GetTupleElement &&
                     operand->operand(0) == origin &&
                     operand->intAttr("index") == static_cast<int64_t>(leaf) &&
                     operand->shape().isArray();
      if (whole || element) {
        parameter.binding = abi::BufferBinding::Output;
        parameter.number = i;
        return;
      }
    }
  parameter.binding = abi::BufferBinding::Buffer;
  parameter.bufferName = origin->name();
  if (leafCount > 1)
    parameter.bufferName += "#" + std::to_string(leaf);
}

} // namespace

std::string checkLaunchRecords(const std::vector<KernelLaunchRecord> &records,
                               mlir::ModuleOp lowered) {
  std::vector<bool> found(records.size(), false);
  for (auto function : lowered.getOps<mlir::LLVM::LLVMFuncOp>()) {
    auto index = function->getAttrOfType<mlir::IntegerAttr>(xla_gpu::kKernelIndexAttr);
    if (!index || index.getInt() < 0 ||
        index.getInt() >= static_cast<int64_t>(records.size()))
      continue;
    const KernelLaunchRecord &record = records[index.getInt()];
    found[index.getInt()] = true;
    std::string kernel = "internal error: kernel '" + record.name + "': ";
    if (function.getSymName() != record.name)
      return kernel + "lowered as '" + function.getSymName().str() + "'";
    auto block = function->getAttrOfType<mlir::DenseI64ArrayAttr>(xla_gpu::kBlockSizeAttr);
    auto grid = function->getAttrOfType<mlir::DenseI64ArrayAttr>(xla_gpu::kGridSizeAttr);
    if (!block || !grid || block.asArrayRef() != llvm::ArrayRef(record.launch.threads) ||
        grid.asArrayRef() != llvm::ArrayRef(record.launch.blocks))
      return kernel + "the emitter's launch and the kernel's attributes differ";
    int64_t shared = 0;
    if (auto bytes = function->getAttrOfType<mlir::IntegerAttr>(pipeline::kSharedMemoryBytesAttr))
      shared = bytes.getInt();
    if (shared != record.sharedMemoryBytes)
      return kernel + "the emitter allocates " + std::to_string(record.sharedMemoryBytes) +
             " bytes of shared memory, the code " + std::to_string(shared);
    bool concurrent = function->hasAttr(pipeline::kConcurrentThreadsAttr);
    if (concurrent && !record.synchronizesThreads)
      return kernel + "the code synchronizes threads, which the emitter did not declare";
  }
  for (size_t i = 0; i < records.size(); ++i)
    if (!found[i] && !(records[i].sharesCodeOf >= 0 && found[records[i].sharesCodeOf]))
      return "internal error: kernel '" + records[i].name + "' is missing from the code";
  return "";
}

abi::LaunchManifest buildManifest(const HloModule &module, const KernelPlan &plan,
                                  const EmittedModule &emitted, const std::string &gpuArch,
                                  const std::string &target, const std::string &codeFile) {
  const std::vector<KernelLaunchRecord> &records = emitted.launches;
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
    for (int i = 0; i < 3; ++i) {
      spec.grid[i] = static_cast<unsigned>(record.launch.blocks[i]);
      spec.block[i] = static_cast<unsigned>(record.launch.threads[i]);
    }
    spec.sharedMemoryBytes = static_cast<unsigned>(record.sharedMemoryBytes);
    spec.concurrentThreads = record.synchronizesThreads;
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
      abi::KernelParameter input = parameter(false, fused.parameter(i)->shape());
      bindInput(input, i < static_cast<int64_t>(operands.size()) ? operands[i] : nullptr);
      spec.parameters.push_back(input);
    }
    std::vector<const Shape *> leaves;
    arrayLeaves(fused.resultShape(), leaves);
    const HloInstruction *origin = bareEntry ? module.entry()->root() : kernel.origin;
    for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
      abi::KernelParameter output = parameter(true, *leaves[leaf]);
      bindOutput(output, module, origin, leaf, leaves.size());
      if (leaf < record.outputAliases.size())
        output.aliases = record.outputAliases[leaf];
      spec.parameters.push_back(output);
    }
    for (size_t i = 0; i < record.scratchBuffers.size(); ++i) {
      abi::KernelParameter scratch = parameter(true, record.scratchBuffers[i]);
      scratch.binding = abi::BufferBinding::Scratch;
      scratch.bufferName = origin->name() + "#scratch" + std::to_string(i);
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
  describeProgram(module, plan, records, manifest);
  return manifest;
}

} // namespace hlo::driver
