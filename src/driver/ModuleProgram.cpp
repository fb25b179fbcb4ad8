//===- ModuleProgram.cpp - The manifest's program and buffers -------------===//
#include "ModuleProgram.h"
#include "BufferBindings.h"

#include "analysis/FusionAnalysis.h"
#include "hlo_parser/OpAttributes.h"
#include "hlo_parser/Printer.h"

#include <map>
#include <regex>
#include <set>
#include <unordered_map>

namespace hlo::driver {
namespace {

int64_t arrayBytes(const Shape &shape) {
  return shape.bufferBytes();
}

int64_t leafBytes(const Shape &shape) {
  if (!shape.isTuple())
    return arrayBytes(shape);
  int64_t bytes = 0;
  for (const Shape &element : shape.tupleShapes())
    bytes += leafBytes(element);
  return bytes;
}

/// Where the result leaves of the step at `instruction` go.
std::vector<abi::KernelParameter> bindResults(const BufferAssignment &buffers,
                                              const HloInstruction &instruction) {
  std::vector<const Shape *> leaves;
  arrayLeaves(instruction.shape(), leaves);
  std::vector<abi::KernelParameter> results;
  for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
    abi::KernelParameter result = bufferParameter(true, *leaves[leaf]);
    bindSlot(result, buffers.resultSlot(&instruction, leaf, leaves.size()));
    results.push_back(std::move(result));
  }
  return results;
}

/// Where a copy or library call at `instruction` reads its operands and
/// writes its result leaves (none when an operand is a tuple).
void bindStep(const BufferAssignment &buffers, const HloInstruction &instruction,
              abi::ProgramStep &step) {
  // Operands that are tuples have no one buffer: no bindings then.
  for (const HloInstruction *operand : instruction.operands())
    if (!operand->shape().isArray())
      return;
  for (const HloInstruction *operand : instruction.operands()) {
    abi::KernelParameter argument = bufferParameter(false, operand->shape());
    bindSlot(argument, buffers.operandSlot(operand));
    step.arguments.push_back(std::move(argument));
  }
  step.results = bindResults(buffers, instruction);
}

/// A while loop's buffers, when its state is a flat tuple built by a tuple
/// instruction and its body returns a tuple instruction: `arguments`, the
/// initial elements; `results`, where the loop's result leaves go;
/// `bodyResults`, the body's root elements, copied into the state (which
/// the body and condition read as "param#i") after each iteration.
void bindWhile(const BufferAssignment &buffers, const HloInstruction &loop,
               abi::ProgramStep &step) {
  const HloInstruction *init = loop.operand(0);
  const HloComputation *body = whileBody(loop);
  if (init->opcode() != HloOpcode::Tuple || !body ||
      body->root()->opcode() != HloOpcode::Tuple)
    return;
  for (const HloInstruction *element : init->operands())
    if (!element->shape().isArray())
      return;
  bindStep(buffers, *init, step);
  step.results = bindResults(buffers, loop);
  for (const HloInstruction *element : body->root()->operands()) {
    abi::KernelParameter result = bufferParameter(false, element->shape());
    bindSlot(result, buffers.operandSlot(element));
    step.bodyResults.push_back(std::move(result));
  }
  const HloComputation *condition = whileCondition(loop);
  size_t count = init->operands().size();
  for (const HloComputation *reader : {condition, body}) {
    std::vector<std::string> &names = step.parameterBuffers.emplace_back();
    for (size_t i = 0; reader && reader->parameterCount() == 1 && i < count; ++i)
      names.push_back(abi::BufferId::leafOf(reader->parameter(0)->name(), i, count).str());
  }
}

/// The array leaves of `value` as inputs: itself if an array, else the
/// elements of the tuple instruction it is (false for any other tuple).
bool bindLeaves(const BufferAssignment &buffers, const HloInstruction *value,
                std::vector<abi::KernelParameter> &leaves) {
  std::vector<const HloInstruction *> elements = {value};
  if (!value->shape().isArray()) {
    if (value->opcode() != HloOpcode::Tuple)
      return false;
    elements.assign(value->operands().begin(), value->operands().end());
  }
  for (const HloInstruction *element : elements) {
    if (!element->shape().isArray())
      return false;
    abi::KernelParameter leaf = bufferParameter(false, element->shape());
    bindSlot(leaf, buffers.operandSlot(element));
    leaves.push_back(std::move(leaf));
  }
  return true;
}

/// A conditional's branches in index order: its branch_computations, or
/// for a pred its true_computation then its false_computation, as written
/// in either order.
std::vector<const HloComputation *> branchesOf(const HloInstruction &conditional) {
  std::vector<HloComputation *> branches = conditionalBranches(conditional);
  return {branches.begin(), branches.end()};
}

/// A conditional's buffers, when each branch's operand and root is an
/// array or a tuple instruction of arrays: `arguments`, the branch index;
/// `branchArguments[b]`, branch b's operand leaves (the branch reads them
/// as its parameter's, "param#i"); `branchResults[b]`, its root's leaves;
/// `results`, the conditional's result leaves.
void bindConditional(const BufferAssignment &buffers, const HloInstruction &conditional,
                     abi::ProgramStep &step) {
  std::vector<const HloComputation *> branches = branchesOf(conditional);
  if (branches.size() + 1 != static_cast<size_t>(conditional.operandCount()))
    return;
  for (const HloComputation *branch : branches)
    if (!branch)
      return;
  std::vector<std::vector<abi::KernelParameter>> arguments(branches.size()),
      results(branches.size());
  for (size_t b = 0; b < branches.size(); ++b)
    if (!bindLeaves(buffers, conditional.operand(static_cast<int64_t>(b) + 1), arguments[b]) ||
        !bindLeaves(buffers, branches[b]->root(), results[b]))
      return;
  abi::KernelParameter index = bufferParameter(false, conditional.operand(0)->shape());
  bindSlot(index, buffers.operandSlot(conditional.operand(0)));
  step.arguments = {index};
  for (size_t b = 0; b < branches.size(); ++b) {
    std::vector<std::string> &names = step.parameterBuffers.emplace_back();
    for (size_t i = 0; branches[b]->parameterCount() == 1 && i < arguments[b].size(); ++i)
      names.push_back(
          abi::BufferId::leafOf(branches[b]->parameter(0)->name(), i, arguments[b].size()).str());
  }
  step.branchArguments = std::move(arguments);
  step.branchResults = std::move(results);
  step.results = bindResults(buffers, conditional);
}

/// The operand a custom call's `output_to_operand_aliasing` gives its
/// first result (`{0}: (k, {})`, or `{}: (k, {})` for an array result),
/// as a cuBLAS GEMM with beta != 0 writes D over C; -1 if none.
int64_t aliasedCustomCallOperand(const HloInstruction &instruction) {
  const AttrValue *aliasing = instruction.findAttribute("output_to_operand_aliasing");
  if (instruction.opcode() != HloOpcode::CustomCall || !aliasing)
    return -1;
  std::string_view firstResult = instruction.shape().isArray() ? "{}" : "{0}";
  static const std::regex entry(R"(\{\s*(\d*)\s*\}\s*:\s*\(\s*(\d+)\s*,\s*\{\s*\}\s*\))");
  for (std::sregex_iterator it(aliasing->text.begin(), aliasing->text.end(), entry), end;
       it != end; ++it) {
    if ("{" + (*it)[1].str() + "}" != firstResult)
      continue;
    int64_t operand = std::stoll((*it)[2].str());
    return operand < instruction.operandCount() ? operand : -1;
  }
  return -1;
}

/// The operand a library step's first result may be written over: the
/// one its dynamic-update-slice updates (the step is one, or a fusion
/// whose root is one of its parameters), or its custom call's aliased
/// operand; -1 otherwise.
int64_t updatedArgument(const HloInstruction &instruction) {
  if (int64_t aliased = aliasedCustomCallOperand(instruction); aliased >= 0)
    return aliased;
  if (!instruction.shape().isArray())
    return -1;
  if (instruction.opcode() == HloOpcode::DynamicUpdateSlice)
    return 0;
  const HloComputation *fused =
      instruction.opcode() == HloOpcode::Fusion ? instruction.fusedComputation() : nullptr;
  if (!fused || fused->root()->opcode() != HloOpcode::DynamicUpdateSlice)
    return -1;
  const HloInstruction *updated = fused->root()->operand(0);
  if (updated->opcode() != HloOpcode::Parameter || updated->shape() != instruction.shape() ||
      updated->parameterNumber() >= instruction.operandCount())
    return -1;
  return updated->parameterNumber();
}

std::vector<std::string> operandNames(const HloInstruction &instruction, int64_t first = 0) {
  std::vector<std::string> names;
  for (int64_t i = first; i < instruction.operandCount(); ++i)
    names.push_back(instruction.operand(i)->name());
  return names;
}

} // namespace

