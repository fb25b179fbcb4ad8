//===- KernelCheckCommand.cpp - hlo-run's kernel check --------------------===//
//
// Loads the compiled code on the device its manifest is for (a GPU through
// the CUDA driver, or this CPU through the host launcher), runs the
// manifest's kernels and compares every output with the interpreter, in
// one of three modes: the whole module as its program says (launches,
// copies, library calls on the host, while loops; buffers in
// ModuleBuffers), each kernel alone on seeded inputs, or each kernel
// replayed on the values the interpreter computes for its operands. With
// --bench it times each kernel against a copy of the same traffic on the
// same device. A kernel that faults fails the check.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ElementMagnitudes.h"
#include "GemmPlan.h"
#include "GpuContext.h"
#include "KernelCheckBase.h"
#include "KernelReport.h"
#include "ModuleBuffers.h"
#include "ReferenceCases.h"
#include "host/HostDevice.h"

#include "abi/HostKernelAbi.h"
#include "abi/ManifestProgram.h"
#include "abi/ProgramLiveness.h"

#include "interpreter/Npy.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/SourceFile.h"

#include <cstdio>
#include <algorithm>
#include <iostream>
#include <set>

#include <unistd.h>

namespace hlo::runtime {
namespace {

class KernelCheck : public KernelCheckBase {
public:
  KernelCheck(const RunOptions &options, const HloModule &module,
              const LaunchManifest &manifest, Device &device, const HloModule *reference)
      : KernelCheckBase(options, module, manifest, device), reference(reference) {
    if (reference) {
      referenceEvaluator = std::make_unique<interp::Evaluator>(*reference);
      referenceEvaluator->setMaxWhileIterations(options.maxWhileIterations);
      referenceEvaluator->setMaxElements(options.maxElements);
    }
  }

