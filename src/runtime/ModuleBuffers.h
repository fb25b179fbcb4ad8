//===- ModuleBuffers.h - A whole-module run's buffers and host steps -*- C++ -*-===//
//
// Owns the device buffers of a whole-module run (hlo-run --mode module),
// keyed by the manifest's bindings: a module parameter's buffer holds the
// run's input in the entry's layout, a constant's its literal, any other
// starts as 0xff bytes (so that a read before the write shows); a
// temporary the manifest places in a shared allocation lives there. And the
// program's steps between launches that are not kernels: device copies,
// and library calls (cuBLAS GEMMs, TopK, Triton GEMM fusions), which the
// interpreter evaluates on the host on the buffers' current contents, so
// that the kernels after them read what the library would have written;
// and while loops' state, which their bodies and conditions read and the
// body's results replace after each iteration; and conditionals' branch
// parameters, which the branch that runs reads.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_MODULEBUFFERS_H
#define HLO_RUNTIME_MODULEBUFFERS_H

#include "Device.h"
#include "ManifestTypes.h"
#include "support/ErrorOr.h"

#include "hlo_parser/HloModule.h"
#include "interpreter/Evaluator.h"

#include <map>
#include <string>
#include <vector>

namespace hlo::runtime {

class ModuleBuffers {
public:
  ModuleBuffers(const HloModule &module, Device &device,
                const std::vector<interp::ValuePtr> &inputs)
      : module(module), device(device), inputs(inputs) {}

  /// Places the buffers the manifest's allocations list in that memory
  /// (each allocation is made on first use, filled with 0xff bytes);
  /// others get their own.
  void shareAllocations(const std::vector<abi::AllocationSpec> &allocations);
  /// The device bytes this run has allocated (nothing is freed before
  /// the end: the high-water mark).
  int64_t bytesAllocated() const { return allocatedBytes; }

  /// The buffer `parameter` binds to, allocated and initialized on first
  /// use. An output aliased to an input (`aliasOf` not null) is that
  /// input's buffer.
  ErrorOr<DeviceBuffer> get(const KernelParameter &parameter,
                             const DeviceBuffer *aliasOf = nullptr);
  /// Entry output `number`'s buffer (0 if nothing wrote it).
  DeviceBuffer output(int64_t number) const;

  /// A device copy step: its argument's bytes into its result.
  Status copy(const ProgramStep &step);
  /// A library step: on the device where it runs it (Device::runLibraryStep),
  /// else evaluated by `evaluator` on the host (its arguments downloaded,
  /// the instruction interpreted, its result leaves uploaded). Returns
  /// where it ran ("on the GPU by cuBLASLt ...", "by the interpreter on the
  /// host (why)").
  ErrorOr<std::string> runLibraryCall(const ProgramStep &step, interp::Evaluator &evaluator);
  /// Milliseconds of library step `step` on the device, over the buffers
  /// runLibraryCall gave it (Device::timeLibraryStep).
  ErrorOr<double> timeLibraryCall(const ProgramStep &step, int warmup, int iterations);

  /// While loops. The state of loop `step`, one buffer per element: what
  /// its body and condition read as "PARAM#i" and its results are. To be
  /// called before anything binds those names.
  Status allocateLoopState(const ProgramStep &step);
  /// Copies the initial elements into the state, or (`intoState` false)
  /// the state into results that are not the state's own buffers.
  Status copyLoopState(const ProgramStep &step, bool intoState);
  /// Copies the body's results into the state (all read before any is
  /// written: a body may swap elements).
  Status advanceLoop(const ProgramStep &step);
  /// The pred[] in `parameter`'s buffer.
  ErrorOr<bool> readPredicate(const KernelParameter &parameter);

  /// Conditionals. Buffers for each branch's parameter leaves (what the
  /// branch reads as "PARAM#i", or "PARAM" for an array): to be called
  /// before anything binds those names.
  Status allocateBranchParameters(const ProgramStep &step);
  /// The branch conditional `step`'s index selects: a pred's true runs
  /// branch 0 and false branch 1; an s32 outside [0, n) runs the last.
  ErrorOr<size_t> readBranchIndex(const ProgramStep &step);
  /// Copies branch `branch`'s operand leaves into its parameter buffers,
  /// or (`intoBranch` false) its root's leaves into the step's results.
  Status copyBranchValues(const ProgramStep &step, size_t branch, bool intoBranch);

private:
  /// The device buffers of a step's arguments and results, in order.
  struct StepBuffers {
    std::vector<DeviceBuffer> arguments, results;
  };
  ErrorOr<StepBuffers> stepBuffers(const ProgramStep &step);
  static std::string keyOf(const KernelParameter &parameter);
  Status copyBuffer(DeviceBuffer source, DeviceBuffer destination, int64_t bytes);
  /// Device memory of its own, counted.
  ErrorOr<DeviceBuffer> allocate(int64_t bytes);
  /// Where the plan places `name` (0 if it does not), its allocation made
  /// on first use.
  ErrorOr<DeviceBuffer> placedBuffer(const std::string &name, int64_t bytes);
  /// A loop's state or a branch's parameter leaf `name`: where the plan
  /// places it, else memory of its own.
  ErrorOr<DeviceBuffer> stateBuffer(const std::string &name, int64_t bytes);

  const HloModule &module;
  Device &device;
  const std::vector<interp::ValuePtr> &inputs;
  std::map<std::string, DeviceBuffer> buffers; // "p3", "o0", "b:name", "s:name"
  /// The bytes `get` allocated for a key (views and aliases: not known).
  std::map<std::string, int64_t> bufferBytes;
  int64_t allocatedBytes = 0;
  /// Shared allocations: their sizes, their memory once made, and each
  /// shared buffer's allocation and offset.
  std::vector<int64_t> allocationBytes;
  std::vector<DeviceBuffer> allocationMemory;
  std::vector<int64_t> allocationParameter; // the module parameter's, or -1
  std::map<std::string, std::pair<size_t, int64_t>> sharedPlace;
  std::map<const ProgramStep *, std::vector<DeviceBuffer>> loopStates;
  /// Per conditional, per branch, its parameter's leaf buffers.
  std::map<const ProgramStep *, std::vector<std::vector<DeviceBuffer>>> branchParameters;
};

/// Whether a library step can run on the host: the interpreter knows its
/// custom-call, or it is a fusion (its computation is interpreted), and
/// the manifest binds its arguments and results. "" if so, else why not.
std::string libraryStepBlocker(const ProgramStep &step, const HloModule &module);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_MODULEBUFFERS_H
