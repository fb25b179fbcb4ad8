//===- ReferenceCases.cpp - What the GPU run is checked against -----------===//
#include "ReferenceCases.h"
#include "ElementMagnitudes.h"
#include "ModuleBuffers.h"

#include "interpreter/ArrayUtils.h"
#include "interpreter/ElementBytes.h"
#include "interpreter/InputGenerator.h"

#include "hlo_parser/HloComputation.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace hlo::runtime {
namespace {

void flatten(const Literal &value, std::vector<Literal> &leaves) {
  if (value.shape().isTuple()) {
    for (const Literal &element : value.tupleElements())
      flatten(element, leaves);
    return;
  }
  leaves.push_back(value);
}

std::string shapeText(const Shape &shape) { return shape.toString(/*printLayout=*/false); }

} // namespace

const HloInstruction *findInstruction(const HloModule &module, const std::string &computation,
                                      const std::string &name) {
  for (const auto &owner : module.computations()) {
    if (!computation.empty() && owner->name() != computation)
      continue;
    for (const auto &instruction : owner->instructions())
      if (instruction->name() == name)
        return instruction.get();
  }
  return nullptr;
}

const HloInstruction *moduleConstant(const HloModule &module, const std::string &name) {
  const HloInstruction *found = findInstruction(module, module.entry()->name(), name);
  if (!found)
    found = findInstruction(module, "", name);
  return found && found->opcode() == HloOpcode::Constant ? found : nullptr;
}

const HloInstruction *findKernelInstruction(const HloModule &module, const KernelSpec &kernel) {
  return findInstruction(module, kernel.hloComputation, kernel.hloInstruction);
}

const Shape &entryOutputShape(const HloComputation &entry, int64_t number) {
  const HloInstruction *root = entry.root();
  if (root->opcode() == HloOpcode::Tuple)
    return root->operand(number)->shape();
  // A root with a tuple result of its own (a sort, a multi-output fusion).
  return root->shape().isTuple() ? root->shape().tupleShapes().at(number) : root->shape();
}

std::vector<uint8_t> toBufferBytes(const Literal &logical, const Shape &physical) {
  std::vector<uint8_t> rowMajor = interp::encodeElements(logical);
  std::vector<int64_t> offsets = interp::physicalOffsets(physical);
  if (int bits = packedElementBits(physical.elementType())) {
    // Several per byte, the first in the low bits (XLA's E(4) and E(2)).
    int perByte = 8 / bits, mask = (1 << bits) - 1;
    std::vector<uint8_t> bytes(physical.bufferBytes(), 0);
    for (size_t i = 0; i < offsets.size(); ++i)
      bytes[offsets[i] / perByte] |= (rowMajor[i] & mask) << (offsets[i] % perByte * bits);
    return bytes;
  }
  int64_t size = interp::elementByteSize(physical.elementType());
  std::vector<uint8_t> bytes(rowMajor.size());
  for (size_t i = 0; i < offsets.size(); ++i)
    std::copy_n(rowMajor.begin() + i * size, size, bytes.begin() + offsets[i] * size);
  return bytes;
}

Literal fromBufferBytes(const uint8_t *bytes, const Shape &physical) {
  int64_t size = interp::elementByteSize(physical.elementType());
  std::vector<int64_t> offsets = interp::physicalOffsets(physical);
  std::vector<uint8_t> rowMajor(offsets.size() * size);
  int bits = packedElementBits(physical.elementType());
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (bits) { // the element's bits, sign-extended for s2/s4 by decodeElements
      int perByte = 8 / bits;
      rowMajor[i] = (bytes[offsets[i] / perByte] >> (offsets[i] % perByte * bits)) & ((1 << bits) - 1);
    } else {
      std::copy_n(bytes + offsets[i] * size, size, rowMajor.begin() + i * size);
    }
  }
  Shape logical(physical.elementType(), physical.dimensions());
  return interp::decodeElements(rowMajor.data(), logical);
}

std::vector<Literal> arrayLeaves(const Literal &value) {
  std::vector<Literal> leaves;
  flatten(value, leaves);
  return leaves;
}

