// The Python traceback a log is printing: which functions its frames run, and so which phase a failure
// right after it happened in. The frame names are better evidence than the progress markers, which only
// say which stage the run had reached.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/ids.h"
#include "base/knowledge/logs.h"  // FrameClue

namespace oomlint {

class Traceback {
 public:
  explicit Traceback(const LogMarkers& markers) : markers_(markers) {}
  // One line of the log: `line` trimmed, `raw` as read (a quoted source line is indented). True when the
  // line begins a traceback (Python's header, or rich's box around it).
  bool read(std::string_view raw, std::string_view line);
  // The phase of the strongest clue; quoted source lines count only when no frame name speaks.
  std::optional<Phase> phase() const;
  // The same beside the stage a marker says the run reached, which outranks kohya's trainer.train() alone (it wraps
  // the loading and the caches too).
  std::optional<Phase> phaseBeside(std::optional<Phase> marker) const;

 private:
  struct Frame {
    std::optional<FrameClue> clue;
    bool quoted = false;  // a source line under a frame, not a frame's function name
  };
  std::optional<FrameClue> strongest(bool quoted) const;
  static constexpr std::size_t kMaxFrames = 256;  // a recursion's traceback repeats; the innermost frames count
  const LogMarkers& markers_;  // what frame names and quoted source lines say (rules/logs.yaml traceback)
  std::vector<Frame> frames_;
};

}  // namespace oomlint
