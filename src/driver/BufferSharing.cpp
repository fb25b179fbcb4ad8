//===- BufferSharing.cpp - Temporaries that share an allocation -----------===//
#include "BufferSharing.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace hlo::driver {
namespace {

using abi::BufferBinding;
using abi::KernelParameter;
using abi::ProgramStep;

bool isNamedBuffer(const KernelParameter &binding) {
  return binding.binding == BufferBinding::Buffer || binding.binding == BufferBinding::Scratch;
}

/// Every binding a step makes: a launch's kernel parameters, the
/// arguments and results of the other steps, a loop's body results and a
/// conditional's branch values.
template <typename Visit>
void forEachBinding(const abi::LaunchManifest &manifest, const ProgramStep &step,
                    Visit &&visit) {
  if (step.kind == ProgramStep::Kind::Launch && step.launch >= 0 &&
      step.launch < static_cast<int64_t>(manifest.kernels.size()))
    for (const KernelParameter &parameter : manifest.kernels[step.launch].parameters)
      visit(parameter);
  for (const auto *list : {&step.arguments, &step.results, &step.bodyResults})
    for (const KernelParameter &binding : *list)
      visit(binding);
  for (const auto *lists : {&step.branchArguments, &step.branchResults})
    for (const auto &list : *lists)
      for (const KernelParameter &binding : list)
        visit(binding);
}

struct Life {
  int64_t first = -1, last = -1;
  int64_t bytes = 0;
};

/// The entry computation: where the module's parameters and outputs are.
std::string entryComputation(const abi::LaunchManifest &manifest) {
  for (const abi::BufferSpec &buffer : manifest.buffers)
    if (buffer.kind == abi::BufferSpec::Kind::Parameter ||
        buffer.kind == abi::BufferSpec::Kind::Output)
      return buffer.computation;
  return manifest.program.empty() ? "" : manifest.program.front().computation;
}

} // namespace

void shareTemporaryBuffers(abi::LaunchManifest &manifest) {
  manifest.allocations.clear();
  if (manifest.program.empty())
    return;
  std::string entry = entryComputation(manifest);
  std::set<std::string> pinned;
  for (const abi::BufferSpec &buffer : manifest.buffers)
    if (buffer.kind != abi::BufferSpec::Kind::Temporary)
      pinned.insert(buffer.name);
  // Kernels that no step launches (an older or partial program) pin all
  // they bind.
  std::vector<bool> launched(manifest.kernels.size(), false);
  std::map<std::string, Life> lives;
  for (size_t t = 0; t < manifest.program.size(); ++t) {
    const ProgramStep &step = manifest.program[t];
    if (step.kind == ProgramStep::Kind::Launch && step.launch >= 0 &&
        step.launch < static_cast<int64_t>(launched.size()))
      launched[step.launch] = true;
    bool straightLine = step.computation == entry &&
                        (step.kind == ProgramStep::Kind::Launch ||
                         step.kind == ProgramStep::Kind::Copy ||
                         step.kind == ProgramStep::Kind::Library);
    forEachBinding(manifest, step, [&](const KernelParameter &binding) {
      if (!isNamedBuffer(binding))
        return;
      if (!straightLine) {
        pinned.insert(binding.bufferName);
        return;
      }
      Life &life = lives[binding.bufferName];
      if (life.first < 0)
        life.first = static_cast<int64_t>(t);
      life.last = static_cast<int64_t>(t);
      life.bytes = std::max(life.bytes, binding.bytes);
    });
  }
  // An in-place output is its operand's memory: the two are one buffer
  // with one live range (the union of theirs), pinned if either is (a
  // module parameter or output, or a buffer outside the entry's straight
  // line). Chains (an update of an update) join transitively.
  std::map<std::string, std::string> parent;
  std::function<std::string(const std::string &)> root = [&](const std::string &name) {
    auto found = parent.find(name);
    if (found == parent.end() || found->second == name)
      return name;
    return found->second = root(found->second);
  };
  // A binding's name in the plan: a named buffer's, or one per parameter
  // or output leaf (always pinned).
  auto keyOf = [](const KernelParameter &binding) {
    if (isNamedBuffer(binding))
      return binding.bufferName;
    return std::string(binding.binding == BufferBinding::Output ? "<output " : "<parameter ") +
           std::to_string(binding.number) + ">";
  };
  for (size_t k = 0; k < manifest.kernels.size(); ++k) {
    const std::vector<KernelParameter> &parameters = manifest.kernels[k].parameters;
    for (const KernelParameter &parameter : parameters) {
      if (!launched[k] && isNamedBuffer(parameter))
        pinned.insert(parameter.bufferName);
      if (parameter.aliases < 0 || parameter.aliases >= static_cast<int64_t>(parameters.size()))
        continue;
      std::string a = root(keyOf(parameter));
      std::string b = root(keyOf(parameters[parameter.aliases]));
      if (a != b)
        parent[a] = b;
    }
  }
  std::map<std::string, Life> chainLives;
  std::set<std::string> pinnedChains;
  for (const auto &[name, life] : lives) {
    Life &chain = chainLives[root(name)];
    chain.first = chain.first < 0 ? life.first : std::min(chain.first, life.first);
    chain.last = std::max(chain.last, life.last);
    chain.bytes = std::max(chain.bytes, life.bytes);
  }
  for (const auto &[name, unused] : parent)
    if (name.front() == '<' || pinned.count(name))
      pinnedChains.insert(root(name));
  for (const std::string &name : pinned)
    pinnedChains.insert(root(name));
  // A member of a chain takes the chain's life; a pinned chain pins all.
  for (auto &[name, life] : lives) {
    std::string chain = root(name);
    if (pinnedChains.count(chain))
      pinned.insert(name);
    else
      life = chainLives[chain];
  }

  // Largest first (then first written, then name: a deterministic order),
  // each into the first allocation it does not overlap in time.
  std::vector<std::pair<std::string, Life>> candidates;
  for (const auto &[name, life] : lives)
    if (!pinned.count(name) && life.bytes > 0)
      candidates.emplace_back(name, life);
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto &a, const auto &b) {
    if (a.second.bytes != b.second.bytes)
      return a.second.bytes > b.second.bytes;
    return a.second.first < b.second.first;
  });
  std::vector<std::vector<Life>> members;
  std::vector<abi::AllocationSpec> allocations;
  for (const auto &[name, life] : candidates) {
    size_t chosen = allocations.size();
    for (size_t a = 0; a < allocations.size() && chosen == allocations.size(); ++a) {
      bool overlaps = std::any_of(members[a].begin(), members[a].end(), [&](const Life &other) {
        return life.first <= other.last && other.first <= life.last;
      });
      if (!overlaps)
        chosen = a;
    }
    if (chosen == allocations.size()) {
      allocations.push_back({life.bytes, {}});
      members.emplace_back();
    }
    allocations[chosen].buffers.emplace_back(name, 0);
    members[chosen].push_back(life);
  }
  for (abi::AllocationSpec &allocation : allocations)
    if (allocation.buffers.size() > 1)
      manifest.allocations.push_back(std::move(allocation));
}

} // namespace hlo::driver
