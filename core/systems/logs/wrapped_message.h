// An allocator's OOM message hard-wrapped over several lines (a terminal's or a forum's width, rich's
// box): "… 5.24 GiB already" / "allocated; 0 bytes free; …", or one sentence a line ("HIP out of memory. " /
// "Tried to allocate 26.00 MiB. GPU 0 has …"). Its figures are read from the lines joined.
#pragma once

#include <string>
#include <string_view>

namespace oomlint {

class WrappedMessage {
 public:
  // An OOM message line: watch the next lines for its continuation when it prints figures and stops
  // mid-sentence or inside its parenthesis, or stops after its first sentence.
  void start(std::string_view line);
  void stop() { left_ = 0; }
  // The next line (trimmed): true when it continues the message; joined() then holds the whole of it.
  bool take(std::string_view line);
  const std::string& joined() const { return text_; }

 private:
  static constexpr int kMaxLines = 4;
  static constexpr std::size_t kMaxBytes = 2048;
  std::string text_;
  int left_ = 0;
  bool bySentence_ = false;  // the message stopped after its first sentence: the next take a line each
};

}  // namespace oomlint
