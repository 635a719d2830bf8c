// A part of the knowledge read from the compiled tables on first use, not at start-up: an AI Toolkit job never
// reads the ComfyUI nodes, the trainers' argument tables or the log markers (two fifths of the tables), and reads
// only the schema sections its config writes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <forward_list>
#include <memory>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "base/document/node.h"
#include "base/knowledge/tape.h"

namespace oomlint {

// What a reader makes of default values (the schema's keys'): nothing is allocated until a node is made, one at a
// time, and none moves.
using KnowledgeNodes = std::forward_list<Node>;

template <class T>
class LazyPart {
 public:
  using value_type = T;
  // Reads the part from `tape` when first used; `read` is the tables' reader (knowledge_tape.h), false when the
  // tape and the walk disagree.
  using Reader = bool (*)(const KnowledgeTape& tape, T& value, KnowledgeNodes& nodes);

  LazyPart() = default;
  LazyPart(const LazyPart&) = delete;
  LazyPart& operator=(const LazyPart&) = delete;

  const T& operator*() const {
    load();
    return held_->value;
  }
  const T* operator->() const { return &**this; }

  // The part to fill in place: the rules compiler's loader, which reads rules/*.yaml and defers nothing.
  T& value() {
    if (!held_) held_ = std::make_unique<Held>();
    return held_->value;
  }

  void defer(const KnowledgeTape& tape, Reader read) {
    part_ = KnowledgePart(tape);
    read_ = read;
  }
  // Reads it now if it was deferred; whether its tape read back exactly. Not std::call_once: glibc's wakes any
  // waiter with a futex call each time a once completes, a system call for every part a check reads (a hundred).
  bool load() const {
    for (;;) {
      std::uint8_t state = state_.load(std::memory_order_acquire);
      if (state == kRead) return exact_;
      if (state == kUnread && state_.compare_exchange_weak(state, kReading, std::memory_order_acquire)) {
        Reading reading{state_};  // back to unread if the read throws: the next caller reads it
        if (read_ != nullptr) {
          auto held = std::make_unique<Held>();  // a read that throws leaves nothing half read
          exact_ = read_(part_.tape(), held->value, held->nodes);
          held_ = std::move(held);
        } else if (!held_) {
          held_ = std::make_unique<Held>();
        }
        reading.done = true;
        return exact_;
      }
      if (state == kReading) std::this_thread::yield();  // another thread is reading it
    }
  }

 private:
  static constexpr std::uint8_t kUnread = 0, kReading = 1, kRead = 2;
  struct Reading {
    std::atomic<std::uint8_t>& state;
    bool done = false;
    ~Reading() { state.store(done ? kRead : kUnread, std::memory_order_release); }
  };

  struct Held {
    T value;
    KnowledgeNodes nodes;  // what its reader makes of a default value (the schema's keys)
  };

  // Held apart, made when read, in one allocation: an unread part (most of the sixty architectures and schema
  // sections) costs a few words and no heap.
  mutable std::atomic<std::uint8_t> state_{kUnread};
  mutable bool exact_ = true;
  mutable std::unique_ptr<Held> held_;
  KnowledgePart part_;
  Reader read_ = nullptr;
};

// A list of parts, each read from the tables on its first use (a schema section's key specs: a config looks up a
// fifth of them). Start-up notes where the list lies; the first lookup notes where each part lies (six words each);
// a part is read when it is first asked for. Without the tables (the rules compiler's loader) it holds its values.
template <class T>
class LazyParts {
 public:
  using value_type = T;
  using Reader = typename LazyPart<T>::Reader;
  // Where each of `parts.size()` parts lies in `region` (the tables' reader); false when they do not fill it exactly.
  using Splitter = bool (*)(const KnowledgeTape& region, std::span<PartSpan> parts);

  LazyParts() = default;
  LazyParts(LazyParts&& other) noexcept { *this = std::move(other); }
  LazyParts& operator=(LazyParts&& other) noexcept {  // before it is shared: the loader's, the tape reader's
    count_ = std::exchange(other.count_, 0);
    loaded_ = std::move(other.loaded_);
    region_ = other.region_;
    read_ = other.read_;
    split_ = other.split_;
    spans_ = std::move(other.spans_);
    slots_ = std::move(other.slots_);
    splitExact_ = other.splitExact_;
    ready_.store(other.ready_.exchange(nullptr, std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  std::size_t size() const { return count_; }
  const T& operator[](std::size_t i) const { return held(i).value; }
  // Reads part `i` now if it was deferred; whether its tape read back exactly.
  bool load(std::size_t i) const { return held(i).exact && (read_ == nullptr || splitExact()); }

  // The loader's: a value added at the end, and a value to fill in place (the tables' writer walks them).
  T& add() {
    ++count_;
    return loaded_.emplace_back(std::make_unique<Held>())->value;
  }
  T& value(std::size_t i) { return loaded_[i]->value; }

  void defer(std::size_t count, const KnowledgeTape& region, Reader read, Splitter split) {
    count_ = count;
    region_ = KnowledgePart(region);
    read_ = read;
    split_ = split;
  }

 private:
  struct Held {
    T value;
    KnowledgeNodes nodes;
    bool exact = true;
  };

  const Held& held(std::size_t i) const {
    if (read_ == nullptr) return *loaded_[i];
    Slot& slot = slots()[i];
    if (const Held* held = slot.held.load(std::memory_order_acquire)) return *held;
    const Lock lock(busy_);
    if (const Held* held = slot.held.load(std::memory_order_acquire)) return *held;
    auto made = std::make_unique<Held>();  // a read that throws leaves nothing half read
    made->exact = read_(spans_[i].in(region_.tape()), made->value, made->nodes);
    slot.held.store(made.get(), std::memory_order_release);
    return *made.release();
  }

  // What was read of a part: made once, owned by its slot.
  struct Slot {
    std::atomic<Held*> held{nullptr};
    ~Slot() { delete held.load(std::memory_order_relaxed); }
  };

  // Where each part lies and what was read of it, made on the first lookup.
  Slot* slots() const {
    if (Slot* slots = ready_.load(std::memory_order_acquire)) return slots;
    const Lock lock(busy_);
    if (Slot* slots = ready_.load(std::memory_order_acquire)) return slots;
    spans_ = std::make_unique<PartSpan[]>(count_);
    splitExact_ = split_(region_.tape(), std::span<PartSpan>(spans_.get(), count_));
    if (!splitExact_) std::fill_n(spans_.get(), count_, PartSpan{});  // each reads as empty, and says so
    slots_ = std::make_unique<Slot[]>(count_);
    ready_.store(slots_.get(), std::memory_order_release);
    return slots_.get();
  }
  bool splitExact() const {
    slots();
    return splitExact_;
  }

  // A lock for the first lookups: held for a read, waited on by yielding (no system call when uncontended).
  class Lock {
   public:
    explicit Lock(std::atomic<bool>& busy) : busy_(busy) {
      while (busy_.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock() { busy_.store(false, std::memory_order_release); }

   private:
    std::atomic<bool>& busy_;
  };

  std::size_t count_ = 0;
  std::vector<std::unique_ptr<Held>> loaded_;  // the loader's
  KnowledgePart region_;
  Reader read_ = nullptr;
  Splitter split_ = nullptr;
  mutable std::unique_ptr<PartSpan[]> spans_;
  mutable std::unique_ptr<Slot[]> slots_;
  mutable std::atomic<Slot*> ready_{nullptr};  // slots_, once they are made
  mutable std::atomic<bool> busy_{false};
  mutable bool splitExact_ = true;
};

}  // namespace oomlint
