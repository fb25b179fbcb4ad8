//===- ClusterRunner.cpp - One thread-block cluster on a host thread -------===//
#include "host/ClusterRunner.h"

#include <cstdio>

namespace hlo::runtime {

ClusterRunner::ClusterRunner() {
  members.push_back(std::make_unique<BlockRunner>());
  active = 1;
}
ClusterRunner::~ClusterRunner() = default;

bool ClusterRunner::run(const GridLaunch &launch, std::array<uint32_t, 3> clusterId) {
  const std::array<uint32_t, 3> &shape = launch.cluster;
  active = shape[0] * shape[1] * shape[2];
  message.clear();
  while (members.size() < active)
    members.push_back(std::make_unique<BlockRunner>());
  auto blockOf = [&](unsigned rank) -> std::array<uint32_t, 3> {
    return {clusterId[0] * shape[0] + rank % shape[0],
            clusterId[1] * shape[1] + rank / shape[0] % shape[1],
            clusterId[2] * shape[2] + rank / (shape[0] * shape[1])};
  };
  // Threads that need not run concurrently have no cluster operations:
  // the blocks run one after another.
  if (!launch.concurrentThreads) {
    for (unsigned rank = 0; rank < active; ++rank)
      if (!members[rank]->run(launch, blockOf(rank))) {
        message = members[rank]->faultMessage();
        return false;
      }
    return true;
  }
  // Every block is prepared before any thread runs: another block's
  // threads may reach into its shared memory from their first step.
  for (unsigned rank = 0; rank < active; ++rank)
    if (!members[rank]->start(launch, blockOf(rank), this, rank)) {
      message = members[rank]->faultMessage();
      return false;
    }
  while (true) {
    bool progressed = false, allDone = true;
    for (unsigned rank = active; rank-- > 0;) {
      // Each block runs as far as it can before the next moves (the order
      // least kind to a missing cluster barrier).
      while (!members[rank]->hasExited()) {
        BlockRunner::Sweep sweep = members[rank]->sweep();
        if (sweep == BlockRunner::Sweep::Faulted) {
          message = members[rank]->faultMessage();
          return false;
        }
        if (sweep == BlockRunner::Sweep::Waiting)
          break;
        progressed = true;
      }
      allDone = allDone && members[rank]->hasExited();
    }
    if (allDone)
      return true;
    if (progressed)
      continue;
    // Nothing moved: the cluster barrier, if every thread left waits there.
    bool atClusterBarrier = true;
    for (unsigned rank = 0; rank < active; ++rank)
      atClusterBarrier = atClusterBarrier && (members[rank]->hasExited() ||
                                              members[rank]->waitsAtClusterBarrier());
    if (atClusterBarrier) {
      for (unsigned rank = 0; rank < active; ++rank)
        if (!members[rank]->hasExited())
          members[rank]->releaseClusterBarrier();
      continue;
    }
    char text[96];
    std::snprintf(text, sizeof text, "cluster (%u, %u, %u): its blocks wait forever:",
                  clusterId[0], clusterId[1], clusterId[2]);
    message = text;
    for (unsigned rank = 0; rank < active; ++rank)
      if (!members[rank]->hasExited())
        message += " block " + std::to_string(rank) + ": " + members[rank]->deadlockReport() + ";";
    message.pop_back();
    return false;
  }
}

} // namespace hlo::runtime
