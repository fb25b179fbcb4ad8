//===- ReferenceCases.h - What the GPU run is checked against --*- C++ -*-===//
//
// Owns the host side of a GPU check, none of which needs a GPU: choosing
// between running the whole module (every kernel, in the manifest's order,
// intermediate buffers passed along) and checking each kernel alone;
// building each case's inputs (seeded, or from .npy files) and its
// expected outputs with the interpreter; and converting arrays to and from
// the kernels' physical buffer layout.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_REFERENCECASES_H
#define HLO_RUNTIME_REFERENCECASES_H

#include "ManifestTypes.h"

#include "hlo_parser/HloModule.h"
#include "interpreter/Evaluator.h"

#include <map>
#include <string>
#include <vector>

namespace hlo::runtime {

/// The constant instruction `name` of the module (the entry's first), the
/// value a kernel reads through a buffer of that name; null if none.
const HloInstruction *moduleConstant(const HloModule &module, const std::string &name);
/// The fusion or wrapped instruction `kernel` computes (null if none; the
/// kernel must name one).
const HloInstruction *findKernelInstruction(const HloModule &module, const KernelSpec &kernel);
/// The instruction `name` of `computation` (any computation when empty),
/// or null.
const HloInstruction *findInstruction(const HloModule &module, const std::string &computation,
                                      const std::string &name);

/// The shape (with its layout) of the entry's output `number`: what its
/// buffer holds, whichever shape the kernel that writes it (through a
/// bitcast) gives it.
const Shape &entryOutputShape(const HloComputation &entry, int64_t number);

/// `logical` (row-major) as the bytes of a buffer with `physical`'s layout.
std::vector<uint8_t> toBufferBytes(const Literal &logical, const Shape &physical);
/// The inverse: a buffer's bytes back to a row-major literal.
Literal fromBufferBytes(const uint8_t *bytes, const Shape &physical);

/// Why the manifest's kernels cannot run as the whole module (library calls
/// between them, kernels inside loops, outputs no kernel writes, ...), or
/// "" when they can.
std::string moduleModeBlocker(const LaunchManifest &manifest, const HloModule &module);

/// The arrays of `value` (a tuple flattened depth-first), in order.
std::vector<Literal> arrayLeaves(const Literal &value);

/// Module parameter values: from `overrides` where given (by parameter
/// number), else seeded. Throws interp::InterpreterError for parameters
/// past the evaluator's size limit.
std::vector<interp::ValuePtr>
moduleInputs(const HloModule &module, const interp::Evaluator &evaluator, uint64_t seed,
             const std::map<int64_t, Literal> &overrides);

/// Whether two modules' entries take and return the same shapes (a
/// reference module, --reference, for the compiled one).
bool sameEntrySignature(const HloModule &a, const HloModule &b);

/// One kernel checked on its own.
struct KernelCase {
  std::vector<Literal> inputs;   ///< per "in" parameter, in order
  std::vector<Literal> expected; ///< per "out" parameter, in order
  /// Per expected output, the f64 magnitudes its bound scales with
  /// (ElementMagnitudes.h); empty: none computed.
  std::vector<Literal> magnitudes;
  /// Per input: generated (0), or too large to generate without a check
  /// (1, --time-only: its literal is empty; the device fills the buffer
  /// with a pattern instead).
  std::vector<char> patterned;
};

/// --time-only: inputs of more elements than this are not generated.
inline constexpr int64_t kTimeOnlyGeneratedElements = int64_t(1) << 20;

/// Inputs and expected outputs of `kernel`: its HLO (fusion, wrapped
/// instruction or bare entry) evaluated on seeded inputs, module
/// parameters taken from `overrides` where the kernel reads them directly.
/// Throws interp::InterpreterError or std::runtime_error. Without
/// `withExpected`, only the checks of the kernel against its HLO and, with
/// `withInputs`, its generated inputs (up to kTimeOnlyGeneratedElements
/// each, larger ones marked `patterned`; no size limit): nothing is
/// evaluated.
/// With `withMagnitudes`, the expected outputs' magnitudes too (what a
/// bound that grows with reductions scales with; ElementMagnitudes.h).
KernelCase buildKernelCase(const KernelSpec &kernel, const HloModule &module,
                           interp::Evaluator &evaluator, uint64_t seed,
                           const std::map<int64_t, Literal> &overrides,
                           bool withExpected = true, bool withMagnitudes = true,
                           bool withInputs = false);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_REFERENCECASES_H
