//===- KernelPlan.cpp - Which kernels a module launches -------------------===//
#include "analysis/KernelPlan.h"

#include "analysis/ComputationFingerprint.h"
#include "analysis/FusionAnalysis.h"
#include "hlo_parser/HloAttributes.h"
#include "hlo_parser/OpAttributes.h"

#include <cctype>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace hlo {

LaunchRole launchRole(HloOpcode opcode) {
  if (opcode == HloOpcode::Fusion)
    return LaunchRole::Fusion;
  if (isElementwiseOpcode(opcode))
    return LaunchRole::Wrapped;
  switch (opcode) {
  case HloOpcode::Parameter:
  case HloOpcode::Constant:
  case HloOpcode::Tuple:
  case HloOpcode::GetTupleElement:
  case HloOpcode::Bitcast:
  case HloOpcode::AfterAll:
  case HloOpcode::AddDependency:
  case HloOpcode::OptimizationBarrier:
  case HloOpcode::Domain:
  case HloOpcode::While:
  case HloOpcode::Conditional:
  case HloOpcode::Call:
    return LaunchRole::NoCode;
  // XLA's FusionWrapper turns these into one-instruction fusions.
  case HloOpcode::Broadcast:
  case HloOpcode::Concatenate:
  case HloOpcode::Copy:
  // A dot is a GEMM kernel of ours (before sm_80, a loop fusion).
  case HloOpcode::Dot:
  case HloOpcode::DynamicSlice:
  case HloOpcode::DynamicUpdateSlice:
  case HloOpcode::Gather:
  case HloOpcode::Iota:
  case HloOpcode::Map:
  case HloOpcode::Pad:
  case HloOpcode::Reduce:
  case HloOpcode::ReducePrecision:
  case HloOpcode::ReduceWindow:
  case HloOpcode::Reshape:
  case HloOpcode::Reverse:
  case HloOpcode::Scatter:
  case HloOpcode::Slice:
  case HloOpcode::Sort:
  case HloOpcode::Transpose:
    return LaunchRole::Wrapped;
  // Library calls (cuBLAS, cuDNN, cuFFT, cuSOLVER, custom calls) and
  // runtime operations (collectives, transfers, host/device copies).
  case HloOpcode::RaggedDot:
  case HloOpcode::ScaledDot:
  case HloOpcode::Convolution:
  case HloOpcode::CustomCall:
  case HloOpcode::Fft:
  case HloOpcode::Cholesky:
  case HloOpcode::TriangularSolve:
  case HloOpcode::AllGather:
  case HloOpcode::AllGatherStart:
  case HloOpcode::AllGatherDone:
  case HloOpcode::AllReduce:
  case HloOpcode::AllReduceStart:
  case HloOpcode::AllReduceDone:
  case HloOpcode::AllToAll:
  case HloOpcode::RaggedAllToAll:
  case HloOpcode::CollectiveBroadcast:
  case HloOpcode::CollectivePermute:
  case HloOpcode::CollectivePermuteStart:
  case HloOpcode::CollectivePermuteDone:
  case HloOpcode::ReduceScatter:
  case HloOpcode::Send:
  case HloOpcode::SendDone:
  case HloOpcode::Recv:
  case HloOpcode::RecvDone:
  case HloOpcode::Infeed:
  case HloOpcode::Outfeed:
  case HloOpcode::CopyStart:
  case HloOpcode::CopyDone:
  case HloOpcode::AsyncStart:
  case HloOpcode::AsyncUpdate:
  case HloOpcode::AsyncDone:
  case HloOpcode::PartitionId:
  case HloOpcode::ReplicaId:
  case HloOpcode::RngGetAndUpdateState:
    return LaunchRole::Library;
  default:
    return LaunchRole::Unsupported;
  }
}

bool hasFusionInstruction(const HloModule &module) {
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      if (instruction->opcode() == HloOpcode::Fusion)
        return true;
  return false;
}

