//===- ModuleBuffers.cpp - A whole-module run's buffers and host steps ----===//
#include "ModuleBuffers.h"
#include "ReferenceCases.h"

#include "interpreter/Ops.h"

#include "hlo_parser/HloComputation.h"

#include <cstring>

namespace hlo::runtime {

/// Whether `status` succeeded; if not, its message in `error`.
static bool succeeded(const Status &status, std::string &error) {
  if (!status)
    error = status.error();
  return status.ok();
}

/// Whether `allocation` succeeded, its buffer in `buffer`; if not, its
/// message in `error`.
static bool allocated(const Expected<DeviceBuffer> &allocation, DeviceBuffer &buffer,
                      std::string &error) {
  if (allocation)
    buffer = *allocation;
  return succeeded(allocation.status(), error);
}

std::string ModuleBuffers::keyOf(const KernelParameter &parameter) {
  switch (parameter.binding) {
  case BufferBinding::Parameter:
    return "p" + std::to_string(parameter.number);
  case BufferBinding::Output:
    return "o" + std::to_string(parameter.number);
  case BufferBinding::Scratch:
    return "s:" + parameter.bufferName;
  case BufferBinding::Buffer:
    break;
  }
  return "b:" + parameter.bufferName;
}

bool ModuleBuffers::get(const KernelParameter &parameter, DeviceBuffer &buffer,
                        std::string &error, const DeviceBuffer *aliasOf) {
  std::string key = keyOf(parameter);
  if (auto found = buffers.find(key); found != buffers.end()) {
    // A later binding of the buffer may not read or write past its end.
    if (auto size = bufferBytes.find(key);
        size != bufferBytes.end() && parameter.bytes > size->second) {
      error = "buffer '" + key + "' is " + std::to_string(size->second) +
              " bytes; the manifest binds it as " + std::to_string(parameter.bytes) +
              " elsewhere (" + parameter.shape.toString(true) + ")";
      return false;
    }
    buffer = found->second;
    return true;
  }
  if (aliasOf) {
    buffer = buffers[key] = *aliasOf;
    return true;
  }
  if (!allocated(device.allocate(static_cast<size_t>(parameter.bytes)), buffer, error))
    return false;
  buffers[key] = buffer;
  bufferBytes[key] = parameter.bytes;
  const HloComputation *entry = module.entry();
  if (parameter.binding == BufferBinding::Parameter) {
    // In the entry's layout: the reader may view it through a bitcast.
    const Shape &shape = entry->parameter(parameter.number)->shape();
    return succeeded(device.upload(buffer, toBufferBytes(*inputs.at(parameter.number), shape)), error);
  }
  if (parameter.binding == BufferBinding::Buffer)
    if (const HloInstruction *constant = moduleConstant(module, parameter.bufferName))
      return succeeded(
          device.upload(buffer, toBufferBytes(constant->literal(), constant->shape())), error);
  return succeeded(device.fill(buffer, static_cast<size_t>(parameter.bytes), 0xff), error);
}

DeviceBuffer ModuleBuffers::output(int64_t number) const {
  auto found = buffers.find("o" + std::to_string(number));
  return found == buffers.end() ? 0 : found->second;
}

bool ModuleBuffers::copy(const ProgramStep &step, std::string &error) {
  if (step.arguments.size() != 1 || step.results.size() != 1) {
    error = "copy '" + step.instruction + "': the manifest does not bind its buffers " +
            "(recompile with this hlo-compile)";
    return false;
  }
  DeviceBuffer source = 0, destination = 0;
  std::vector<uint8_t> bytes(static_cast<size_t>(step.results[0].bytes));
  return get(step.arguments[0], source, error) && get(step.results[0], destination, error) &&
         succeeded(device.download(source, bytes), error) && succeeded(device.upload(destination, bytes), error);
}

bool ModuleBuffers::runLibraryCall(const ProgramStep &step, interp::Evaluator &evaluator,
                                   std::string &where, std::string &error) {
  std::vector<DeviceBuffer> argumentBuffers, resultBuffers;
  for (const KernelParameter &argument : step.arguments)
    if (!get(argument, argumentBuffers.emplace_back(), error))
      return false;
  for (const KernelParameter &result : step.results)
    if (!get(result, resultBuffers.emplace_back(), error))
      return false;
  auto [outcome, message] = device.runLibraryStep(step, argumentBuffers, resultBuffers);
  switch (outcome) {
  case Device::LibraryOutcome::Ran:
    where = message;
    return true;
  case Device::LibraryOutcome::Failed:
    error = "library call '" + step.instruction + "': " + message;
    return false;
  case Device::LibraryOutcome::NotHere:
    where = "run by the interpreter on the host" + (message.empty() ? "" : " (" + message + ")");
    break;
  }
  // Checked before the run by libraryStepBlocker (moduleModeBlocker).
  const HloInstruction *instruction =
      findInstruction(module, step.computation, step.instruction);
  if (!instruction) {
    error = "library call '" + step.instruction + "': no such instruction";
    return false;
  }
  std::vector<interp::ValuePtr> operands;
  for (const KernelParameter &argument : step.arguments) {
    DeviceBuffer buffer = 0;
    std::vector<uint8_t> bytes(static_cast<size_t>(argument.bytes));
    if (!get(argument, buffer, error) || !succeeded(device.download(buffer, bytes), error))
      return false;
    operands.push_back(
        std::make_shared<const Literal>(fromBufferBytes(bytes.data(), argument.shape)));
  }
  std::vector<Literal> leaves;
  try {
    leaves = arrayLeaves(*evaluator.evaluateInstruction(*instruction, operands));
  } catch (const interp::InterpreterError &failure) {
    error = interp::formatInterpreterError(module, failure);
    return false;
  }
  if (leaves.size() != step.results.size()) {
    error = "library call '" + step.instruction + "' computes " +
            std::to_string(leaves.size()) + " arrays, the manifest binds " +
            std::to_string(step.results.size());
    return false;
  }
  for (size_t i = 0; i < leaves.size(); ++i) {
    DeviceBuffer buffer = 0;
    if (!get(step.results[i], buffer, error) ||
        !succeeded(device.upload(buffer, toBufferBytes(leaves[i], step.results[i].shape)), error))
      return false;
  }
  return true;
}

bool ModuleBuffers::copyBuffer(DeviceBuffer source, DeviceBuffer destination, int64_t bytes,
                               std::string &error) {
  if (source == destination)
    return true;
  std::vector<uint8_t> data(static_cast<size_t>(bytes));
  return succeeded(device.download(source, data), error) && succeeded(device.upload(destination, data), error);
}

bool ModuleBuffers::allocateLoopState(const ProgramStep &step, std::string &error) {
  const HloComputation *condition =
      step.computations.size() == 2 ? module.findComputation(step.computations[0]) : nullptr;
  const HloComputation *body =
      step.computations.size() == 2 ? module.findComputation(step.computations[1]) : nullptr;
  if (!condition || !body || step.arguments.empty() ||
      step.arguments.size() != step.results.size() ||
      step.arguments.size() != step.bodyResults.size()) {
    error = "while '" + step.instruction + "': the manifest does not bind its state";
    return false;
  }
  std::vector<DeviceBuffer> &state = loopStates[&step];
  for (size_t i = 0; i < step.arguments.size(); ++i) {
    DeviceBuffer buffer = 0;
    if (!allocated(device.allocate(static_cast<size_t>(step.arguments[i].bytes)), buffer, error))
      return false;
    state.push_back(buffer);
    for (const HloComputation *reader : {condition, body})
      buffers["b:" + leafBufferName(reader->parameter(0)->name(), i, step.arguments.size())] =
          buffer;
    buffers.emplace(keyOf(step.results[i]), buffer);
  }
  return true;
}

bool ModuleBuffers::copyLoopState(const ProgramStep &step, bool intoState,
                                  std::string &error) {
  const std::vector<DeviceBuffer> &state = loopStates.at(&step);
  const std::vector<KernelParameter> &bindings = intoState ? step.arguments : step.results;
  for (size_t i = 0; i < state.size(); ++i) {
    DeviceBuffer other = 0;
    if (!get(bindings[i], other, error) ||
        !copyBuffer(intoState ? other : state[i], intoState ? state[i] : other,
                    bindings[i].bytes, error))
      return false;
  }
  return true;
}

bool ModuleBuffers::advanceLoop(const ProgramStep &step, std::string &error) {
  const std::vector<DeviceBuffer> &state = loopStates.at(&step);
  std::vector<std::vector<uint8_t>> next(state.size());
  for (size_t i = 0; i < state.size(); ++i) {
    DeviceBuffer result = 0;
    if (!get(step.bodyResults[i], result, error))
      return false;
    if (result == state[i])
      continue; // an element the body passes through
    next[i].resize(static_cast<size_t>(step.bodyResults[i].bytes));
    if (!succeeded(device.download(result, next[i]), error))
      return false;
  }
  for (size_t i = 0; i < state.size(); ++i)
    if (!next[i].empty() && !succeeded(device.upload(state[i], next[i]), error))
      return false;
  return true;
}

bool ModuleBuffers::readPredicate(const KernelParameter &parameter, bool &value,
                                  std::string &error) {
  DeviceBuffer buffer = 0;
  std::vector<uint8_t> byte(1);
  if (!get(parameter, buffer, error) || !succeeded(device.download(buffer, byte), error))
    return false;
  value = byte[0] != 0;
  return true;
}

bool ModuleBuffers::allocateBranchParameters(const ProgramStep &step, std::string &error) {
  if (step.arguments.size() != 1 || step.branchArguments.size() != step.computations.size() ||
      step.branchResults.size() != step.computations.size()) {
    error = "conditional '" + step.instruction + "': the manifest does not bind its buffers";
    return false;
  }
  for (size_t b = 0; b < step.computations.size(); ++b) {
    const HloComputation *branch = module.findComputation(step.computations[b]);
    if (!branch || branch->parameterCount() != 1) {
      error = "conditional '" + step.instruction + "': no branch computation '" +
              step.computations[b] + "' of one parameter";
      return false;
    }
    const std::vector<KernelParameter> &leaves = step.branchArguments[b];
    std::vector<DeviceBuffer> &parameter = branchParameters[&step].emplace_back();
    for (size_t i = 0; i < leaves.size(); ++i) {
      DeviceBuffer buffer = 0;
      if (!allocated(device.allocate(static_cast<size_t>(leaves[i].bytes)), buffer, error))
        return false;
      parameter.push_back(buffer);
      buffers["b:" + leafBufferName(branch->parameter(0)->name(), i, leaves.size())] = buffer;
    }
  }
  return true;
}

bool ModuleBuffers::readBranchIndex(const ProgramStep &step, size_t &branch,
                                    std::string &error) {
  const KernelParameter &index = step.arguments.at(0);
  if (index.shape.elementType() == PrimitiveType::Pred) {
    bool value = false;
    if (!readPredicate(index, value, error))
      return false;
    branch = value ? 0 : 1;
    return true;
  }
  DeviceBuffer buffer = 0;
  std::vector<uint8_t> bytes(static_cast<size_t>(index.bytes));
  if (!get(index, buffer, error) || !succeeded(device.download(buffer, bytes), error))
    return false;
  size_t branches = step.computations.size();
  if (index.shape.elementType() != PrimitiveType::S32 || bytes.size() != 4) {
    error = "conditional '" + step.instruction + "': its branch index is neither pred[] nor s32[]";
    return false;
  }
  int32_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof value);
  branch = value >= 0 && static_cast<size_t>(value) < branches ? static_cast<size_t>(value)
                                                                 : branches - 1;
  return true;
}

