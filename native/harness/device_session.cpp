#include "device_session.h"

#include <cuda.h>

#include <optional>
#include <vector>

#include "cuda_support.h"
#include "denoiser_replay.h"
#include "kernels.h"

namespace oomlint::harness {

namespace {

// cuMemGetAllocationGranularity through the runtime's driver entry point, so the program needs no
// link against libcuda and still starts (and says so) on a machine without a driver.
void vmmGranularity(int device, DeviceFacts& facts) {
  using Query = CUresult (*)(size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags);
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion("cuMemGetAllocationGranularity", &entry, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess || entry == nullptr) {
    (void)cudaGetLastError();
    return;
  }
  const auto query = reinterpret_cast<Query>(entry);
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t granularity = 0;
  if (query(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) == CUDA_SUCCESS) facts.vmmGranularity = granularity;
  if (query(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) == CUDA_SUCCESS)
    facts.vmmRecommendedGranularity = granularity;
}

std::uint64_t dropBetween(const FreeMemory& before, const FreeMemory& after) {
  return before.free > after.free ? before.free - after.free : 0;
}

}  // namespace

struct DeviceSession::State {
  int device = 0;
  DeviceFacts facts;
  std::optional<CudaStream> stream;
  std::optional<CublasHandle> blas;
  std::optional<MemPool> pool;
  DeviceBuffer holdBack;
};

DeviceSession::DeviceSession(int device) : state_(std::make_unique<State>()) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    throw DeviceError(std::string("no usable CUDA device (") +
                          (status != cudaSuccess ? cudaGetErrorString(status) : "none found") +
                          "); the harness needs a GPU, --plan-only does not",
                      false);
  }
  if (device >= devices) {
    throw DeviceError("device " + std::to_string(device) + " does not exist (" + std::to_string(devices) + " found)", false);
  }
  State& s = *state_;
  s.device = device;
  DeviceFacts& f = s.facts;
  check(cudaSetDevice(device), "selecting the device");
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, device), "reading the device's properties");
  f.name = props.name;
  f.computeMajor = props.major;
  f.computeMinor = props.minor;
  check(cudaDriverGetVersion(&f.driverVersion), "reading the driver version");
  check(cudaRuntimeGetVersion(&f.runtimeVersion), "reading the runtime version");

  // The context: everything in use once it exists (on an otherwise idle card, the context itself).
  check(cudaFree(nullptr), "creating the CUDA context");
  const FreeMemory context = freeMemory();
  f.totalBytes = context.total;
  f.contextBytes = context.total - context.free;

  s.stream.emplace();
  const FreeMemory beforeBlas = freeMemory();
  s.blas.emplace();
  const FreeMemory afterBlas = freeMemory();
  f.cublasHandleBytes = dropBetween(beforeBlas, afterBlas);
  check(cublasSetStream(s.blas->get(), s.stream->get()), "cublasSetStream");
  check(cublasGetVersion(s.blas->get(), &f.cublasVersion), "cublasGetVersion");

  // The first GEMM loads its kernels and sets up cuBLAS's workspace: its operands are allocated first
  // so that the drop is the library's alone.
  {
    constexpr int n = 256;
    DeviceBuffer a(n * n * 2, "GEMM probe"), b(n * n * 2, "GEMM probe"), c(n * n * 2, "GEMM probe");
    check(cudaMemset(a.get(), 0, a.bytes()), "GEMM probe");
    check(cudaMemset(b.get(), 0, b.bytes()), "GEMM probe");
    const FreeMemory before = freeMemory();
    const float alpha = 1.0f, beta = 0.0f;
    check(cublasGemmEx(s.blas->get(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a.get(), CUDA_R_16BF, n, b.get(), CUDA_R_16BF, n,
                       &beta, c.get(), CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "the first GEMM");
    check(cudaStreamSynchronize(s.stream->get()), "the first GEMM");
    f.cublasFirstGemmBytes = dropBetween(before, freeMemory());
  }

  // Allocation granularity: what one byte really costs.
  {
    const FreeMemory before = freeMemory();
    DeviceBuffer one(1, "one byte");
    f.mallocGranularity = dropBetween(before, freeMemory());
  }
  vmmGranularity(device, f);

  s.pool.emplace(device);
  // Kernels load lazily: one launch now makes the harness's kernel module count as fixed bytes (its
  // other kernels add a few KiB each inside the first phase that runs them).
  {
    DeviceBuffer probe(4096, "kernel probe");
    auto* data = static_cast<kernels::bf16*>(probe.get());
    check(kernels::fillRandom(data, 1024, 1, 1.0f, s.stream->get()), "loading kernels");
    check(cudaStreamSynchronize(s.stream->get()), "loading kernels");
  }
  const FreeMemory ready = freeMemory();
  f.fixedBytes = ready.total - ready.free;
}

DeviceSession::~DeviceSession() = default;

const DeviceFacts& DeviceSession::facts() const { return state_->facts; }

void DeviceSession::capTo(std::uint64_t capBytes) {
  State& s = *state_;
  s.holdBack.reset();
  if (capBytes == 0) return;
  const FreeMemory now = freeMemory();
  const std::uint64_t used = now.total - now.free;  // this process's fixed bytes, and any other process's
  if (capBytes <= used) {
    throw DeviceError("a cap of " + std::to_string(capBytes >> 20) + " MiB is below what is already in use", false);
  }
  const std::uint64_t keepFree = capBytes - used;
  if (keepFree >= now.free) {
    throw DeviceError("the card has " + std::to_string(now.total >> 20) + " MiB: it cannot behave like a card of " +
                          std::to_string(capBytes >> 20) + " MiB",
                      false);
  }
  s.holdBack = DeviceBuffer(now.free - keepFree, "the cap's hold-back");
}

PhaseMeasurement DeviceSession::replay(const PhasePlan& phase, int forwardBlocks) {
  State& s = *state_;
  PhaseMeasurement m;
  m.phase = phase.name;
  s.pool->resetHighWaterMarks();
  Workspace workspace(s.pool->get(), s.stream->get());
  workspace.sampleFreeMemory();
  const std::uint64_t holdBack = s.holdBack.bytes();
  std::vector<DeviceBuffer> resident;
  resident.reserve(phase.components.size());
  void* transformer = nullptr;
  std::uint64_t transformerBytes = 0;
  try {
    for (const ComponentPlan& c : phase.components) {
      ComponentMeasurement cm{c.name, c.replay, c.bytes, 0, false};
      if (c.replay == Replay::Context) {
        cm.measuredBytes = s.facts.fixedBytes;
        cm.allocated = true;
      } else if (c.replay == Replay::Resident) {
        const FreeMemory before = freeMemory();
        m.components.push_back(cm);  // listed before it allocates, so a failure still shows what was asked
        DeviceBuffer buffer(c.bytes, c.name);
        // cudaMalloc commits memory at once; the memset makes sure of it, as loading weights would.
        if (buffer.get() != nullptr)
          check(cudaMemsetAsync(buffer.get(), 0, buffer.bytes(), s.stream->get()), "touching " + c.name);
        check(cudaStreamSynchronize(s.stream->get()), "touching " + c.name);
        m.components.back().measuredBytes = dropBetween(before, freeMemory());
        m.components.back().allocated = true;
        if (c.name == "transformer weights") {
          transformer = buffer.get();
          transformerBytes = buffer.bytes();
        }
        resident.push_back(std::move(buffer));
        workspace.sampleFreeMemory();
        continue;
      }
      m.components.push_back(cm);
    }
    const FreeMemory baseline = freeMemory();
    if (phase.denoiser || phase.vae) {
      WorkloadMeasurement w;
      w.estimateBytes = phase.bytesOf(Replay::Workload);
      CudaEvent start, stop;
      check(cudaEventRecord(start.get(), s.stream->get()), "timing the workload");
      if (phase.denoiser) {
        const DenoiserRun run =
            replayDenoiser(workspace, s.blas->get(), *phase.denoiser, transformer, transformerBytes, forwardBlocks);
        w.savedPerBlockBytes = run.savedPerBlockBytes;
      }
      if (phase.vae) replayVae(workspace, *phase.vae);
      check(cudaEventRecord(stop.get(), s.stream->get()), "timing the workload");
      check(cudaEventSynchronize(stop.get()), "the workload");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "timing the workload");
      w.milliseconds = ms;
      w.usedHighBytes = s.pool->usedHigh();
      w.reservedHighBytes = s.pool->reservedHigh();
      w.deviceHighBytes = baseline.free > workspace.lowestFree() ? baseline.free - workspace.lowestFree() : 0;
      w.attentionScratchBytes = workspace.scratchHigh();
      m.workload = w;
    }
    m.ran = true;
  } catch (const DeviceError& error) {
    if (!error.outOfMemory()) throw;
    m.outOfMemory = true;
    m.failure = error.what();
  }
  const std::uint64_t total = s.facts.totalBytes;
  const std::uint64_t lowest = workspace.lowestFree();
  m.peakBytes = total > lowest + holdBack ? total - lowest - holdBack : 0;
  resident.clear();
  check(cudaStreamSynchronize(s.stream->get()), "ending the phase");
  s.pool->trim();
  return m;
}

}  // namespace oomlint::harness