namespace {

/// Control flow cannot sit inside a kernel: an entry with some runs on the
/// host side even without fusions.
bool hasControlFlow(const HloComputation &computation) {
  for (const auto &instruction : computation.instructions())
    switch (instruction->opcode()) {
    case HloOpcode::While:
    case HloOpcode::Conditional:
    case HloOpcode::Call:
      return true;
    default:
      break;
    }
  return false;
}

/// A scatter, sort or dot is the root of its kernel (XLA fuses none into
/// a consumer as a hero; a dot's consumers are a GEMM's epilogue only
/// when one chain of them leads to the root): an entry with one elsewhere
/// is not a kernel of its own.
bool hasInnerScatterSortOrDot(const HloComputation &computation) {
  for (const auto &instruction : computation.instructions())
    if ((instruction->opcode() == HloOpcode::Scatter ||
         instruction->opcode() == HloOpcode::Sort || instruction->opcode() == HloOpcode::Dot) &&
        instruction.get() != computation.root())
      return true;
  return false;
}

/// One of XLA's library calls (`__cublas$gemm`, `__cudnn$convForward`,
/// `__gpu$TopK`: targets starting with "__") runs outside generated code:
/// an entry with one is no kernel of its own (XLA's module of one cuBLAS
/// GEMM is its parameters, the custom-call and a get-tuple-element). Other
/// targets, unknown to XLA too, leave a bare entry one (unsupported) kernel.
bool hasLibraryCustomCall(const HloComputation &computation) {
  for (const auto &instruction : computation.instructions())
    if (instruction->opcode() == HloOpcode::CustomCall &&
        instruction->textAttr("custom_call_target").rfind("__", 0) == 0)
      return true;
  return false;
}

/// Computations that run on the host side: the entry and what its control
/// flow calls, transitively. Reducers, comparators and fused computations
/// are not among them.
std::set<const HloComputation *> reachableHostComputations(const HloModule &module) {
  std::set<const HloComputation *> result;
  std::vector<const HloComputation *> work = {module.entry()};
  while (!work.empty()) {
    const HloComputation *computation = work.back();
    work.pop_back();
    if (!computation || !result.insert(computation).second)
      continue;
    for (const auto &instruction : computation->instructions()) {
      HloOpcode opcode = instruction->opcode();
      if (opcode == HloOpcode::While || opcode == HloOpcode::Conditional ||
          opcode == HloOpcode::Call || opcode == HloOpcode::AsyncStart)
        for (const HloComputation *called : instruction->calledComputations())
          work.push_back(called);
    }
  }
  return result;
}

} // namespace

KernelPlan::KernelPlan(const HloModule &module) : entry(module.entry()) {
  if (!module.entry())
    return;
  if (!hasFusionInstruction(module) && !hasControlFlow(*module.entry()) &&
      !hasInnerScatterSortOrDot(*module.entry()) && !hasLibraryCustomCall(*module.entry())) {
    kernelList.push_back({module.entry()->name(), module.entry(), nullptr,
                          module.entry()->root()});
    hostComputationList.push_back(module.entry());
    return;
  }
  std::set<const HloComputation *> host = reachableHostComputations(module);
  hostComputationList.push_back(module.entry());
  // Module order, so that kernels come out in the order of the text.
  for (const auto &computation : module.computations())
    if (host.count(computation.get())) {
      planComputation(*computation);
      if (computation.get() != module.entry())
        hostComputationList.push_back(computation.get());
    }
}

namespace {

/// The byte offset at which `slice` (unit strides) reads one contiguous run
/// of its operand's buffer, the two in the same layout; none otherwise.
/// Contiguous: in the layout's order from the minor dimension, whole
/// dimensions, then one of any extent, then dimensions of extent 1.
std::optional<int64_t> contiguousSliceOffset(const HloInstruction &slice) {
  const Shape &operand = slice.operand(0)->shape();
  const Shape &result = slice.shape();
  if (!operand.isArray() || !result.isArray() ||
      operand.layoutOrDefault() != result.layoutOrDefault() || result.elementCount() == 0 ||
      primitiveBitWidth(operand.elementType()) % 8 != 0)
    return std::nullopt;
  const std::vector<SliceRange> &ranges = sliceRangesOf(slice);
  if (static_cast<int64_t>(ranges.size()) != operand.rank())
    return std::nullopt;
  bool partial = false;
  int64_t offset = 0, stride = 1;
  for (int64_t d : operand.layoutOrDefault().minorToMajor) {
    const SliceRange &range = ranges[d];
    int64_t extent = result.dimensions()[d];
    if (range.stride != 1 && extent > 1)
      return std::nullopt;
    if (partial && extent != 1)
      return std::nullopt;
    partial |= extent != operand.dimensions()[d];
    offset += range.start * stride;
    stride *= operand.dimensions()[d];
  }
  return offset * primitiveByteWidth(operand.elementType());
}

/// The slice a fusion is, when its computation is one slice of its one
/// parameter.
const HloInstruction *fusedSlice(const HloInstruction &fusion) {
  const HloComputation *fused = fusion.fusedComputation();
  if (!fused || fusion.operandCount() != 1 || fused->instructions().size() != 2)
    return nullptr;
  const HloInstruction *root = fused->root();
  if (root->opcode() != HloOpcode::Slice ||
      root->operand(0)->opcode() != HloOpcode::Parameter)
    return nullptr;
  return root;
}

} // namespace

