#include "systems/logs/oom_event.h"

namespace oomlint {

namespace {

// The stage a bar redrawn after the message was in; none for a sampler's unnamed bar, a validation bar
// or a dataset's Map, which say nothing of the run's stage.
std::optional<Phase> phaseOfBar(BarKind kind) {
  switch (kind) {
    case BarKind::LatentCache: return Phase::LatentCache;
    case BarKind::TextCache: return Phase::TeCache;
    case BarKind::Quantize: return Phase::Quantize;
    case BarKind::Loading: return Phase::Load;
    case BarKind::Training: return Phase::TrainStep;
    case BarKind::Sampling:
    case BarKind::Validation:
    case BarKind::DatasetMap:
    case BarKind::Generation:
    case BarKind::Unnamed: break;
  }
  return std::nullopt;
}

}  // namespace

void OomEvent::start(std::uint64_t line, const Before& before, std::optional<Phase> recentStage) {
  *this = OomEvent{};
  line_ = line;
  before_ = before;
  stage_ = recentStage;
}

void OomEvent::onFailedStage(Phase phase, std::uint64_t line) {
  if (line_ == 0 || stage_ || line > line_ + kNear) return;
  stage_ = phase;
}

OomEvent::Resolved OomEvent::resolve(bool aiToolkit, bool generationUi) const {
  const Before& b = before_;
  // The frames that ran outrank a tool's words for what failed, which outrank the stage reached.
  std::optional<Phase> phase = b.traceback ? b.traceback : tracebackAfter_ ? tracebackAfter_ : stage_ ? stage_ : b.marker;
  if (phase == Phase::Sample && b.marker == Phase::BaselineSample) phase = Phase::BaselineSample;
  std::optional<long> step = b.step;
  if (!phase && barAfter_) {
    phase = phaseOfBar(*barAfter_);
    if (phase == Phase::TrainStep) step = *barStepAfter_ + 1;  // the bar shows the steps done
  }
  if (!phase && generationUi) phase = Phase::Inference;
  Resolved r;
  r.phase = phase.value_or(Phase::Unknown);
  // The step being trained; for a sample or save, the step it announces (AI Toolkit samples at the bar's step).
  if (r.phase == Phase::TrainStep) r.step = step;
  const bool announcedHere = b.announcedStep && b.announcedPhase == r.phase;
  if (r.phase == Phase::Sample || r.phase == Phase::Save) {
    r.step = announcedHere ? b.announcedStep : (aiToolkit ? b.step : std::nullopt);
    if (aiToolkit && b.announcedStep && b.step && r.phase == Phase::Sample) r.step = std::max(*b.announcedStep, *b.step);
  }
  return r;
}

}  // namespace oomlint
