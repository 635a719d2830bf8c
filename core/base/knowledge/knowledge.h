// Everything oomlint knows, loaded once from the embedded rules/ data and never changed after.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/knowledge/advice.h"
#include "base/knowledge/architectures.h"
#include "base/knowledge/catalog.h"
#include "base/knowledge/comfyui.h"
#include "base/knowledge/gpus.h"
#include "base/knowledge/logs.h"
#include "base/knowledge/memory_model.h"
#include "base/knowledge/schema.h"
#include "base/knowledge/trainer_args.h"
#include "base/knowledge/webui.h"

namespace oomlint {

class Document;

struct Knowledge {
  Catalog catalog;
  Schema schema;
  Architectures architectures;
  GpuCatalog gpus;
  MemoryModel memory;
  WebUiKnowledge webui;
  ComfyUiKnowledge comfyui;
  TrainerTool sdScripts;    // kohya-ss sd-scripts (rules/sd-scripts.yaml)
  TrainerTool musubiTuner;  // kohya-ss musubi-tuner (rules/musubi-tuner.yaml)
  Advice advice;
  LogMarkers logs;
  // Problems in the embedded data itself (a build defect; tests require none).
  std::vector<std::string> loadErrors;
  // The parsed schema file, kept alive because its key specs point at their defaults' nodes.
  std::vector<std::unique_ptr<Document>> sources;
};

// Built on first use (thread-safe), immutable afterwards.
const Knowledge& knowledge();

}  // namespace oomlint
