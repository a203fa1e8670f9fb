//===- VulkanLaunch.cpp - Vulkan backend: launches and submissions --------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Launches and device-side copies are recorded into one command buffer,
// separated by memory barriers, and submitted only when the host needs a
// result; every submission is waited for. With BSGP_PROFILE, timestamp
// queries around each dispatch time the kernels.
//
//===----------------------------------------------------------------------===//

#include "VulkanBackend.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace bsgprt {
namespace vulkan {

Status VulkanBackend::launch(const bsgprt_module_desc &m, uint32_t kernel,
                             uint64_t n, const void *args) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  return dispatch(m, kernel, n, args, /*timed=*/false);
}

Status VulkanBackend::launchSlice(const bsgprt_module_desc &m, uint32_t kernel,
                                  const Slice &slice, const void *args) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  if (slice.begin >= slice.end)
    return Status::ok();
  if (Status s = dispatch(m, kernel, slice.n, args, /*timed=*/false,
                          slice.begin, slice.end);
      s.failed())
    return s;
  return flush();
}

Status VulkanBackend::synchronize() {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  return flush();
}

Status VulkanBackend::launchTimed(const bsgprt_module_desc &m, uint32_t kernel,
                                  uint64_t n, const void *args) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  return dispatch(m, kernel, n, args, /*timed=*/true);
}

Status VulkanBackend::collectTimes(bool wait, std::vector<double> &ms) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  if (timesLost) {
    // The runtime forgets what it has not collected on an error, so the
    // launches recorded since the failure go as well.
    dropTimes();
    return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                         "kernel timestamps were lost with a failed "
                         "submission");
  }
  // submitAndWait, not flush: an error a free deferred belongs to the
  // next call of the program that waits, not to the profile.
  if (wait && unsubmittedTimed)
    if (Status s = submitAndWait(); s.failed()) {
      dropTimes();
      return s;
    }
  ms.insert(ms.end(), readyMs.begin(), readyMs.end());
  readyMs.clear();
  if (Status s = readOldestTimes(unsubmittedTimed, ms); s.failed()) {
    dropTimes();
    return s;
  }
  return Status::ok();
}

bool VulkanBackend::canLaunchCooperative(const bsgprt_module_desc &m,
                                         uint32_t kernel, uint64_t n) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  if (!gridGroups || !n)
    return false;
  // A program compiled before grid loops ran on SPIR-V has no such
  // pipeline, and runs the loop on the host.
  VkPipeline pipeline = VK_NULL_HANDLE;
  bool strided = false;
  return !getPipeline(m, kernel, pipeline, strided).failed() && strided;
}

Status VulkanBackend::launchCooperative(const bsgprt_module_desc &m,
                                        uint32_t kernel, uint64_t n,
                                        const void *args) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  if (!gridGroups)
    return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                         "this Vulkan device runs no grid loops");
  if (!gridWord) {
    // The word's top bit flips at each barrier and its count returns to
    // where it was, so it is zeroed once.
    void *word = allocate(4);
    if (!word)
      return outOfMemory("the grid loops' barrier", 4);
    if (Status s = memset(word, 0, 4); s.failed()) {
      deallocate(word);
      return s;
    }
    gridWord = word;
  }
  GridDispatch grid = {
      std::min(gridGroups, (n + WorkgroupSize - 1) / WorkgroupSize),
      address(gridWord)};
  return dispatch(m, kernel, n, args, /*timed=*/false, 0, UINT64_MAX, &grid);
}

