//===- Manifest.cpp - The launch manifest (JSON) --------------------------===//
#include "Manifest.h"

#include "dialect/XlaGpuDialect.h"
#include "partitioner/ComputationPartitioner.h"
#include "partitioner/KernelPlan.h"

#include "abi/HostKernelAbi.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <fmt/core.h>

#include <algorithm>

namespace hlo::driver {
namespace {

std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string triple(const std::array<int64_t, 3> &values) {
  return fmt::format("[{}, {}, {}]", values[0], values[1], values[2]);
}

/// Array leaves of a (possibly nested tuple) shape, in order.
void arrayLeaves(const Shape &shape, std::vector<const Shape *> &leaves) {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      arrayLeaves(element, leaves);
    return;
  }
  leaves.push_back(&shape);
}

std::string intList(const std::vector<int64_t> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text;
}

/// One kernel parameter: direction ("in"/"out"), binding, logical shape,
/// element type, layout (minor-to-major: the buffer holds the elements in
/// this physical order), bytes and alignment.
std::string parameterJson(const char *direction, const std::string &binding,
                          const Shape &shape) {
  int64_t bytes = shape.elementCount() * primitiveByteWidth(shape.elementType());
  return fmt::format("        {{\"direction\": \"{}\", {}, \"shape\": [{}], "
                     "\"element_type\": \"{}\", \"layout\": [{}], "
                     "\"bytes\": {}, \"alignment\": 16}}",
                     direction, binding, intList(shape.dimensions()),
                     primitiveTypeName(shape.elementType()),
                     intList(shape.layoutOrDefault().minorToMajor), bytes);
}

/// What a kernel's input binds to: a module parameter or another kernel's
/// (or instruction's) result buffer.
std::string inputBinding(const HloInstruction *operand) {
  if (operand && operand->opcode() == HloOpcode::Parameter &&
      operand->parent() == operand->parent()->parent()->entry())
    return fmt::format("\"binds\": \"parameter\", \"parameter\": {}",
                       operand->parameterNumber());
  return fmt::format("\"binds\": \"buffer\", \"buffer\": {}",
                     quoted(operand ? operand->name() : std::string("?")));
}

/// What output leaf `leaf` of the kernel rooted at `origin` binds to.
std::string outputBinding(const HloModule &module, const HloInstruction *origin,
                          size_t leaf, size_t leafCount) {
  const HloInstruction *root = module.entry()->root();
  if (origin == root)
    return fmt::format("\"binds\": \"output\", \"output\": {}", leaf);
  if (root->opcode() == HloOpcode::Tuple && leafCount == 1)
    for (int64_t i = 0; i < root->operandCount(); ++i)
      if (root->operand(i) == origin)
        return fmt::format("\"binds\": \"output\", \"output\": {}", i);
  std::string name = origin->name();
  if (leafCount > 1)
    name += "#" + std::to_string(leaf);
  return fmt::format("\"binds\": \"buffer\", \"buffer\": {}", quoted(name));
}

} // namespace

std::map<int64_t, KernelLaunch> collectLaunches(mlir::ModuleOp emitted) {
  std::map<int64_t, KernelLaunch> launches;
  for (auto function : emitted.getOps<mlir::LLVM::LLVMFuncOp>()) {
    auto block = function->getAttrOfType<mlir::DenseI64ArrayAttr>(xla_gpu::kBlockSizeAttr);
    auto grid = function->getAttrOfType<mlir::DenseI64ArrayAttr>(xla_gpu::kGridSizeAttr);
    auto index = function->getAttrOfType<mlir::IntegerAttr>(xla_gpu::kKernelIndexAttr);
    if (!block || !grid || !index || block.size() != 3 || grid.size() != 3)
      continue;
    KernelLaunch launch;
    launch.name = function.getSymName().str();
    for (int i = 0; i < 3; ++i) {
      launch.block[i] = block[i];
      launch.grid[i] = grid[i];
    }
    if (auto emitter = function->getAttrOfType<mlir::StringAttr>(xla_gpu::kEmitterAttr))
      launch.emitter = emitter.str();
    if (auto bytes =
            function->getAttrOfType<mlir::IntegerAttr>(pipeline::kSharedMemoryBytesAttr))
      launch.sharedMemoryBytes = bytes.getInt();
    launch.concurrentThreads = function->hasAttr(pipeline::kConcurrentThreadsAttr);
    launches[index.getInt()] = launch;
  }
  return launches;
}