  int run(bool wholeModule, const std::map<int64_t, Literal> &given) {
    if (!options.xlaKernelsDir.empty()) {
      ErrorOr<XlaKernelTable> table = XlaKernelTable::read(options.xlaKernelsDir);
      if (!table)
        return fail(table.error());
      std::cout << "XLA's kernels: " << table->size() << " from " << options.xlaKernelsDir
                << "\n";
      xlaKernels = std::move(*table);
    }
    functions.resize(manifest.kernels.size());
    for (size_t k = 0; k < manifest.kernels.size(); ++k) {
      ErrorOr<DeviceKernel> function = device.findKernel(manifest.kernels[k]);
      if (!function)
        return fail(function.error());
      functions[k] = *function;
    }
    rows.resize(manifest.kernels.size());
    for (size_t k = 0; k < manifest.kernels.size(); ++k) {
      rows[k].kernel = launchLabel(manifest.kernels, k);
      rows[k].emitter = manifest.kernels[k].emitter;
    }
    int status = options.mode == CheckMode::Replay ? runReplay(given)
                 : wholeModule                      ? runModule(given)
                                                    : runKernels(given);
    if (status == kExitSkipped) {
      std::cout << "SKIPPED: all " << skipped << " kernel(s) need more than the "
                << "interpreter's limit (--max-elements); nothing was checked\n";
      return status;
    }
    if (status != kExitPass && status != kExitMismatch)
      return status;
    if (faulted)
      status = kExitMismatch;
    if (!options.reportPath.empty() && !reportedAsItWent && !appendKernelReport(options.reportPath, manifest.module, rows,
                                                      xlaKernels.has_value()))
      return kExitError;
    if ((options.launchOnly || options.timeOnly) && status == kExitPass) {
      std::cout << "LAUNCHED: every kernel ran; nothing was checked ("
                << (options.timeOnly ? "--time-only" : "--launch-only") << ")\n";
      return status;
    }
    std::cout << (status == kExitPass ? "PASS" : "FAIL");
    if (skipped)
      std::cout << " (" << checked << " kernel(s) checked, " << skipped
                << " skipped: over the interpreter's limit)";
    std::cout << "\n";
    return status;
  }

private:
  /// Runs the program's steps of `computation` in schedule order: launches,
  /// device copies, library calls on the host, while loops (their
  /// condition and body, recursively), conditionals (the branch the index
  /// selects). kExitPass, or the exit status after
  /// an error (reported) or a kernel fault.
  int runSteps(const std::string &computation, ModuleBuffers &buffers,
               const std::vector<std::vector<DeviceBuffer>> &arguments) {
    for (const ProgramStep &step : manifest.program) {
      if (step.computation != computation)
        continue;
      Status done = Status::success();
      switch (step.kind) {
      case ProgramStep::Kind::Launch:
        if (!launch(static_cast<size_t>(step.launch), arguments[step.launch]))
          return faulted ? kExitMismatch : kExitError;
        break;
      case ProgramStep::Kind::Copy:
        done = buffers.copy(step);
        break;
      case ProgramStep::Kind::Library: {
        ErrorOr<std::string> where = buffers.runLibraryCall(step, evaluator);
        if (where && announced.insert(&step).second)
          std::cout << "library " << step.instruction << " (" << step.target << "): " << *where
                    << "\n";
        if (where && where->rfind("on the GPU", 0) == 0)
          ranOnDevice.insert(&step);
        done = where.status();
        break;
      }
      case ProgramStep::Kind::While: {
        if (Status copied = buffers.copyLoopState(step, /*intoState=*/true); !copied)
          return fail(copied.error());
        int64_t iteration = 0;
        for (;; ++iteration) {
          if (int status = runSteps(step.computations[0], buffers, arguments);
              status != kExitPass)
            return status;
          const KernelParameter *predicate = conditionResult(step);
          if (!predicate)
            return fail("while '" + step.instruction + "': no kernel computes its " +
                        "condition's root '" + step.predicate + "'");
          ErrorOr<bool> more = buffers.readPredicate(*predicate);
          if (!more)
            return fail(more.error());
          if (!*more)
            break;
          if (iteration >= options.maxWhileIterations)
            return fail("while '" + step.instruction + "' ran past " +
                        std::to_string(options.maxWhileIterations) + " iterations");
          if (int status = runSteps(step.computations[1], buffers, arguments);
              status != kExitPass)
            return status;
          if (Status advanced = buffers.advanceLoop(step); !advanced)
            return fail(advanced.error());
        }
        std::cout << "while " << step.instruction << ": " << iteration << " iteration(s)\n";
        done = buffers.copyLoopState(step, /*intoState=*/false);
        break;
      }
      case ProgramStep::Kind::Conditional: {
        ErrorOr<size_t> selected = buffers.readBranchIndex(step);
        if (!selected)
          return fail(selected.error());
        size_t branch = *selected;
        if (Status copied = buffers.copyBranchValues(step, branch, /*intoBranch=*/true);
            !copied)
          return fail(copied.error());
        std::cout << "conditional " << step.instruction << ": branch " << branch << " ("
                  << step.computations[branch] << ")\n";
        if (int status = runSteps(step.computations[branch], buffers, arguments);
            status != kExitPass)
          return status;
        done = buffers.copyBranchValues(step, branch, /*intoBranch=*/false);
        break;
      }
      default: // refused by moduleModeBlocker
        done = Status::failure("program step '" + step.instruction +
                               "' cannot run in module mode");
      }
      if (!done)
        return fail(done.error());
    }
    return kExitPass;
  }