Status VulkanBackend::dispatch(const bsgprt_module_desc &m, uint32_t kernel,
                               uint64_t n, const void *args, bool timed,
                               uint64_t first, uint64_t end,
                               const GridDispatch *grid) {
  const bsgprt_kernel_desc &k = m.kernels[kernel];
  end = std::min(end, n);
  uint64_t size = n;
  n = end - first;
  VkPipeline pipeline = VK_NULL_HANDLE;
  bool strided = false;
  if (Status s = getPipeline(m, kernel, pipeline, strided); s.failed())
    return s;

  uint64_t groups = (n + WorkgroupSize - 1) / WorkgroupSize;
  // A grid-stride kernel covers every rank with any number of workgroups:
  // a few waves of resident ones do, and a launch of many cheap ranks
  // does not pay a workgroup start for each 256 of them.
  if (strided && strideGroups > 0 && groups > strideGroups)
    groups = strideGroups;
  if (grid)
    groups = grid->groups;
  uint64_t gx = groups, gy = 1;
  if (groups > maxGroups[0]) {
    gx = maxGroups[0];
    gy = (groups + gx - 1) / gx;
    if (gy > maxGroups[1])
      return Status::error(BSGPRT_ERROR_INVALID_VALUE,
                           "launch of " + std::to_string(n) +
                               " ranks exceeds the device's workgroup "
                               "count limits");
  }

  // Every query of the pool holds a time not collected yet: wait for
  // them and keep the times on the host, so the queries can be reused.
  if (timed && timedQueries.size() == TimedCapacity)
    if (Status s = readTimesEarly(); s.failed())
      return s;
  uint64_t argsAddress = 0;
  if (Status s = placeArgs(args, k.args_size, argsAddress); s.failed())
    return s;
  if (Status s = begin(); s.failed())
    return s;
  uint32_t query = 0;
  if (timed) {
    query = nextQuery;
    nextQuery = (nextQuery + 2) % (2 * TimedCapacity);
    // Query commands run in submission order, so the reset is done
    // before the write that follows it in the same command buffer.
    // Both timestamps are written at the bottom of the pipe, once all
    // earlier commands have completed: the start is not taken while the
    // previous kernel still runs.
    api.vkCmdResetQueryPool(commandBuffer, queryPool, query, 2);
    api.vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                            queryPool, query);
  }
  struct {
    uint64_t argsAddress, size, first, end;
  } push = {argsAddress, size, grid ? grid->word : first, end};
  api.vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE,
                        pipeline);
  api.vkCmdPushConstants(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                         sizeof(push), &push);
  api.vkCmdDispatch(commandBuffer, static_cast<uint32_t>(gx),
                    static_cast<uint32_t>(gy), 1);
  if (timed) {
    api.vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                            queryPool, query + 1);
    timedQueries.push_back(query);
    ++unsubmittedTimed;
  }
  lastLaunch = std::string(k.name ? k.name : "?") + "' (" +
               (k.srcloc ? k.srcloc : "?") + ")";
  if (syncEachLaunch) {
    if (Status s = flush(); s.failed()) {
      // The runtime does not count a failed launch; this one's queries
      // must not be taken for the next launch's.
      if (timed)
        loseTimes();
      return Status::error(BSGPRT_ERROR_LAUNCH_FAILED,
                           std::string("launch of kernel '") +
                               (k.name ? k.name : "?") +
                               "' failed: " + s.message);
    }
  }
  return Status::ok();
}

Status VulkanBackend::begin() {
  if (!recording) {
    auto bi = vkStruct<VkCommandBufferBeginInfo>(
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = api.vkBeginCommandBuffer(commandBuffer, &bi))
      return failure(r, "vkBeginCommandBuffer");
    recording = true;
  } else if (hasWork) {
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  }
  hasWork = true;
  return Status::ok();
}

