// A part of the knowledge read from the compiled tables on first use, not at start-up: an AI Toolkit job never
// reads the ComfyUI nodes, the trainers' argument tables or the log markers (two fifths of the tables), and reads
// only the schema sections its config writes.
#pragma once

#include <forward_list>
#include <memory>
#include <mutex>

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
    return *value_;
  }
  const T* operator->() const { return &**this; }

  // The part to fill in place: the rules compiler's loader, which reads rules/*.yaml and defers nothing.
  T& value() {
    if (!value_) value_ = std::make_unique<T>();
    return *value_;
  }

  void defer(KnowledgeTape tape, Reader read) {
    tape_ = tape;
    read_ = read;
  }
  // Reads it now if it was deferred; whether its tape read back exactly.
  bool load() const {
    std::call_once(once_, [this] {
      if (!value_) value_ = std::make_unique<T>();
      if (read_ == nullptr) return;
      nodes_ = std::make_unique<KnowledgeNodes>();
      exact_ = read_(tape_, *value_, *nodes_);
    });
    return exact_;
  }

 private:
  // Held apart, made when read: an unread part (most of the sixty architectures) costs a few words and no heap.
  mutable std::once_flag once_;
  mutable std::unique_ptr<T> value_;
  mutable std::unique_ptr<KnowledgeNodes> nodes_;  // what its reader makes of a default value (the schema's keys)
  mutable bool exact_ = true;
  KnowledgeTape tape_{};
  Reader read_ = nullptr;
};

}  // namespace oomlint