std::string moduleModeBlocker(const LaunchManifest &manifest, const HloModule &module) {
  if (!manifest.failed.empty())
    return std::to_string(manifest.failed.size()) + " of its kernels did not compile (" +
           "hlo-compile --keep-going), the first '" + manifest.failed[0].first + "'";
  // Library calls run on the host where the program says; a manifest
  // without a program does not say where.
  if (!manifest.notEmitted.empty() && manifest.program.empty())
    return "the module calls " + manifest.notEmitted[0].second + " '" +
           manifest.notEmitted[0].first + "', which hlo-compile does not generate";
  if (manifest.kernels.empty() && manifest.program.empty())
    return "the manifest has no kernels";
  const HloComputation *entry = module.entry();
  std::set<std::string> produced;
  std::set<int64_t> outputsWritten;
  // The computations module mode runs: the entry, and the conditions and
  // bodies of the while loops and the branches of the conditionals it
  // reaches, at any depth (a loop in a branch in a loop body: the program
  // lists nested steps in no particular order, hence the fixpoint).
  std::set<std::string> computations = {entry->name()};
  for (size_t reached = 0; reached != computations.size();) {
    reached = computations.size();
    for (const ProgramStep &step : manifest.program)
      if ((step.kind == ProgramStep::Kind::While ||
           step.kind == ProgramStep::Kind::Conditional) &&
          computations.count(step.computation))
        computations.insert(step.computations.begin(), step.computations.end());
  }
  // Steps other than launches: device copies, library calls the
  // interpreter runs, while loops whose state the manifest binds.
  for (const ProgramStep &step : manifest.program) {
    if (step.kind == ProgramStep::Kind::Launch)
      continue;
    bool hostStep = step.kind == ProgramStep::Kind::Copy ||
                    step.kind == ProgramStep::Kind::Library ||
                    step.kind == ProgramStep::Kind::While ||
                    step.kind == ProgramStep::Kind::Conditional;
    if (!hostStep || !computations.count(step.computation))
      return "the module's program has a " +
             std::string(step.kind == ProgramStep::Kind::Copy      ? "copy"
                         : step.kind == ProgramStep::Kind::Library ? "library call"
                         : step.kind == ProgramStep::Kind::While   ? "while loop"
                         : step.kind == ProgramStep::Kind::Conditional ? "conditional"
                                                                       : "host step") +
             " '" + step.instruction + "' in computation '" + step.computation +
             "', which module mode does not run";
    if (step.kind == ProgramStep::Kind::Library)
      if (std::string blocker = libraryStepBlocker(step, module); !blocker.empty())
        return blocker;
    bool bound = !step.results.empty();
    if (step.kind == ProgramStep::Kind::While) {
      bound = step.computations.size() == 2 && !step.arguments.empty() &&
              step.arguments.size() == step.results.size() &&
              step.arguments.size() == step.bodyResults.size();
      // The state, which the condition and body read as "PARAM#i".
      for (size_t c = 0; bound && c < 2; ++c)
        if (const HloComputation *reader = module.findComputation(step.computations[c]))
          for (size_t i = 0; i < step.arguments.size(); ++i)
            produced.insert(
                BufferId::leafOf(reader->parameter(0)->name(), i, step.arguments.size()).str());
    }
    if (step.kind == ProgramStep::Kind::Conditional) {
      size_t branches = step.computations.size();
      bound = step.arguments.size() == 1 && step.branchArguments.size() == branches &&
              step.branchResults.size() == branches;
      // The branches' parameters, which they read as "PARAM#i".
      for (size_t b = 0; bound && b < branches; ++b) {
        const HloComputation *branch = module.findComputation(step.computations[b]);
        bound = branch && branch->parameterCount() == 1 &&
                step.branchResults[b].size() == step.results.size();
        size_t leaves = step.branchArguments[b].size();
        for (size_t i = 0; bound && i < leaves; ++i)
          produced.insert(BufferId::leafOf(branch->parameter(0)->name(), i, leaves).str());
      }
    }
    if (!bound)
      return "the manifest does not bind the buffers of '" + step.instruction +
             "' (a loop state or branch operand not built by a tuple instruction, or a " +
             "manifest of an older hlo-compile)";
    for (const KernelParameter &result : step.results) {
      if (result.binding == BufferBinding::Output)
        outputsWritten.insert(result.number);
      else
        produced.insert(result.bufferName);
    }
  }
  for (const KernelSpec &kernel : manifest.kernels) {
    if (!kernel.hloInstruction.empty()) {
      const HloInstruction *instruction = findKernelInstruction(module, kernel);
      if (!instruction)
        return "kernel " + kernel.name + ": no instruction '" + kernel.hloInstruction +
               "' in the module";
      if (!computations.count(instruction->parent()->name()))
        return "kernel " + kernel.name + " runs inside computation '" +
               instruction->parent()->name() + "', which module mode does not run";
    }
    for (const KernelParameter &parameter : kernel.parameters) {
      if (parameter.binding == BufferBinding::Buffer) {
        if (parameter.isOutput)
          produced.insert(parameter.bufferName);
        else if (!produced.count(parameter.bufferName) &&
                 !moduleConstant(module, parameter.bufferName))
          return "kernel " + kernel.name + " reads '" + parameter.bufferName +
                 "', which no earlier kernel writes";
      } else if (parameter.binding == BufferBinding::Output && parameter.isOutput) {
        outputsWritten.insert(parameter.number);
      } else if (parameter.binding == BufferBinding::Output &&
                 !outputsWritten.count(parameter.number)) {
        return "kernel " + kernel.name + " reads output " + std::to_string(parameter.number) +
               ", which no earlier kernel writes";
      } else if (parameter.binding == BufferBinding::Parameter &&
                 parameter.number >= entry->parameterCount()) {
        return "kernel " + kernel.name + " reads parameter " +
               std::to_string(parameter.number) + ", which the entry lacks";
      }
    }
  }
  const Shape &result = entry->resultShape();
  int64_t outputs = result.isTuple() ? result.tupleSize() : 1;
  // Bindings must match the module (a manifest of another module, or a
  // stale one, must not be run).
  for (const KernelSpec &kernel : manifest.kernels)
    for (const KernelParameter &parameter : kernel.parameters) {
      Shape logical = shapeOf(parameter.shape);
      logical.clearLayout();
      const Shape *bound = nullptr;
      if (parameter.binding == BufferBinding::Parameter)
        bound = &entry->parameter(parameter.number)->shape();
      else if (parameter.binding == BufferBinding::Output && parameter.number < outputs)
        bound = result.isTuple() ? &result.tupleShapes()[parameter.number] : &result;
      else if (parameter.binding == BufferBinding::Output)
        return "kernel " + kernel.name + " writes output " +
               std::to_string(parameter.number) + ", which the entry lacks";
      // A bitcast's view of the buffer: the same elements in another shape.
      bool sameBuffer = bound && bound->isArray() &&
                        bound->elementType() == logical.elementType() &&
                        bound->elementCount() == logical.elementCount();
      if (bound && !bound->compatible(logical) && !sameBuffer)
        return "kernel " + kernel.name + " binds " + shapeText(logical) + " to " +
               (parameter.binding == BufferBinding::Parameter ? "parameter " : "output ") +
               std::to_string(parameter.number) + ", which is " + shapeText(*bound);
    }
  for (int64_t i = 0; i < outputs; ++i) {
    if (result.isTuple() && result.tupleShapes()[i].isTuple())
      return "output " + std::to_string(i) + " is a nested tuple";
    if (!outputsWritten.count(i))
      return "output " + std::to_string(i) + " is not written by a kernel, copy or library call";
  }
  return "";
}

