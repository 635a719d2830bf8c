// Embind bindings only: JavaScript gets the core's entry point and its knowledge as JSON strings.
// Every function returns data; nothing throws into JavaScript.
#include <emscripten/bind.h>

#include <exception>
#include <memory>
#include <string>

#include "analyze.h"
#include "base/document/reader.h"
#include "base/text/json_writer.h"
#include "base/text/source_text.h"
#include "format/formatters.h"
#include "base/knowledge/knowledge.h"
#include "systems/comfyui/png_text.h"

namespace {

std::string errorJson(const std::string& message) {
  // Keys in sorted order, as the report's error object has always been written.
  oomlint::JsonWriter w;
  w.beginObject().field("error", message).key("files").beginArray().endArray();
  w.key("tool").beginObject().field("name", "oomlint").field("version", oomlint::toolVersion()).endObject();
  return w.endObject().take();
}

// Options for `gpu` (a catalog name) and `vramGib` (GiB); both empty/0 means the default card. `ramGib` is the
// machine's RAM, 0 when not given. An unknown GPU or a size that is no size (negative) fills `error` instead.
oomlint::AnalyzeOptions optionsFor(const std::string& gpu, double vramGib, double ramGib, std::string& error) {
  oomlint::AnalyzeOptions options;
  if (!gpu.empty()) options.gpu = gpu;
  if (vramGib != 0) options.vramGib = vramGib;
  if (ramGib != 0) options.ramGib = ramGib;
  if (oomlint::resolveGpu(options, &error)) oomlint::resolveRam(options, &error);
  return options;
}

// The Report JSON (DESIGN.md contract) for one pasted input.
std::string analyze(const std::string& text, const std::string& path, const std::string& gpu, double vramGib, double ramGib) {
  try {
    std::string error;
    const oomlint::AnalyzeOptions options = optionsFor(gpu, vramGib, ramGib, error);
    if (!error.empty()) return errorJson(error);
    return oomlint::formatJson(oomlint::analyze({oomlint::Input{path.empty() ? "<input>" : path, text}}, options));
  } catch (const std::exception& e) {
    return errorJson(e.what());
  } catch (...) {
    return errorJson("unknown error");
  }
}

// A config with the log of its failed run: the log's report first, then the config's, advised by it.
std::string analyzeWithLog(const std::string& config, const std::string& path, const std::string& log, const std::string& gpu,
                           double vramGib, double ramGib) {
  try {
    std::string error;
    oomlint::AnalyzeOptions options = optionsFor(gpu, vramGib, ramGib, error);
    if (!error.empty()) return errorJson(error);
    return oomlint::formatJson(
        oomlint::analyzeWithLog(oomlint::Input{path.empty() ? "<input>" : path, config}, oomlint::Input{"<log>", log}, options));
  } catch (const std::exception& e) {
    return errorJson(e.what());
  } catch (...) {
    return errorJson("unknown error");
  }
}

// A config that is one file of a job (an sd-scripts command line with its dataset TOML and config file):
// `companions` is a JSON array of {"path", "text"}, the job's other files, read with the config as the CLI
// reads files given together; the report is the config's (and the log's, when one is given).
std::string analyzeJob(const std::string& config, const std::string& path, const std::string& log, const std::string& companions,
                       const std::string& gpu, double vramGib, double ramGib) {
  try {
    std::string error;
    oomlint::AnalyzeOptions options = optionsFor(gpu, vramGib, ramGib, error);
    if (!error.empty()) return errorJson(error);
    const auto files = oomlint::readJson(std::make_shared<oomlint::SourceText>(companions), oomlint::ReadLimits{});
    if (!files->problems().empty() || !files->root()->isSequence()) return errorJson("the job's other files are not a JSON array");
    const oomlint::Input main{path.empty() ? "<input>" : path, config};
    std::vector<oomlint::Input> jobFiles{main};
    const auto isString = [](const oomlint::Node* v) { return v && v->isScalar() && v->resolved()->type == oomlint::ScalarType::String; };
    for (const oomlint::Node* f : files->root()->resolved()->items) {
      const oomlint::Node* filePath = f->isMapping() ? f->find("path") : nullptr;
      const oomlint::Node* text = f->isMapping() ? f->find("text") : nullptr;
      if (!isString(filePath) || !isString(text)) return errorJson("each of the job's other files needs a string path and text");
      jobFiles.push_back(oomlint::Input{filePath->resolved()->text, text->resolved()->text});
    }
    options.job = oomlint::jobFilesOf(std::move(jobFiles));
    if (!log.empty()) return oomlint::formatJson(oomlint::analyzeWithLog(main, oomlint::Input{"<log>", log}, options));
    oomlint::Report report;
    report.add(oomlint::analyzeInput(main, options));
    return oomlint::formatJson(report);
  } catch (const std::exception& e) {
    return errorJson(e.what());
  } catch (...) {
    return errorJson("unknown error");
  }
}

// The rule catalog, for the UI's rule list and links: each rule's code, name, severity and title (its page,
// docs/rules/CODE.md, is a static file beside the page; the summary SARIF prints is not in the module).
std::string rules() {
  oomlint::JsonWriter w;
  w.beginArray();
  for (const auto& rule : oomlint::knowledge().catalog.rules()) {
    w.beginObject().field("code", rule.code).field("name", rule.name).field("severity", oomlint::toString(rule.severity));
    w.field("title", rule.title).endObject();
  }
  return w.endArray().take();
}

// The GPU catalog, for the page's GPU picker.
std::string gpus() {
  oomlint::JsonWriter w;
  w.beginArray();
  for (const auto& gpu : oomlint::knowledge().gpus.all()) {
    w.beginObject().field("name", gpu.name).field("vendor", gpu.vendor).field("class", gpu.gpuClass);
    w.field("vram_bytes", gpu.linuxBytes).field("default", gpu.name == oomlint::kDefaultGpu).endObject();
  }
  return w.endArray().take();
}

std::string version() { return oomlint::toolVersion(); }

// The workflow a dropped PNG carries (`bytes`: the file, passed from JavaScript as a Uint8Array), as
// {"json", "keyword"} or {"error"}: the page shows and analyses the JSON like a pasted workflow.
std::string pngWorkflow(const std::string& bytes) {
  const oomlint::PngWorkflow w = oomlint::workflowFromPng(bytes);
  oomlint::JsonWriter out;
  out.beginObject();
  if (w.error.empty()) out.field("json", w.json).field("keyword", w.keyword);
  else out.field("error", w.error);
  return out.endObject().take();
}

// The kind each text is read as ("comfyui-workflow", "webui-args", "sd-scripts", …), from its first kilobytes: the
// page asks before it chooses which of several files opened together is the job's main one.
std::string inputKind(const std::string& text) {
  return std::string(oomlint::toString(oomlint::recogniseInput(std::string_view(text).substr(0, 1 << 16))));
}

}  // namespace

EMSCRIPTEN_BINDINGS(oomlint) {
  emscripten::function("analyze", &analyze);
  emscripten::function("analyzeWithLog", &analyzeWithLog);
  emscripten::function("analyzeJob", &analyzeJob);
  emscripten::function("rules", &rules);
  emscripten::function("gpus", &gpus);
  emscripten::function("version", &version);
  emscripten::function("pngWorkflow", &pngWorkflow);
  emscripten::function("inputKind", &inputKind);
}
