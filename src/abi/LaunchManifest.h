//===- LaunchManifest.h - The launch manifest's schema ----------*- C++ -*-===//
//
// Owns the one schema of the JSON manifest that `hlo-compile --manifest`
// writes and hlo-run reads, and both of its directions (printing and
// parsing), so that the two tools cannot drift apart: the target the code
// is for (nvptx, or host with the version of HostKernelAbi.h), then per
// kernel, in execution order, its name, the HLO it computes, the emitter,
// grid/block/shared memory (on the host, whether the block's threads must
// run concurrently), and each parameter's direction, binding (module
// parameter, output, a named intermediate buffer, or a scratch buffer of the
// kernel's own), shape, element type and layout, and whether it is passed
// as a tensor map; a kernel's cluster shape and register bound; a GEMM
// kernel's key and configuration; then what runs between kernels that hlo-compile does not
// generate. Plain C++ on its own small types (ArrayShape, BufferId): hlo-run
// links no LLVM, and neither tool's types are part of the format.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_LAUNCHMANIFEST_H
#define HLO_ABI_LAUNCHMANIFEST_H

#include "abi/ArrayShape.h"
#include "abi/GemmTuning.h"
#include "support/ErrorOr.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace hlo::abi {

/// What a kernel parameter's buffer is: a module parameter, a module
/// output, an intermediate buffer another kernel reads or writes, or a
/// scratch buffer only this kernel's launches use (uninitialized, not a
/// result: a stable sort's positions between its launches).
enum class BufferBinding { Parameter, Output, Buffer, Scratch };

/// A parameter passed by value as a TMA tensor map (CUtensorMap, 128
/// bytes) of its buffer instead of the buffer's address: the runtime
/// encodes it (cuTensorMapEncodeTiled) over the whole bound buffer, its
/// dimensions in the layout's order (most minor first), and the kernel
/// copies boxes of it with the bulk tensor copy engine (sm_90+).
struct TensorMapSpec {
  /// The box a copy moves, in elements per dimension, most minor first
  /// (as many as the buffer has dimensions; each 1 to 256).
  std::vector<int64_t> box;
  /// Shared-memory swizzle of the box in bytes: 0 (none), 32, 64 or 128.
  int64_t swizzleBytes = 0;
};

struct KernelParameter {
  bool isOutput = false;
  BufferBinding binding = BufferBinding::Buffer;
  int64_t number = 0;     // Parameter: the module parameter; Output: the leaf.
  /// Buffer: the producing instruction ("name#leaf"); Scratch: the
  /// kernel's instruction and the scratch number ("name#scratch0").
  std::string bufferName;
  ArrayShape shape;
  int64_t bytes = 0;
  /// The alignment the kernel assumes for the buffer.
  int64_t alignment = 16;
  /// An output that must be the buffer of the kernel's parameter at this
  /// position (an in-place update writes only part of it); -1: its own.
  int64_t aliases = -1;
  /// An output that may be written over the buffer of its input at this
  /// position where that input is dead after the kernel (it reads each
  /// element before writing the same one: analysis/OperandBufferSharing);
  /// the memory plan decides. -1: none.
  int64_t mayReuse = -1;
  /// Passed as a tensor map of the buffer rather than its address.
  std::optional<TensorMapSpec> tensorMap;
};

struct KernelSpec {
  std::string name;
  /// The fusion or wrapped instruction the kernel computes; empty when the
  /// kernel is the whole (fusion-less) entry computation.
  std::string hloInstruction;
  /// The computation holding that instruction (names are unique within a
  /// computation, not across them). Empty in older manifests: any.
  std::string hloComputation;
  std::string emitter;
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
  /// Static shared memory (declared in the code).
  unsigned sharedMemoryBytes = 0;
  /// Dynamic shared memory the launch adds (cuLaunchKernel's
  /// sharedMemBytes); absent from a manifest: 0.
  unsigned dynamicSharedMemoryBytes = 0;
  /// Thread-block clusters of this shape (the launch groups blocks so);
  /// absent: none.
  std::optional<std::array<unsigned, 3>> cluster;
  /// The registers per thread the code is bounded to; 0 (absent): none.
  unsigned maxRegisters = 0;
  /// Host target: the block's threads must run concurrently (barriers,
  /// warp shuffles). Absent from a manifest: assumed.
  bool concurrentThreads = true;
  /// A kernel that takes several launches (a sort's network stages, a
  /// scatter after the copy of its operand) is listed once per launch, in
  /// order, all with the same HLO and parameters: this is launch
  /// `launchIndex` of `launchCount`, and only the last one's outputs are
  /// the HLO's results.
  int64_t launchIndex = 0;
  int64_t launchCount = 1;
  std::vector<KernelParameter> parameters;
  /// A GEMM kernel's key and the configuration it was built with
  /// (GemmTuning.h: what `hlo-run --autotune` tunes); absent: not a GEMM.
  std::optional<GemmKernel> gemm;
};

