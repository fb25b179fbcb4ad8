//===- ReductionTolerance.h - Tolerances that grow with reductions -*- C++ -*-===//
//
// Owns how much further than the per-type default a float result may lie
// from the interpreter's when it comes out of reductions. The interpreter
// folds a reduce's n elements in order; a kernel folds them as a tree (a
// thread's run, then warps, then a block), and float addition is not
// associative, so the two may differ by the rounding each order commits.
//
// Derivation. For a sum of n terms in precision u (unit roundoff, 2^-p for
// p significand bits), any order errs by at most gamma_{n-1} * sum|x_i|,
// gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., sec. 4.2); with rounding errors modelled as
// independent and zero-mean, by lambda * sqrt(n) * u * sum|x_i| with
// probability that grows quickly with lambda (Higham & Mary, SIAM J. Sci.
// Comput. 41(5), 2019, Thm 3.1). Kernel and interpreter each err that much,
// so their difference is bounded by 2 lambda sqrt(n) u sum|x_i|. The check
// takes sum|x_i| per element from the interpreter (ElementMagnitudes.h:
// for a dot, sum_k |a_ik||b_kj|; carried through the ops after it), never
// from the array's largest value, which would let a missing K step pass
// wherever values are small. With lambda = 2:
//
//   |actual - expected| <= atol + rtol |expected| + (4 sqrt(n) u + p) m
//
// where m is the element's magnitude, p the relative error each product
// may carry whatever n is (TF32 inputs of an f32 dot: 2 * 2^-11),
// where n multiplies the element counts of the float reductions (reduce,
// reduce-window, dot, and scatters whose indices may repeat: the slices
// that may land on one element, plus the operand, since atomics combine
// them in no fixed order) along the deepest path to the output and u is the
// coarsest unit roundoff they accumulate in (a dot: f32's, f64's for f64,
// whatever its output type; the output's one rounding is the type's
// default tolerance).
// Terms a broadcast replicates
// along the reduced dimensions are equal, and their rounding errors do not
// cancel: such a reduce counts as n^2 terms, for the deterministic 4 n u.
// Sums in one thread. A kernel whose emitter computes each output element
// in one thread (a loop fusion's reduce, elemental) adds its n terms in
// order. There the errors need not cancel (terms of one sign and near one
// size round alike at every step: 64416 terms of 0.001 in f32 err by
// 3.7e-4 of their sum, 6x 4 sqrt(n) u), and the bound is the deterministic
// one, (n - 1) u per such sum, u f32's for f16/bf16 sums (the elemental
// reduce accumulates them in f32). The interpreter's sum is exact.
// Overflow. A sum accumulated in a narrow type (f16 and bf16 reduces
// accumulate in their own type in XLA's kernels, as in ours) may overflow
// a partial sum in one order and not in another: where an element's sum of
// |terms| exceeds the narrowest accumulator's largest finite value, an
// infinity of either sign or a NaN on either side is accepted and the
// element is reported among those the bound cannot judge.
// Integer, pred and exact
// (max/min) results keep the default, except integers that are a reduced
// float's bits (a bitcast), which are compared as those floats; an explicit
// --atol/--rtol wins.
//
// Across kernels (a whole module run as its kernels and library calls) the
// product is no longer the right model: each kernel's result is rounded and
// stored, so errors compose additively, not as one long sum. There the
// growth is a sum over the stages (kernels and library calls) on the
// deepest path: each adds its own 4 sqrt(n) u and, once any difference has
// reached it, 2 u_out for the next stage -- its stored result, rounded to
// its type, may then round the other way (one unit in the last place,
// 2 u_out relative; for the output itself, its type's default). This
// is first order: the magnitudes carry each stage's errors through the
// ops after it (ElementMagnitudes.h). In bf16 each stage after the first
// difference costs 2^-7 of the element's magnitude: the bound catches a
// misplaced buffer or a wrong kernel, not a one-unit slip of one element;
// replay mode checks each kernel on its own with the tight bound above.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_REDUCTIONTOLERANCE_H
#define HLO_RUNTIME_REDUCTIONTOLERANCE_H

#include "Comparison.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/Literal.h"

#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hlo::runtime {

