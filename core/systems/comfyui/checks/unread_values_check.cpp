// OL905 workflow-unreadable, as a warning: a value the estimate needs is written but cannot be read (a
// width that is a string: in a UI workflow, widget positions other than the table's); its default is used.
#include "systems/comfyui/checks/checks.h"

namespace oomlint {

void checkUnreadValues(const WorkflowCheckContext& c, Findings& findings) {
  for (const UnreadValue& u : c.setup.unread) {
    findings.report(RuleId::OL905, u.value->value->range, u.value->path, u.message, Severity::Warning);
  }
}

}  // namespace oomlint
