// The GPU side of the harness as the program sees it: no CUDA types, so main.cpp stays plain C++.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "measurement.h"
#include "replay_plan.h"

namespace oomlint::harness {

// A failed CUDA or cuBLAS call. Running out of memory is a result (the cap check wants it); anything
// else ends the run.
class DeviceError : public std::runtime_error {
 public:
  DeviceError(const std::string& message, bool outOfMemory) : std::runtime_error(message), outOfMemory_(outOfMemory) {}
  bool outOfMemory() const { return outOfMemory_; }

 private:
  bool outOfMemory_;
};

// One CUDA device, its context, a cuBLAS handle and a stream-ordered memory pool for the workloads.
class DeviceSession {
 public:
  explicit DeviceSession(int device);  // DeviceError when there is no usable GPU
  ~DeviceSession();
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;

  const DeviceFacts& facts() const;

  // Hold back memory so that the card, this process's own use included, behaves like one of `capBytes`;
  // 0 gives it all back.
  void capTo(std::uint64_t capBytes);

  // Allocates the phase's resident components, runs its workloads, and frees everything again.
  // Out-of-memory comes back in the measurement; other failures throw DeviceError.
  PhaseMeasurement replay(const PhasePlan& phase, int forwardBlocks);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace oomlint::harness
