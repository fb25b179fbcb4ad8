//===- TmaBarriers.cpp - mbarriers and TMA loads of one block -------------===//
#include "host/TmaBarriers.h"

#include <cstring>
#include <string>

namespace hlo::runtime {
namespace {

/// The poison pattern a load's destination holds until it completes (the
/// block's fresh shared memory has the same: NaN in every float type).
constexpr uint8_t kPendingLoadPoison = 0xff;

std::string hex(const void *address) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", address);
  return text;
}

} // namespace

uint64_t tmaBoxBytes(const HloHostTensorMap &map) {
  uint64_t bytes = map.elementBytes;
  for (uint32_t d = 0; d < map.rank; ++d)
    bytes *= map.box[d];
  return bytes;
}

uint64_t tmaBoxOffset(const HloHostTensorMap &map, const std::array<uint32_t, 5> &position,
                      uint64_t destinationOffset) {
  uint64_t linear = 0;
  for (uint32_t d = map.rank; d-- > 0;)
    linear = linear * map.box[d] + position[d];
  uint64_t offset = linear * map.elementBytes;
  if (map.swizzle == 0)
    return offset;
  // The address's 16-byte chunk bits XORed with its bits 7 and up: the
  // pattern wgmma's descriptors read (WarpgroupMma.cpp).
  uint64_t address = destinationOffset + offset;
  uint64_t mask = map.swizzle / 16 - 1;
  return (address ^ (((address >> 7) & mask) << 4)) - destinationOffset;
}

Status checkTmaBox(const HloHostTensorMap &map) {
  if (map.rank < 1 || map.rank > 5)
    return Status::failure("a tensor map of rank " + std::to_string(map.rank));
  if (map.swizzle != 0 && uint64_t(map.box[0]) * map.elementBytes != map.swizzle)
    return Status::failure("a swizzled tensor map whose box rows are " +
                           std::to_string(uint64_t(map.box[0]) * map.elementBytes) +
                           " bytes, not the swizzle's " + std::to_string(map.swizzle) +
                           " (the only swizzled boxes the host target models)");
  return Status::success();
}

Status copyTmaBox(const HloHostTensorMap &map, const int32_t *coordinates, uint8_t *destination,
                  const uint8_t *sharedBase) {
  if (Status supported = checkTmaBox(map); !supported)
    return supported;
  auto *base = static_cast<const uint8_t *>(map.base);
  forEachTmaBoxElement(map, coordinates, uint64_t(destination - sharedBase),
                       [&](uint64_t shared, uint64_t global, bool inside) {
                         if (inside)
                           std::memcpy(destination + shared, base + global, map.elementBytes);
                         else
                           std::memset(destination + shared, 0, map.elementBytes);
                       });
  return Status::success();
}

void TmaBarriers::reset(uint8_t *base, size_t bytes) {
  barriers.clear();
  sharedBase = base;
  sharedBytes = bytes;
  changes = 0;
}

Status TmaBarriers::checkShared(const void *address, size_t bytes, const char *what) const {
  auto at = static_cast<const uint8_t *>(address);
  if (at < sharedBase || at + bytes > sharedBase + sharedBytes)
    return Status::failure(std::string(what) + " at " + hex(address) +
                           " is not in the block's shared memory");
  return Status::success();
}

ErrorOr<TmaBarriers::Barrier *> TmaBarriers::find(void *barrier, const char *operation) {
  auto found = barriers.find(barrier);
  if (found == barriers.end())
    return Status::failure(std::string(operation) + " on an mbarrier at shared offset " +
                           std::to_string(static_cast<uint8_t *>(barrier) - sharedBase) +
                           " that mbarrier.init never initialized");
  return &found->second;
}

Status TmaBarriers::init(void *barrier, uint32_t count) {
  if (Status inShared = checkShared(barrier, 8, "mbarrier.init's barrier"); !inShared)
    return inShared;
  if (reinterpret_cast<uintptr_t>(barrier) % 8 != 0)
    return Status::failure("mbarrier.init on a barrier not 8-byte aligned");
  if (count == 0 || count >= (1u << 20))
    return Status::failure("mbarrier.init with an arrival count of " + std::to_string(count) +
                           " (1 to 2^20 - 1)");
  auto found = barriers.find(barrier);
  if (found != barriers.end() && !found->second.loads.empty())
    return Status::failure("mbarrier.init on a barrier with TMA loads in flight");
  Barrier &state = barriers[barrier];
  state = Barrier{};
  state.count = state.pending = count;
  ++changes;
  return Status::success();
}

Status TmaBarriers::arrive(void *barrier, uint32_t transactionBytes) {
  ErrorOr<Barrier *> state = find(barrier, "mbarrier.arrive");
  if (!state)
    return state.status();
  Barrier &b = **state;
  if (b.pending == 0)
    return Status::failure("mbarrier.arrive on a barrier whose phase " +
                           std::to_string(b.phase) + " has had all its " +
                           std::to_string(b.count) + " arrivals");
  --b.pending;
  b.transactionBytes += transactionBytes;
  ++changes;
  return Status::success();
}

Status TmaBarriers::load(const HloHostTensorMap &map, void *destination, void *barrier,
                         const int32_t *coordinates) {
  ErrorOr<Barrier *> state = find(barrier, "cp.async.bulk.tensor");
  if (!state)
    return state.status();
  uint64_t bytes = tmaBoxBytes(map);
  if (Status inShared = checkShared(destination, bytes, "a TMA load's destination"); !inShared)
    return inShared;
  uint64_t alignment = map.swizzle ? 8 * map.swizzle : 128;
  if (uint64_t(static_cast<uint8_t *>(destination) - sharedBase) % alignment != 0)
    return Status::failure("a TMA load into shared offset " +
                           std::to_string(static_cast<uint8_t *>(destination) - sharedBase) +
                           ", not a multiple of " + std::to_string(alignment) +
                           " bytes (its swizzle's pattern)");
  Load load;
  load.map = map;
  for (uint32_t d = 0; d < map.rank && d < 5; ++d)
    load.coordinates[d] = coordinates[d];
  load.destination = static_cast<uint8_t *>(destination);
  std::memset(destination, kPendingLoadPoison, bytes);
  (*state)->loads.push_back(load);
  ++changes;
  return Status::success();
}

ErrorOr<bool> TmaBarriers::tryWait(void *barrier, uint32_t parity) {
  ErrorOr<Barrier *> state = find(barrier, "mbarrier.try_wait.parity");
  if (!state)
    return state.status();
  Barrier &b = **state;
  // The phase of the other parity is the current one: the one asked for
  // completed (try_wait.parity's rule), whatever is in flight.
  if ((b.phase & 1) != (parity & 1))
    return true;
  for (const Load &load : b.loads) {
    if (Status copied = copyTmaBox(load.map, load.coordinates.data(), load.destination,
                                   sharedBase);
        !copied)
      return copied;
    b.transactionBytes -= int64_t(tmaBoxBytes(load.map));
    ++changes;
  }
  b.loads.clear();
  if (b.pending != 0 || b.transactionBytes != 0)
    return false;
  ++b.phase;
  b.pending = b.count;
  ++changes;
  return true;
}

size_t TmaBarriers::loadsInFlight() const {
  size_t loads = 0;
  for (const auto &[address, barrier] : barriers)
    loads += barrier.loads.size();
  return loads;
}

} // namespace hlo::runtime
