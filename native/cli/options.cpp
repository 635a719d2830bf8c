#include "cli/options.h"

#include <cstdlib>

namespace oomlint::cli {

const char* const kUsage =
    "usage: oomlint check [INPUT...] [--gpu NAME] [--vram GIB] [--ram GIB] [--log FILE] [--format FORMAT]\n"
    "                     [--fail-on error|warning|info|never] [--color auto|always|never | --no-color]\n"
    "                     [--config FILE | --no-config]\n"
    "       oomlint fix FILE [OTHER…] [--gpu NAME] [--vram GIB] [--ram GIB] [-o OUT | --in-place]\n"
    "                                 write the config with the plan's needed steps applied\n"
    "       oomlint explain CODE      print the documentation page of a rule (OL201 or unknown-key)\n"
    "       oomlint rules             list every rule code\n"
    "       oomlint gpus              list the GPU catalog (names for --gpu)\n"
    "       oomlint schema            print a JSON Schema of the AI Toolkit job config\n"
    "       oomlint --version | --help\n"
    "\n"
    "INPUT is an AI Toolkit job config (YAML, or the JSON the UI stores), a ComfyUI workflow (JSON, or a PNG\n"
    "that carries one), an A1111 / Forge / ComfyUI launch line or generation profile, an sd-scripts or\n"
    "musubi-tuner command line, or a console log of a run; '-' reads stdin. Files given together that make one\n"
    "job are read as one: a command line and the TOML files it names; workflows and the ComfyUI launch line\n"
    "they run under. --log attaches a log to the config: its capacity and failed phase shape the advice.\n"
    "--gpu names the card to estimate against (default RTX 4090); --vram gives its memory in GiB: alone, an\n"
    "unnamed card's; with --gpu, the named card's (an APU's carve-out, a modded or sliced card).\n"
    "--ram gives the machine's system RAM in GiB: the host-RAM estimate then has a verdict.\n"
    "FORMAT: text (default), json, sarif (SARIF 2.1.0), github (Actions annotations), junit, gcc.\n"
    "A project file (.oomlint.yaml, the nearest in the input's folder or above, or --config) sets the default\n"
    "GPU and RAM, the fail level, disabled codes and severities, per path; command-line flags win.\n"
    "Exit codes: 0 no finding at or above the fail level, 1 findings, 2 usage error or unparsable input,\n"
    "3 internal error.\n";

namespace {

ParseResult usageError(std::string message) { return {std::nullopt, std::move(message)}; }

// The value of `--name=value` or `--name value`; advances `i` past a separate value.
bool optionValue(const std::vector<std::string>& args, std::size_t& i, std::string& out) {
  const std::string& arg = args[i];
  if (const auto eq = arg.find('='); eq != std::string::npos) {
    out = arg.substr(eq + 1);
    return true;
  }
  if (i + 1 >= args.size()) return false;
  out = args[++i];
  return true;
}

// GPU options shared by check and fix.
std::optional<std::string> parseGpuOption(const std::string& name, const std::string& v, std::optional<std::string>& gpu,
                                          std::optional<double>& vramGib) {
  if (name == "--gpu") {
    if (v.empty()) return "--gpu needs a GPU name (oomlint gpus lists them)";
    gpu = v;
    return std::nullopt;
  }
  char* end = nullptr;
  const double gib = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(gib > 0)) return "--vram needs a positive size in GiB, got '" + v + "'";
  vramGib = gib;
  return std::nullopt;
}

std::optional<std::string> parseRamOption(const std::string& v, std::optional<double>& ramGib) {
  char* end = nullptr;
  const double gib = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(gib > 0)) return "--ram needs a positive size in GiB, got '" + v + "'";
  ramGib = gib;
  return std::nullopt;
}

