// What oomlint knows about console logs (rules/logs.yaml): the literal text the log scanner matches,
// as typed tables. The scanner (systems/logs/) is given them; the words its per-line tables search
// for are gathered at load into one LiteralSet, so that a line is searched once for all of them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/knowledge/knowledge_text.h"
#include "base/ids.h"
#include "base/oom_kind.h"
#include "base/text/literal_set.h"

namespace oomlint {

// The id vocabularies of rules/logs.yaml, each printed as its schema's enum lists it
// (rules/schema/logs.schema.yaml; a test holds the two equal).

// What an OOM message does beyond naming its kind.
enum class OomEffect { AbortedAfterRetries, AllocationTable };
inline constexpr std::array kOomEffectIds = {std::string_view("aborted_after_retries"), std::string_view("allocation_table")};

// How sure a message makes an OOM: printed (certain), or inferred from its marks (a kill by SIGKILL, a
// cache step failing on some images): suspected; or suspected only where the run then died of an error (a
// warning of memory pressure a run often survives: PyTorch's expandable_segments mapping failure).
enum class OomCertainty { Certain, Suspected, SuspectedIfFailed };
inline constexpr std::array kOomCertaintyIds = {std::string_view("certain"), std::string_view("suspected"),
                                                std::string_view("suspected_if_failed")};

// A figure of an OOM message (the JSON report's `numbers` keys).
enum class OomFigure { TriedToAllocate, TotalCapacity, Free, AllocatedByPytorch, ReservedUnallocated, ProcessInUse };
inline constexpr std::array kOomFigureIds = {std::string_view("tried_to_allocate"),    std::string_view("total_capacity"),
                                             std::string_view("free"),                 std::string_view("allocated_by_pytorch"),
                                             std::string_view("reserved_unallocated"), std::string_view("process_in_use")};

// What a progress marker does beyond setting a phase.
enum class MarkerEffect { FirstStepNext, AiToolkit, MallocAsync, SkippedBatch };
inline constexpr std::array kMarkerEffectIds = {std::string_view("first_step_next"), std::string_view("ai_toolkit"),
                                                std::string_view("malloc_async"), std::string_view("skipped_batch")};

// Where the step a marker announces is written: the number right after the marker, or after the first
// ':' that follows it.
enum class StepPosition { AfterMarker, AfterColon };
inline constexpr std::array kStepPositionIds = {std::string_view("after_marker"), std::string_view("after_colon")};

// The generation UIs a log can name (LogAnalysis::tool).
inline constexpr std::array kLogToolIds = {std::string_view("a1111"), std::string_view("forge"), std::string_view("comfyui")};
// The trainers a log can name (LogAnalysis::trainer).
inline constexpr std::array kLogTrainerIds = {kAiToolkitTrainer, std::string_view("musubi-tuner"),
                                              std::string_view("sd-scripts")};

// What a progress bar's description says it is. Training and Unnamed are what a bar matching no entry
// is (named or not).
// DatasetMap is a dataset's preparation bar (datasets' Map): it runs inside the stage announced.
// Generation: a generation UI's bar over its images, read as its sampler's unnamed bar is.
enum class BarKind { LatentCache, TextCache, Quantize, Validation, DatasetMap, Sampling, Loading, Generation, Training, Unnamed };
inline constexpr std::array kBarKindIds = {std::string_view("latent_cache"), std::string_view("text_cache"),
                                           std::string_view("quantize"),     std::string_view("validation"),
                                           std::string_view("dataset_map"),
                                           std::string_view("sampling"),     std::string_view("loading"),
                                           std::string_view("generation"),   std::string_view("training"),
                                           std::string_view("unnamed")};

// What a traceback frame says the process was doing, strongest first: a trainer's sampling call outranks
// the VAE decode inside it, which outranks a generation tool's sampler; a save (a checkpoint being written,
// which runs inside the training loop) outranks the loop; module moves (.to(), _apply) mean loading when
// nothing more specific speaks. ModelLoad is a UI loading weights onto the GPU inside a sampler call;
// TrainOuter is kohya's trainer.train(), which wraps loading too: the weakest evidence.
enum class FrameClue { Sample, Save, Quantize, LatentCache, TeCache, ModelLoad, VaeDecode, TrainStep, Inference, Load, TrainOuter };
inline constexpr std::array kFrameClueIds = {std::string_view("sample"),     std::string_view("save"),
                                             std::string_view("quantize"),
                                             std::string_view("latent_cache"), std::string_view("te_cache"),
                                             std::string_view("model_load"), std::string_view("vae_decode"),
                                             std::string_view("train_step"), std::string_view("inference"),
                                             std::string_view("load"),       std::string_view("train_outer")};

// A test of a line: it matches when any of its strings holds.
struct LineTest {
  std::vector<KnowledgeText> contains, startsWith, endsWith, equals;
  std::vector<LiteralSet::Id> containsIds;  // `contains` as ids of LogMarkers::lineWords (set at load)