std::vector<interp::ValuePtr>
moduleInputs(const HloModule &module, const interp::Evaluator &evaluator, uint64_t seed,
             const std::map<int64_t, Literal> &overrides) {
  std::vector<interp::ValuePtr> inputs;
  const HloComputation &entry = *module.entry();
  for (int64_t i = 0; i < entry.parameterCount(); ++i) {
    auto given = overrides.find(i);
    if (given != overrides.end()) {
      inputs.push_back(std::make_shared<const Literal>(given->second));
      continue;
    }
    const HloInstruction &parameter = *entry.parameter(i);
    evaluator.checkSize(parameter, parameter.shape());
    inputs.push_back(std::make_shared<const Literal>(interp::generateInputFor(
        parameter, parameter.shape(), seed + static_cast<uint64_t>(i))));
  }
  return inputs;
}

KernelCase buildKernelCase(const KernelSpec &kernel, const HloModule &module,
                           interp::Evaluator &evaluator, uint64_t seed,
                           const std::map<int64_t, Literal> &overrides,
                           bool withExpected, bool withMagnitudes, bool withInputs) {
  // The values the kernel reads: instructions whose uses choose the input
  // range, in kernel-parameter order.
  std::vector<const HloInstruction *> sources;
  const HloInstruction *instruction = nullptr;
  const HloComputation *computation = nullptr;
  if (kernel.hloInstruction.empty()) {
    computation = module.entry();
  } else {
    instruction = findKernelInstruction(module, kernel);
    if (!instruction)
      throw std::runtime_error("no instruction '" + kernel.hloInstruction + "' in the module");
    if (instruction->opcode() == HloOpcode::Fusion)
      computation = instruction->fusedComputation();
  }
  if (computation) {
    sources.assign(computation->parameters().begin(), computation->parameters().end());
  } else {
    for (const HloInstruction *operand : instruction->operands())
      if (std::find(sources.begin(), sources.end(), operand) == sources.end())
        sources.push_back(operand);
  }

  std::vector<const KernelParameter *> inputs, outputs;
  for (const KernelParameter &parameter : kernel.parameters)
    if (parameter.binding != BufferBinding::Scratch)
      (parameter.isOutput ? outputs : inputs).push_back(&parameter);
  if (inputs.size() != sources.size())
    throw std::runtime_error("kernel " + kernel.name + " takes " +
                             std::to_string(inputs.size()) + " inputs, its HLO reads " +
                             std::to_string(sources.size()));

  KernelCase result;
  std::vector<interp::ValuePtr> values;
  for (size_t i = 0; i < sources.size(); ++i) {
    const KernelParameter &parameter = *inputs[i];
    Shape logical = shapeOf(parameter.shape);
      logical.clearLayout();
    if (!sources[i]->shape().isArray() || !sources[i]->shape().compatible(logical))
      throw std::runtime_error("kernel " + kernel.name + " input " + std::to_string(i) +
                               " is " + shapeText(shapeOf(parameter.shape)) + ", its HLO reads " +
                               shapeText(sources[i]->shape()));
    if (withExpected || !withInputs)
      evaluator.checkSize(*sources[i], logical);
    if (!withExpected && !withInputs)
      continue;
    if (!withExpected && logical.elementCount() > kTimeOnlyGeneratedElements) {
      result.inputs.emplace_back();
      result.patterned.push_back(1);
      continue;
    }
    result.patterned.push_back(0);
    auto given = overrides.find(parameter.number);
    // The value the kernel is given in the module: an entry constant (or a
    // loop body's) is its literal, not generated data.
    const HloInstruction *operand = sources[i];
    if (instruction && computation && instruction->opcode() == HloOpcode::Fusion)
      operand = instruction->operand(static_cast<int64_t>(i));
    if (parameter.binding == BufferBinding::Parameter && given != overrides.end())
      result.inputs.push_back(given->second);
    else if (operand->opcode() == HloOpcode::Constant &&
             operand->shape().compatible(logical))
      result.inputs.push_back(operand->literal());
    else
      result.inputs.push_back(interp::generateInputFor(*sources[i], logical, seed + i));
    values.push_back(std::make_shared<const Literal>(result.inputs.back()));
  }

  if (!withExpected) {
    // Nothing is evaluated, but the outputs keep the same size limit
    // (what a launch-only run allocates; a timing run allocates nothing).
    const HloInstruction &root = computation ? *computation->root() : *instruction;
    if (!withInputs)
      evaluator.checkSize(root, root.shape());
    return result;
  }
  ValueWithMagnitudes evaluated;
  if (computation) {
    if (withMagnitudes)
      evaluated = evaluateWithMagnitudes(evaluator, *computation, values);
    else
      evaluated.value = evaluator.evaluate(*computation, values);
  } else {
    std::vector<interp::ValuePtr> operands;
    for (const HloInstruction *operand : instruction->operands())
      operands.push_back(values[std::find(sources.begin(), sources.end(), operand) -
                                sources.begin()]);
    if (withMagnitudes)
      evaluated = evaluateInstructionWithMagnitudes(evaluator, *instruction, operands);
    else
      evaluated.value = evaluator.evaluateInstruction(*instruction, operands);
  }
  const interp::ValuePtr &value = evaluated.value;
  result.magnitudes = std::move(evaluated.magnitudes);
  result.expected = arrayLeaves(*value);
  if (result.expected.size() != outputs.size())
    throw std::runtime_error("kernel " + kernel.name + " writes " +
                             std::to_string(outputs.size()) + " outputs, its HLO computes " +
                             std::to_string(result.expected.size()));
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!result.expected[i].shape().compatible(
            shapeOf(outputs[i]->shape)))
      throw std::runtime_error("kernel " + kernel.name + " output " + std::to_string(i) +
                               " is " + shapeText(shapeOf(outputs[i]->shape)) + ", its HLO computes " +
                               shapeText(result.expected[i].shape()));
  return result;
}

bool sameEntrySignature(const HloModule &a, const HloModule &b) {
  const HloComputation &x = *a.entry(), &y = *b.entry();
  if (x.parameterCount() != y.parameterCount() || !(x.resultShape() == y.resultShape()))
    return false;
  for (int64_t i = 0; i < x.parameterCount(); ++i)
    if (!(x.parameter(i)->shape() == y.parameter(i)->shape()))
      return false;
  return true;
}

} // namespace hlo::runtime