int64_t KernelPlan::copySourceOffset(const HloInstruction &copy) const {
  auto found = copyOffsets.find(&copy);
  return found == copyOffsets.end() ? 0 : found->second;
}

bool KernelPlan::planAsSliceCopy(const HloInstruction &instruction, const HloInstruction &slice) {
  std::optional<int64_t> offset = contiguousSliceOffset(slice);
  if (!offset)
    return false;
  copyOps.push_back(&instruction);
  copyOffsets[&instruction] = *offset;
  return true;
}

void KernelPlan::planComputation(const HloComputation &computation) {
  for (const auto &instruction : computation.instructions()) {
    schedulePosition.emplace(instruction.get(), schedulePosition.size());
    switch (launchRole(instruction->opcode())) {
    case LaunchRole::Fusion:
      if (runsAsLibraryCall(*instruction)) {
        libraryOps.push_back(instruction.get());
        break;
      }
      if (const HloInstruction *slice = fusedSlice(*instruction);
          slice && planAsSliceCopy(*instruction, *slice))
        break;
      kernelList.push_back({instruction->name(),
                            instruction->fusedComputation(), instruction.get(),
                            instruction.get()});
      break;
    case LaunchRole::NoCode:
      break;
    case LaunchRole::Wrapped:
      // A copy that keeps the layout moves bytes only: XLA's memcpy.
      if (instruction->opcode() == HloOpcode::Copy && instruction->shape().isArray() &&
          instruction->operand(0)->shape().isArray() &&
          instruction->shape().layoutOrDefault() ==
              instruction->operand(0)->shape().layoutOrDefault()) {
        copyOps.push_back(instruction.get());
        break;
      }
      if (instruction->opcode() == HloOpcode::Slice &&
          planAsSliceCopy(*instruction, *instruction))
        break;
      wrap(*instruction);
      break;
    case LaunchRole::Library:
      libraryOps.push_back(instruction.get());
      break;
    case LaunchRole::Unsupported:
      unsupportedOps.push_back(instruction.get());
      break;
    }
  }
}

bool namesKernel(const std::string &name, const std::string &requested) {
  if (name == requested)
    return true;
  if (name.size() != requested.size())
    return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (requested[i] != (plain ? c : '_'))
      return false;
  }
  return true;
}

llvm::Error KernelPlan::retainKernels(const std::vector<std::string> &names) {
  for (const std::string &name : names) {
    bool found = std::any_of(kernelList.begin(), kernelList.end(), [&](const KernelSource &kernel) {
      return namesKernel(kernel.name, name);
    });
    if (found)
      continue;
    std::string error = "no kernel named '" + name + "' in the module; its kernels are:";
    size_t listed = 0;
    for (const KernelSource &kernel : kernelList) {
      if (listed++ == 20) {
        error += " ... (" + std::to_string(kernelList.size()) + " in all)";
        break;
      }
      error += " " + kernel.name;
    }
    if (kernelList.empty())
      error += " none";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  }
  std::vector<KernelSource> kept;
  for (const KernelSource &kernel : kernelList)
    if (std::any_of(names.begin(), names.end(),
                    [&](const std::string &name) { return namesKernel(kernel.name, name); }))
      kept.push_back(kernel);
  kernelList = std::move(kept);
  libraryOps.clear();
  unsupportedOps.clear();
  copyOps.clear();
  copyOffsets.clear();
  return llvm::Error::success();
}