std::string libraryTarget(const HloInstruction &instruction) {
  std::string_view target = customCallTarget(instruction);
  if (!target.empty())
    return std::string(target);
  if (instruction.opcode() == HloOpcode::Fusion)
    if (std::string kind = fusionBackendKind(instruction); !kind.empty())
      return kind;
  return std::string(opcodeName(instruction.opcode()));
}


void describeProgram(const HloModule &module, const KernelPlan &plan,
                     const BufferAssignment &buffers,
                     const std::vector<KernelLaunchRecord> &records,
                     abi::LaunchManifest &manifest) {
  // Per plan kernel, its launches; per instruction, its kernel.
  std::map<int64_t, std::vector<int64_t>> launchesOf;
  for (size_t i = 0; i < records.size(); ++i)
    launchesOf[records[i].planKernel].push_back(static_cast<int64_t>(i));
  std::unordered_map<const HloInstruction *, int64_t> kernelOf;
  for (size_t k = 0; k < plan.kernels().size(); ++k)
    kernelOf.emplace(plan.kernels()[k].origin, static_cast<int64_t>(k));
  std::set<const HloInstruction *> copies(plan.deviceCopies().begin(),
                                          plan.deviceCopies().end());
  std::set<const HloInstruction *> library(plan.notEmitted().begin(), plan.notEmitted().end());
  std::set<std::string> failed;
  for (const auto &failure : manifest.failed)
    failed.insert(failure.first);
  const HloComputation *entry = module.entry();
  bool bareEntry = plan.kernels().size() == 1 && plan.kernels()[0].computation == entry;
  size_t programStart = manifest.program.size();

  size_t entryEnd = programStart;
  for (const HloComputation *computation : plan.hostComputations()) {
    if (computation != entry && entryEnd == programStart)
      entryEnd = manifest.program.size();
    for (const auto &owned : computation->instructions()) {
      const HloInstruction &instruction = *owned;
      abi::ProgramStep step;
      step.computation = computation->name();
      step.instruction = instruction.name();
      auto kernel = kernelOf.find(&instruction);
      if (bareEntry && &instruction == entry->root())
        kernel = kernelOf.find(plan.kernels()[0].origin);
      HloOpcode opcode = instruction.opcode();
      if (failed.count(instruction.name())) {
        step.kind = abi::ProgramStep::Kind::Failed;
        step.operands = operandNames(instruction);
        manifest.program.push_back(std::move(step));
        continue;
      }
      if (kernel != kernelOf.end()) {
        for (int64_t launch : launchesOf[kernel->second]) {
          step.kind = abi::ProgramStep::Kind::Launch;
          step.launch = launch;
          manifest.program.push_back(step);
        }
        continue;
      }
      if (copies.count(&instruction)) {
        step.kind = abi::ProgramStep::Kind::Copy;
        step.operands = operandNames(instruction);
        step.bytes = arrayBytes(instruction.shape());
        step.sourceOffset = plan.copySourceOffset(instruction);
        bindStep(buffers, instruction, step);
      } else if (library.count(&instruction)) {
        step.kind = abi::ProgramStep::Kind::Library;
        step.opcode = opcodeName(opcode);
        step.target = libraryTarget(instruction);
        step.operands = operandNames(instruction);
        step.backendConfig = std::string(backendConfigText(instruction));
        step.bytes = leafBytes(instruction.shape());
        bindStep(buffers, instruction, step);
        step.inPlaceArgument = updatedArgument(instruction);
      } else if (opcode == HloOpcode::While) {
        step.kind = abi::ProgramStep::Kind::While;
        const HloComputation *condition = whileCondition(instruction);
        const HloComputation *body = whileBody(instruction);
        step.computations = {condition ? condition->name() : "", body ? body->name() : ""};
        step.operands = operandNames(instruction);
        step.predicate = condition ? condition->root()->name() : "";
        bindWhile(buffers, instruction, step);
      } else if (opcode == HloOpcode::Conditional) {
        step.kind = abi::ProgramStep::Kind::Conditional;
        for (const HloComputation *branch : branchesOf(instruction))
          step.computations.push_back(branch ? branch->name() : "");
        step.predicate = instruction.operand(0)->name();
        step.operands = operandNames(instruction, 1);
        bindConditional(buffers, instruction, step);
      } else if (opcode == HloOpcode::Call) {
        step.kind = abi::ProgramStep::Kind::Call;
        for (const HloComputation *callee : instruction.calledComputations())
          step.computations.push_back(callee->name());
        step.operands = operandNames(instruction);
      } else {
        continue; // parameters, constants, tuples, bitcasts: no step
      }
      manifest.program.push_back(std::move(step));
    }
  }

  // Entry outputs that are entry parameters as they came (`return x, f(x)`):
  // nothing computes them, so a copy step puts the parameter in the output
  // before any step could update the parameter in place (fuzz seed 407465;
  // an output that must alias its parameter copies onto itself).
  const HloInstruction *root = entry->root();
  std::vector<const HloInstruction *> outputs;
  if (root->opcode() == HloOpcode::Tuple)
    outputs.assign(root->operands().begin(), root->operands().end());
  else if (!bareEntry)
    outputs.push_back(root);
  // A copy step of `value` from (`binding`, `number`) into output `output`.
  auto copyIntoOutput = [&](const HloInstruction &value, abi::BufferBinding binding,
                            int64_t number, size_t output) {
    abi::ProgramStep step;
    step.kind = abi::ProgramStep::Kind::Copy;
    step.computation = entry->name();
    step.instruction = value.name();
    step.operands = {value.name()};
    step.bytes = arrayBytes(value.shape());
    abi::KernelParameter from = bufferParameter(false, value.shape());
    from.binding = binding;
    from.number = number;
    abi::KernelParameter to = bufferParameter(true, value.shape());
    to.binding = abi::BufferBinding::Output;
    to.number = static_cast<int64_t>(output);
    step.arguments.push_back(std::move(from));
    step.results.push_back(std::move(to));
    return step;
  };
  std::vector<abi::ProgramStep> parameterCopies;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const HloInstruction *value = outputs[i];
    if (value->opcode() == HloOpcode::Parameter && value->shape().isArray() &&
        value->parent() == entry)
      parameterCopies.push_back(copyIntoOutput(*value, abi::BufferBinding::Parameter,
                                               value->parameterNumber(), i));
  }
  if (entryEnd == programStart)
    entryEnd = manifest.program.size();
  // An output that repeats an earlier one's computed value (CSE made two
  // equal results one): the kernel writes the first, a copy step at the
  // end of the entry fills the other.
  std::vector<abi::ProgramStep> repeatCopies;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const HloInstruction *value = outputs[i];
    auto end = outputs.begin() + static_cast<std::ptrdiff_t>(i);
    auto first = std::find(outputs.begin(), end, value);
    if (first != end && value->opcode() != HloOpcode::Parameter && value->shape().isArray())
      repeatCopies.push_back(copyIntoOutput(*value, abi::BufferBinding::Output,
                                            first - outputs.begin(), i));
  }
  manifest.program.insert(manifest.program.begin() + static_cast<std::ptrdiff_t>(entryEnd),
                          repeatCopies.begin(), repeatCopies.end());
  manifest.program.insert(manifest.program.begin() + static_cast<std::ptrdiff_t>(programStart),
                          parameterCopies.begin(), parameterCopies.end());

  // The program's buffers, as the module's buffer assignment lists them.
  for (const ProgramBuffer &buffer : buffers.buffers()) {
    const HloInstruction &value = *buffer.value;
    abi::BufferSpec spec{abi::BufferSpec::Kind::Temporary, value.name(),
                         buffer.computation->name(), buffer.number, value.shape().toString(/*printLayout=*/true),
                         leafBytes(value.shape()), ""};
    switch (buffer.kind) {
    case ProgramBuffer::Kind::Parameter:
      spec.kind = abi::BufferSpec::Kind::Parameter;
      break;
    case ProgramBuffer::Kind::Output:
      spec.kind = abi::BufferSpec::Kind::Output;
      for (const DonatedParameter &donated : donatedParameters(module))
        if (donated.output == buffer.number ||
            (donated.output < 0 && buffer.number == 0 && entry->root()->shape().isArray()))
          spec.donatedParameter = donated.parameter;
      break;
    case ProgramBuffer::Kind::Constant:
      spec.kind = abi::BufferSpec::Kind::Constant;
      value.literal().print(spec.data);
      spec.filled = value.literal().isFilled();
      break;
    case ProgramBuffer::Kind::Temporary:
      break;
    }
    manifest.buffers.push_back(std::move(spec));
  }
}

} // namespace hlo::driver
