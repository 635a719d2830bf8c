#include "systems/sdscripts/job.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "base/document/reader.h"
#include "base/text/ascii.h"
#include "base/text/shell_words.h"

namespace oomlint {

namespace {

// Keys only a kohya_ss GUI JSON has (its saved configs and presets).
bool looksLikeGuiJson(std::string_view head) {
  if (!looksLikeJson(head)) return false;
  return head.find("\"LoRA_type\"") != std::string_view::npos ||
         (head.find("\"max_resolution\"") != std::string_view::npos && head.find("\"optimizer\"") != std::string_view::npos);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A TOML file that opens with a table header (`[general]`, `[[datasets]]`), which a JSON sniffer takes
// for an array.
bool opensWithTomlHeader(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  const std::size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || head[start] != '[') return false;
  const std::string_view line = trim(head.substr(start, head.find('\n', start) - start));
  const std::size_t close = line.find(']');
  if (close == std::string_view::npos) return false;
  const std::string_view name = trim(line.substr(line.starts_with("[[") ? 2 : 1, close - (line.starts_with("[[") ? 2 : 1)));
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return isAsciiAlnum(c) || c == '_' || c == '-' || c == '.' || c == ' '; });
}

// Whether some sd-scripts script accepts `name` (a config file may be meant for any of them).
bool anyScriptAccepts(const TrainerTool& tool, std::string_view name) {
  return std::any_of(tool.scripts.begin(), tool.scripts.end(), [&](const TrainerScript& s) { return tool.arg(s, name) != nullptr; });
}

