// The command-line trainers' system: kohya sd-scripts (command lines, FluxGym's too, --config_file and
// --dataset_config TOMLs, the kohya_ss GUI's JSON) and musubi-tuner (its training and caching command
// lines, config and dataset TOMLs), each tool an instance over its own argument tables; several files
// given together are one job, each file reported with its own findings and the job's estimate
// (docs/sd-scripts.md, docs/musubi-tuner.md).
#pragma once

#include "systems/system.h"

namespace oomlint {

class TrainerSystem final : public System {
 public:
  TrainerSystem(InputKind kind, LazyPart<TrainerTool> Knowledge::*tool) : kind_(kind), tool_(tool) {}
  InputKind kind() const override { return kind_; }
  // Certain for a TOML or GUI JSON of the tool's keys; likely for a command line running one of its
  // scripts (a log quoting one is a log).
  Recognition recognise(std::string_view head) const override;
  FileReport analyze(const Input& input, const SystemContext& context) const override;

 private:
  InputKind kind_;
  LazyPart<TrainerTool> Knowledge::*tool_;
};

inline TrainerSystem sdScriptsSystem() { return TrainerSystem(InputKind::SdScripts, &Knowledge::sdScripts); }
inline TrainerSystem musubiTunerSystem() { return TrainerSystem(InputKind::MusubiTuner, &Knowledge::musubiTuner); }

}  // namespace oomlint
