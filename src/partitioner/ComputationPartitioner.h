//===- ComputationPartitioner.h - Fusions into subgraphs --------*- C++ -*-===//
//
// Splits a fused computation into subgraphs that can each be emitted as one
// function of the output indices (XLA's "XLA:GPU Emitters", "Partitioning"): an instruction
// joins its users' subgraph if it has one user, or if all users are in one
// subgraph and read it at the same indices (decided with indexing maps).
// Otherwise it roots a subgraph of its own, and so does each user that
// reads it through an index transformation. Parameters and constants
// belong to no subgraph: they are read where needed.
//
// Emitters that compute a hero themselves (a reduction's shuffles, a
// transpose's shared tile) name epilogues: the instructions on the paths
// from the hero to a root, emitted as one function of the root's indices
// that receives the hero's value as arguments (XLA's epilogues, as in its computation_partitioner).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARTITIONER_COMPUTATIONPARTITIONER_H
#define HLO_PARTITIONER_COMPUTATIONPARTITIONER_H

#include "hlo_parser/HloComputation.h"

#include "mlir/IR/MLIRContext.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace hlo {

struct Subgraph {
  /// Name of the function emitted for it.
  std::string name;
  /// The instruction whose value the function returns.
  const HloInstruction *root = nullptr;
  /// Members in topological order (root last).
  std::vector<const HloInstruction *> instructions;
  /// An epilogue's hero: its value is an argument of the function (after
  /// the indices), not computed. Null for ordinary subgraphs.
  const HloInstruction *injected = nullptr;

  bool contains(const HloInstruction *instruction) const {
    return memberSet.count(instruction) > 0;
  }
  void add(const HloInstruction *instruction) {
    instructions.push_back(instruction);
    memberSet.insert(instruction);
  }

private:
  std::set<const HloInstruction *> memberSet;
};

/// An epilogue an emitter asks for: from `hero`'s value to `root`'s.
struct EpilogueSpecification {
  const HloInstruction *hero = nullptr;
  const HloInstruction *root = nullptr;
};

class PartitionedComputation {
public:
  /// Partitions `computation`; `extraRoots` must root subgraphs too (the
  /// fusion's roots are always roots), and so do the heroes of
  /// `epilogues`, each of which also becomes an epilogue subgraph.
  PartitionedComputation(const HloComputation &computation,
                         mlir::MLIRContext *context,
                         const std::set<const HloInstruction *> &extraRoots = {},
                         const std::vector<EpilogueSpecification> &epilogues = {});

  const HloComputation &computation() const { return *computationValue; }
  const std::vector<Subgraph> &subgraphs() const { return subgraphList; }
  /// The subgraph an instruction belongs to; null for parameters and
  /// constants.
  const Subgraph *subgraphOf(const HloInstruction *instruction) const;
  /// The subgraph rooted at `instruction`, if it roots one.
  const Subgraph *subgraphRootedAt(const HloInstruction *instruction) const;
  /// The epilogues, in the order they were asked for.
  const std::vector<Subgraph> &epilogues() const { return epilogueList; }
  /// The epilogue from `hero` to `root`, if one was asked for.
  const Subgraph *epilogueFor(const HloInstruction *hero,
                              const HloInstruction *root) const;

  /// One line per subgraph: `name: root <- members`, for tests.
  std::string toString() const;

private:
  const HloComputation *computationValue;
  std::vector<Subgraph> subgraphList;
  std::vector<Subgraph> epilogueList;
  std::map<const HloInstruction *, size_t> membership;
};

/// An HLO name as an MLIR symbol name: characters other than letters and
/// digits become '_'.
std::string symbolNameFor(const std::string &hloName);

/// Instructions no subgraph owns: read in place by their users.
bool isSubgraphLeaf(const HloInstruction &instruction);

} // namespace hlo

#endif // HLO_PARTITIONER_COMPUTATIONPARTITIONER_H