bool listed(const std::vector<KnowledgeText>& keys, std::string_view key) {
  if (key.starts_with("\xEF\xBB\xBF")) key.remove_prefix(3);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// The words that end a shell command early (a pipe, a redirection, a second command).
bool endsCommand(std::string_view word) {
  for (std::string_view w : {"|", "||", "&&", ";", "&", ">", ">>", "2>&1", "1>", "2>"}) {
    if (word == w) return true;
  }
  return false;
}

// A script word's file name: the sd-scripts script it runs, if any.
const TrainerScript* scriptOf(const TrainerTool& tool, const ShellWord& word) {
  if (!word.value.ends_with(".py")) return nullptr;
  return tool.script(word.value);
}

// A script word built from variables inside the tool's own folder: "./musubi-tuner/$laungh_script.py",
// "sd-scripts\\%SCRIPT%.py" (the wrappers that pick the script by model).
bool isVariableScript(const TrainerTool& tool, const ShellWord& word) {
  if (!word.value.ends_with(".py") || word.value.find_first_of("$%") == std::string::npos) return false;
  std::string folder = tool.id;
  const bool inFolder = word.value.find(folder) != std::string::npos;
  std::replace(folder.begin(), folder.end(), '-', '_');
  return inFolder || word.value.find(folder) != std::string::npos;
}

bool launchesVariableScript(const ShellCommand& command, const TrainerTool& tool) {
  return std::any_of(command.words.begin(), command.words.end(), [&](const ShellWord& w) { return isVariableScript(tool, w); });
}

// Splits `--name=value` / `--name value…` words into arguments; `script` says which take values.
std::vector<SdArg> argumentsOf(const SourceText& source, const std::vector<ShellWord>& words, std::size_t from, std::size_t to,
                               const TrainerTool* tool, const TrainerScript* script) {
  std::vector<SdArg> args;
  for (std::size_t i = from; i < to;) {
    const ShellWord& w = words[i];
    if (!w.value.starts_with("-") || w.value == "-" || w.value == "--") {
      // A word that is no argument: a shell variable expanding to several ($ext_args) or a stray value.
      // Its meaning is not known here, so it is skipped rather than reported.
      ++i;
      continue;
    }
    SdArg arg;
    const std::size_t eq = w.value.find('=');
    std::string flag = w.value.substr(0, eq);
    arg.written = flag;
    arg.name = flag.substr(flag.starts_with("--") ? 2 : 1);
    arg.known = tool && script ? tool->arg(*script, arg.name) : nullptr;
    if (arg.known) arg.name = arg.known->name;
    const std::size_t nameEnd = w.value.find('=') == std::string::npos ? w.end : w.begin + (source.text().find('=', w.begin) - w.begin);
    arg.nameRange = source.rangeOf(w.begin, std::min(nameEnd, w.end));
    std::size_t end = w.end;
    ++i;
    if (eq != std::string::npos) {
      arg.values.push_back(w.value.substr(eq + 1));
      arg.valueRange = source.rangeOf(std::min(nameEnd + 1, w.end), w.end);
    } else if (!(arg.known && arg.known->flag)) {
      const bool many = arg.known && arg.known->list;
      std::size_t valuesBegin = 0;
      while (i < to && !words[i].value.starts_with("--") && (words[i].value.empty() || words[i].value[0] != '-' || isAsciiDigit(words[i].value.size() > 1 ? words[i].value[1] : 'x'))) {
        if (arg.values.empty()) valuesBegin = words[i].begin;
        arg.values.push_back(words[i].value);
        end = words[i].end;
        ++i;
        if (!many) break;
      }
      if (!arg.values.empty()) arg.valueRange = source.rangeOf(valuesBegin, end);
    }
    arg.range = source.rangeOf(w.begin, end);
    args.push_back(std::move(arg));
  }
  return args;
}

void readCommandLine(SdFile& file, SdJob& job, const TrainerTool& tool) {
  const SourceText& source = *file.source;
  std::vector<ShellCommand> commands = splitCommands(source.text());
  // A script that caches and then trains (musubi-tuner's three commands): the training command is the job.
  const auto trains = [&](const ShellCommand& c) {
    return std::any_of(c.words.begin(), c.words.end(), [&](const ShellWord& w) {
      const TrainerScript* s = scriptOf(tool, w);
      return s != nullptr && !s->caches();
    });
  };
  std::stable_partition(commands.begin(), commands.end(), trains);
  for (const ShellCommand& command : commands) {
    const auto& words = command.words;
    std::size_t scriptAt = words.size();
    for (std::size_t i = 0; i < words.size() && scriptAt == words.size(); ++i) {
      if (scriptOf(tool, words[i])) scriptAt = i;
    }
    if (scriptAt == words.size()) {
      const auto variable = std::find_if(words.begin(), words.end(), [&](const ShellWord& w) { return isVariableScript(tool, w); });
      if (variable != words.end() && !file.variableScript) {
        file.variableScript = true;
        file.scriptRange = source.rangeOf(variable->begin, variable->end);
      }
      continue;
    }
    const TrainerScript* script = scriptOf(tool, words[scriptAt]);
    file.scriptRange = source.rangeOf(words[scriptAt].begin, words[scriptAt].end);
    if (job.script == nullptr) {
      job.script = script;
      job.scriptSource = words[scriptAt].value;
    }
    std::size_t launch = words.size();
    for (std::size_t i = 0; i < scriptAt; ++i) {
      if (words[i].value == "launch" && i > 0 && words[i - 1].value.ends_with("accelerate")) launch = i;
    }
    if (launch < scriptAt) file.accelerateArgs = argumentsOf(source, words, launch + 1, scriptAt, nullptr, nullptr);
    std::size_t end = scriptAt + 1;
    while (end < words.size() && !endsCommand(words[end].value)) ++end;
    file.args = argumentsOf(source, words, scriptAt + 1, end, &tool, script);
    const ShellWord& last = words[end - 1];
    file.appendOffset = last.end;
    // One argument per line (FluxGym, most scripts): the new one gets its own line the same way.
    if (file.args.size() >= 2) {
      const std::size_t from = file.args[file.args.size() - 2].range.end.offset, to = file.args.back().range.start.offset;
      const std::string_view between = std::string_view(source.text()).substr(from, to - from);
      const std::size_t nl = between.find('\n');
      if (nl != std::string_view::npos && between.find('\n', nl + 1) == std::string_view::npos) file.appendSeparator = std::string(between);
    }
    return;
  }
}

std::vector<std::string> valuesOf(const Node* value) {
  const Node* v = value->resolved();
  if (v->kind == NodeKind::Sequence) {
    std::vector<std::string> out;
    for (const Node* item : v->items) out.push_back(item->resolved()->text);
    return out;
  }
  if (v->kind == NodeKind::Scalar && v->type == ScalarType::Bool) return {v->boolValue ? "true" : "false"};
  if (v->kind == NodeKind::Scalar) return {v->text};
  return {};
}

SdArg argFromEntry(const SourceText& source, const MapEntry& entry, KeyPath path) {
  SdArg arg;
  arg.name = arg.written = entry.key->resolved()->text;
  arg.node = entry.value;
  arg.path = std::move(path);
  arg.values = valuesOf(entry.value);
  arg.nameRange = entry.key->range;
  arg.valueRange = entry.value->range;
  arg.range = source.rangeOf(entry.key->range.start.offset, entry.value->range.end.offset);
  return arg;
}

// sd-scripts reads a --config_file with every section flattened into one namespace (section names
// ignored, later keys winning): train_util.read_config_from_file.
void readConfigFile(SdFile& file) {
  const Node* root = file.doc->root();
  for (const MapEntry& entry : root->entries) {
    const Node* value = entry.value->resolved();
    if (value->kind == NodeKind::Mapping) {
      const KeyPath section = KeyPath::of({entry.key->resolved()->text});
      for (const MapEntry& inner : value->entries) file.args.push_back(argFromEntry(*file.source, inner, section.key(inner.key->resolved()->text)));
    } else {
      file.args.push_back(argFromEntry(*file.source, entry, KeyPath::of({entry.key->resolved()->text})));
    }
  }
}

// The kohya_ss GUI's flat JSON: its keys renamed to the arguments the GUI passes (gui_keys), `xformers`
// as the attention it selects, and the script from its model checkboxes.
void readGuiJson(SdFile& file, SdJob& job, const TrainerTool& tool) {
  const Node* root = file.doc->root();
  const bool lora = root->find("LoRA_type") != nullptr || root->find("network_dim") != nullptr;
  for (const auto& gui : tool.guiScripts) {
    if (const Node* box = root->find(gui.key); box && box->truthy() && job.script == nullptr) {
      job.script = tool.scriptNamed(lora ? gui.lora : gui.finetune);
      job.scriptSource = gui.key;
    }
  }
  if (job.script == nullptr) {
    job.script = tool.scriptNamed(lora ? "train_network.py" : "train_db.py");
    job.scriptSource = "no model checkbox set";
  }
  for (const MapEntry& entry : root->entries) {
    const std::string& key = entry.key->resolved()->text;
    SdArg arg = argFromEntry(*file.source, entry, KeyPath::of({key}));
    for (const auto& [guiKey, argName] : tool.guiKeys) {
      if (guiKey == key) arg.name = argName;
    }
    if (key == "xformers" && entry.value->isScalar() && entry.value->resolved()->type == ScalarType::String) {
      const std::string attention = lowercase(entry.value->resolved()->text);
      if (attention != "xformers" && attention != "sdpa") continue;
      arg.name = attention;
      arg.values = {"true"};
    }
    arg.known = tool.arg(*job.script, arg.name);
    file.args.push_back(std::move(arg));
  }
}

// musubi-tuner's training script, from the model a config file names (`dit`, `task`); Wan otherwise.
std::string musubiScriptGuess(const SdJob& job) {
  for (const auto& f : job.files) {
    for (const auto& a : f.args) {
      if (a.name != "dit" && a.name != "task") continue;
      const std::string v = lowercase(a.text());
      const auto has = [&](std::initializer_list<std::string_view> words) {
        return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return v.find(w) != std::string::npos; });
      };
      if (has({"qwen"})) return "qwen_image_train_network.py";
      if (has({"kontext"})) return "flux_kontext_train_network.py";
      if (has({"flux2", "flux.2", "flux-2", "flux_2"})) return "flux_2_train_network.py";
      if (has({"framepack", "fpack"})) return "fpack_train_network.py";
      if (has({"hunyuanvideo_1.5", "hunyuan_video_1.5", "hunyuanvideo1.5", "hv_1_5", "hv15"})) return "hv_1_5_train_network.py";
      if (has({"hunyuan"})) return "hv_train_network.py";
      if (has({"z_image", "z-image", "zimage"})) return "zimage_train_network.py";
      if (has({"hidream"})) return "hidream_o1_train_network.py";
      if (has({"ideogram"})) return "ideogram4_train_network.py";
      if (has({"krea"})) return "krea2_train_network.py";
      if (has({"kandinsky"})) return "kandinsky5_train_network.py";
    }
  }
  return "wan_train_network.py";
}

