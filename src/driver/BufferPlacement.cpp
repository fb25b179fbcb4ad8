//===- BufferPlacement.cpp - Offsets of the memory plan's buffers ---------===//
#include "BufferPlacement.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace hlo::driver {
namespace {

/// Where a buffer of this many bytes or more starts: XLA's alignment for
/// the buffers it allocates, a whole number of 128-byte memory lines.
constexpr int64_t kPlanAlignment = 256;
/// Where a smaller one may start: what every kernel parameter declares
/// (abi::KernelParameter::alignment) and a TMA descriptor's base needs.
constexpr int64_t kSmallBufferAlignment = 16;

int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// A buffer under 256 bytes (the scalars and short vectors of scalar
/// control-flow code, e.g. torax's f64 physics) packs at 16 bytes, or at
/// what its kernel assumes: a 256-byte slot each would make such a
/// program's plan up to 30 times its bytes.
int64_t placementAlignment(const PlanBuffer &buffer) {
  int64_t assumed = std::max(kSmallBufferAlignment, buffer.alignment);
  if (buffer.bytes < kPlanAlignment)
    return assumed;
  return std::max(kPlanAlignment, alignUp(assumed, kPlanAlignment));
}

/// An allocation being filled: the plan's own (grows) or a parameter's
/// (fixed size), with the buffers placed in it.
struct Arena {
  int64_t parameter = -1;
  int64_t capacity = -1; // -1: grows
  int64_t bytes = 0;
  std::vector<const PlanBuffer *> placed;
  std::vector<int64_t> offsets;
  /// [offset, end) of each placed buffer with its index, sorted: fit()
  /// walks it in address order.
  std::vector<std::tuple<int64_t, int64_t, size_t>> byAddress;

  /// How long the memory at `offset` lies unused before `buffer` takes
  /// it: its first tick less the last tick of the latest buffer there
  /// that ends before it (its first tick if none).
  int64_t slack(const PlanBuffer &buffer, int64_t offset) const {
    int64_t latest = -1;
    for (size_t n = 0; n < placed.size(); ++n)
      if (placed[n]->last < buffer.first && offsets[n] < offset + buffer.bytes &&
          offset < offsets[n] + placed[n]->bytes)
        latest = std::max(latest, placed[n]->last);
    return buffer.first - latest;
  }

  /// The lowest offset `buffer` fits at, clear of every placed buffer
  /// that lives with it; none past a fixed capacity.
  std::optional<int64_t> fit(const PlanBuffer &buffer, int64_t alignment) const {
    int64_t offset = 0;
    for (const auto &[from, to, n] : byAddress) {
      if (placed[n]->last < buffer.first || buffer.last < placed[n]->first)
        continue; // not live with it
      if (offset + buffer.bytes <= from)
        break;
      offset = std::max(offset, alignUp(to, alignment));
    }
    if (capacity >= 0 && offset + buffer.bytes > capacity)
      return std::nullopt;
    return offset;
  }
  void place(const PlanBuffer &buffer, int64_t offset) {
    std::tuple<int64_t, int64_t, size_t> entry{offset, offset + buffer.bytes, placed.size()};
    byAddress.insert(std::upper_bound(byAddress.begin(), byAddress.end(), entry), entry);
    placed.push_back(&buffer);
    offsets.push_back(offset);
    // Exactly to the last buffer's end: the device allocator rounds it.
    bytes = std::max(bytes, capacity >= 0 ? capacity : offset + buffer.bytes);
  }

  abi::AllocationSpec allocation() const {
    abi::AllocationSpec spec;
    spec.bytes = bytes;
    spec.parameter = parameter;
    // In ticks' order, for a reader of the manifest.
    std::vector<size_t> order(placed.size());
    for (size_t n = 0; n < order.size(); ++n)
      order[n] = n;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (placed[a]->first != placed[b]->first)
        return placed[a]->first < placed[b]->first;
      return placed[a]->names.front() < placed[b]->names.front();
    });
    for (size_t n : order)
      spec.buffers.push_back({placed[n]->names, offsets[n], placed[n]->bytes});
    return spec;
  }
};

/// The orders buffers are placed in, each by first fit, as XLA's heap
/// simulator tries several and keeps the smallest heap: largest first
/// (ties: earliest first, or longest lived first), longest lived first,
/// and most bytes x ticks first.
enum class Order { Size, SizeThenLifetime, Lifetime, Area };

