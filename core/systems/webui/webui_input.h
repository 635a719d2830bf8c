// The WebUI input kind ("webui-args"): what a user pastes to ask "does my generation fit?" — a launch
// line (webui-user.bat / webui-user.sh COMMANDLINE_ARGS, `python launch.py …`, `./webui.sh …`, ComfyUI's
// `python main.py …`, A1111's "Launching Web UI with arguments:" line), the parameters block A1111
// writes under an image ("Steps: 20, Sampler: …, Size: 512x768, …"), or a generation profile
// (YAML/JSON with a top-level `generation` mapping). Every token keeps its exact source range.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/document/node.h"
#include "base/knowledge/webui.h"
#include "base/text/source_text.h"

namespace oomlint {

struct LaunchFlag {
  std::string name;   // "--medvram" (an `--opt=value` spelling is split)
  std::string value;  // the argument of a flag that takes one
  Range range;        // the flag and its value as written
  std::size_t begin = 0, end = 0;  // byte offsets of the same
};

// A "Key: value" field of A1111's parameters block.
struct InfoField {
  std::string key;
  std::string value;
  Range range;  // the value as written
};

struct WebUiInput {
  std::shared_ptr<const SourceText> source;
  std::unique_ptr<Document> profile;       // set when the input is a generation profile
  const Node* generation = nullptr;        // its `generation` mapping
  std::optional<WebUiTool> commandTool;    // what the command line says (main.py → ComfyUI)
  std::vector<LaunchFlag> flags;
  bool hasLaunchLine = false;
  // Where a new flag goes: after the last argument (a space is written before it).
  std::size_t flagInsertOffset = 0;
  bool flagInsertNeedsQuoteCheck = false;
  const Node* argsNode = nullptr;          // the profile's `args`, when it is one
  std::vector<InfoField> info;             // the parameters block
  Range infoRange;
  struct Problem {
    Range range;
    std::string message;
  };
  std::vector<Problem> problems;           // reading problems, each a sentence (reported by the checks)
};

// Whether text is a WebUI input, from its first kilobytes (configs and logs are told apart elsewhere).
bool looksLikeWebUiInput(std::string_view head);
// A generation profile: a top-level `generation` key (as certain as AI Toolkit's `job:`).
bool looksLikeGenerationProfile(std::string_view head);

// Reads any of the three forms; never throws for any input.
WebUiInput readWebUiInput(std::string text);

// Splits a launch argument string into flags, offsets relative to `base` in `source`.
std::vector<LaunchFlag> tokenizeArgs(const SourceText& source, std::size_t begin, std::size_t end);

// The fields of an A1111 parameters line ("Steps: 20, Sampler: Euler a, …"), offsets in `source`.
std::vector<InfoField> parseInfoLine(const SourceText& source, std::size_t begin, std::size_t end);

const InfoField* findInfo(const WebUiInput& input, std::string_view key);

}  // namespace oomlint