// The file name of a path as a user writes it (either slash).
std::string_view fileNameOf(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Whether `text` names the file `name` as a path: after a separator, quote, `=` or blank, and before a
// quote, blank or line end (sd-scripts adds a missing `.toml` to --config_file).
bool namesFile(std::string_view text, std::string_view name) {
  if (name.empty()) return false;
  const auto bounded = [&](std::string_view n) {
    for (std::size_t at = text.find(n); at != std::string_view::npos; at = text.find(n, at + 1)) {
      const char before = at == 0 ? ' ' : text[at - 1];
      const char after = at + n.size() < text.size() ? text[at + n.size()] : '\n';
      const bool startsPath = std::string_view(" \t\"'=/\\").find(before) != std::string_view::npos;
      const bool endsPath = std::string_view(" \t\r\n\"'`^").find(after) != std::string_view::npos;
      if (startsPath && endsPath) return true;
    }
    return false;
  };
  return bounded(name) || (name.ends_with(".toml") && bounded(name.substr(0, name.size() - 5)));
}

}  // namespace

std::vector<const Input*> jobInputs(const Input& first, const std::vector<const Input*>& others) {
  std::vector<const Input*> job{&first};
  std::vector<bool> taken(others.size(), false);
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < others.size(); ++i) {
      if (taken[i]) continue;
      const Input& other = *others[i];
      const bool related = std::any_of(job.begin(), job.end(), [&](const Input* in) {
        return namesFile(in->text, fileNameOf(other.path)) || namesFile(other.text, fileNameOf(in->path));
      });
      if (related) {
        taken[i] = grew = true;
        job.push_back(&other);
      }
    }
  }
  return job;
}