  bool empty() const { return contains.empty() && startsWith.empty() && endsWith.empty() && equals.empty(); }
  // A log line, whose words of LogMarkers::lineWords are `found`.
  bool matches(std::string_view line, const LiteralSet::Found& found) const;
  // Any text, searched for `contains` directly (the lowercased tables, read rarely).
  bool matches(std::string_view text) const;
};

// Each struct's fields, for the rules compiler's tables (knowledge_tape.h): a field left out of
// its list is not compiled in, and reads as its default at run time.
template <class V> void fields(V& v, LineTest& x) { v(x.contains, x.startsWith, x.endsWith, x.equals, x.containsIds); }

struct OomMessage {
  LineTest test;
  OomKind kind = OomKind::CudaAlloc;
  std::optional<OomKind> kindUnderMallocAsync;
  std::optional<Phase> phase;  // the stage the message itself names
  std::optional<OomEffect> effect;
  OomCertainty certainty = OomCertainty::Certain;
  KnowledgeText evidence;  // a suspected one: what the line shows, in words
};

template <class V> void fields(V& v, OomMessage& x) { v(x.test, x.kind, x.kindUnderMallocAsync, x.phase, x.effect, x.certainty, x.evidence); }

// A wrapper's report that the run's process ended, without a message: an OOM's mark only when the run
// stopped mid-stage with no error printed (the scanner judges that).
struct SilentExit {
  LineTest test;
  KnowledgeText evidence;
  // The shell's prompt back on the console (cmd's `C:\dir>`, PowerShell's `PS C:\dir>`, `user@host:dir$`, each after
  // an optional `(venv) `): the shape is the scanner's (systems/logs/line_text.h isShellPrompt), not a table's.
  bool shellPrompt = false;
};

template <class V> void fields(V& v, SilentExit& x) { v(x.test, x.evidence, x.shellPrompt); }

// A tool's own words for what failed, printed beside the error ("Could not save model"): the phase of the
// error next to it.
struct FailedStage {
  LineTest test;
  Phase phase = Phase::Unknown;
};

template <class V> void fields(V& v, FailedStage& x) { v(x.test, x.phase); }

struct AllocationTableRow {
  KnowledgeText startsWith;
  OomFigure figure = OomFigure::Free;
};

template <class V> void fields(V& v, AllocationTableRow& x) { v(x.startsWith, x.figure); }

struct PhaseMarker {
  LineTest test;
  std::optional<Phase> phase;
  bool onlyBeforeTraining = false;
  std::optional<Phase> keeps;  // a stage the marker does not leave (a UI loading its VAE for the decode it began)
  std::optional<StepPosition> announcesStep;
  std::optional<MarkerEffect> effect;
};

template <class V> void fields(V& v, PhaseMarker& x) { v(x.test, x.phase, x.onlyBeforeTraining, x.keeps, x.announcesStep, x.effect); }

// A UI's or a trainer's sign in a log's lines.
struct ToolSign {
  KnowledgeText tool;  // an id of kLogToolIds (toolSigns) or kLogTrainerIds (trainerSigns)
  LineTest test;
};

template <class V> void fields(V& v, ToolSign& x) { v(x.tool, x.test); }

// ComfyUI's memory mode as its start-up line names it, and the launch flag that sets it.
struct VramStateFlag {
  KnowledgeText state;  // "NO_VRAM"
  KnowledgeText flag;   // "--novram"
};

template <class V> void fields(V& v, VramStateFlag& x) { v(x.state, x.flag); }

struct BarWords {
  BarKind kind = BarKind::Training;
  LineTest test;     // lowercase words
  KnowledgeText tool;  // the UI whose bar it is (an id of kLogToolIds), or empty
};

template <class V> void fields(V& v, BarWords& x) { v(x.kind, x.test, x.tool); }

struct FrameWords {
  FrameClue clue = FrameClue::Load;
  LineTest test;  // lowercase words
};

template <class V> void fields(V& v, FrameWords& x) { v(x.clue, x.test); }

struct LogMarkers {
  LiteralSet lineWords;  // every `contains` of the per-line tables below: a line is searched once

