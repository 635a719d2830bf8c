// rules/logs.yaml into LogMarkers, at build time (rules/compiler).
#include "base/knowledge/load/log_markers.h"

#include <algorithm>

#include "base/document/node.h"
#include "base/text/ascii.h"

namespace oomlint {

namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> enumOf(const std::array<std::string_view, N>& ids, std::string_view id) {
  const auto at = std::find(ids.begin(), ids.end(), id);
  return at == ids.end() ? std::nullopt : std::optional(static_cast<Enum>(at - ids.begin()));
}

// Reads the tables of rules/logs.yaml; the schema (rules/schema/logs.schema.yaml) has checked their
// shape and ids at build time, so a problem here is an id the C++ does not handle or a word that can
// never match.
class Reader {
 public:
  Reader(LogMarkers& m, KnowledgeTextStore& kept) : m_(m), kept_(kept) {}

  std::vector<std::string> read(const Node* root) {
    for (const Node* e : list(root, "oom_messages")) oomMessage(e);
    for (const Node* e : list(root, "silent_exits")) {
      const Node* promptNode = e->find("shell_prompt");
      const bool prompt = promptNode != nullptr && promptNode->truthy();
      m_.silentExits.push_back({prompt ? LineTest{} : lineTest(e, "silent_exits"), text(e, "evidence"), prompt});
      if (m_.silentExits.back().evidence.empty()) problems_.push_back("silent_exits: an entry that does not say what it shows");
    }
    for (const Node* e : list(root, "failed_stages")) {
      FailedStage stage{lineTest(e, "failed_stages"), phase(e, "failed_stages").value_or(Phase::Unknown)};
      m_.failedStages.push_back(std::move(stage));
    }
    allocationTable(root->find("allocation_table"));
    for (const Node* e : list(root, "markers")) marker(e);
    for (const Node* e : list(root, "trainers")) {
      ToolSign sign{text(e, "trainer"), lineTest(e, "trainers")};
      known(kLogTrainerIds, sign.tool, "trainers");
      m_.trainerSigns.push_back(std::move(sign));
    }
    if (m_.trainerRank(kAiToolkitTrainer) == m_.trainerSigns.size()) problems_.push_back("trainers: no ai-toolkit (its marker effect names it)");
    tools(root->find("tools"));
    const Node* offload = root->find("offload");
    m_.offloadTools = strings(offload, "tools");
    for (const auto& tool : m_.offloadTools) known(kLogToolIds, tool, "offload.tools");
    m_.offload = lineTest(offload, "offload");
    for (const Node* e : list(root, "failures")) m_.failures.push_back(lineTest(e, "failures"));
    const Node* bars = root->find("bars");
    m_.barNotWhenEndsWith = strings(bars, "not_when_ends_with");
    for (const Node* e : list(bars, "kinds")) bar(e);
    const Node* traceback = root->find("traceback");
    for (const Node* e : list(traceback, "frames")) m_.frames.push_back(clue(e, "traceback.frames"));
    for (const Node* e : list(traceback, "quoted_code")) m_.quotedCode.push_back(clue(e, "traceback.quoted_code"));
    m_.cappedBy = strings(root->find("gpu_state"), "capped_by");
    const Node* signs = root->find("log_signs");
    m_.logSignsHead = strings(signs, "head");
    m_.logSignsTail = strings(signs, "tail");
    if (m_.oomMessages.empty() || m_.markers.empty() || m_.toolSigns.empty() || m_.bars.empty() || m_.frames.empty()) {
      problems_.push_back("a table is empty (oom_messages, markers, tools.signs, bars.kinds, traceback.frames)");
    }
    return std::move(problems_);
  }

 private:
  std::vector<const Node*> list(const Node* map, std::string_view key) {
    const Node* l = map ? map->find(key) : nullptr;
    if (l == nullptr || !l->isSequence()) {
      problems_.push_back("no list `" + std::string(key) + "`");
      return {};
    }
    return l->resolved()->items;
  }

  KnowledgeText text(const Node* map, std::string_view key) { return kept_.keep(scalarText(map, key)); }