bool SdArg::truthy() const {
  if (values.empty()) return node == nullptr;  // a bare flag is true; an empty TOML array is not
  const std::string v = lowercase(values.front());
  return !(v == "false" || v == "0" || v.empty() || v == "none" || v == "no");
}

std::optional<double> SdArg::number() const {
  if (values.empty()) return std::nullopt;
  const std::string& v = values.front();
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || std::string_view(end).find_first_not_of(" ") != std::string_view::npos) return std::nullopt;
  return d;
}

const SdArg* SdJob::find(std::string_view name) const {
  const SdArg* found = nullptr;
  for (const SdArg* a : merged) {
    if (a->name == name) found = a;
  }
  return found;
}

const SdFile* SdJob::dataset() const {
  for (const auto& f : files) {
    if (f.kind == SdFileKind::DatasetConfig) return &f;
  }
  return nullptr;
}

// Whether a command runs one of the tool's scripts with arguments (`--x` after the script word: a log's
// "sdxl_train.py FAILED" does not).
bool runsScriptWithArguments(const ShellCommand& command, const TrainerTool& tool) {
  const auto script = std::find_if(command.words.begin(), command.words.end(), [&](const ShellWord& w) { return scriptOf(tool, w) != nullptr; });
  return script != command.words.end() &&
         std::any_of(script + 1, command.words.end(), [](const ShellWord& w) { return w.value.starts_with("--"); });
}

bool runsTrainerScript(std::string_view text, const TrainerTool& tool) {
  const auto commands = splitCommands(text, 20000);
  for (const ShellCommand& command : commands) {
    if (!runsScriptWithArguments(command, tool) && !launchesVariableScript(command, tool)) continue;
    std::size_t lineStart = command.begin;
    while (lineStart > 0 && text[lineStart - 1] != '\n') --lineStart;
    if (trim(text.substr(lineStart, command.begin - lineStart)).empty()) return true;
  }
  return false;
}

std::optional<SdFileKind> sdFileKind(std::string_view head, const TrainerTool& tool) {
  if (looksLikeGuiJson(head)) return SdFileKind::GuiJson;
  if (looksLikeJson(head) && !opensWithTomlHeader(head)) return std::nullopt;
  int knownKeys = 0;
  bool dataset = false, foreign = false, ownConfig = false, commandLine = false;
  for (std::size_t pos = 0; pos < head.size();) {
    const std::size_t end = std::min(head.find('\n', pos), head.size());
    const std::string_view line = trim(head.substr(pos, end - pos));
    pos = end + 1;
    if (line.starts_with("[[datasets")) dataset = true;
    if (const std::size_t eq = line.find('='); eq != std::string_view::npos && !line.starts_with("-") && !line.starts_with("[")) {
      const std::string_view key = trim(line.substr(0, eq));
      if (key.find_first_of(" \"'$") == std::string_view::npos) {
        dataset = dataset || listed(tool.datasetKeys, key);
        ownConfig = ownConfig || listed(tool.configKeys, key);
        foreign = foreign || listed(tool.foreignKeys, key);
        if (anyScriptAccepts(tool, key)) ++knownKeys;
      }
    }
  }
  // A command running the tool's script with arguments; a traceback around it makes the text a log.
  if (head.find("Traceback (most recent call last)") == std::string_view::npos) {
    for (const ShellCommand& c : splitCommands(head, 20000)) {
      commandLine = commandLine || runsScriptWithArguments(c, tool) || launchesVariableScript(c, tool);
    }
  }
  if (commandLine) return SdFileKind::CommandLine;
  if (foreign) return std::nullopt;
  if (dataset) return SdFileKind::DatasetConfig;
  // A tool with keys of its own (musubi-tuner's `dit`) needs one; sd-scripts' config is its arguments.
  if (ownConfig || (tool.configKeys.empty() && knownKeys >= 3)) return SdFileKind::ConfigFile;
  return std::nullopt;
}