  std::vector<OomMessage> oomMessages;  // the first that matches
  std::vector<SilentExit> silentExits;
  std::vector<FailedStage> failedStages;  // the first that matches
  int allocationTableLines = 0;
  std::vector<AllocationTableRow> allocationTable;
  std::vector<PhaseMarker> markers;     // the first that matches
  std::vector<ToolSign> trainerSigns;   // strongest first
  KnowledgeText launchArgs;               // the flags follow it
  LiteralSet::Id launchArgsId = 0;
  KnowledgeText systemReportArgs;         // A1111's system report: its flags follow, a JSON string a line
  LiteralSet::Id systemReportArgsId = 0;
  KnowledgeText cardMemory;               // ComfyUI's "Total VRAM " line: the card's MB follow it
  LiteralSet::Id cardMemoryId = 0;
  KnowledgeText versionLine;              // ComfyUI's "ComfyUI version: " line: its release follows it
  LiteralSet::Id versionLineId = 0;
  KnowledgeText vramState;                // ComfyUI's "Set vram state to: " line: its mode follows it
  LiteralSet::Id vramStateId = 0;
  std::vector<VramStateFlag> vramStateFlags;
  KnowledgeText dynamicVram;              // ComfyUI's line when dynamic VRAM is on
  LiteralSet::Id dynamicVramId = 0;
  KnowledgeText dynamicVramFlag;          // the flag that forces it on
  std::vector<ToolSign> toolSigns;      // strongest first
  std::vector<KnowledgeText> offloadTools;
  LineTest offload;
  std::vector<LineTest> failures;
  std::vector<KnowledgeText> barNotWhenEndsWith;
  std::vector<BarWords> bars;           // the first that matches
  std::vector<FrameWords> frames;       // the first that matches
  std::vector<FrameWords> quotedCode;   // the first that matches
  std::vector<KnowledgeText> cappedBy;
  std::vector<KnowledgeText> logSignsHead, logSignsTail;

  // The rank of a tool among toolSigns (0 the strongest), or toolSigns.size() for none or another.
  std::size_t toolRank(std::string_view tool) const;
  // The rank of a trainer among trainerSigns, or trainerSigns.size() for none or another.
  std::size_t trainerRank(std::string_view trainer) const;
};

template <class V> void fields(V& v, LogMarkers& x) { v(x.lineWords, x.oomMessages, x.silentExits, x.failedStages, x.allocationTableLines, x.allocationTable, x.markers, x.trainerSigns, x.launchArgs, x.launchArgsId, x.systemReportArgs, x.systemReportArgsId, x.cardMemory, x.cardMemoryId, x.versionLine, x.versionLineId, x.vramState, x.vramStateId, x.vramStateFlags, x.dynamicVram, x.dynamicVramId, x.dynamicVramFlag, x.toolSigns, x.offloadTools, x.offload, x.failures, x.barNotWhenEndsWith, x.bars, x.frames, x.quotedCode, x.cappedBy, x.logSignsHead, x.logSignsTail); }

}  // namespace oomlint