bool ModuleBuffers::copyBranchValues(const ProgramStep &step, size_t branch, bool intoBranch,
                                     std::string &error) {
  const std::vector<KernelParameter> &from =
      intoBranch ? step.branchArguments.at(branch) : step.branchResults.at(branch);
  if (!intoBranch && from.size() != step.results.size()) {
    error = "conditional '" + step.instruction + "': branch '" + step.computations[branch] +
            "' has " + std::to_string(from.size()) + " result leaves, the conditional " +
            std::to_string(step.results.size());
    return false;
  }
  for (size_t i = 0; i < from.size(); ++i) {
    DeviceBuffer source = 0, destination = 0;
    if (!get(from[i], source, error))
      return false;
    if (intoBranch)
      destination = branchParameters.at(&step).at(branch).at(i);
    else if (!get(step.results[i], destination, error))
      return false;
    if (source != destination && !copyBuffer(source, destination, from[i].bytes, error))
      return false;
  }
  return true;
}

std::string libraryStepBlocker(const ProgramStep &step, const HloModule &module) {
  const HloInstruction *instruction =
      findInstruction(module, step.computation, step.instruction);
  std::string what = "library call '" + step.instruction + "' (" + step.target + ")";
  if (!instruction)
    return what + ": no such instruction in computation '" + step.computation + "'";
  bool interpreted = instruction->opcode() == HloOpcode::Fusion ||
                     interp::isInterpretedCustomCall(*instruction);
  if (!interpreted)
    return what + ", which the interpreter does not implement";
  if (step.arguments.size() != static_cast<size_t>(instruction->operandCount()) ||
      step.results.empty())
    return what + ": the manifest does not bind its buffers";
  return "";
}

} // namespace hlo::runtime
