#include "cuda_support.h"

#include <cstdio>

namespace oomlint::harness {

namespace {

std::string gibText(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

}  // namespace

void check(cudaError_t status, const std::string& what) {
  if (status == cudaSuccess) return;
  const bool outOfMemory = status == cudaErrorMemoryAllocation;
  if (outOfMemory) (void)cudaGetLastError();  // allocation failures do not poison the context
  throw DeviceError(what + ": " + cudaGetErrorString(status), outOfMemory);
}

void check(cublasStatus_t status, const std::string& what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const bool outOfMemory = status == CUBLAS_STATUS_ALLOC_FAILED;
  if (outOfMemory) (void)cudaGetLastError();
  throw DeviceError(what + ": " + cublasGetStatusString(status), outOfMemory);
}

FreeMemory freeMemory() {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return {free, total};
}

DeviceBuffer::DeviceBuffer(std::uint64_t bytes, const std::string& what) : bytes_(bytes) {
  if (bytes == 0) return;
  check(cudaMalloc(&ptr_, bytes), "allocating " + what + " (" + gibText(bytes) + ")");
}

void DeviceBuffer::reset() {
  if (ptr_ != nullptr) (void)cudaFree(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

void PoolBuffer::reset() {
  if (ptr_ != nullptr) (void)cudaFreeAsync(ptr_, stream_);
  ptr_ = nullptr;
  bytes_ = 0;
}

PoolBuffer Workspace::allocate(std::uint64_t bytes, const std::string& what) {
  if (bytes == 0) return {};
  void* ptr = nullptr;
  check(cudaMallocFromPoolAsync(&ptr, bytes, pool_, stream_), "workload: " + what + " (" + gibText(bytes) + ")");
  PoolBuffer buffer(ptr, bytes, stream_);
  sampleFreeMemory();
  return buffer;
}

void Workspace::sampleFreeMemory() {
  const FreeMemory now = freeMemory();
  if (now.free < lowestFree_) lowestFree_ = now.free;
}

std::uint64_t Workspace::usedNow() const {
  check(cudaStreamSynchronize(stream_), "synchronizing the workload");
  std::uint64_t used = 0;
  check(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemCurrent, &used), "reading the pool's use");
  return used;
}

CublasHandle::CublasHandle() { check(cublasCreate(&handle_), "cublasCreate"); }
CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) (void)cublasDestroy(handle_);
}

CudaStream::CudaStream() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating a stream"); }
CudaStream::~CudaStream() {
  if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
}

CudaEvent::CudaEvent() { check(cudaEventCreate(&event_), "creating an event"); }
CudaEvent::~CudaEvent() {
  if (event_ != nullptr) (void)cudaEventDestroy(event_);
}

MemPool::MemPool(int device) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  check(cudaMemPoolCreate(&pool_, &props), "creating the workload memory pool");
  std::uint64_t keepEverything = UINT64_MAX;
  check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keepEverything), "configuring the memory pool");
}

MemPool::~MemPool() {
  if (pool_ != nullptr) (void)cudaMemPoolDestroy(pool_);
}

void MemPool::resetHighWaterMarks() {
  std::uint64_t zero = 0;
  check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrUsedMemHigh, &zero), "resetting the pool's high-water mark");
  check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &zero), "resetting the pool's high-water mark");
}

std::uint64_t MemPool::usedHigh() const {
  std::uint64_t value = 0;
  check(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemHigh, &value), "reading the pool's high-water mark");
  return value;
}

std::uint64_t MemPool::reservedHigh() const {
  std::uint64_t value = 0;
  check(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemHigh, &value), "reading the pool's high-water mark");
  return value;
}

void MemPool::trim() { check(cudaMemPoolTrimTo(pool_, 0), "trimming the memory pool"); }

}  // namespace oomlint::harness
