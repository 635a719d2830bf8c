// Command-line parsing for `oomlint`. Parsing only: what each command does is in main.cpp.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/knowledge/severity.h"

namespace oomlint::cli {

enum class Format { Text, Json, Gcc, Github, Sarif, Junit };
enum class ColorMode { Auto, Always, Never };

struct CheckCommand {
  std::vector<std::string> inputs;  // "-" is stdin
  Format format = Format::Text;
  // --fail-on: unset when not given (the project file's fail_on, else error); an empty inner value is never.
  std::optional<std::optional<Severity>> failOn;
  ColorMode color = ColorMode::Auto;
  std::optional<std::string> gpu;
  std::optional<double> vramGib;
  std::optional<double> ramGib;    // --ram: the machine's system RAM, for the host-RAM verdict
  std::optional<std::string> log;  // --log FILE: attached to the config before it
  std::optional<std::string> config;  // --config FILE: the project file for every input
  bool noConfig = false;              // --no-config: no project file at all
};

struct FixCommand {
  std::string input;
  std::vector<std::string> jobFiles;  // the rest of a job that spans several files, read but not written
  std::optional<std::string> config;  // the project file's gpu is the default card
  bool noConfig = false;
  std::optional<std::string> gpu;
  std::optional<double> vramGib;
  std::optional<double> ramGib;
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