  std::vector<KnowledgeText> strings(const Node* map, std::string_view key) {
    std::vector<KnowledgeText> out;
    const Node* l = map ? map->find(key) : nullptr;
    if (l == nullptr || !l->isSequence()) return out;
    for (const Node* item : l->resolved()->items) {
      out.push_back(kept_.keep(item->resolved()->text));
      if (out.back().empty()) problems_.push_back("`" + std::string(key) + "`: an empty string matches every line");
    }
    return out;
  }

  template <typename Enum, std::size_t N>
  std::optional<Enum> id(const std::array<std::string_view, N>& ids, const std::string& text, std::string_view where) {
    auto value = enumOf<Enum>(ids, text);
    if (!value) problems_.push_back(std::string(where) + ": `" + text + "` is not an id the scanner handles");
    return value;
  }

  template <std::size_t N>
  void known(const std::array<std::string_view, N>& ids, const std::string& text, std::string_view where) {
    if (std::find(ids.begin(), ids.end(), text) == ids.end()) {
      problems_.push_back(std::string(where) + ": `" + text + "` is not an id the scanner handles");
    }
  }

  std::optional<Phase> phase(const Node* e, std::string_view where, std::string_view key = "phase") {
    const Node* p = e->find(key);
    if (p == nullptr || p->isNull()) return std::nullopt;
    const auto value = parsePhase(p->resolved()->text);
    if (!value || *value == Phase::Unknown || *value == Phase::None) {
      problems_.push_back(std::string(where) + ": `" + p->resolved()->text + "` is not a stage a log announces");
      return std::nullopt;
    }
    return value;
  }

  std::optional<OomKind> oomKind(const Node* e, std::string_view key) {
    const Node* k = e->find(key);
    if (k == nullptr || k->isNull()) return std::nullopt;
    const auto value = parseOomKind(k->resolved()->text);
    if (!value || *value == OomKind::None) problems_.push_back("oom_messages: `" + k->resolved()->text + "` is not a kind of OOM");
    return value;
  }

  // A test whose `contains` words are searched per line: they join lineWords.
  LineTest lineTest(const Node* e, std::string_view where) {
    LineTest t;
    t.contains = strings(e, "contains");
    t.startsWith = strings(e, "starts_with");
    t.endsWith = strings(e, "ends_with");
    t.equals = strings(e, "equals");
    if (t.empty()) problems_.push_back(std::string(where) + ": an entry with no contains, starts_with, ends_with or equals");
    for (const auto& word : t.contains) {
      if (!word.empty()) t.containsIds.push_back(m_.lineWords.add(word));
    }
    return t;
  }

  // A test of lowercased text: an uppercase letter in it could never match.
  LineTest lowercaseTest(const Node* e, std::string_view where) {
    LineTest t;
    t.contains = strings(e, "contains");
    t.equals = strings(e, "equals");
    if (t.empty()) problems_.push_back(std::string(where) + ": an entry with no contains or equals");
    for (const auto* words : {&t.contains, &t.equals}) {
      for (const auto& word : *words) {
        if (lowercase(word) != word) problems_.push_back(std::string(where) + ": `" + word + "` is matched against lowercased text");
      }
    }
    return t;
  }

  void oomMessage(const Node* e) {
    OomMessage m;
    m.test = lineTest(e, "oom_messages");
    m.kind = oomKind(e, "kind").value_or(OomKind::CudaAlloc);
    m.kindUnderMallocAsync = oomKind(e, "kind_under_malloc_async");
    m.phase = phase(e, "oom_messages");
    if (const Node* effect = e->find("effect")) m.effect = id<OomEffect>(kOomEffectIds, effect->resolved()->text, "oom_messages.effect");
    if (const Node* certainty = e->find("certainty")) {
      m.certainty = id<OomCertainty>(kOomCertaintyIds, certainty->resolved()->text, "oom_messages.certainty").value_or(OomCertainty::Certain);
    }
    m.evidence = text(e, "evidence");
    // A suspicion is reported with what it rests on: the entry says it.
    if (m.certainty != OomCertainty::Certain && m.evidence.empty()) {
      problems_.push_back("oom_messages: a suspected OOM's entry that does not say what its line shows (evidence)");
    }
    m_.oomMessages.push_back(std::move(m));
  }

