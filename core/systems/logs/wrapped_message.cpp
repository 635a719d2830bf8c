#include "systems/logs/wrapped_message.h"

#include <algorithm>

#include "systems/logs/line_text.h"

namespace oomlint {

namespace {

// The message stops mid-sentence: inside the "(GPU 0; … reserved in total by PyTorch)" figures, or
// after a word (every sentence of PyTorch's message ends in '.' or ')', its hint in the variable name).
bool unfinished(std::string_view text) {
  if (std::count(text.begin(), text.end(), '(') > std::count(text.begin(), text.end(), ')')) return true;
  if (text.empty() || text.ends_with("PYTORCH_CUDA_ALLOC_CONF")) return false;
  const char last = text.back();
  return last != '.' && last != ')' && last != '!' && last != '?' && last != ':';
}

// A wrapped sentence goes on in lowercase or with a figure; a traceback, a bar, a timestamp or a new
// message starts otherwise.
bool continues(std::string_view line) {
  if (line.empty() || contains(line, "%|")) return false;
  const char first = line.front();
  return isAsciiLower(first) || isAsciiDigit(first);
}

// The sentences of PyTorch's caching-allocator message after its first, each of which a console or a forum can
// put on a line of its own ("HIP out of memory. " / "Tried to allocate 26.00 MiB. GPU 0 has a total capacity …").
bool nextSentence(std::string_view line) {
  for (std::string_view opening : {"Tried to allocate ", "GPU ", "Of the allocated memory ", "Including non-PyTorch memory"}) {
    if (line.starts_with(opening)) return true;
  }
  return false;
}

// The message's first sentence alone: "… out of memory." with no figure after it.
bool bareFirstSentence(std::string_view line) {
  while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
  return line.ends_with("out of memory.") && !contains(line, "Tried to allocate");
}

}  // namespace

void WrappedMessage::start(std::string_view line) {
  left_ = 0;
  bySentence_ = bareFirstSentence(line);
  if (!bySentence_ && (!contains(line, "Tried to allocate") || !unfinished(line))) return;
  text_.assign(line.substr(0, kMaxBytes));
  left_ = kMaxLines;
}

bool WrappedMessage::take(std::string_view line) {
  if (left_ == 0) return false;
  const bool sentence = bySentence_ && nextSentence(line);
  if (!(sentence || continues(line)) || text_.size() + line.size() >= kMaxBytes) {
    left_ = 0;
    return false;
  }
  text_ += ' ';
  text_ += line;
  left_ = sentence || unfinished(text_) ? left_ - 1 : 0;
  return true;
}

}  // namespace oomlint