void KernelPlan::wrap(const HloInstruction &instruction) {
  auto computation =
      std::make_unique<HloComputation>("wrapped_" + instruction.name());
  // One parameter per distinct operand, in operand order.
  std::map<const HloInstruction *, HloInstruction *> parameters;
  for (const HloInstruction *operand : instruction.operands()) {
    if (parameters.count(operand))
      continue;
    auto parameter = std::make_unique<HloInstruction>(
        HloOpcode::Parameter, "p" + std::to_string(parameters.size()),
        operand->shape());
    parameter->setParameterNumber(static_cast<int64_t>(parameters.size()));
    parameter->setSourceOffset(operand->sourceOffset());
    parameters[operand] = computation->addInstruction(std::move(parameter));
  }
  auto clone = std::make_unique<HloInstruction>(
      instruction.opcode(), instruction.name(), instruction.shape());
  clone->setSourceOffset(instruction.sourceOffset());
  for (const HloAttribute &attribute : instruction.attributes())
    clone->addAttribute(attribute);
  for (const HloInstruction *operand : instruction.operands())
    clone->appendOperand(parameters[operand]);
  computation->setRoot(computation->addInstruction(std::move(clone)));
  computation->finalizeParameters();
  kernelList.push_back(
      {instruction.name(), computation.get(), nullptr, &instruction});
  wrappedComputations.push_back(std::move(computation));
}

bool KernelPlan::isDonatedTo(int64_t parameter, const HloInstruction *value) const {
  // Which output `value` is: the entry's root (-1), or one element of its
  // tuple.
  const HloInstruction *root = entry->root();
  std::vector<int64_t> outputs;
  if (root == value)
    outputs.push_back(-1);
  else if (root->opcode() == HloOpcode::Tuple)
    for (int64_t i = 0; i < root->operandCount(); ++i)
      if (root->operand(i) == value)
        outputs.push_back(i);
  for (const DonatedParameter &donated : donatedParameters(*entry->parent()))
    if (donated.parameter == parameter &&
        std::find(outputs.begin(), outputs.end(), donated.output) != outputs.end())
      return true;
  return false;
}

bool KernelPlan::isLoopStateUpdatedBy(const HloInstruction *element,
                                      const HloInstruction *user) const {
  // A while body's (or called computation's) state element i, whose new
  // value (element i of the computation's root) `user` computes, and which
  // nothing reads after `user` runs (readers come earlier in the
  // computation's order, which is the kernels' order): the state buffer is
  // updated in place, as XLA's buffer assignment does.
  int64_t index = tupleIndex(*element);
  const HloComputation *computation = element->parent();
  const HloInstruction *root = computation->root();
  if (root->opcode() != HloOpcode::Tuple || index >= root->operandCount() ||
      root->operand(index) != user)
    return false;
  auto userAt = schedulePosition.find(user);
  if (userAt == schedulePosition.end())
    return false;
  for (const HloInstruction *reader : element->operand(0)->users()) {
    if (reader->opcode() != HloOpcode::GetTupleElement)
      return false;
    if (tupleIndex(*reader) != index)
      continue;
    for (const HloInstruction *use : reader->users()) {
      auto useAt = schedulePosition.find(use);
      if (use != user && (useAt == schedulePosition.end() || useAt->second > userAt->second))
        return false;
    }
  }
  return true;
}

std::vector<size_t> KernelPlan::codeOwners() const {
  ComputationFingerprinter fingerprinter;
  std::map<std::string, size_t> firstWithCode;
  std::vector<size_t> owners;
  for (size_t k = 0; k < kernelList.size(); ++k) {
    const KernelSource &kernel = kernelList[k];
    if (!kernel.computation || kernel.computation->isDeclaration()) {
      owners.push_back(k);
      continue;
    }
    std::string key;
    // What the emitters read from the fusion instruction itself.
    if (kernel.fusion)
      for (const char *name : {"kind", "backend_config"})
        if (const AttrValue *value = kernel.fusion->findAttribute(name)) {
          key += std::string(name) + '=';
          printAttrValue(key, *value);
          key += '\n';
        }
    // Only in-place updates read which buffers the output may take.
    bool updatesInPlace = false;
    for (const auto &instruction : kernel.computation->instructions())
      updatesInPlace |= instruction->opcode() == HloOpcode::DynamicUpdateSlice ||
                        instruction->opcode() == HloOpcode::Scatter;
    key += "reusable=";
    for (int64_t i = 0; updatesInPlace && i < kernel.computation->parameterCount(); ++i)
      key += canReuseInputBuffer(kernel, i) ? '1' : '0';
    key += '\n' + fingerprinter.fingerprint(*kernel.computation);
    owners.push_back(firstWithCode.emplace(std::move(key), k).first->second);
  }
  return owners;
}

