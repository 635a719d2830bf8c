// Everything oomlint knows, compiled from rules/ at build time, read from those tables once and never
// changed after.
#pragma once

#include <deque>

#include "base/document/node.h"
#include "base/knowledge/advice.h"
#include "base/knowledge/architectures.h"
#include "base/knowledge/catalog.h"
#include "base/knowledge/comfyui.h"
#include "base/knowledge/gpus.h"
#include "base/knowledge/lazy_part.h"
#include "base/knowledge/logs.h"
#include "base/knowledge/memory_model.h"
#include "base/knowledge/other_trainers.h"
#include "base/knowledge/schema.h"
#include "base/knowledge/trainer_args.h"
#include "base/knowledge/webui.h"

namespace oomlint {

struct Knowledge {
  Catalog catalog;
  Schema schema;
  Architectures architectures;
  GpuCatalog gpus;
  MemoryModel memory;
  // Read on first use (lazy_part.h): the systems that need them pay for them.
  LazyPart<WebUiKnowledge> webui;  // A1111 / Forge / ComfyUI flags and generation families (rules/webui.yaml)
  LazyPart<ComfyUiKnowledge> comfyui;
  LazyPart<TrainerTool> sdScripts;    // kohya-ss sd-scripts (rules/sd-scripts.yaml)
  LazyPart<TrainerTool> musubiTuner;  // kohya-ss musubi-tuner (rules/musubi-tuner.yaml)
  Advice advice;
  LazyPart<LogMarkers> logs;
  LazyPart<OtherTrainers> otherTrainers;  // configs oomlint does not read (rules/other-trainers.yaml)
  // What the start-up read makes of default values outside the lazy parts (KeySpec::defaultValue points into
  // its own section's part: none are left here, but a new one would be kept).
  KnowledgeNodes defaults;
  // The rules compiler's loader: the strings its views show (knowledge_text.h); the tables' own need none.
  KnowledgeTextStore kept;
};

// Its fields for the rules compiler's tables (knowledge_tape.h); a default value is written with its key.
template <class V> void fields(V& v, Knowledge& x) {
  v(x.catalog, x.schema, x.architectures, x.gpus, x.memory, x.webui, x.comfyui, x.sdScripts, x.musubiTuner, x.advice, x.logs, x.otherTrainers);
}

// Built on first use (thread-safe), immutable afterwards.
const Knowledge& knowledge();

}  // namespace oomlint
