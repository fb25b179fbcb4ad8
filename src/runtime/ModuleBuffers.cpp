//===- ModuleBuffers.cpp - A whole-module run's buffers and host steps ----===//
#include "ModuleBuffers.h"
#include "ReferenceCases.h"

#include "interpreter/Ops.h"

#include "abi/ProgramLiveness.h"

#include "hlo_parser/HloComputation.h"

#include <cstring>

namespace hlo::runtime {

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

ErrorOr<DeviceBuffer> ModuleBuffers::get(const KernelParameter &parameter,
                                          const DeviceBuffer *aliasOf) {
  std::string key = keyOf(parameter);
  if (auto found = buffers.find(key); found != buffers.end()) {
    // A later binding of the buffer may not read or write past its end.
    if (auto size = bufferBytes.find(key);
        size != bufferBytes.end() && parameter.bytes > size->second)
      return Status::failure("buffer '" + key + "' is " + std::to_string(size->second) +
                             " bytes; the manifest binds it as " +
                             std::to_string(parameter.bytes) + " elsewhere (" +
                             parameter.shape.str() + ")");
    return found->second;
  }
  if (aliasOf)
    return buffers[key] = *aliasOf;
  bool planned = parameter.binding != BufferBinding::Parameter &&
                 !(parameter.binding == BufferBinding::Buffer &&
                   moduleConstant(module, parameter.bufferName));
  if (planned) {
    ErrorOr<DeviceBuffer> placed = placedBuffer(abi::planName(parameter), parameter.bytes);
    if (!placed)
      return placed;
    if (*placed) {
      bufferBytes[key] = parameter.bytes;
      return buffers[key] = *placed;
    }
  }
  ErrorOr<DeviceBuffer> buffer = allocate(parameter.bytes);
  if (!buffer)
    return buffer;
  buffers[key] = *buffer;
  bufferBytes[key] = parameter.bytes;
  const HloComputation *entry = module.entry();
  const HloInstruction *constant = parameter.binding == BufferBinding::Buffer
                                       ? moduleConstant(module, parameter.bufferName)
                                       : nullptr;
  Status initialized = Status::success();
  if (parameter.binding == BufferBinding::Parameter) {
    // In the entry's layout: the reader may view it through a bitcast.
    const Shape &shape = entry->parameter(parameter.number)->shape();
    initialized = device.upload(*buffer, toBufferBytes(*inputs.at(parameter.number), shape));
  } else if (constant) {
    initialized =
        device.upload(*buffer, toBufferBytes(constant->literal(), constant->shape()));
  } else {
    initialized = device.fill(*buffer, static_cast<size_t>(parameter.bytes), 0xff);
  }
  if (!initialized)
    return initialized;
  return buffer;
}

void ModuleBuffers::shareAllocations(const std::vector<abi::AllocationSpec> &allocations) {
  for (const abi::AllocationSpec &allocation : allocations) {
    for (const abi::PlacedBuffer &buffer : allocation.buffers)
      for (const std::string &name : buffer.names)
        sharedPlace[name] = {allocationBytes.size(), buffer.offset};
    allocationBytes.push_back(allocation.bytes);
    allocationMemory.push_back(0);
    allocationParameter.push_back(allocation.parameter);
  }
}

ErrorOr<DeviceBuffer> ModuleBuffers::allocate(int64_t bytes) {
  ErrorOr<DeviceBuffer> buffer = device.allocate(static_cast<size_t>(bytes));
  if (buffer)
    allocatedBytes += bytes;
  return buffer;
}

ErrorOr<DeviceBuffer> ModuleBuffers::placedBuffer(const std::string &name, int64_t bytes) {
  auto place = sharedPlace.find(name);
  if (place == sharedPlace.end())
    return DeviceBuffer(0);
  auto [allocation, offset] = place->second;
  if (offset + bytes > allocationBytes[allocation])
    return Status::failure("buffer '" + name + "' (" + std::to_string(bytes) +
                           " bytes at offset " + std::to_string(offset) +
                           ") does not fit its allocation of " +
                           std::to_string(allocationBytes[allocation]) + " bytes");
  if (!allocationMemory[allocation] && allocationParameter[allocation] >= 0) {
    // A module parameter's memory: the run's input there.
    KernelParameter parameter;
    parameter.binding = BufferBinding::Parameter;
    parameter.number = allocationParameter[allocation];
    parameter.bytes = allocationBytes[allocation];
    ErrorOr<DeviceBuffer> input = get(parameter);
    if (!input)
      return input;
    allocationMemory[allocation] = *input;
  }
  DeviceBuffer &memory = allocationMemory[allocation];
  if (!memory) {
    ErrorOr<DeviceBuffer> made = allocate(allocationBytes[allocation]);
    if (!made)
      return made;
    if (Status filled = device.fill(*made, static_cast<size_t>(allocationBytes[allocation]), 0xff);
        !filled)
      return filled;
    memory = *made;
  }
  return memory + static_cast<DeviceBuffer>(offset);
}

ErrorOr<DeviceBuffer> ModuleBuffers::stateBuffer(const std::string &name, int64_t bytes) {
  ErrorOr<DeviceBuffer> placed = placedBuffer(name, bytes);
  if (!placed || *placed)
    return placed;
  return allocate(bytes);
}

DeviceBuffer ModuleBuffers::output(int64_t number) const {
  auto found = buffers.find("o" + std::to_string(number));
  return found == buffers.end() ? 0 : found->second;
}

Status ModuleBuffers::copy(const ProgramStep &step) {
  if (step.arguments.size() != 1 || step.results.size() != 1)
    return Status::failure("copy '" + step.instruction +
                           "': the manifest does not bind its buffers " +
                           "(recompile with this hlo-compile)");
  ErrorOr<DeviceBuffer> source = get(step.arguments[0]);
  if (!source)
    return source.status();
  ErrorOr<DeviceBuffer> destination = get(step.results[0]);
  if (!destination)
    return destination.status();
  // A slice copies a run of its operand from sourceOffset on.
  int64_t count = step.results[0].bytes;
  if (step.sourceOffset < 0 || step.sourceOffset + count > step.arguments[0].bytes)
    return Status::failure("copy '" + step.instruction + "': " + std::to_string(count) +
                           " bytes from offset " + std::to_string(step.sourceOffset) +
                           " run past its operand's " +
                           std::to_string(step.arguments[0].bytes) + " bytes");
  std::vector<uint8_t> bytes(static_cast<size_t>(count));
  if (Status downloaded =
          device.download(*source + static_cast<DeviceBuffer>(step.sourceOffset), bytes);
      !downloaded)
    return downloaded;
  return device.upload(*destination, bytes);
}

ErrorOr<ModuleBuffers::StepBuffers> ModuleBuffers::stepBuffers(const ProgramStep &step) {
  StepBuffers buffers;
  for (const KernelParameter &argument : step.arguments) {
    ErrorOr<DeviceBuffer> buffer = get(argument);
    if (!buffer)
      return buffer.status();
    buffers.arguments.push_back(*buffer);
  }
  for (const KernelParameter &result : step.results) {
    ErrorOr<DeviceBuffer> buffer = get(result);
    if (!buffer)
      return buffer.status();
    buffers.results.push_back(*buffer);
  }
  return buffers;
}

ErrorOr<double> ModuleBuffers::timeLibraryCall(const ProgramStep &step, int warmup,
                                               int iterations) {
  ErrorOr<StepBuffers> buffers = stepBuffers(step);
  if (!buffers)
    return buffers.status();
  return device.timeLibraryStep(step, buffers->arguments, buffers->results, warmup, iterations);
}

ErrorOr<std::string> ModuleBuffers::runLibraryCall(const ProgramStep &step,
                                                    interp::Evaluator &evaluator) {
  ErrorOr<StepBuffers> found = stepBuffers(step);
  if (!found)
    return found.status();
  std::vector<DeviceBuffer> &argumentBuffers = found->arguments, &resultBuffers = found->results;
  std::string where;
  auto [outcome, message] = device.runLibraryStep(step, argumentBuffers, resultBuffers);
  switch (outcome) {
  case Device::LibraryOutcome::Ran:
    return message;
  case Device::LibraryOutcome::Failed:
    return Status::failure("library call '" + step.instruction + "': " + message);
  case Device::LibraryOutcome::NotHere:
    where = "run by the interpreter on the host" + (message.empty() ? "" : " (" + message + ")");
    break;
  }
  // Checked before the run by libraryStepBlocker (moduleModeBlocker).
  const HloInstruction *instruction =
      findInstruction(module, step.computation, step.instruction);
  if (!instruction)
    return Status::failure("library call '" + step.instruction + "': no such instruction");
  std::vector<interp::ValuePtr> operands;
  for (const KernelParameter &argument : step.arguments) {
    ErrorOr<DeviceBuffer> buffer = get(argument);
    if (!buffer)
      return buffer.status();
    std::vector<uint8_t> bytes(static_cast<size_t>(argument.bytes));
    if (Status downloaded = device.download(*buffer, bytes); !downloaded)
      return downloaded;
    operands.push_back(
        std::make_shared<const Literal>(fromBufferBytes(bytes.data(), shapeOf(argument.shape))));
  }
  std::vector<Literal> leaves;
  try {
    leaves = arrayLeaves(*evaluator.evaluateInstruction(*instruction, operands));
  } catch (const interp::InterpreterError &failure) {
    return Status::failure(interp::formatInterpreterError(module, failure));
  }
  if (leaves.size() != step.results.size())
    return Status::failure("library call '" + step.instruction + "' computes " +
                           std::to_string(leaves.size()) + " arrays, the manifest binds " +
                           std::to_string(step.results.size()));
  for (size_t i = 0; i < leaves.size(); ++i) {
    ErrorOr<DeviceBuffer> buffer = get(step.results[i]);
    if (!buffer)
      return buffer.status();
    if (Status uploaded =
            device.upload(*buffer, toBufferBytes(leaves[i], shapeOf(step.results[i].shape)));
        !uploaded)
      return uploaded;
  }
  return where;
}

Status ModuleBuffers::copyBuffer(DeviceBuffer source, DeviceBuffer destination,
                                 int64_t bytes) {
  if (source == destination)
    return Status::success();
  std::vector<uint8_t> data(static_cast<size_t>(bytes));
  if (Status downloaded = device.download(source, data); !downloaded)
    return downloaded;
  return device.upload(destination, data);
}

Status ModuleBuffers::allocateLoopState(const ProgramStep &step) {
  const HloComputation *condition =
      step.computations.size() == 2 ? module.findComputation(step.computations[0]) : nullptr;
  const HloComputation *body =
      step.computations.size() == 2 ? module.findComputation(step.computations[1]) : nullptr;
  if (!condition || !body || step.arguments.empty() ||
      step.arguments.size() != step.results.size() ||
      step.arguments.size() != step.bodyResults.size())
    return Status::failure("while '" + step.instruction +
                           "': the manifest does not bind its state");
  std::vector<DeviceBuffer> &state = loopStates[&step];
  for (size_t i = 0; i < step.arguments.size(); ++i) {
    // Where the plan put the state as the body reads it (its condition's
    // and its result are that buffer too).
    ErrorOr<DeviceBuffer> buffer = stateBuffer(
        BufferId::leafOf(body->parameter(0)->name(), i, step.arguments.size()).str(),
        step.arguments[i].bytes);
    if (!buffer)
      return buffer.status();
    state.push_back(*buffer);
    for (const HloComputation *reader : {condition, body})
      buffers["b:" + BufferId::leafOf(reader->parameter(0)->name(), i, step.arguments.size())
                         .str()] = *buffer;
    buffers.emplace(keyOf(step.results[i]), *buffer);
  }
  return Status::success();
}

Status ModuleBuffers::copyLoopState(const ProgramStep &step, bool intoState) {
  const std::vector<DeviceBuffer> &state = loopStates.at(&step);
  const std::vector<KernelParameter> &bindings = intoState ? step.arguments : step.results;
  for (size_t i = 0; i < state.size(); ++i) {
    ErrorOr<DeviceBuffer> other = get(bindings[i]);
    if (!other)
      return other.status();
    if (Status copied = copyBuffer(intoState ? *other : state[i], intoState ? state[i] : *other,
                                   bindings[i].bytes);
        !copied)
      return copied;
  }
  return Status::success();
}

Status ModuleBuffers::advanceLoop(const ProgramStep &step) {
  const std::vector<DeviceBuffer> &state = loopStates.at(&step);
  std::vector<std::vector<uint8_t>> next(state.size());
  for (size_t i = 0; i < state.size(); ++i) {
    ErrorOr<DeviceBuffer> result = get(step.bodyResults[i]);
    if (!result)
      return result.status();
    if (*result == state[i])
      continue; // an element the body passes through
    next[i].resize(static_cast<size_t>(step.bodyResults[i].bytes));
    if (Status downloaded = device.download(*result, next[i]); !downloaded)
      return downloaded;
  }
  for (size_t i = 0; i < state.size(); ++i)
    if (!next[i].empty())
      if (Status uploaded = device.upload(state[i], next[i]); !uploaded)
        return uploaded;
  return Status::success();
}

ErrorOr<bool> ModuleBuffers::readPredicate(const KernelParameter &parameter) {
  ErrorOr<DeviceBuffer> buffer = get(parameter);
  if (!buffer)
    return buffer.status();
  std::vector<uint8_t> byte(1);
  if (Status downloaded = device.download(*buffer, byte); !downloaded)
    return downloaded;
  return byte[0] != 0;
}

Status ModuleBuffers::allocateBranchParameters(const ProgramStep &step) {
  if (step.arguments.size() != 1 || step.branchArguments.size() != step.computations.size() ||
      step.branchResults.size() != step.computations.size())
    return Status::failure("conditional '" + step.instruction +
                           "': the manifest does not bind its buffers");
  for (size_t b = 0; b < step.computations.size(); ++b) {
    const HloComputation *branch = module.findComputation(step.computations[b]);
    if (!branch || branch->parameterCount() != 1)
      return Status::failure("conditional '" + step.instruction + "': no branch computation '" +
                             step.computations[b] + "' of one parameter");
    const std::vector<KernelParameter> &leaves = step.branchArguments[b];
    std::vector<DeviceBuffer> &parameter = branchParameters[&step].emplace_back();
    for (size_t i = 0; i < leaves.size(); ++i) {
      ErrorOr<DeviceBuffer> buffer = stateBuffer(
          BufferId::leafOf(branch->parameter(0)->name(), i, leaves.size()).str(), leaves[i].bytes);
      if (!buffer)
        return buffer.status();
      parameter.push_back(*buffer);
      buffers["b:" + BufferId::leafOf(branch->parameter(0)->name(), i, leaves.size()).str()] =
          *buffer;
    }
  }
  return Status::success();
}

ErrorOr<size_t> ModuleBuffers::readBranchIndex(const ProgramStep &step) {
  const KernelParameter &index = step.arguments.at(0);
  if (index.shape.elementType == "pred") {
    ErrorOr<bool> value = readPredicate(index);
    if (!value)
      return value.status();
    return size_t(*value ? 0 : 1);
  }
  ErrorOr<DeviceBuffer> buffer = get(index);
  if (!buffer)
    return buffer.status();
  std::vector<uint8_t> bytes(static_cast<size_t>(index.bytes));
  if (Status downloaded = device.download(*buffer, bytes); !downloaded)
    return downloaded;
  size_t branches = step.computations.size();
  if (index.shape.elementType != "s32" || bytes.size() != 4)
    return Status::failure("conditional '" + step.instruction +
                           "': its branch index is neither pred[] nor s32[]");
  int32_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof value);
  return value >= 0 && static_cast<size_t>(value) < branches ? static_cast<size_t>(value)
                                                             : branches - 1;
}

Status ModuleBuffers::copyBranchValues(const ProgramStep &step, size_t branch,
                                       bool intoBranch) {
  const std::vector<KernelParameter> &from =
      intoBranch ? step.branchArguments.at(branch) : step.branchResults.at(branch);
  if (!intoBranch && from.size() != step.results.size())
    return Status::failure("conditional '" + step.instruction + "': branch '" +
                           step.computations[branch] + "' has " +
                           std::to_string(from.size()) + " result leaves, the conditional " +
                           std::to_string(step.results.size()));
  for (size_t i = 0; i < from.size(); ++i) {
    ErrorOr<DeviceBuffer> source = get(from[i]);
    if (!source)
      return source.status();
    DeviceBuffer destination = 0;
    if (intoBranch) {
      destination = branchParameters.at(&step).at(branch).at(i);
    } else {
      ErrorOr<DeviceBuffer> result = get(step.results[i]);
      if (!result)
        return result.status();
      destination = *result;
    }
    if (*source != destination)
      if (Status copied = copyBuffer(*source, destination, from[i].bytes); !copied)
        return copied;
  }
  return Status::success();
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