bool KernelPlan::canReuseInputBuffer(const KernelSource &kernel, int64_t parameter) const {
  // A bare entry: the module's parameters are the runtime's own buffers.
  if (kernel.computation == entry)
    return true;
  // The value behind the kernel's input `parameter`: a fusion's operand, or
  // a wrapped instruction's distinct operand.
  const HloInstruction *user = kernel.fusion ? kernel.fusion : kernel.origin;
  if (!user)
    return false;
  std::vector<const HloInstruction *> operands;
  for (const HloInstruction *operand : user->operands())
    if (kernel.fusion || std::find(operands.begin(), operands.end(), operand) == operands.end())
      operands.push_back(operand);
  if (parameter >= static_cast<int64_t>(operands.size()))
    return false;
  const HloInstruction *operand = operands[parameter];
  if (operand->opcode() == HloOpcode::Parameter && operand->parent() == entry)
    // A module parameter the module donates to the output this kernel
    // computes (input_output_alias), read by nothing else.
    return operand->users().size() == 1 && operand->users().front() == user &&
           isDonatedTo(operand->parameterNumber(), user);
  if (operand->opcode() == HloOpcode::GetTupleElement &&
      operand->operand(0)->opcode() == HloOpcode::Parameter && operand->parent() != entry)
    return isLoopStateUpdatedBy(operand, user);
  // A leaf of a multi-output fusion's (or other step's) result.
  if (operand->opcode() == HloOpcode::GetTupleElement) {
    HloOpcode producer = operand->operand(0)->opcode();
    if (producer != HloOpcode::Fusion && producer != HloOpcode::CustomCall)
      return false;
    return isLastReaderOf(operand, user);
  }
  switch (operand->opcode()) {
  case HloOpcode::Parameter:
  case HloOpcode::Constant:
  case HloOpcode::Bitcast:
  case HloOpcode::Tuple:
    return false;
  default:
    break;
  }
  return isLastReaderOf(operand, user);
}

bool KernelPlan::isLastReaderOf(const HloInstruction *value, const HloInstruction *user) const {
  if (std::count(user->operands().begin(), user->operands().end(), value) != 1)
    return false;
  // The value's buffer: its own, or its producer's leaf, which every
  // get-tuple-element of that index names; and the bitcasts and tuples
  // of each.
  std::vector<const HloInstruction *> aliases;
  if (value->opcode() == HloOpcode::GetTupleElement) {
    for (const HloInstruction *sibling : value->operand(0)->users())
      if (sibling->opcode() == HloOpcode::GetTupleElement &&
          tupleIndex(*sibling) == tupleIndex(*value))
        aliases.push_back(sibling);
  } else {
    aliases.push_back(value);
  }
  auto position = schedulePosition.find(user);
  if (position == schedulePosition.end())
    return false;
  for (size_t i = 0; i < aliases.size(); ++i) {
    const HloInstruction *alias = aliases[i];
    if (alias == alias->parent()->root())
      return false;
    for (const HloInstruction *reader : alias->users()) {
      if (reader == user)
        continue;
      // A bitcast names the buffer again; a tuple passes it on (to a loop,
      // a branch, the root): their readers read it too.
      if (reader->opcode() == HloOpcode::Bitcast || reader->opcode() == HloOpcode::Tuple) {
        aliases.push_back(reader);
        continue;
      }
      auto readAt = schedulePosition.find(reader);
      if (readAt == schedulePosition.end() || readAt->second > position->second)
        return false;
    }
  }
  return true;
}

} // namespace hlo