/// One step of a host computation, in schedule order: what a runtime does
/// there. Values (operands, results) are named by the HLO instruction that
/// produces them, as the kernels' "buffer" bindings are.
struct ProgramStep {
  enum class Kind {
    Launch,      ///< kernels[launch] (each launch of a kernel is a step).
    Copy,        ///< A device-to-device copy of `bytes` (XLA's copy thunk).
    Library,     ///< A library call or runtime operation at `instruction`.
    While,       ///< computations = {condition, body}; predicate = the
                 ///< condition's root (pred[]), read after each condition.
    Conditional, ///< computations = branches; predicate = the branch index
                 ///< (or pred) operand.
    Call,        ///< computations = {callee}.
    Failed,      ///< --keep-going: the kernel for `instruction` did not
                 ///< compile (LaunchManifest::failed says why).
  };
  Kind kind = Kind::Launch;
  /// The host computation the step belongs to and its instruction.
  std::string computation;
  std::string instruction;
  int64_t launch = -1;
  /// Library: the custom-call target, or the fusion kind / backend kind
  /// ("__triton_gemm", "__custom_fusion", ...), or the opcode.
  std::string target;
  std::string opcode;
  std::vector<std::string> operands;
  std::vector<std::string> computations;
  std::string predicate;
  /// Library: the instruction's backend_config, verbatim.
  std::string backendConfig;
  /// Copy: the bytes copied; Library: the bytes of its result buffers.
  int64_t bytes = 0;
  /// Copy: where in its operand's buffer the copied bytes start (a
  /// contiguous slice's first element).
  int64_t sourceOffset = 0;
  /// Copy, Library: the buffers its operands are read from and its result
  /// leaves written to, bound as kernel parameters are (one per operand,
  /// one per array leaf of the result); While: its initial state's
  /// elements and its result leaves.
  std::vector<KernelParameter> arguments, results;
  /// While: the body's root elements, which become the loop state (the
  /// body and condition read element i of their parameter as "PARAM#i").
  std::vector<KernelParameter> bodyResults;
  /// Conditional: `arguments` is the branch index (s32[] or pred[]);
  /// per branch, its operand's array leaves (which the branch reads as
  /// its parameter's leaves, "PARAM#i", or "PARAM" for an array) and its
  /// root's leaves (copied into `results` after it ran).
  std::vector<std::vector<KernelParameter>> branchArguments, branchResults;
  /// The buffers nested computations read their parameter's leaves from,
  /// by name ("PARAM#i", or "PARAM" for an array): While: {the condition's,
  /// the body's}; Conditional: one list per branch. Absent in older
  /// manifests.
  std::vector<std::vector<std::string>> parameterBuffers;
  /// Library: the argument its first result may be written over, where
  /// nothing reads that argument later (a dynamic-update-slice changes
  /// only its update's part of it; a custom call's
  /// output_to_operand_aliasing, e.g. a GEMM's C); -1: none.
  int64_t inPlaceArgument = -1;
};

/// A buffer of the module by what makes it: an array leaf of an
/// instruction's result, or a scratch buffer of the kernel for an
/// instruction. The manifest names it by str(): "name" (an array result),
/// "name#leaf" (leaf `leaf` of a tuple result), "name#scratchN".
struct BufferId {
  std::string producer;
  /// The leaf of a tuple result; -1 for an array result or scratch.
  int64_t leaf = -1;
  /// The scratch buffer's number; -1 for a result.
  int64_t scratch = -1;

  /// Array leaf `leaf` of the `leafCount` leaves `producer` results in.
  static BufferId leafOf(const std::string &producer, size_t leaf, size_t leafCount) {
    return {producer, leafCount > 1 ? static_cast<int64_t>(leaf) : -1, -1};
  }
  /// Scratch buffer `number` of the kernel for `instruction`.
  static BufferId scratchOf(const std::string &instruction, size_t number) {
    return {instruction, -1, static_cast<int64_t>(number)};
  }
  std::string str() const {
    if (scratch >= 0)
      return producer + "#scratch" + std::to_string(scratch);
    return leaf >= 0 ? producer + "#" + std::to_string(leaf) : producer;
  }
};

