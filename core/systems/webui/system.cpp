#include "systems/webui/system.h"

#include "systems/webui/analyze_webui.h"
#include "systems/webui/webui_input.h"

namespace oomlint {

Recognition WebUiSystem::recognise(std::string_view head) const {
  if (looksLikeGenerationProfile(head)) return Recognition::Certain;
  return looksLikeWebUiInput(head) ? Recognition::Likely : Recognition::No;
}

FileReport WebUiSystem::analyze(const Input& input, const SystemContext& context) const {
  return analyzeWebUi(input, context);
}

}  // namespace oomlint
