//===- BufferAssignment.h - Which buffer each value lives in ----*- C++ -*-===//
//
// Owns where the values of a planned module live (the first form of XLA's
// buffer assignment): a module parameter's buffer, a module output's, or
// the buffer of the instruction that produces the value (an array leaf of
// its result); bitcasts live in their operand's buffer and get-tuple-
// elements of a step's tuple result in that leaf. It also lists the
// buffers the module's program needs: the entry's parameters and outputs,
// the host computations' constants, and a temporary for every other value
// a step (launch, copy, library call, loop, conditional, call) writes.
// Every temporary is its own buffer here; which of them share memory is
// decided on the finished program (driver/BufferSharing: it needs the
// schedule and every binding's size). In-place decisions from liveness
// belong here.
//
// It reads the module and its KernelPlan (which instructions are kernels,
// copies and library calls) and knows nothing of the manifest: the driver
// turns its answers into the manifest's bindings (abi::BufferId names).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_BUFFERASSIGNMENT_H
#define HLO_ANALYSIS_BUFFERASSIGNMENT_H

#include "analysis/KernelPlan.h"

#include <set>
#include <vector>

namespace hlo {

/// The buffer a value lives in.
struct BufferSlot {
  enum class Kind {
    EntryParameter, ///< module parameter `number`
    EntryOutput,    ///< module output `number` (a leaf of the entry's root)
    Result,         ///< leaf `leaf` of `leafCount` of `producer`'s result
  };
  Kind kind = Kind::Result;
  int64_t number = -1;
  /// Null when the value has no instruction (a kernel input past its
  /// fusion's operands).
  const HloInstruction *producer = nullptr;
  size_t leaf = 0;
  size_t leafCount = 1;
};

/// A buffer the module's program has: given (parameters), returned
/// (outputs), initialized from the module (constants) or written by a step.
struct ProgramBuffer {
  enum class Kind { Parameter, Output, Constant, Temporary };
  Kind kind = Kind::Temporary;
  /// The parameter, output value, constant or producing instruction.
  const HloInstruction *value = nullptr;
  const HloComputation *computation = nullptr;
  /// Parameter and output number; -1 otherwise.
  int64_t number = -1;
};

class BufferAssignment {
public:
  BufferAssignment(const HloModule &module, const KernelPlan &plan);

  BufferAssignment(const BufferAssignment &) = delete;
  BufferAssignment &operator=(const BufferAssignment &) = delete;

  /// The buffer a step reading `operand` reads.
  BufferSlot operandSlot(const HloInstruction *operand) const;
  /// The buffer leaf `leaf` (of `leafCount`) of the step computing
  /// `producer` writes.
  BufferSlot resultSlot(const HloInstruction *producer, size_t leaf, size_t leafCount) const;

  /// Whether a step of the program writes `instruction`'s value.
  bool hasStep(const HloInstruction *instruction) const {
    return stepValues.count(instruction) != 0;
  }
  /// The program's buffers: the entry's parameters, its outputs, then the
  /// constants and temporaries of each host computation in plan order.
  const std::vector<ProgramBuffer> &buffers() const { return bufferList; }

private:
  const HloModule &module;
  std::set<const HloInstruction *> stepValues;
  std::vector<ProgramBuffer> bufferList;
};

} // namespace hlo

#endif // HLO_ANALYSIS_BUFFERASSIGNMENT_H