void VulkanBackend::barrier(VkPipelineStageFlags dstStage,
                            VkAccessFlags dstAccess) {
  auto mb = vkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = dstAccess;
  api.vkCmdPipelineBarrier(commandBuffer,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                               VK_PIPELINE_STAGE_TRANSFER_BIT,
                           dstStage, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

Status VulkanBackend::flush() {
  Status earlier = deferred;
  deferred = Status::ok();
  Status s = submitAndWait();
  return earlier.failed() ? earlier : s;
}

Status VulkanBackend::submitAndWait() {
  if (!hasWork)
    return Status::ok();
  // Device writes become visible to the host after the fence.
  barrier(VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  recording = false;
  hasWork = false;
  argsUsed = 0;
  if (VkResult r = api.vkEndCommandBuffer(commandBuffer))
    return failure(r, "vkEndCommandBuffer");
  auto si = vkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &commandBuffer;
  VkResult r = api.vkQueueSubmit(queue, 1, &si, fence);
  if (r)
    return failure(r, "vkQueueSubmit");
  r = waitForFence();
  api.vkResetFences(device, 1, &fence);
  api.vkResetCommandBuffer(commandBuffer, 0);
  releaseRetired();
  if (r)
    return failure(r, "vkWaitForFences");
  // The timestamps of every timed launch are written now.
  unsubmittedTimed = 0;
  return Status::ok();
}

VkResult VulkanBackend::waitForFence() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point until =
      Clock::now() + std::chrono::microseconds(spinMicroseconds);
  VkResult r = api.vkGetFenceStatus(device, fence);
  while (r == VK_NOT_READY && Clock::now() < until)
    r = api.vkGetFenceStatus(device, fence);
  if (r == VK_NOT_READY)
    r = api.vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
  return r;
}

Status VulkanBackend::failure(VkResult r, const char *what) {
  // The recorded work is lost; start over with an empty command buffer.
  recording = false;
  hasWork = false;
  argsUsed = 0;
  api.vkResetCommandBuffer(commandBuffer, 0);
  releaseRetired();
  // So are the timestamps not written yet.
  if (!timedQueries.empty() || !readyMs.empty())
    loseTimes();
  std::string message = std::string(what) + " failed: " + resultString(r);
  bool lost = r == VK_ERROR_DEVICE_LOST;
  if (lost && !lastLaunch.empty())
    message += " (after the launch of kernel '" + lastLaunch + ")";
  return Status::error(r == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                               r == VK_ERROR_OUT_OF_HOST_MEMORY
                           ? BSGPRT_ERROR_OUT_OF_MEMORY
                       : lost ? BSGPRT_ERROR_LAUNCH_FAILED
                              : BSGPRT_ERROR_BACKEND,
                       message);
}

void VulkanBackend::createQueryPool() {
  if (!timestampBits || !(timestampPeriod > 0))
    return;
  auto qci =
      vkStruct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = 2 * TimedCapacity;
  if (api.vkCreateQueryPool(device, &qci, nullptr, &queryPool))
    queryPool = VK_NULL_HANDLE;
}

Status VulkanBackend::readTime(uint32_t query, double &ms) {
  uint64_t ticks[2] = {0, 0};
  // No VK_QUERY_RESULT_WAIT_BIT: the submission was waited for, and a
  // timestamp that is still missing must fail rather than hang.
  if (VkResult r = api.vkGetQueryPoolResults(
          device, queryPool, query, 2, sizeof(ticks), ticks, sizeof(uint64_t),
          VK_QUERY_RESULT_64_BIT))
    return Status::error(BSGPRT_ERROR_BACKEND,
                         "vkGetQueryPoolResults failed: " + resultString(r));
  // Only the low timestampValidBits bits count; the difference modulo
  // that many bits survives the counter wrapping around between them.
  uint64_t mask =
      timestampBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << timestampBits) - 1;
  uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
  ms = static_cast<double>(elapsed) * timestampPeriod * 1e-6;
  return Status::ok();
}

Status VulkanBackend::readTimesEarly() {
  if (Status s = submitAndWait(); s.failed())
    return s;
  if (Status s = readOldestTimes(0, readyMs); s.failed()) {
    loseTimes();
    return s;
  }
  return Status::ok();
}

Status VulkanBackend::readOldestTimes(size_t keep, std::vector<double> &ms) {
  while (timedQueries.size() > keep) {
    double t = 0;
    if (Status s = readTime(timedQueries.front(), t); s.failed())
      return s;
    timedQueries.pop_front();
    ms.push_back(t);
  }
  return Status::ok();
}

void VulkanBackend::dropTimes() {
  timedQueries.clear();
  readyMs.clear();
  unsubmittedTimed = 0;
  timesLost = false;
}

void VulkanBackend::loseTimes() {
  dropTimes();
  timesLost = true;
}

} // namespace vulkan
} // namespace bsgprt
