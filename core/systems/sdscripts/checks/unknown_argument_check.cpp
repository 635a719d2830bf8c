// OL801 unknown-trainer-argument: an argument the script does not accept, with the closest it does.
// argparse rejects it on the command line; a --config_file key is read into the namespace unchecked, so
// there it is ignored (a warning). The GUI's JSON has keys of its own and is not checked.
#include "base/text/suggest.h"
#include "systems/sdscripts/checks/checks.h"

namespace oomlint {

void checkUnknownArguments(const SdCheckContext& c, Findings& findings) {
  const SdFile& file = c.current();
  if (c.job.script == nullptr || (file.kind != SdFileKind::CommandLine && file.kind != SdFileKind::ConfigFile)) return;
  const std::vector<std::string> names = c.tool.argNames(*c.job.script);
  // The closest name is searched for the first few hundred only: a file of thousands of unknown keys is
  // not a config anyone mistyped, and the search must not make it slow.
  int suggestions = 256;
  for (const SdArg& arg : file.args) {
    if (arg.known != nullptr) continue;
    // The config file names itself in kohya_ss-written TOMLs; sd-scripts pops it before parsing.
    if (file.kind == SdFileKind::ConfigFile && arg.name == "config_file") continue;
    std::string message = "`" + arg.written + "` is not an argument of " + c.job.script->name;
    if (auto near = suggestions-- > 0 ? closestMatch(arg.name, names) : std::nullopt) message += "; did you mean `" + std::string(file.kind == SdFileKind::CommandLine ? "--" : "") + *near + "`?";
    if (file.kind == SdFileKind::CommandLine) {
      findings.report(RuleId::OL801, arg.nameRange, KeyPath::of({arg.name}), message + " (argparse stops: \"unrecognized arguments\")");
    } else {
      findings.report(RuleId::OL801, arg.nameRange, arg.path, message + " (a config file's unknown key is silently ignored)", Severity::Warning);
    }
  }
}

}  // namespace oomlint
