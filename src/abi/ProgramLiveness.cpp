//===- ProgramLiveness.cpp - When a module program's buffers are used -----===//
#include "abi/ProgramLiveness.h"

#include <algorithm>
#include <functional>

namespace hlo::abi {

std::string planName(const KernelParameter &binding) {
  switch (binding.binding) {
  case BufferBinding::Parameter:
    return "<parameter " + std::to_string(binding.number) + ">";
  case BufferBinding::Output:
    return "<output " + std::to_string(binding.number) + ">";
  case BufferBinding::Buffer:
  case BufferBinding::Scratch:
    break;
  }
  return binding.bufferName;
}

std::string entryComputation(const LaunchManifest &manifest) {
  for (const BufferSpec &buffer : manifest.buffers)
    if (buffer.kind == BufferSpec::Kind::Parameter || buffer.kind == BufferSpec::Kind::Output)
      return buffer.computation;
  return manifest.program.empty() ? "" : manifest.program.front().computation;
}

std::pair<int64_t, int64_t> ProgramLiveness::life(const std::string &name) const {
  auto found = uses.find(name);
  if (found == uses.end() || found->second.empty())
    return {-1, -1};
  return {found->second.front(), found->second.back()};
}

bool ProgramLiveness::usedWithin(const std::string &name, int64_t from, int64_t to) const {
  auto found = uses.find(name);
  if (found == uses.end())
    return false;
  auto first = std::lower_bound(found->second.begin(), found->second.end(), from);
  return first != found->second.end() && *first < to;
}

namespace {

class Walker {
public:
  Walker(const LaunchManifest &manifest, ProgramLiveness &liveness)
      : manifest(manifest), liveness(liveness) {
    liveness.steps.resize(manifest.program.size());
    for (size_t s = 0; s < manifest.program.size(); ++s)
      stepsOf[manifest.program[s].computation].push_back(s);
  }

  void walk(const std::string &computation, int depth) {
    if (depth > 64) // HLO's call graph has no cycles; a bad manifest might
      return;
    ++liveness.walks[computation];
    auto steps = stepsOf.find(computation);
    if (steps == stepsOf.end())
      return;
    for (size_t s : steps->second)
      walkStep(s, depth);
  }

  void touch(const KernelParameter &binding, int64_t tick) { touch(planName(binding), tick); }
  void touch(const std::string &name, int64_t tick) {
    if (!name.empty())
      liveness.uses[name].push_back(tick);
  }
  void touchAll(const std::vector<KernelParameter> &bindings, int64_t tick) {
    for (const KernelParameter &binding : bindings)
      touch(binding, tick);
  }
  void touchKernel(int64_t kernel, int64_t tick) {
    if (kernel < 0 || kernel >= static_cast<int64_t>(manifest.kernels.size()))
      return;
    launched.insert(kernel);
    touchAll(manifest.kernels[kernel].parameters, tick);
  }
  int64_t tick() { return liveness.end++; }

  std::set<int64_t> launched;

private:
  void walkStep(size_t s, int depth) {
    const ProgramStep &step = manifest.program[s];
    ProgramLiveness::StepTicks &ticks = liveness.steps[s];
    ticks.repeated = ticks.begin >= 0;
    ticks.spans.clear();
    int64_t begin = tick();
    ticks.begin = begin;
    auto parameters = [&](size_t c) -> const std::vector<std::string> & {
      static const std::vector<std::string> none;
      return c < step.parameterBuffers.size() ? step.parameterBuffers[c] : none;
    };
    switch (step.kind) {
    case ProgramStep::Kind::Launch:
      touchKernel(step.launch, begin);
      break;
    case ProgramStep::Kind::Copy:
    case ProgramStep::Kind::Library:
      touchAll(step.arguments, begin);
      touchAll(step.results, begin);
      break;
    case ProgramStep::Kind::While: {
      touchAll(step.arguments, begin);
      touchAll(step.results, begin);
      for (size_t c = 0; c < 2; ++c)
        for (const std::string &name : parameters(c))
          touch(name, begin);
      for (size_t c = 0; c < step.computations.size() && c < 2; ++c) {
        int64_t first = liveness.end;
        walk(step.computations[c], depth + 1);
        if (c == 0) // the condition's root, read after the condition ran
          touchPredicate(step, tick());
        ticks.spans.emplace_back(first, liveness.end - 1);
      }
      int64_t last = tick();
      touchAll(step.bodyResults, last);
      touchAll(step.results, last);
      for (size_t c = 0; c < 2; ++c)
        for (const std::string &name : parameters(c))
          touch(name, last);
      break;
    }
    case ProgramStep::Kind::Conditional:
      touchAll(step.arguments, begin);
      for (const std::vector<KernelParameter> &operands : step.branchArguments)
        touchAll(operands, begin);
      for (size_t b = 0; b < step.computations.size(); ++b) {
        int64_t first = tick();
        if (b < step.branchArguments.size())
          touchAll(step.branchArguments[b], first);
        for (const std::string &name : parameters(b))
          touch(name, first);
        walk(step.computations[b], depth + 1);
        int64_t last = tick();
        if (b < step.branchResults.size())
          touchAll(step.branchResults[b], last);
        touchAll(step.results, last);
        ticks.spans.emplace_back(first, last);
      }
      break;
    case ProgramStep::Kind::Call:
      for (const std::string &callee : step.computations)
        walk(callee, depth + 1);
      break;
    case ProgramStep::Kind::Failed:
      break;
    }
    ticks.end = liveness.end - 1;
  }