  /// The plan's bytes beside what this run allocated (and, on a GPU, how
  /// much its memory in use grew).
  void reportMemory(int64_t allocated, std::optional<int64_t> inUseBefore) {
    auto megabytes = [](int64_t bytes) {
      if (bytes < 1000000)
        return std::to_string(bytes) + " bytes";
      char text[32];
      std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
      return std::string(text);
    };
    abi::PlanBytes plan = abi::planBytes(manifest);
    size_t ownAllocations = 0; // not a parameter's memory
    for (const abi::AllocationSpec &allocation : manifest.allocations)
      ownAllocations += allocation.parameter < 0;
    std::cout << "memory: the plan's peak is " << megabytes(plan.total()) << " (parameters "
              << megabytes(plan.parameters) << ", constants " << megabytes(plan.constants)
              << ", " << ownAllocations << " allocation(s) "
              << megabytes(plan.allocations) << "); this run allocated " << megabytes(allocated);
    std::optional<int64_t> inUseAfter = device.memoryInUse();
    if (inUseBefore && inUseAfter)
      std::cout << "; the GPU's memory in use grew by " << megabytes(*inUseAfter - *inUseBefore);
    std::cout << "\n";
  }

  /// The output of the kernel that computes while `step`'s condition.
  const KernelParameter *conditionResult(const ProgramStep &step) const {
    for (const KernelSpec &kernel : manifest.kernels)
      if (kernel.hloInstruction == step.predicate &&
          kernel.hloComputation == step.computations.at(0))
        for (const KernelParameter &parameter : kernel.parameters)
          if (parameter.isOutput)
            return &parameter;
    return nullptr;
  }

