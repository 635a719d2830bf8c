// The Python traceback a log is printing: which functions its frames run, and so which phase a failure
// right after it happened in. The frame names are better evidence than the progress markers, which only
// say which stage the run had reached.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/ids.h"

namespace oomlint {

// What a traceback frame says the process was doing, strongest first: a trainer's sampling call outranks
// the VAE decode inside it, which outranks a generation tool's sampler; module moves (.to(), _apply) mean
// loading when nothing more specific speaks. ModelLoad is a UI loading weights onto the GPU inside a
// sampler call; TrainOuter is kohya's trainer.train(), which wraps loading too: the weakest evidence.
enum class FrameClue { Sample, Quantize, LatentCache, TeCache, ModelLoad, VaeDecode, TrainStep, Inference, Load, TrainOuter };

class Traceback {
 public:
  // One line of the log: `line` trimmed, `raw` as read (a quoted source line is indented).
  void read(std::string_view raw, std::string_view line);
  // The phase of the strongest clue; quoted source lines count only when no frame name speaks.
  std::optional<Phase> phase() const;

 private:
  struct Frame {
    std::optional<FrameClue> clue;
    bool quoted = false;  // a source line under a frame, not a frame's function name
  };
  static constexpr std::size_t kMaxFrames = 256;  // a recursion's traceback repeats; the innermost frames count
  std::vector<Frame> frames_;
};

}  // namespace oomlint
