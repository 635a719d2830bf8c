#include "systems/comfyui/png_text.h"

#include <cstdint>

namespace oomlint {

namespace {

std::uint32_t bigEndian32(std::string_view b, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 8) | static_cast<unsigned char>(b[at + 3]);
}

// tEXt is Latin-1: each byte above 0x7F is one code point, two bytes in UTF-8.
std::string latin1ToUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

struct TextChunk {
  std::string keyword;
  std::string text;
  bool compressed = false;
};

// tEXt: keyword NUL text. iTXt: keyword NUL flag method language NUL translated NUL text.
bool readTextChunk(std::string_view type, std::string_view data, TextChunk& out) {
  const std::size_t nul = data.find('\0');
  if (nul == std::string_view::npos) return false;
  out.keyword = std::string(data.substr(0, nul));
  if (type == "tEXt") {
    out.text = latin1ToUtf8(data.substr(nul + 1));
    return true;
  }
  if (type == "zTXt") {
    out.compressed = true;
    return true;
  }
  // iTXt
  if (data.size() < nul + 3) return false;
  out.compressed = data[nul + 1] != 0;
  const std::size_t language = data.find('\0', nul + 3);
  const std::size_t translated = language == std::string_view::npos ? language : data.find('\0', language + 1);
  if (translated == std::string_view::npos) return false;
  out.text = std::string(data.substr(translated + 1));
  return true;
}

}  // namespace

bool isPng(std::string_view bytes) { return bytes.starts_with(kPngSignature); }

PngWorkflow workflowFromPng(std::string_view bytes) {
  PngWorkflow result;
  if (!isPng(bytes)) {
    result.error = "not a PNG file (no PNG signature)";
    return result;
  }
  TextChunk prompt, workflow;
  bool compressedSeen = false;
  std::size_t at = kPngSignature.size();
  while (at < bytes.size()) {
    if (bytes.size() - at < 12) {
      result.error = "the PNG is truncated: a chunk header at byte " + std::to_string(at) + " runs past the end of the file";
      return result;
    }
    const std::uint32_t length = bigEndian32(bytes, at);
    const std::string_view type = bytes.substr(at + 4, 4);
    if (length > bytes.size() - at - 12) {
      result.error = "the PNG is truncated: the " + std::string(type) + " chunk at byte " + std::to_string(at) + " says " +
                     std::to_string(length) + " bytes, more than the file has left";
      return result;
    }
    const std::string_view data = bytes.substr(at + 8, length);
    if (type == "tEXt" || type == "iTXt" || type == "zTXt") {
      TextChunk chunk;
      if (readTextChunk(type, data, chunk)) {
        if (chunk.compressed && (chunk.keyword == "prompt" || chunk.keyword == "workflow")) compressedSeen = true;
        if (!chunk.compressed && chunk.keyword == "prompt" && prompt.keyword.empty()) prompt = std::move(chunk);
        if (!chunk.compressed && chunk.keyword == "workflow" && workflow.keyword.empty()) workflow = std::move(chunk);
      }
    }
    if (type == "IEND") break;
    at += 12 + static_cast<std::size_t>(length);
  }
  const TextChunk& chosen = !prompt.keyword.empty() ? prompt : workflow;
  if (chosen.keyword.empty()) {
    result.error = compressedSeen ? "the PNG's workflow is in a compressed text chunk, which oomlint does not read; export the "
                                    "workflow from ComfyUI (Workflow › Export) and check the JSON"
                                  : "the PNG carries no ComfyUI workflow (no `prompt` or `workflow` text chunk): it was not "
                                    "saved by ComfyUI's SaveImage, or its metadata was stripped";
    return result;
  }
  if (chosen.text.empty()) {
    result.error = "the PNG's `" + chosen.keyword + "` text chunk is empty";
    return result;
  }
  result.json = chosen.text;
  result.keyword = chosen.keyword;
  return result;
}

}  // namespace oomlint
