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

}  // namespace

void WrappedMessage::start(std::string_view line) {
  left_ = 0;
  if (!contains(line, "Tried to allocate") || !unfinished(line)) return;
  text_.assign(line.substr(0, kMaxBytes));
  left_ = kMaxLines;
}

bool WrappedMessage::take(std::string_view line) {
  if (left_ == 0) return false;
  if (!continues(line) || text_.size() + line.size() >= kMaxBytes) {
    left_ = 0;
    return false;
  }
  text_ += ' ';
  text_ += line;
  left_ = unfinished(text_) ? left_ - 1 : 0;
  return true;
}

}  // namespace oomlint