std::string writeManifest(const HloModule &module,
                          const std::map<int64_t, KernelLaunch> &launches,
                          const std::string &gpuArch, const std::string &target,
                          const std::string &codeFile) {
  KernelPlan plan(module);
  bool host = target == "host";
  std::string json = "{\n";
  json += fmt::format("  \"module\": {},\n  \"gpu_arch\": {},\n  \"target\": {},\n",
                      quoted(module.name()), quoted(gpuArch), quoted(target));
  if (host)
    json += fmt::format("  \"host_abi_version\": {},\n", HLO_HOST_ABI_VERSION);
  // The code file, relative to the manifest; none when it went to stdout.
  if (!codeFile.empty())
    json += fmt::format("  \"code\": {},\n", quoted(codeFile));
  json += "  \"kernels\": [";
  bool firstKernel = true;
  for (size_t k = 0; k < plan.kernels().size(); ++k) {
    const KernelSource &kernel = plan.kernels()[k];
    auto launch = launches.find(static_cast<int64_t>(k));
    if (launch == launches.end())
      continue;
    const std::string &name = launch->second.name;
    json += firstKernel ? "\n" : ",\n";
    firstKernel = false;
    // The HLO the kernel computes: a fusion or wrapped instruction by name,
    // or "" for a bare entry computation (the kernel is the whole entry).
    std::string hloInstruction =
        kernel.computation == module.entry() ? "" : kernel.origin->name();
    json += fmt::format("    {{\n      \"name\": {},\n      \"hlo_instruction\": {},\n"
                        "      \"emitter\": {},\n"
                        "      \"grid\": {},\n      \"block\": {},\n"
                        "      \"shared_memory_bytes\": {},\n",
                        quoted(name), quoted(hloInstruction), quoted(launch->second.emitter),
                        triple(launch->second.grid), triple(launch->second.block),
                        launch->second.sharedMemoryBytes);
    // The host launcher runs a block's threads one after another unless
    // they must run concurrently.
    if (host)
      json += fmt::format("      \"concurrent_threads\": {},\n",
                          launch->second.concurrentThreads ? "true" : "false");
    json += "      \"parameters\": [\n";
    std::vector<std::string> parameters;
    const HloComputation &fused = *kernel.computation;
    // Inputs: the fusion's operands (a bare entry: the module parameters;
    // a wrapped instruction: its distinct operands).
    bool bareEntry = kernel.computation == module.entry();
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
      const HloInstruction *operand =
          i < static_cast<int64_t>(operands.size()) ? operands[i] : nullptr;
      parameters.push_back(parameterJson("in", inputBinding(operand),
                                         fused.parameter(i)->shape()));
    }
    std::vector<const Shape *> leaves;
    arrayLeaves(fused.resultShape(), leaves);
    const HloInstruction *origin = bareEntry ? module.entry()->root() : kernel.origin;
    for (size_t leaf = 0; leaf < leaves.size(); ++leaf)
      parameters.push_back(parameterJson(
          "out", outputBinding(module, origin, leaf, leaves.size()), *leaves[leaf]));
    for (size_t i = 0; i < parameters.size(); ++i)
      json += parameters[i] + (i + 1 < parameters.size() ? ",\n" : "\n");
    json += "      ]\n    }";
  }
  json += "\n  ],\n";
  // What runs between the kernels that hlo-compile does not generate.
  json += "  \"not_emitted\": [";
  for (size_t i = 0; i < plan.notEmitted().size(); ++i) {
    const HloInstruction *instruction = plan.notEmitted()[i];
    json += fmt::format("{}\n    {{\"name\": {}, \"opcode\": {}}}", i ? "," : "",
                        quoted(instruction->name()),
                        quoted(std::string(opcodeName(instruction->opcode()))));
  }
  json += plan.notEmitted().empty() ? "]\n}\n" : "\n  ]\n}\n";
  return json;
}

} // namespace hlo::driver
