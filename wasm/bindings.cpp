// Embind bindings only: JavaScript gets the core's entry point and its knowledge as JSON strings.
// Every function returns data; nothing throws into JavaScript.
#include <emscripten/bind.h>

#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "analyze.h"
#include "format/formatters.h"
#include "base/knowledge/knowledge.h"
#include "systems/comfyui/png_text.h"

namespace {

std::string errorJson(const std::string& message) {
  // Keys in sorted order, as the report's error object has always been written.
  return nlohmann::ordered_json{{"error", message},
                                {"files", nlohmann::ordered_json::array()},
                                {"tool", {{"name", "oomlint"}, {"version", oomlint::toolVersion()}}}}
      .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// Options for `gpu` (a catalog name) or `vramGib` (> 0); both empty/0 means the default card. `ramGib`
// (> 0) is the machine's RAM, 0 when not given. An unknown GPU fills `error` instead.
oomlint::AnalyzeOptions optionsFor(const std::string& gpu, double vramGib, double ramGib, std::string& error) {
  oomlint::AnalyzeOptions options;
  if (!gpu.empty()) options.gpu = gpu;
  if (vramGib > 0) options.vramGib = vramGib;
  if (ramGib > 0) options.ramGib = ramGib;
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
    const auto files = nlohmann::ordered_json::parse(companions, nullptr, false);
    if (!files.is_array()) return errorJson("the job's other files are not a JSON array");
    const oomlint::Input main{path.empty() ? "<input>" : path, config};
    options.jobFiles.push_back(main);
    for (const auto& f : files) {
      if (!f.is_object() || !f.contains("path") || !f["path"].is_string() || !f.contains("text") || !f["text"].is_string()) {
        return errorJson("each of the job's other files needs a string path and text");
      }
      options.jobFiles.push_back(oomlint::Input{f["path"].get<std::string>(), f["text"].get<std::string>()});
    }
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
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& rule : oomlint::knowledge().catalog.rules()) {
    out.push_back({{"code", rule.code},
                   {"name", rule.name},
                   {"severity", std::string(oomlint::toString(rule.severity))},
                   {"title", rule.title}});
  }
  return out.dump();
}

// The GPU catalog, for the page's GPU picker.
std::string gpus() {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& gpu : oomlint::knowledge().gpus.all()) {
    out.push_back({{"name", gpu.name}, {"vendor", gpu.vendor}, {"class", gpu.gpuClass}, {"vram_bytes", gpu.linuxBytes},
                   {"default", gpu.name == oomlint::kDefaultGpu}});
  }
  return out.dump();
}

std::string version() { return oomlint::toolVersion(); }

// The workflow a dropped PNG carries (`bytes`: the file, passed from JavaScript as a Uint8Array), as
// {"json", "keyword"} or {"error"}: the page shows and analyses the JSON like a pasted workflow.
std::string pngWorkflow(const std::string& bytes) {
  const oomlint::PngWorkflow w = oomlint::workflowFromPng(bytes);
  nlohmann::ordered_json out =
      w.error.empty() ? nlohmann::ordered_json{{"json", w.json}, {"keyword", w.keyword}} : nlohmann::ordered_json{{"error", w.error}};
  return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
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
}