  int runModule(const std::map<int64_t, Literal> &given) {
    std::cout << "checking the module as a whole: " << manifest.kernels.size()
              << " kernel(s) in order\n";
    std::vector<interp::ValuePtr> inputs;
    std::vector<Literal> expected, magnitudes;
    bool scaleByLargest = false;
    // The library calls of the entry run in the interpreter on both sides.
    std::set<std::string> libraryCalls;
    for (const ProgramStep &step : manifest.program)
      if (step.kind == ProgramStep::Kind::Library && step.computation == module.entry()->name())
        libraryCalls.insert(step.instruction);
    // The kernels that sum their reduces in one thread, in order.
    std::set<std::string> inThreadKernels;
    for (const KernelSpec &kernel : manifest.kernels)
      if (emitterReducesInOneThread(kernel.emitter))
        inThreadKernels.insert(kernel.hloInstruction);
    try {
      // The program's oracle: the reference module where one was given.
      const HloModule &oracle = reference ? *reference : module;
      interp::Evaluator &oracleEvaluator = reference ? *referenceEvaluator : evaluator;
      if (reference && !sameEntrySignature(*reference, module))
        return fail("the reference module's entry takes or returns other shapes than the "
                    "compiled module's");
      inputs = moduleInputs(oracle, oracleEvaluator, options.seed, given);
      if (!options.launchOnly) {
        ModuleReference evaluated = evaluateModuleReference(
            oracleEvaluator, inputs, anyGrowth(moduleOutputDepths(*module.entry(), libraryCalls, inThreadKernels)));
        if (evaluated.scaleByLargest)
          std::cout << "note: the module computes arrays of more than " << kMagnitudeElementLimit
                    << " elements: its outputs' bounds scale with each output's largest value, "
                       "not with each element's |terms| (which would double the interpreter's "
                       "memory); --mode replay checks each kernel with per-element bounds\n";
        expected = std::move(evaluated.expected);
        magnitudes = std::move(evaluated.magnitudes);
        scaleByLargest = evaluated.scaleByLargest;
      }
      else // nothing is evaluated, but the results keep the same size limit
        for (const KernelSpec &kernel : manifest.kernels) {
          const HloInstruction *result = kernel.hloInstruction.empty()
                                             ? module.entry()->root()
                                             : findKernelInstruction(module, kernel);
          if (result)
            evaluator.checkSize(*result, result->shape());
        }
    } catch (const interp::InterpreterLimitError &error) {
      if (options.skipOversized && options.mode != CheckMode::Module) {
        std::cout << "note: the module's reference is out of the interpreter's reach ("
                  << error.what() << "); checking its kernels one at a time instead "
                  << "(--skip-oversized)\n";
        return runKernels(given);
      }
      std::cerr << interp::formatInterpreterError(module, error);
      std::cerr << "hlo-run: note: --max-elements raises the limit (memory permitting); "
                   "--mode kernels --skip-oversized checks each kernel that fits on its own "
                   "inputs and skips the others\n";
      return kExitError;
    } catch (const interp::InterpreterError &error) {
      std::cerr << interp::formatInterpreterError(module, error);
      return kExitError;
    }
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i]->shape().isArray() && !save("input_" + std::to_string(i), *inputs[i]))
        return kExitError;
    std::optional<int64_t> inUseBefore = device.memoryInUse();
    ModuleBuffers buffers(module, device, inputs);
    // The plan makes an in-place output one buffer with its input:
    // --no-aliasing (each output its own) runs without it.
    if (!options.noBufferSharing && !options.noAliasing) {
      // A plan that puts two live buffers in the same memory is refused
      // before anything runs.
      if (Status valid = abi::checkMemoryPlan(manifest, abi::programLiveness(manifest)); !valid)
        return fail(valid.error());
      buffers.shareAllocations(manifest.allocations);
    }
    // Loop states and branch parameters first: the kernels of loop bodies
    // and branches bind to them by name.
    for (const ProgramStep &step : manifest.program) {
      Status allocated = Status::success();
      if (step.kind == ProgramStep::Kind::While)
        allocated = buffers.allocateLoopState(step);
      else if (step.kind == ProgramStep::Kind::Conditional)
        allocated = buffers.allocateBranchParameters(step);
      if (!allocated)
        return fail(allocated.error());
    }
    std::vector<std::vector<DeviceBuffer>> arguments(manifest.kernels.size());
    for (size_t k = 0; k < manifest.kernels.size(); ++k)
      for (const KernelParameter &parameter : manifest.kernels[k].parameters) {
        // An in-place output is the aliased input's buffer.
        bool inPlace = parameter.aliases >= 0 && !options.noAliasing;
        ErrorOr<DeviceBuffer> pointer = buffers.get(
            parameter,
            inPlace ? &arguments[k].at(static_cast<size_t>(parameter.aliases)) : nullptr);
        if (!pointer)
          return fail(pointer.error());
        arguments[k].push_back(*pointer);
      }
    // The entry's program: its launches, device copies and library calls,
    // in schedule order (a manifest without one: the kernels in order).
    const HloComputation *entry = module.entry();
    std::vector<const ProgramStep *> steps;
    for (const ProgramStep &step : manifest.program)
      if (step.computation == entry->name())
        steps.push_back(&step);
    if (manifest.program.empty())
      for (size_t k = 0; k < manifest.kernels.size(); ++k)
        if (!launch(k, arguments[k]))
          return faulted ? kExitMismatch : kExitError;
    if (int status = runSteps(entry->name(), buffers, arguments); status != kExitPass)
      return status;
    reportMemory(buffers.bytesAllocated(), inUseBefore);
    bool passed = true;
    std::vector<ReductionDepth> outputDepths = moduleOutputDepths(*entry, libraryCalls, inThreadKernels);
    // Entry output `number` (`bytes` long) against the interpreter, read in
    // the entry's layout; false after a download or save error.
    auto checkEntryOutput = [&](int64_t number, int64_t bytes, KernelRow &row) {
      std::vector<uint8_t> data(static_cast<size_t>(bytes));
      if (Status downloaded = device.download(buffers.output(number), data); !downloaded) {
        fail(downloaded.error());
        return false;
      }
      Literal actual = fromBufferBytes(data.data(), entryOutputShape(*entry, number));
      if (options.launchOnly) {
        // Not compared, but kept (--save-dir): another run's outputs may be
        // (bench/gemm compares ours with cuBLAS's at sizes the interpreter
        // cannot reach).
        reportLaunchedOnly("output " + std::to_string(number), entryOutputShape(*entry, number));
        return save("output_" + std::to_string(number), actual);
      }
      Literal scale;
      if (scaleByLargest)
        scale = largestValueScale(expected.at(number));
      passed &= checkOutput("output " + std::to_string(number), expected.at(number), actual,
                            row, outputDepths.at(number),
                            scaleByLargest ? &scale
                            : static_cast<size_t>(number) < magnitudes.size()
                                ? &magnitudes[static_cast<size_t>(number)]
                                : nullptr);
      return save("output_" + std::to_string(number), actual);
    };
    for (size_t k = 0; k < manifest.kernels.size(); ++k) {
      printKernel(k);
      for (const KernelParameter &parameter : manifest.kernels[k].parameters) {
        // A kernel of several launches: its outputs, after its last.
        if (parameter.binding != BufferBinding::Output || !parameter.isOutput ||
            manifest.kernels[k].launchIndex + 1 != manifest.kernels[k].launchCount)
          continue;
        if (!checkEntryOutput(parameter.number, parameter.bytes, rows[k]))
          return kExitError;
      }
    }
    // Outputs a device copy, library call, loop or conditional wrote.
    for (const ProgramStep *step : steps)
      for (const KernelParameter &result : step->results) {
        if (result.binding != BufferBinding::Output)
          continue;
        std::cout << abi::stepKindName(step->kind) << " " << step->instruction << "\n";
        KernelRow row;
        if (!checkEntryOutput(result.number, result.bytes, row))
          return kExitError;
      }
    // Timing relaunches each kernel on the module's buffers, so it comes
    // after every check: relaunching a sort's first pass or an in-place
    // update before a later kernel's check would change what it reads.
    if (options.bench) {
      for (size_t k = 0; k < manifest.kernels.size(); ++k) {
        std::cout << "timing " << rows[k].kernel << "\n";
        if (!bench(k, arguments[k]))
          return kExitError;
      }
      // The entry's library calls the device ran (cuBLAS GEMMs), the same
      // way: the other side of a GEMM comparison (bench/gemm).
      for (const ProgramStep &step : manifest.program)
        if (step.kind == ProgramStep::Kind::Library &&
            step.computation == module.entry()->name() && ranOnDevice.count(&step))
          benchLibraryStep(step, buffers);
    }
    return passed ? kExitPass : kExitMismatch;
  }

