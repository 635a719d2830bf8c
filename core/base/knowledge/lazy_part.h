// A part of the knowledge read from the compiled tables on first use, not at start-up: an AI Toolkit job never
// reads the ComfyUI nodes, the trainers' argument tables or the log markers (two fifths of the tables), and reads
// only the schema sections its config writes.
#pragma once

#include <atomic>
#include <cstdint>
#include <forward_list>
#include <memory>
#include <thread>

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

  // Held apart, made when read, in one allocation: an unread part (most of the sixty architectures, four in five of
  // a section's keys) costs a few words and no heap.
  mutable std::atomic<std::uint8_t> state_{kUnread};
  mutable bool exact_ = true;
  mutable std::unique_ptr<Held> held_;
  KnowledgePart part_;
  Reader read_ = nullptr;
};

}  // namespace oomlint