  /// The output of the kernel that computes a loop's condition's root.
  void touchPredicate(const ProgramStep &step, int64_t tick) {
    for (const KernelSpec &kernel : manifest.kernels)
      if (kernel.hloInstruction == step.predicate && !step.computations.empty() &&
          kernel.hloComputation == step.computations[0])
        for (const KernelParameter &parameter : kernel.parameters)
          if (parameter.isOutput)
            touch(parameter, tick);
  }

  const LaunchManifest &manifest;
  ProgramLiveness &liveness;
  std::map<std::string, std::vector<size_t>> stepsOf;
};

} // namespace

ProgramLiveness programLiveness(const LaunchManifest &manifest) {
  ProgramLiveness liveness;
  Walker walker(manifest, liveness);
  int64_t start = walker.tick();
  if (manifest.program.empty()) // an older manifest: the kernels in order
    for (size_t k = 0; k < manifest.kernels.size(); ++k)
      walker.touchKernel(static_cast<int64_t>(k), walker.tick());
  else
    walker.walk(entryComputation(manifest), 0);
  int64_t last = walker.tick();
  // Kernels no reached step launches hold their buffers throughout.
  for (size_t k = 0; k < manifest.kernels.size(); ++k)
    if (!walker.launched.count(static_cast<int64_t>(k)))
      for (const KernelParameter &parameter : manifest.kernels[k].parameters) {
        walker.touch(parameter, start);
        walker.touch(parameter, last);
      }
  for (auto &[name, ticks] : liveness.uses) {
    // Parameters hold their values from the start, outputs to the end.
    if (name.rfind("<parameter ", 0) == 0)
      ticks.push_back(start);
    if (name.rfind("<output ", 0) == 0)
      ticks.push_back(last);
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  }
  return liveness;
}

Status checkMemoryPlan(const LaunchManifest &manifest, const ProgramLiveness &liveness) {
  struct Entry {
    const PlacedBuffer *buffer;
    int64_t first, last;
  };
  std::map<std::string, const PlacedBuffer *> placedAt;
  for (size_t a = 0; a < manifest.allocations.size(); ++a) {
    const AllocationSpec &allocation = manifest.allocations[a];
    std::vector<Entry> entries;
    for (const PlacedBuffer &buffer : allocation.buffers) {
      if (buffer.offset < 0 || buffer.offset + buffer.bytes > allocation.bytes)
        return Status::failure("memory plan: '" + buffer.names.front() + "' (" +
                               std::to_string(buffer.bytes) + " bytes at offset " +
                               std::to_string(buffer.offset) + ") runs past its allocation of " +
                               std::to_string(allocation.bytes) + " bytes");
      int64_t first = -1, last = -1;
      for (const std::string &name : buffer.names) {
        if (!placedAt.emplace(name, &buffer).second)
          return Status::failure("memory plan: '" + name + "' is placed twice");
        auto [from, to] = liveness.life(name);
        if (from < 0)
          continue;
        first = first < 0 ? from : std::min(first, from);
        last = std::max(last, to);
      }
      if (first >= 0 && buffer.bytes > 0)
        entries.push_back({&buffer, first, last});
    }
    // Sweep the ticks: the buffers live at once must lie apart in memory.
    std::sort(entries.begin(), entries.end(),
              [](const Entry &x, const Entry &y) { return x.first < y.first; });
    std::multimap<int64_t, const Entry *> ending; // last tick -> entry
    std::map<int64_t, const Entry *> live;        // offset -> entry
    for (const Entry &entry : entries) {
      while (!ending.empty() && ending.begin()->first < entry.first) {
        const Entry *done = ending.begin()->second;
        live.erase(done->buffer->offset);
        ending.erase(ending.begin());
      }
      const PlacedBuffer &buffer = *entry.buffer;
      auto after = live.lower_bound(buffer.offset);
      const Entry *clash = nullptr;
      if (after != live.end() && after->first < buffer.offset + buffer.bytes)
        clash = after->second;
      if (!clash && after != live.begin()) {
        const Entry *before = std::prev(after)->second;
        if (before->buffer->offset + before->buffer->bytes > buffer.offset)
          clash = before;
      }
      if (clash)
        return Status::failure(
            "memory plan: '" + buffer.names.front() + "' (bytes " +
            std::to_string(buffer.offset) + "-" + std::to_string(buffer.offset + buffer.bytes) +
            " of allocation " + std::to_string(a) + ", live at ticks " +
            std::to_string(entry.first) + "-" + std::to_string(entry.last) + ") overlaps '" +
            clash->buffer->names.front() + "' (bytes " + std::to_string(clash->buffer->offset) +
            "-" + std::to_string(clash->buffer->offset + clash->buffer->bytes) + ", live at " +
            std::to_string(clash->first) + "-" + std::to_string(clash->last) + ")");
      live.emplace(buffer.offset, &entry);
      ending.emplace(entry.last, &entry);
    }
  }
  return Status::success();
}

PlanBytes planBytes(const LaunchManifest &manifest) {
  PlanBytes bytes;
  for (const BufferSpec &buffer : manifest.buffers) {
    if (buffer.kind == BufferSpec::Kind::Parameter)
      bytes.parameters += buffer.bytes;
    else if (buffer.kind == BufferSpec::Kind::Constant)
      bytes.constants += buffer.bytes;
  }
  for (const AllocationSpec &allocation : manifest.allocations)
    if (allocation.parameter < 0)
      bytes.allocations += allocation.bytes;
  return bytes;
}

} // namespace hlo::abi