SdJob readSdJob(const std::vector<const Input*>& inputs, const TrainerTool& tool, const ReadLimits& limits) {
  SdJob job;
  job.tool = &tool;
  // Command lines first: they name the script, which says how every other file's keys are read.
  std::vector<const Input*> ordered;
  std::vector<SdFileKind> kinds;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Input* input : inputs) {
      const auto kind = sdFileKind(std::string_view(input->text).substr(0, 1 << 16), tool);
      if (!kind || (pass == 0) != (*kind == SdFileKind::CommandLine || *kind == SdFileKind::GuiJson)) continue;
      ordered.push_back(input);
      kinds.push_back(*kind);
    }
  }
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    SdFile file;
    file.kind = kinds[i];
    file.path = ordered[i]->path;
    file.input = ordered[i];
    if (file.kind == SdFileKind::CommandLine) {
      file.source = std::make_shared<const SourceText>(ordered[i]->text);
      readCommandLine(file, job, tool);
    } else {
      file.doc = file.kind == SdFileKind::GuiJson ? readDocument(ordered[i]->text, limits) : readTomlDocument(ordered[i]->text, limits);
      file.source = file.doc->sharedSource();
      if (!file.doc->fatal() && file.doc->root() && file.doc->root()->isMapping()) {
        if (file.kind == SdFileKind::ConfigFile) readConfigFile(file);
        if (file.kind == SdFileKind::GuiJson) readGuiJson(file, job, tool);
      }
    }
    for (auto& arg : file.args) arg.file = i;
    job.files.push_back(std::move(file));
  }
  const bool variableScript = std::any_of(job.files.begin(), job.files.end(), [](const SdFile& f) { return f.variableScript; });
  if (job.script == nullptr && !variableScript) {
    // A config file alone: the script it was written for, from the model arguments only some scripts take.
    const SdFile* config = nullptr;
    for (const auto& f : job.files) {
      if (f.kind == SdFileKind::ConfigFile) config = &f;
    }
    std::string script = tool.id == "musubi-tuner" ? musubiScriptGuess(job) : "train_network.py";
    if (config && tool.id != "musubi-tuner") {
      bool network = false;
      for (const auto& a : config->args) {
        const std::string v = lowercase(a.text());
        if (a.name == "network_module") network = true;
        if (a.name == "t5xxl" || a.name == "ae" || v.find("lora_flux") != std::string::npos) script = "flux_train_network.py";
        else if (a.name == "clip_g" && script != "flux_train_network.py") script = "sd3_train_network.py";
        else if (a.name == "pretrained_model_name_or_path" && v.find("xl") != std::string::npos && script == "train_network.py") script = "sdxl_train_network.py";
      }
      if (!network && script == "train_network.py") script = "train_db.py";
    }
    job.script = tool.scriptNamed(script);
    job.jobAssumed = config == nullptr;
    job.scriptSource = config ? "guessed from the config file's model arguments"
                              : "a dataset TOML alone names no model or setting: the tool's most common script, every argument at its default";
  }
  // Keys of files read before the script was known are looked up again against it.
  for (auto& file : job.files) {
    for (auto& arg : file.args) {
      if (arg.known == nullptr && job.script) arg.known = tool.arg(*job.script, arg.name);
      if (arg.known) arg.name = arg.known->name;
    }
  }
  // argparse's order: the config file's namespace first, then the command line (and the GUI's) over it.
  for (const SdFileKind kind : {SdFileKind::ConfigFile, SdFileKind::GuiJson, SdFileKind::CommandLine}) {
    for (const auto& file : job.files) {
      if (file.kind != kind) continue;
      for (const auto& arg : file.args) job.merged.push_back(&arg);
    }
  }
  return job;
}

}  // namespace oomlint
