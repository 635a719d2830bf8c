// An sd-scripts job as its files write it (docs/sd-scripts.md): the training command line (in a .sh,
// .bat or .ps1, FluxGym's train.sh / train.bat, or pasted), its --config_file TOML, its --dataset_config
// TOML, or the kohya_ss GUI's saved JSON. Every argument keeps the file and the bytes that write it, so
// a finding points at it and a fix rewrites only its value. Several files given together are one job.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/document/key_path.h"
#include "base/document/limits.h"
#include "base/document/node.h"
#include "base/input.h"
#include "base/knowledge/trainer_args.h"
#include "base/text/source_text.h"

namespace oomlint {

enum class SdFileKind { CommandLine, ConfigFile, DatasetConfig, GuiJson };

// One argument as one file writes it.
struct SdArg {
  std::string name;                 // the argument argparse sets (an alias or a GUI key renamed), no --
  std::string written;              // as written: "--train_batch_size", "optimizer"
  std::vector<std::string> values;  // none for a bare flag; several for a list
  const Node* node = nullptr;       // in a TOML or JSON file: its value node
  KeyPath path;                     // and where it is there
  Range range;                      // the argument as written (flag and value, or key and value)
  Range nameRange;
  std::optional<Range> valueRange;  // the value's bytes (a bare flag has none)
  const TrainerArg* known = nullptr;  // what the script knows of it (nullptr: it does not accept it)
  std::size_t file = 0;             // which of the job's files

  // The value as a bool (a bare flag, `true`, "True"), a number, or text.
  bool truthy() const;
  std::optional<double> number() const;
  std::string text() const { return values.empty() ? "" : values.front(); }
};

// One file of the job.
struct SdFile {
  SdFileKind kind = SdFileKind::CommandLine;
  std::string path;
  const Input* input = nullptr;    // the input it was read from
  std::shared_ptr<const SourceText> source;
  std::unique_ptr<Document> doc;   // TOML or JSON
  std::vector<SdArg> args;         // in the order written (a command line's script arguments)
  std::vector<SdArg> accelerateArgs;  // a command line's `accelerate launch` arguments
  Range scriptRange;               // a command line: the script word
  // A command line whose script word is built from shell variables ("./musubi-tuner/$script.py" in a
  // PowerShell wrapper): which script runs, and with what, is decided by code oomlint does not evaluate.
  bool variableScript = false;
  std::size_t appendOffset = 0;    // a command line: where a new argument goes (after the last)
  std::string appendSeparator = " ";  // what goes before it (a continuation when each argument has its line)
};

struct SdJob {
  const TrainerTool* tool = nullptr;      // sd-scripts or musubi-tuner
  std::vector<SdFile> files;
  const TrainerScript* script = nullptr;  // from the command line or the GUI's checkboxes
  std::string scriptSource;               // where the script was read ("flux1_checkbox", the command)
  bool jobAssumed = false;                // nothing but a dataset TOML: script and arguments are defaults
  // The merged arguments: the config file's, then the command line's and the GUI's over them (argparse
  // reads the TOML as the namespace and parses the command line onto it). Points into files.
  std::vector<const SdArg*> merged;
  const SdArg* find(std::string_view name) const;
  // The dataset TOML's values, if one was given: [general] then each [[datasets]] (and its subsets).
  const SdFile* dataset() const;
};

// What kind of sd-scripts file a text is, from its content (nullopt: none).
std::optional<SdFileKind> sdFileKind(std::string_view head, const TrainerTool& tool);

// Whether the text runs one of the tool's scripts as a command of its own: the command's first word
// opens its line (a script, or a pasted command), where a log quoting one prefixes it (a timestamp, `+ `).
bool runsTrainerScript(std::string_view text, const TrainerTool& tool);

// The inputs that form one job with `first`: those a file of the job names by file name (a command line's
// --config_file / --dataset_config, a config file's dataset_config; sd-scripts' `.toml` optional) or that
// name one of its files. Inputs given together but unrelated (`oomlint check configs/*`) stay apart.
std::vector<const Input*> jobInputs(const Input& first, const std::vector<const Input*>& others);

// Reads the given files as one job; files of other kinds are left out.
SdJob readSdJob(const std::vector<const Input*>& inputs, const TrainerTool& tool, const ReadLimits& limits);

}  // namespace oomlint