/// The float reductions a value has gone through.
struct ReductionDepth {
  /// Product of the reduced element counts along the deepest path (1:
  /// none).
  double elements = 1;
  /// The largest unit roundoff among those reductions' accumulations.
  double unitRoundoff = 0;
  /// The relative error (to the element's magnitude) of the sums a kernel
  /// runs in one thread, in order, added along the path: (n - 1) u each.
  double sequentialGrowth = 0;
  /// The largest finite value of the narrowest type a reduction on the
  /// way accumulates in (+inf: none). An element whose sum of |terms|
  /// exceeds it may see a partial sum overflow in the kernel's order and
  /// not in the interpreter's, or the other way (an f16 sum whose exact
  /// value is beyond 65504, accumulated in f16 as XLA's kernels do, gives
  /// +inf, -inf or NaN by order).
  double accumulatorLimit = std::numeric_limits<double>::infinity();
  /// The relative error each product may carry whatever the count (TF32
  /// inputs of an f32 dot: 2^-10), to the element's sum of |terms|.
  double productRoundoff = 0;
  /// Across kernels: the relative error (to the output's scale) carried
  /// from the stages before the current one (0: none, or within a kernel).
  double stageGrowth = 0;
  /// Across kernels: the rounding of the last stage's stored result once a
  /// difference has reached it (2 u of its type), which the stages after
  /// it add to their growth (the output itself: its type's default).
  double storedRounding = 0;
  /// An integer output that holds a float's bits (a bitcast of a reduced
  /// float): compared as that float type.
  std::optional<PrimitiveType> bitsOfFloat;
  /// An integer output converted from a reduced float (or moved since):
  /// an order-dependent difference of the float may cross a rounding
  /// boundary, so it may differ by the float's bound (at least one), and
  /// by no more.
  bool roundedFromFloat = false;
  /// Whether some op on the way computed (not only moved or converted the
  /// module's exact inputs): roundings from there on may go either way.
  bool computed = false;
  /// The coarsest float type among the values computed on the way to the
  /// output, from the first computing op on: a convert(logistic(f32)) to
  /// f64 was rounded to f32 and is judged at f32's tolerance, not f64's;
  /// a parameter converted to f8 and back, or concatenated with f8 values,
  /// was rounded the same way on both sides and keeps its own type's.
  std::optional<PrimitiveType> computedIn;
};

/// The coarser (larger unit roundoff) of two float types, either absent.
std::optional<PrimitiveType> coarserFloatType(std::optional<PrimitiveType> a,
                                              std::optional<PrimitiveType> b);

/// Whether a kernel of this emitter ("kLoop/LoopFusion", as the manifest
/// names it) computes each output element in one thread, summing its
/// reduces in order (loop, transpose, scatter, concatenate kernels), rather
/// than in a tree across threads (reductions, block-level kernels).
bool emitterReducesInOneThread(const std::string &emitter);

/// For each array leaf of `computation`'s result, in order, when its
/// parameters carry `parameterDepths` (empty: none reduced); with
/// `inOneThread`, its reduces run in order in one thread (see above).
std::vector<ReductionDepth> reductionDepths(const HloComputation &computation,
                                            const std::vector<ReductionDepth> &parameterDepths = {},
                                            bool inOneThread = false);

/// For each array leaf of a module's entry run as its kernels: fusions,
/// calls and library calls are stages whose errors add (see above). The
/// custom-calls and the fusions named in `libraryCalls` (Triton GEMMs)
/// run in the interpreter on both sides: they add only their rounding.
/// The fusions named in `inThreadKernels` sum their reduces in one thread
/// (an empty name: the entry itself is such a kernel).
std::vector<ReductionDepth> moduleOutputDepths(const HloComputation &entry,
                                               const std::set<std::string> &libraryCalls = {},
                                               const std::set<std::string> &inThreadKernels = {});

/// Whether any of `depths` allows growth (only then are an output's
/// magnitudes worth computing).
bool anyGrowth(const std::vector<ReductionDepth> &depths);

/// The relative error (to the output's scale) `depth` allows: the stages'
/// sum plus 4 sqrt(n) u for the reductions since (0: exact).
double reductionGrowth(const ReductionDepth &depth);

/// The reductions of one instruction on fresh inputs (a wrapped kernel).
ReductionDepth reductionDepthOf(const HloInstruction &instruction);

/// `value` (integers holding `floatType`'s bit patterns) as floats.
Literal reinterpretAsFloat(const Literal &value, PrimitiveType floatType);

/// `base` with the growth an output of `type` at that depth may add to
/// each element's magnitude (see above).
Tolerance reductionTolerance(Tolerance base, const ReductionDepth &depth, PrimitiveType type);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_REDUCTIONTOLERANCE_H
