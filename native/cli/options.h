// Command-line parsing for `oomlint`. Parsing only: what each command does is in main.cpp.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "knowledge/severity.h"

namespace oomlint::cli {

enum class Format { Text, Json, Gcc, Github, Sarif, Junit };
enum class ColorMode { Auto, Always, Never };

struct CheckCommand {
  std::vector<std::string> inputs;  // "-" is stdin
  Format format = Format::Text;
  std::optional<Severity> failOn = Severity::Error;  // nullopt = never
  ColorMode color = ColorMode::Auto;
  std::optional<std::string> gpu;
  std::optional<double> vramGib;
  std::optional<std::string> log;  // --log FILE: attached to the config before it
};

struct FixCommand {
  std::string input;
  std::optional<std::string> gpu;
  std::optional<double> vramGib;
  std::optional<std::string> output;  // -o FILE; stdout when absent
  bool inPlace = false;
};

struct ExplainCommand {
  std::string code;
};

struct RulesCommand {};
struct GpusCommand {};
struct SchemaCommand {};
struct HelpCommand {};
struct VersionCommand {};

using Command =
    std::variant<CheckCommand, FixCommand, ExplainCommand, RulesCommand, GpusCommand, SchemaCommand, HelpCommand, VersionCommand>;

struct ParseResult {
  std::optional<Command> command;
  std::string error;  // a usage error, when command is empty
};

ParseResult parseArguments(const std::vector<std::string>& args);

extern const char* const kUsage;

}  // namespace oomlint::cli