  void allocationTable(const Node* table) {
    m_.allocationTableLines = table ? static_cast<int>(numberAt(table, "lines", 0)) : 0;
    for (const Node* row : list(table, "rows")) {
      const auto figure = id<OomFigure>(kOomFigureIds, scalarText(row, "figure"), "allocation_table.rows");
      m_.allocationTable.push_back({text(row, "starts_with"), figure.value_or(OomFigure::Free)});
      if (m_.allocationTable.back().startsWith.empty()) problems_.push_back("allocation_table.rows: an empty label");
    }
    if (m_.allocationTableLines <= 0) problems_.push_back("allocation_table.lines: not a count of lines");
  }

  void marker(const Node* e) {
    PhaseMarker m;
    m.test = lineTest(e, "markers");
    m.phase = phase(e, "markers");
    const Node* before = e->find("only_before_training");
    m.onlyBeforeTraining = before && before->truthy();
    m.keeps = phase(e, "markers.keeps", "keeps");
    if (const Node* at = e->find("announces_step")) {
      m.announcesStep = id<StepPosition>(kStepPositionIds, at->resolved()->text, "markers.announces_step");
      if (!m.phase) problems_.push_back("markers: a marker that announces a step names the phase it announces it for");
    }
    if (const Node* effect = e->find("effect")) m.effect = id<MarkerEffect>(kMarkerEffectIds, effect->resolved()->text, "markers.effect");
    m_.markers.push_back(std::move(m));
  }

  void tools(const Node* tools) {
    m_.launchArgs = text(tools, "launch_args");
    if (m_.launchArgs.empty()) problems_.push_back("tools.launch_args: empty");
    else m_.launchArgsId = m_.lineWords.add(m_.launchArgs);
    m_.systemReportArgs = text(tools, "system_report_args");
    if (m_.systemReportArgs.empty()) problems_.push_back("tools.system_report_args: empty");
    else m_.systemReportArgsId = m_.lineWords.add(m_.systemReportArgs);
    m_.cardMemory = text(tools, "card_memory");
    if (m_.cardMemory.empty()) problems_.push_back("tools.card_memory: empty");
    else m_.cardMemoryId = m_.lineWords.add(m_.cardMemory);
    m_.versionLine = text(tools, "version_line");
    if (m_.versionLine.empty()) problems_.push_back("tools.version_line: empty");
    else m_.versionLineId = m_.lineWords.add(m_.versionLine);
    m_.vramState = text(tools, "vram_state");
    if (m_.vramState.empty()) problems_.push_back("tools.vram_state: empty");
    else m_.vramStateId = m_.lineWords.add(m_.vramState);
    for (const Node* e : list(tools, "vram_state_flags")) m_.vramStateFlags.push_back({text(e, "state"), text(e, "flag")});
    m_.dynamicVram = text(tools, "dynamic_vram");
    if (m_.dynamicVram.empty()) problems_.push_back("tools.dynamic_vram: empty");
    else m_.dynamicVramId = m_.lineWords.add(m_.dynamicVram);
    m_.dynamicVramFlag = text(tools, "dynamic_vram_flag");
    for (const Node* e : list(tools, "signs")) {
      ToolSign sign{text(e, "tool"), lineTest(e, "tools.signs")};
      known(kLogToolIds, sign.tool, "tools.signs");
      m_.toolSigns.push_back(std::move(sign));
    }
  }

  void bar(const Node* e) {
    BarWords b;
    b.kind = id<BarKind>(kBarKindIds, scalarText(e, "kind"), "bars.kinds").value_or(BarKind::Training);
    if (b.kind == BarKind::Training || b.kind == BarKind::Unnamed) {
      problems_.push_back("bars.kinds: `" + scalarText(e, "kind") + "` is what a bar that matches no entry is");
    }
    b.test = lowercaseTest(e, "bars.kinds");
    if (e->find("tool") != nullptr) {
      b.tool = text(e, "tool");
      known(kLogToolIds, b.tool, "bars.kinds");
    }
    m_.bars.push_back(std::move(b));
  }

  FrameWords clue(const Node* e, std::string_view where) {
    FrameWords f;
    f.clue = id<FrameClue>(kFrameClueIds, scalarText(e, "clue"), where).value_or(FrameClue::Load);
    f.test = lowercaseTest(e, where);
    return f;
  }

  LogMarkers& m_;
  KnowledgeTextStore& kept_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> readLogMarkers(const Node* root, LogMarkers& markers, KnowledgeTextStore& kept) {
  return Reader(markers, kept).read(root);
}

}  // namespace oomlint