  /// Replay: the interpreter runs the module; the first time it evaluates
  /// an instruction that a kernel computes (in the entry, or a loop body
  /// or condition), the kernel runs on the operands' values and is checked
  /// against the instruction's value. Each kernel sees the values the
  /// model gives it, and no other kernel's errors.
  int runReplay(const std::map<int64_t, Literal> &given) {
    const HloComputation *entry = module.entry();
    // "computation/instruction" -> the kernel's first launch.
    std::map<std::string, size_t> kernelOf;
    for (size_t k = 0; k < manifest.kernels.size(); ++k) {
      const KernelSpec &kernel = manifest.kernels[k];
      std::string computation =
          kernel.hloComputation.empty() ? entry->name() : kernel.hloComputation;
      if (kernel.launchIndex == 0 && !kernel.hloInstruction.empty())
        kernelOf.emplace(computation + "/" + kernel.hloInstruction, k);
    }
    std::cout << "replaying " << kernelOf.size() << " kernel(s) on the values the "
              << "interpreter computes for their operands (in loops: the first "
              << "iteration's)\n";
    bool passed = true;
    int status = kExitPass;
    std::set<size_t> replayed;
    // (The magnitudes re-evaluate the kernel's instruction, loops' bodies
    // included: not a replay of their own.)
    bool measuring = false;
    evaluator.setObserver([&](const HloInstruction &instruction,
                              const std::vector<interp::ValuePtr> &operands,
                              const interp::ValuePtr &value) {
      auto found = kernelOf.find(instruction.parent()->name() + "/" + instruction.name());
      if (measuring || status != kExitPass || found == kernelOf.end() ||
          replayed.count(found->second))
        return;
      size_t k = found->second;
      replayed.insert(k);
      for (size_t j = k; j < k + static_cast<size_t>(manifest.kernels[k].launchCount); ++j)
        printKernel(j);
      // The kernel's inputs: a fusion's operands, or a wrapped
      // instruction's distinct operands.
      KernelCase check;
      std::vector<const HloInstruction *> seen;
      for (size_t i = 0; i < operands.size(); ++i) {
        const HloInstruction *operand = instruction.operand(static_cast<int64_t>(i));
        if (instruction.opcode() != HloOpcode::Fusion &&
            std::find(seen.begin(), seen.end(), operand) != seen.end())
          continue;
        seen.push_back(operand);
        check.inputs.push_back(*operands[i]);
      }
      check.expected = arrayLeaves(*value);
      if (!anyGrowth(kernelOutputDepths(manifest.kernels[k]))) {
        status = checkKernelCase(k, check, passed);
        return;
      }
      measuring = true;
      try {
        check.magnitudes =
            evaluateInstructionWithMagnitudes(evaluator, instruction, operands).magnitudes;
      } catch (const std::exception &) {
        check.magnitudes.clear(); // each element's own size
      }
      measuring = false;
      status = checkKernelCase(k, check, passed);
    });
    try {
      std::vector<interp::ValuePtr> inputs = moduleInputs(module, evaluator, options.seed, given);
      evaluator.run(inputs);
    } catch (const interp::InterpreterError &failure) {
      std::cerr << interp::formatInterpreterError(module, failure);
      return kExitError;
    } catch (const std::exception &failure) {
      return fail(failure.what());
    }
    evaluator.setObserver(nullptr);
    if (status != kExitPass)
      return status;
    for (size_t k = 0; k < manifest.kernels.size(); ++k)
      if (manifest.kernels[k].launchIndex == 0 && !replayed.count(k))
        std::cout << "note: " << rows[k].kernel << " not replayed ("
                  << (manifest.kernels[k].hloInstruction.empty()
                          ? std::string("it runs as the whole entry")
                          : "the interpreter never evaluated '" +
                                manifest.kernels[k].hloInstruction + "'")
                  << ")\n";
    // Checking nothing is no pass.
    if (replayed.empty()) {
      std::cerr << "hlo-run: error: replay checked no kernel ("
                << (manifest.kernels.empty() ? std::string("the manifest has none")
                                             : "the interpreter evaluated none of their "
                                               "instructions")
                << ")\n";
      return kExitError;
    }
    return passed ? kExitPass : kExitMismatch;
  }

