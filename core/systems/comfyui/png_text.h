// The workflow a PNG carries: ComfyUI's SaveImage writes the API graph as a `prompt` text chunk and the
// UI graph as `workflow` (tEXt, or iTXt when the text is not Latin-1). Read with every length checked
// against what is left of the file, so a truncated or hostile PNG is an error, never a crash; CRCs are
// not checked (a viewer does not need them to show the text, and neither does this).
#pragma once

#include <string>
#include <string_view>

namespace oomlint {

inline constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";

bool isPng(std::string_view bytes);

struct PngWorkflow {
  std::string json;     // the chunk's text as UTF-8; empty exactly when `error` says why there is none
  std::string keyword;  // "prompt" or "workflow"
  std::string error;
};

// The `prompt` chunk (the API graph: every value named) when there is one, else `workflow`.
PngWorkflow workflowFromPng(std::string_view bytes);

}  // namespace oomlint
