//===- ComputationPartitioner.cpp - Fusions into subgraphs ----------------===//
#include "partitioner/ComputationPartitioner.h"

#include "analysis/HeroAnalysis.h"
#include "analysis/OpIndexing.h"

#include <algorithm>
#include <cctype>

namespace hlo {

namespace {

/// The (simplified) maps with which `user` reads `operand`, for each use.
bool operandMaps(const HloInstruction &user, const HloInstruction &operand,
                 mlir::MLIRContext *context, std::vector<IndexingMap> &maps) {
  llvm::Expected<IndexingMapSets> sets = computeOutputToInputIndexing(user, 0, context);
  if (!sets) {
    llvm::consumeError(sets.takeError());
    return false;
  }
  for (int64_t i = 0; i < user.operandCount(); ++i)
    if (user.operand(i) == &operand)
      for (const IndexingMap &map : (*sets)[i])
        maps.push_back(map);
  return !maps.empty();
}

/// The instructions on the paths from `hero` (excluded) to `root`, in
/// the computation's (topological) order.
Subgraph makeEpilogue(const HloComputation &computation,
                      const EpilogueSpecification &specification) {
  std::set<const HloInstruction *> aboveRoot;
  std::vector<const HloInstruction *> stack = {specification.root};
  while (!stack.empty()) {
    const HloInstruction *inst = stack.back();
    stack.pop_back();
    if (inst == specification.hero || !aboveRoot.insert(inst).second)
      continue;
    for (const HloInstruction *operand : inst->operands())
      stack.push_back(operand);
  }
  std::set<const HloInstruction *> belowHero = {specification.hero};
  Subgraph epilogue;
  epilogue.root = specification.root;
  epilogue.injected = specification.hero;
  epilogue.name = symbolNameFor(computation.name() + "__epilogue__" +
                                specification.root->name());
  for (const auto &owned : computation.instructions()) {
    const HloInstruction *inst = owned.get();
    bool fromHero = std::any_of(inst->operands().begin(), inst->operands().end(),
                                [&](const HloInstruction *operand) {
                                  return belowHero.count(operand) > 0;
                                });
    if (!fromHero)
      continue;
    belowHero.insert(inst);
    if (aboveRoot.count(inst))
      epilogue.add(inst);
  }
  return epilogue;
}

bool isIdentity(const IndexingMap &map) {
  return !map.isUndefined() && map.getAffineMap().isIdentity() &&
         map.getSymbolCount() == 0 && map.getConstraints().empty();
}

} // namespace

std::string symbolNameFor(const std::string &hloName) {
  std::string out;
  for (char c : hloName)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

bool isSubgraphLeaf(const HloInstruction &instruction) {
  return instruction.opcode() == HloOpcode::Parameter ||
         instruction.opcode() == HloOpcode::Constant;
}

PartitionedComputation::PartitionedComputation(
    const HloComputation &computation, mlir::MLIRContext *context,
    const std::set<const HloInstruction *> &extraRoots,
    const std::vector<EpilogueSpecification> &epilogues)
    : computationValue(&computation) {
  std::set<const HloInstruction *> forced(extraRoots.begin(), extraRoots.end());
  for (const EpilogueSpecification &epilogue : epilogues) {
    if (!isSubgraphLeaf(*epilogue.hero))
      forced.insert(epilogue.hero);
    epilogueList.push_back(makeEpilogue(computation, epilogue));
  }
  for (const HloInstruction *root : getFusionRoots(computation))
    forced.insert(root);
  const auto &instructions = computation.instructions();
  // Repeat until no user of a split instruction needs to be split as well.
  while (true) {
    std::map<const HloInstruction *, const HloInstruction *> rootOf;
    std::set<const HloInstruction *> splitByIndexing;
    for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
      const HloInstruction *inst = it->get();
      if (isSubgraphLeaf(*inst) || inst->opcode() == HloOpcode::Tuple)
        continue;
      bool isRoot = forced.count(inst) > 0;
      if (!isRoot) {
        std::vector<const HloInstruction *> users;
        for (const HloInstruction *user : inst->users())
          if (user->opcode() != HloOpcode::Tuple)
            users.push_back(user);
        const HloInstruction *group = nullptr;
        for (const HloInstruction *user : users) {
          const HloInstruction *userRoot = rootOf.count(user) ? rootOf[user] : nullptr;
          if (!userRoot || (group && userRoot != group)) {
            group = nullptr;
            break;
          }
          group = userRoot;
        }
        bool sameIndices = group != nullptr;
        if (sameIndices && (users.size() > 1 || inst->users().size() > 1)) {
          // Every use must read the same elements. Compare the maps by
          // which the users read this instruction (users in one subgraph
          // are themselves read at one index each).
          std::vector<IndexingMap> maps;
          for (const HloInstruction *user : users)
            if (!operandMaps(*user, *inst, context, maps)) {
              sameIndices = false;
              break;
            }
          for (size_t i = 1; sameIndices && i < maps.size(); ++i)
            sameIndices = maps[i] == maps[0];
          // Users reached with different indices from the group root make
          // equal operand maps meaningless: require identity reads.
          for (const IndexingMap &map : maps)
            sameIndices &= isIdentity(map);
          if (!sameIndices)
            splitByIndexing.insert(inst);
        }
        isRoot = !sameIndices;
      }
      rootOf[inst] = isRoot ? inst : nullptr;
      if (!isRoot) {
        for (const HloInstruction *user : inst->users())
          if (rootOf.count(user) && rootOf[user]) {
            rootOf[inst] = rootOf[user];
            break;
          }
      }
    }
    // Users that read a split instruction through an index transformation
    // root their own subgraphs (XLA:GPU Emitters' log / transpose / add example).
    size_t before = forced.size();
    for (const HloInstruction *split : splitByIndexing)
      for (const HloInstruction *user : split->users()) {
        std::vector<IndexingMap> maps;
        if (user->opcode() != HloOpcode::Tuple &&
            (!operandMaps(*user, *split, context, maps) ||
             !std::all_of(maps.begin(), maps.end(), isIdentity)))
          forced.insert(user);
      }
    if (forced.size() == before) {
      // Materialize the subgraphs in textual order of their roots.
      for (const auto &owned : instructions) {
        const HloInstruction *inst = owned.get();
        if (rootOf.count(inst) && rootOf[inst] == inst) {
          Subgraph subgraph;
          subgraph.root = inst;
          subgraph.name = symbolNameFor(computation.name() + "_" + inst->name());
          membership[inst] = subgraphList.size();
          subgraphList.push_back(subgraph);
        }
      }
      for (const auto &owned : instructions) {
        const HloInstruction *inst = owned.get();
        auto it = rootOf.find(inst);
        if (it == rootOf.end() || !it->second)
          continue;
        size_t index = membership[it->second];
        membership[inst] = index;
        subgraphList[index].add(inst);
      }
      return;
    }
  }
}

const Subgraph *
PartitionedComputation::subgraphOf(const HloInstruction *instruction) const {
  auto it = membership.find(instruction);
  return it == membership.end() ? nullptr : &subgraphList[it->second];
}

const Subgraph *
PartitionedComputation::subgraphRootedAt(const HloInstruction *instruction) const {
  const Subgraph *subgraph = subgraphOf(instruction);
  return subgraph && subgraph->root == instruction ? subgraph : nullptr;
}

const Subgraph *PartitionedComputation::epilogueFor(const HloInstruction *hero,
                                                    const HloInstruction *root) const {
  for (const Subgraph &epilogue : epilogueList)
    if (epilogue.injected == hero && epilogue.root == root)
      return &epilogue;
  return nullptr;
}

std::string PartitionedComputation::toString() const {
  std::string out;
  auto print = [&](const Subgraph &subgraph) {
    out += subgraph.name + ": %" + subgraph.root->name() + " <-";
    if (subgraph.injected)
      out += " [%" + subgraph.injected->name() + "]";
    for (const HloInstruction *inst : subgraph.instructions)
      out += " %" + inst->name();
    out += "\n";
  };
  for (const Subgraph &subgraph : subgraphList)
    print(subgraph);
  for (const Subgraph &epilogue : epilogueList)
    print(epilogue);
  return out;
}

} // namespace hlo