  const HloModule *reference;
  std::unique_ptr<interp::Evaluator> referenceEvaluator;
  /// Library steps already announced (loops run them many times), and
  /// those the device ran (a GPU's library, not the interpreter).
  std::set<const ProgramStep *> announced, ranOnDevice;

  /// --bench: times library step `step` on the module's buffers and
  /// prints its time (a GEMM's TFLOP/s too); a note where it cannot be.
  void benchLibraryStep(const ProgramStep &step, ModuleBuffers &buffers) {
    std::cout << "timing library " << step.instruction << " (" << step.target << ")\n";
    ErrorOr<double> milliseconds =
        buffers.timeLibraryCall(step, options.warmup, options.iterations);
    if (!milliseconds) {
      std::cout << "  note: " << milliseconds.error() << "\n";
      return;
    }
    std::cout << "  " << device.timeDomain() << " time " << formatNumber(*milliseconds * 1e3)
              << " us (" << device.timingMethod(options.iterations) << ")";
    std::variant<GemmPlan, std::string> plan = planGemm(step);
    if (const GemmPlan *gemm = std::get_if<GemmPlan>(&plan); gemm && *milliseconds > 0)
      std::cout << ", " << formatNumber(2.0 * gemm->m * gemm->n * gemm->k * gemm->batch /
                                        (*milliseconds * 1e-3) / 1e12)
                << " TFLOP/s";
    std::cout << "\n";
  }
};

} // namespace