std::vector<const PlanBuffer *> placementOrder(const std::vector<PlanBuffer> &buffers,
                                               Order order) {
  std::vector<const PlanBuffer *> free;
  for (const PlanBuffer &buffer : buffers)
    if (buffer.parameter < 0 && buffer.bytes > 0)
      free.push_back(&buffer);
  auto key = [order](const PlanBuffer *buffer) -> std::pair<double, int64_t> {
    double ticks = static_cast<double>(buffer->last - buffer->first + 1);
    switch (order) {
    case Order::Size:
      return {static_cast<double>(buffer->bytes), 0};
    case Order::SizeThenLifetime:
      return {static_cast<double>(buffer->bytes), buffer->last - buffer->first};
    case Order::Lifetime:
      return {ticks, buffer->bytes};
    case Order::Area:
      return {ticks * static_cast<double>(buffer->bytes), buffer->bytes};
    }
    return {0, 0};
  };
  std::stable_sort(free.begin(), free.end(), [&](const PlanBuffer *a, const PlanBuffer *b) {
    auto keyA = key(a), keyB = key(b);
    if (keyA != keyB)
      return keyA > keyB;
    if (a->first != b->first)
      return a->first < b->first;
    return a->names.front() < b->names.front();
  });
  return free;
}

/// The plan's own allocation and the parameters' memory, filled.
struct Placement {
  Arena own;
  std::map<int64_t, Arena> parameters;
};

Placement placeInOrder(const std::vector<PlanBuffer> &buffers,
                       const std::vector<const PlanBuffer *> &order,
                       const std::set<int64_t> &open) {
  Placement placement;
  // What must sit in a parameter's memory first, at its start.
  for (const PlanBuffer &buffer : buffers) {
    if (buffer.parameter < 0)
      continue;
    Arena &arena = placement.parameters[buffer.parameter];
    arena.parameter = buffer.parameter;
    arena.capacity = std::max(arena.capacity, buffer.bytes);
  }
  for (const PlanBuffer &buffer : buffers)
    if (buffer.parameter >= 0)
      placement.parameters[buffer.parameter].place(buffer, 0);
  for (const PlanBuffer *buffer : order) {
    int64_t alignment = placementAlignment(*buffer);
    // Of the donated parameters' memory it fits in, the one it follows
    // most closely in time (leaving the others' longer gaps to others).
    Arena *best = nullptr;
    int64_t bestOffset = 0, bestSlack = 0;
    for (auto &[number, arena] : placement.parameters) {
      if (!open.count(number))
        continue;
      std::optional<int64_t> offset = arena.fit(*buffer, alignment);
      if (!offset)
        continue;
      int64_t gap = arena.slack(*buffer, *offset);
      if (!best || gap < bestSlack) {
        best = &arena;
        bestOffset = *offset;
        bestSlack = gap;
      }
    }
    if (best)
      best->place(*buffer, bestOffset);
    else
      placement.own.place(*buffer, *placement.own.fit(*buffer, alignment));
  }
  return placement;
}

} // namespace

std::vector<abi::AllocationSpec> placeBuffers(std::vector<PlanBuffer> buffers,
                                              const std::vector<int64_t> &donated) {
  for (PlanBuffer &buffer : buffers)
    std::sort(buffer.names.begin(), buffer.names.end());
  std::set<int64_t> open(donated.begin(), donated.end());
  // The smallest of the orders' own allocations (the first on a tie).
  std::optional<Placement> smallest;
  for (Order order : {Order::Size, Order::SizeThenLifetime, Order::Lifetime, Order::Area}) {
    Placement placement = placeInOrder(buffers, placementOrder(buffers, order), open);
    if (!smallest || placement.own.bytes < smallest->own.bytes)
      smallest = std::move(placement);
  }
  std::vector<abi::AllocationSpec> allocations;
  if (!smallest->own.placed.empty())
    allocations.push_back(smallest->own.allocation());
  for (const auto &[number, arena] : smallest->parameters)
    if (arena.placed.size() > 1 || arena.placed.front()->names.size() > 1)
      allocations.push_back(arena.allocation());
  return allocations;
}

} // namespace hlo::driver