ParseResult parseCheck(const std::vector<std::string>& args, std::size_t i) {
  CheckCommand check;
  for (; i < args.size(); ++i) {
    const std::string arg = args[i];
    auto value = [&](std::string& out) { return optionValue(args, i, out); };
    const std::string name = arg.substr(0, arg.find('='));
    std::string v;
    if (name == "--format" || name == "-f") {
      if (!value(v)) return usageError("--format needs a value");
      if (v == "text") check.format = Format::Text;
      else if (v == "json") check.format = Format::Json;
      else if (v == "gcc") check.format = Format::Gcc;
      else if (v == "github") check.format = Format::Github;
      else if (v == "sarif") check.format = Format::Sarif;
      else if (v == "junit") check.format = Format::Junit;
      else return usageError("unknown format '" + v + "' (text, json, sarif, github, junit, gcc)");
    } else if (name == "--fail-on") {
      if (!value(v)) return usageError("--fail-on needs a value");
      if (v == "never") check.failOn = std::optional<Severity>{};
      else if (auto s = parseSeverity(v)) check.failOn = s;
      else return usageError("unknown --fail-on level '" + v + "' (error, warning, info, never)");
    } else if (name == "--color") {
      if (!value(v)) return usageError("--color needs a value");
      if (v == "auto") check.color = ColorMode::Auto;
      else if (v == "always") check.color = ColorMode::Always;
      else if (v == "never") check.color = ColorMode::Never;
      else return usageError("unknown --color mode '" + v + "' (auto, always, never)");
    } else if (name == "--gpu" || name == "--vram") {
      if (!value(v)) return usageError(name + " needs a value");
      if (auto error = parseGpuOption(name, v, check.gpu, check.vramGib)) return usageError(*error);
    } else if (name == "--ram") {
      if (!value(v)) return usageError("--ram needs a value");
      if (auto error = parseRamOption(v, check.ramGib)) return usageError(*error);
    } else if (name == "--log") {
      if (!value(v) || v.empty()) return usageError("--log needs a log file");
      check.log = v;
    } else if (arg == "--no-color") {
      check.color = ColorMode::Never;
    } else if (name == "--config") {
      if (!value(v) || v.empty()) return usageError("--config needs a project file (.oomlint.yaml)");
      check.config = v;
    } else if (arg == "--no-config") {
      check.noConfig = true;
    } else if (arg == "-" || arg.empty() || arg[0] != '-') {
      check.inputs.push_back(arg);
    } else if (arg == "--") {
      check.inputs.insert(check.inputs.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    } else {
      return usageError("unknown option '" + arg + "'");
    }
  }
  if (check.inputs.empty()) return usageError("check needs at least one INPUT ('-' for stdin)");
  if (check.config && check.noConfig) return usageError("give --config or --no-config, not both");
  return {check, {}};
}

ParseResult parseFix(const std::vector<std::string>& args, std::size_t i) {
  FixCommand fix;
  for (; i < args.size(); ++i) {
    const std::string arg = args[i];
    const std::string name = arg.substr(0, arg.find('='));
    auto value = [&](std::string& out) { return optionValue(args, i, out); };
    std::string v;
    if (name == "--gpu" || name == "--vram") {
      if (!value(v)) return usageError(name + " needs a value");
      if (auto error = parseGpuOption(name, v, fix.gpu, fix.vramGib)) return usageError(*error);
    } else if (name == "--ram") {
      if (!value(v)) return usageError("--ram needs a value");
      if (auto error = parseRamOption(v, fix.ramGib)) return usageError(*error);
    } else if (name == "-o" || name == "--output") {
      if (!value(v) || v.empty()) return usageError("-o needs a file name");
      fix.output = v;
    } else if (arg == "--in-place" || arg == "-i") {
      fix.inPlace = true;
    } else if (name == "--config") {
      if (!value(v) || v.empty()) return usageError("--config needs a project file (.oomlint.yaml)");
      fix.config = v;
    } else if (arg == "--no-config") {
      fix.noConfig = true;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return usageError("unknown option '" + arg + "'");
    } else if (fix.input.empty()) {
      fix.input = arg;
    } else {
      fix.jobFiles.push_back(arg);  // the rest of the job (sd-scripts: the command line, config and dataset TOMLs)
    }
  }
  if (fix.input.empty()) return usageError("fix needs a FILE");
  if (fix.output && fix.inPlace) return usageError("give -o or --in-place, not both");
  if (fix.inPlace && fix.input == "-") return usageError("--in-place needs a file, not stdin");
  return {fix, {}};
}

}  // namespace

ParseResult parseArguments(const std::vector<std::string>& args) {
  if (args.empty()) return usageError("no command given");
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") return {HelpCommand{}, {}};
  if (first == "--version" || first == "-V" || first == "version") return {VersionCommand{}, {}};
  if (first == "rules") return {RulesCommand{}, {}};
  if (first == "gpus") return {GpusCommand{}, {}};
  if (first == "schema") return {SchemaCommand{}, {}};
  if (first == "explain") {
    if (args.size() != 2) return usageError("explain takes exactly one rule code or name");
    return {ExplainCommand{args[1]}, {}};
  }
  if (first == "check") return parseCheck(args, 1);
  if (first == "fix") return parseFix(args, 1);
  return usageError("unknown command '" + first + "'");
}

}  // namespace oomlint::cli