int runKernelCheck(const RunOptions &options, const LaunchManifest &manifest,
                   const HloModule &module, const HloModule *reference) {
  bool host = manifest.target == "host";
  if (host && manifest.hostAbiVersion != HLO_HOST_ABI_VERSION) {
    std::cerr << options.manifestPath << ": error: the kernels were compiled for host ABI "
              << "version " << manifest.hostAbiVersion << ", this hlo-run implements "
              << HLO_HOST_ABI_VERSION << " (recompile them)\n";
    return kExitError;
  }
  std::string codePath = options.codePath;
  if (codePath.empty() && manifest.codeFile.empty()) {
    std::cerr << options.manifestPath << ": error: the manifest names no code file (it was "
              << "written to the standard output): give --code\n";
    return kExitError;
  }
  if (codePath.empty())
    codePath = besideManifest(options.manifestPath, manifest.codeFile);
  std::map<int64_t, Literal> given;
  if (!readInputFiles(options, module, given) || !createDirectories(options.saveDir))
    return kExitError;

  std::string blocker = moduleModeBlocker(manifest, module);
  if (!options.xlaKernelsDir.empty()) {
    if (options.mode == CheckMode::Module) {
      std::cerr << "hlo-run: error: --xla-kernels compares kernel by kernel: use --mode "
                   "kernels or replay\n";
      return kExitError;
    }
    if (blocker.empty())
      blocker = "--xla-kernels: each kernel beside XLA's, kernel by kernel";
  }
  bool wholeModule = options.mode == CheckMode::Module ||
                     (options.mode == CheckMode::Auto && blocker.empty());
  if (options.mode == CheckMode::Module && !blocker.empty()) {
    std::cerr << "hlo-run: error: cannot run the module as a whole: " << blocker << "\n";
    return kExitError;
  }

  std::unique_ptr<Device> device;
  if (host) {
    device = std::make_unique<HostDevice>(manifest.gpuArch, options.hostThreads);
  } else {
    ErrorOr<std::unique_ptr<GpuContext>> gpu = GpuContext::open(options.device);
    if (!gpu) {
      // Say what the manifest is for: a GPU manifest may have been taken
      // for the host one (both are named after their code file).
      std::cerr << "hlo-run: " << options.manifestPath << " is for the GPU (target "
                << manifest.target << ", " << manifest.gpuArch << ", code "
                << manifest.codeFile << ") and this machine cannot run it: " << gpu.error()
                << "; nothing was run (--interpret runs the reference interpreter alone; "
                   "hlo-compile --target=host -o NAME.so compiles kernels this CPU runs, "
                   "with their manifest NAME.so.json)\n";
      return kExitNoGpu;
    }
    device = std::move(*gpu);
  }
  std::cout << "device: " << device->description() << "\n";
  if (!device->arch().empty() && manifest.gpuArch != device->arch())
    std::cout << "note: the code was compiled for " << manifest.gpuArch
              << ", the device is " << device->arch() << "\n";
  if (Status loaded = device->loadCode(codePath); !loaded) {
    std::cerr << "hlo-run: error: " << codePath << ": " << loaded.error() << "\n";
    return kExitError;
  }
  if (!wholeModule && options.mode == CheckMode::Auto)
    std::cout << "note: " << blocker << "\n";
  for (const auto &[instruction, failure] : manifest.failed)
    std::cout << "note: not compiled, not checked: " << instruction << ": " << failure << "\n";
  RunOptions resolved = options;
  if (resolved.warmup < 0)
    resolved.warmup = host ? 1 : 10;
  if (resolved.iterations < 0)
    resolved.iterations = host ? 5 : 100;
  KernelCheck check(resolved, module, manifest, *device, reference);
  return check.run(wholeModule, given);
}

} // namespace hlo::runtime
