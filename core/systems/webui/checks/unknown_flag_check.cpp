// OL701 unknown-webui-flag: a flag no tool has (with the closest of this tool's), or another tool's flag.
#include "systems/webui/checks/checks.h"
#include "base/text/suggest.h"

namespace oomlint {

namespace {

std::string owners(const WebUiFlag& flag) {
  std::string out;
  for (const auto& t : flag.tools) {
    WebUiTool other;
    if (parseWebUiTool(t, other)) out += (out.empty() ? "" : " and ") + std::string(displayName(other));
  }
  return out;
}

}  // namespace

void checkUnknownFlags(const WebUiCheckContext& c, Findings& findings) {
  const std::string tool(displayName(c.setup.tool));
  for (const ReadFlag& f : c.setup.flags) {
    const LaunchFlag& written = *f.written;
    if (f.standing == FlagStanding::Unknown) {
      std::vector<std::string> names;
      for (const auto& known : c.webui.flags) {
        if (known.existsIn(c.setup.tool)) names.push_back(known.name);
      }
      std::string message = "unknown " + tool + " flag `" + written.name + "`";
      if (auto near = closestMatch(written.name, names)) message += "; did you mean `" + *near + "`?";
      findings.report(RuleId::OL701, written.range, KeyPath::of({"args"}), message);
    } else if (f.standing == FlagStanding::OtherTool) {
      findings.report(RuleId::OL701, written.range, KeyPath::of({"args"}),
                      "`" + written.name + "` is not a " + tool + " flag (it is " + owners(*f.known) + "'s)");
    }
  }
}

}  // namespace oomlint