/// A buffer the module needs, beside the kernels' own bindings: module
/// parameters and outputs, constants (with their HLO literal text), and the
/// values the program's steps produce.
struct BufferSpec {
  enum class Kind { Parameter, Output, Constant, Temporary };
  Kind kind = Kind::Temporary;
  /// The producing instruction (a temporary or constant), or the
  /// parameter's instruction; outputs: "output#N".
  std::string name;
  std::string computation;
  int64_t number = -1;  // parameter or output number
  /// The value's HLO shape with its layout, as text (descriptive: what a
  /// reader of the manifest sees; a tuple for a tuple parameter).
  std::string shape;
  int64_t bytes = 0;
  /// Constant: the literal as HLO text.
  std::string data;
  /// Constant: its values were made up for a `{...}` literal
  /// (FillElidedLiteral.h).
  bool filled = false;
  /// Output: the module parameter the module donates to it
  /// (input_output_alias), whose memory it may take once the parameter
  /// is dead; -1: none.
  int64_t donatedParameter = -1;
};

/// One buffer of the memory plan: the values that are one piece of memory
/// (an in-place update and its operand, a while loop's initial state, state,
/// body results and result, a conditional's branch results and result),
/// by their plan names (ProgramLiveness.h: planName), at `offset` in its
/// allocation, `bytes` long.
struct PlacedBuffer {
  std::vector<std::string> names;
  int64_t offset = 0;
  int64_t bytes = 0;
};

/// Memory of the plan (the driver's BufferPlan): the runtime allocates
/// `bytes` once and places each listed buffer at its offset; buffers
/// whose lives overlap do not overlap in memory (hlo-run checks it:
/// checkMemoryPlan). Module parameters and constants have memory of their
/// own, as XLA's entry parameters and constants do; a parameter's is an
/// allocation here only where other values are that memory.
struct AllocationSpec {
  int64_t bytes = 0;
  std::vector<PlacedBuffer> buffers;
  /// The module parameter whose memory (the caller's argument) this is,
  /// with the values that are that memory (an output updated in place in
  /// it, a loop's state it starts as and no step writes); -1: memory of
  /// the plan's own.
  int64_t parameter = -1;
};

struct LaunchManifest {
  std::string module;
  std::string gpuArch;
  /// "nvptx" (PTX or cubin; the default) or "host" (a shared object).
  std::string target = "nvptx";
  int64_t hostAbiVersion = 0;
  /// The code file, relative to the manifest's directory; empty when the
  /// code went to stdout.
  std::string codeFile;
  /// The module the kernels were compiled from, relative to the manifest's
  /// directory, when hlo-compile's HLO passes rewrote its input (fused an
  /// unoptimized module, split a long reduction); empty when the input was
  /// compiled as written. hlo-run checks it against the input.
  std::string compiledHloFile;
  std::vector<KernelSpec> kernels;
  /// Instructions hlo-compile did not generate code for (name, opcode).
  std::vector<std::pair<std::string, std::string>> notEmitted;
  /// The module as a program: every host computation's steps (entry first,
  /// then while bodies and conditions, branches, callees), and its buffers.
  std::vector<ProgramStep> program;
  std::vector<BufferSpec> buffers;
  /// Shared allocations; a buffer in none has its own.
  std::vector<AllocationSpec> allocations;
  /// --keep-going: kernels that failed to compile (instruction, message).
  std::vector<std::pair<std::string, std::string>> failed;
};

/// How hlo-run names launch `k` in its output, report and saved files: its
/// kernel's name, or "name[instruction]" where the launch runs the function
/// of an earlier kernel with the same code for another HLO instruction.
std::string launchLabel(const std::vector<KernelSpec> &kernels, size_t k);

/// Parses manifest JSON, or says what is wrong with it and where.
ErrorOr<LaunchManifest> parseLaunchManifest(const std::string &json);

/// The manifest as JSON (what parseLaunchManifest reads back).
std::string printLaunchManifest(const LaunchManifest &manifest);

} // namespace hlo::abi

#endif // HLO_ABI_LAUNCHMANIFEST_H
