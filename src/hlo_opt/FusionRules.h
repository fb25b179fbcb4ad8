//===- FusionRules.h - Which producer-consumer fusions are legal and pay -*- C++ -*-===//
//
// Owns the decisions of the fusion passes, apart from their order: which
// instructions may be fused at all, whether a producer may be fused into
// a consumer so that the result is a kernel the emitters make well (at
// most one hero; a reduction only as a hero with an elementwise epilogue;
// nothing fused into the buffer a scatter or dynamic-update-slice updates
// in place; no expensive producer computed again for each element that
// re-reads it), and the cost model: the bytes a kernel boundary moves (the
// producer's result written once and read by every consumer) against the
// bytes the fused consumers read instead (the producer's operands, each
// consumer the ones it does not read already). Ideas from XLA's priority
// fusion and GpuPerformanceModel; the figures are bytes, not time.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_OPT_FUSIONRULES_H
#define HLO_OPT_FUSIONRULES_H

#include "hlo_parser/HloInstruction.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hlo::opt {

/// Whether `opcode` costs many instructions per element (transcendentals,
/// divisions) or reads many elements per element (reductions, gathers).
bool isExpensive(HloOpcode opcode);

/// An instruction the fusion passes may fuse into consumers: a fusion they
/// made (not a GEMM), or an op XLA would fuse (elementwise, data movement,
/// reduce, scalar constants, ...).
bool isFusibleProducer(const HloInstruction &instruction);
/// An instruction producers may be fused into.
bool isFusibleConsumer(const HloInstruction &instruction);

/// Why `producer` may not be fused into `consumer` when it is fused into
/// `consumerCount` consumers at once; empty if it may.
std::string whyNotFuse(const HloInstruction &producer, const HloInstruction &consumer,
                       size_t consumerCount);

/// The bytes of memory traffic fusing `producer` into all of `consumers`
/// saves (negative: costs).
int64_t bytesSaved(const HloInstruction &producer,
                   const std::vector<HloInstruction *> &consumers);

/// The largest operand a dynamic-update-slice may update for the fusion
/// passes to treat it as elementwise (each output element the update's or
/// the operand's), as XLA fuses torax's updates of f64[26] vectors into
/// its loops: writing the whole of such an operand costs nothing beside a
/// launch. A larger one stays the hero of its own kernel, which writes only
/// the update where its operand's buffer may be reused.
constexpr int64_t kElementalUpdateBytes = 64 * 1024;
bool isElementalDynamicUpdateSlice(const HloInstruction &instruction);

/// Bytes of a value (the sum of its leaves for a tuple).
int64_t valueBytes(const Shape &shape);

/// The most instructions and operands a fusion the passes make may have.
constexpr int64_t kMaxFusedInstructions = 2000;
constexpr int64_t kMaxFusionOperands = 64;

} // namespace hlo::opt

#endif // HLO_OPT_FUSIONRULES_H
