// Checked CUDA and cuBLAS calls and RAII owners for device memory, pool tensors, handles and events.
// For the harness's host sources (compiled as C++ against the CUDA runtime headers).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "device_session.h"

namespace oomlint::harness {

// Throws DeviceError; an allocation failure is flagged as out of memory and cleared (it is not sticky).
void check(cudaError_t status, const std::string& what);
void check(cublasStatus_t status, const std::string& what);

struct FreeMemory {
  std::uint64_t free = 0;
  std::uint64_t total = 0;
};
FreeMemory freeMemory();

// cudaMalloc'd memory, freed on scope exit.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::uint64_t bytes, const std::string& what);
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void reset();
  void* get() const { return ptr_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::uint64_t bytes_ = 0;
};

// A tensor from the stream-ordered pool, returned to it (in stream order) on scope exit.
class PoolBuffer {
 public:
  PoolBuffer() = default;
  PoolBuffer(void* ptr, std::uint64_t bytes, cudaStream_t stream) : ptr_(ptr), bytes_(bytes), stream_(stream) {}
  ~PoolBuffer() { reset(); }
  PoolBuffer(PoolBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)), stream_(other.stream_) {}
  PoolBuffer& operator=(PoolBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
      stream_ = other.stream_;
    }
    return *this;
  }
  PoolBuffer(const PoolBuffer&) = delete;
  PoolBuffer& operator=(const PoolBuffer&) = delete;

  void reset();
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::uint64_t bytes() const { return bytes_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  void* ptr_ = nullptr;
  std::uint64_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
};

// Where a workload's tensors come from: the session's pool on its stream. Every allocation samples
// the device's free memory, so the phase sees its true low-water mark, library allocations included.
class Workspace {
 public:
  Workspace(cudaMemPool_t pool, cudaStream_t stream) : pool_(pool), stream_(stream) {}

  // Throws DeviceError (out of memory: "workload: <what>") when the pool cannot grow.
  PoolBuffer allocate(std::uint64_t bytes, const std::string& what);
  void sampleFreeMemory();
  void noteScratch(std::uint64_t bytes) { scratchHigh_ = bytes > scratchHigh_ ? bytes : scratchHigh_; }
  std::uint64_t usedNow() const;  // bytes in live pool tensors (synchronizes the stream first)

  cudaStream_t stream() const { return stream_; }
  std::uint64_t lowestFree() const { return lowestFree_; }
  std::uint64_t scratchHigh() const { return scratchHigh_; }

 private:
  cudaMemPool_t pool_;
  cudaStream_t stream_;
  std::uint64_t lowestFree_ = UINT64_MAX;
  std::uint64_t scratchHigh_ = 0;
};

class CublasHandle {
 public:
  CublasHandle();
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

class CudaStream {
 public:
  CudaStream();
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent();
  ~CudaEvent();
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// A memory pool that keeps what it has reserved (as PyTorch's caching allocator does) until trimmed.
class MemPool {
 public:
  explicit MemPool(int device);
  ~MemPool();
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;
  cudaMemPool_t get() const { return pool_; }

  void resetHighWaterMarks();
  std::uint64_t usedHigh() const;
  std::uint64_t reservedHigh() const;
  void trim();

 private:
  cudaMemPool_t pool_ = nullptr;
};

}  // namespace oomlint::harness
