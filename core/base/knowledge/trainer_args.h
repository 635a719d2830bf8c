// A command-line trainer's scripts and the arguments each accepts (rules/sd-scripts.yaml): what
// argparse would accept, with its defaults, so a setting is read the way the script reads it and an
// argument it would reject is reported as it would report it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/knowledge/knowledge_text.h"

namespace oomlint {

struct TrainerArg {
  KnowledgeText name;                  // without the leading --
  std::vector<KnowledgeText> aliases;  // other spellings argparse maps to it
  bool flag = false;                 // store_true: takes no value
  bool list = false;                 // nargs * or +: takes several values
  KnowledgeText defaultText;           // argparse's default as text; empty when None
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, TrainerArg& x) { v(x.name, x.aliases, x.flag, x.list, x.defaultText); }

struct TrainerArgGroup {
  KnowledgeText id;  // "train_util.add_training_arguments": where sd-scripts defines them
  std::vector<TrainerArg> args;
};

template <class V> void fields(V& v, TrainerArgGroup& x) { v(x.id, x.args); }

// What a script runs: training (a network or the whole model), or one of musubi-tuner's caching passes,
// which are processes of their own.
enum class TrainerRole { Lora, Finetune, CacheLatents, CacheTextEncoder };

// A script that trains one section of a clip per sample (FramePack), not the clip: the dataset key that
// sets its window of latent frames, the default window, and the packed context beside it. (Not nested in
// TrainerScript: clang cannot default-construct a nested struct with member initializers inside an
// incomplete class, which std::optional asks for.)
struct TrainerSections {
  KnowledgeText windowKey;
  int window = 0;
  int contextLatentFrames = 0;
};

template <class V> void fields(V& v, TrainerSections& x) { v(x.windowKey, x.window, x.contextLatentFrames); }

struct TrainerScript {
  KnowledgeText name;  // "flux_train_network.py"
  KnowledgeText arch;  // rules/ai-toolkit/architectures.yaml; empty when not modelled
  TrainerRole role = TrainerRole::Lora;
  std::vector<int> groups;  // the tool's argument groups it takes, by index, in its parser's order
  // The argument whose value picks the model (Wan's --task, FLUX.2's --model_version), its argparse
  // default, and value → arch.
  KnowledgeText taskArg = "task", taskDefault;
  std::vector<std::pair<KnowledgeText, KnowledgeText>> taskArchs;
  // Releases whose fp8 left more of the DiT in bf16 (rules: fp8_changes): the range covers them.
  struct Fp8Change {
    KnowledgeText until, why;
    double bf16Params = 0;
  };
  std::vector<Fp8Change> fp8Changes;
  // Releases that let accelerator.prepare place the frozen denoiser and the text encoder in fp32, casting the denoiser
  // after and keeping the text encoder in fp32 (rules: fp32_prepare): the range covers them.
  struct Fp32Prepare {
    KnowledgeText until, why;
  };
  std::vector<Fp32Prepare> fp32Prepares;
  // --diffusers_xformers sets xFormers on the VAE and leaves the U-Net's attention plain (fine_tune.py, sdxl_train.py).
  bool diffusersXformersVaeOnly = false;
  std::optional<TrainerSections> sections;
  // musubi-tuner: the VAE's dtype without --vae_dtype ("float32"; empty: the trainer's), and whether the script ignores it.
  KnowledgeText vaeDtype;
  bool vaeDtypeFixed = false;
  bool finetune() const { return role == TrainerRole::Finetune; }
  bool caches() const { return role == TrainerRole::CacheLatents || role == TrainerRole::CacheTextEncoder; }
};

template <class V> void fields(V& v, TrainerScript::Fp8Change& x) { v(x.until, x.why, x.bf16Params); }
template <class V> void fields(V& v, TrainerScript::Fp32Prepare& x) { v(x.until, x.why); }
template <class V> void fields(V& v, TrainerScript& x) { v(x.name, x.arch, x.role, x.groups, x.taskArg, x.taskDefault, x.taskArchs, x.fp8Changes, x.fp32Prepares, x.diffusersXformersVaeOnly, x.sections, x.vaeDtype, x.vaeDtypeFixed); }

struct TrainerTool {
  KnowledgeText id;  // "sd-scripts", "musubi-tuner"
  std::vector<TrainerScript> scripts;
  // Keys that make a TOML this tool's dataset or config file, and keys that make it another tool's.
  std::vector<KnowledgeText> datasetKeys, configKeys, foreignKeys;
  std::vector<TrainerArgGroup> groups;
  std::vector<std::pair<KnowledgeText, KnowledgeText>> guiKeys;  // GUI JSON key → argument name
  struct GuiScript {
    KnowledgeText key, lora, finetune;  // a GUI checkbox and the scripts it selects
  };
  std::vector<GuiScript> guiScripts;
  // Arguments whose value the trainer converts with its own dtype table (musubi-tuner's str_to_dtype), and the
  // strings that table accepts: another value stops the script before training (OL810). Empty: none checked.
  std::vector<KnowledgeText> dtypeArgs, dtypeNames;
  // Every argument's name and aliases, sorted by that spelling for arg()'s binary search (then in the
  // groups' order). Built by index() when the rules are compiled, and compiled in.
  struct Spelling {
    int group = 0, arg = 0;  // indices into groups and that group's args
    int alias = 0;           // 0: the argument's name; n: its n-th alias
  };
  std::vector<Spelling> spellings;

  // The script a path names ("sd-scripts/flux_train_network.py", "./sdxl_train.py"), or nullptr.
  const TrainerScript* script(std::string_view path) const;
  const TrainerScript* scriptNamed(std::string_view name) const;
  // The argument `name` (or an alias of it) as `script` accepts it, or nullptr.
  const TrainerArg* arg(const TrainerScript& script, std::string_view name) const;
  // Fills `spellings` (the rules compiler, once the groups are loaded).
  void index();
  KnowledgeText text(const Spelling& s) const;
  // Every argument name the script accepts (for did-you-mean).
  std::vector<std::string> argNames(const TrainerScript& script) const;
};

template <class V> void fields(V& v, TrainerTool::GuiScript& x) { v(x.key, x.lora, x.finetune); }
template <class V> void fields(V& v, TrainerTool::Spelling& x) { v(x.group, x.arg, x.alias); }
template <class V> void fields(V& v, TrainerTool& x) {
  v(x.id, x.scripts, x.datasetKeys, x.configKeys, x.foreignKeys, x.groups, x.guiKeys, x.guiScripts, x.spellings, x.dtypeArgs,
    x.dtypeNames);
}

}  // namespace oomlint
