// ComfyUI workflows: the reader (three shapes, positional widgets, links, bypass, subgraphs), the setup
// per node family, the PNG text chunk, the plan's byte-preserving edits, and the 30 real workflows of
// ../shared/corpus/comfyui.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "analyze.h"
#include "base/document/reader.h"
#include "base/knowledge/knowledge.h"
#include "engine/edits.h"
#include "engine/estimate_core.h"
#include "systems/comfyui/plan.h"
#include "systems/comfyui/png_text.h"
#include "systems/comfyui/setup.h"
#include "systems/comfyui/workflow.h"
#include "systems/webui/generation_estimate.h"
#include "test_support.h"

using namespace oomlint;

namespace {

struct Read {
  Workflow workflow;
  std::unique_ptr<WorkflowSetup> setup;
};

Read readSetup(std::string text) {
  const Knowledge& k = knowledge();
  Read r{readWorkflow(std::move(text), *k.comfyui, {}), nullptr};
  r.setup = setupWorkflow(r.workflow, *k.comfyui, *k.webui, k.architectures);
  return r;
}

Read corpusSetup(const std::string& name) { return readSetup(test::readFile(test::sharedDir() / "corpus/comfyui" / name)); }

// A fixture of tests/fixtures/comfyui, as text.
std::string comfyFixture(const std::string& name) { return test::readFile(test::sourceDir() / "tests/fixtures/comfyui" / name); }

// A workflow the ComfyUI field sets rebuilt (tests/field-comfyui/workflows), as text.
std::string fieldWorkflow(const std::string& name) { return test::readFile(test::sourceDir() / "tests/field-comfyui/workflows" / name); }

// A workflow's denoise phase on a catalog card (its vendor and target decide ComfyUI's attention and loading).
PhaseEstimate denoiseOnCard(const std::string& text, const std::string& gpu) {
  AnalyzeOptions options;
  options.gpu = gpu;
  const FileReport report = analyzeInput(Input{"workflow.json", text}, options);
  REQUIRE(report.estimate.has_value());
  return test::phase(*report.estimate, "denoise");
}

// A workflow's denoise phase on a card large enough that nothing is streamed (48 GiB).
PhaseEstimate denoiseOn48GiB(const std::string& text) {
  AnalyzeOptions options;
  options.vramGib = 48;
  const FileReport report = analyzeInput(Input{"workflow.json", text}, options);
  REQUIRE(report.estimate.has_value());
  return test::phase(*report.estimate, "denoise");
}

std::string valueText(const Workflow& w, const NodeValue* v) {
  REQUIRE(v != nullptr);
  return w.doc->source().text().substr(v->value->range.start.offset, v->value->range.end.offset - v->value->range.start.offset);
}

constexpr const char* kApi = R"({
  "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "flux1-dev.safetensors", "weight_dtype": "default"}},
  "2": {"class_type": "DualCLIPLoader", "inputs": {"clip_name1": "t5xxl_fp16.safetensors", "clip_name2": "clip_l.safetensors", "type": "flux"}},
  "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a harbour at dawn"}},
  "4": {"class_type": "EmptySD3LatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 2}},
  "5": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["3", 0], "negative": ["3", 0], "latent_image": ["4", 0],
        "seed": 7, "steps": 20, "cfg": 1, "sampler_name": "euler", "scheduler": "simple", "denoise": 1}},
  "6": {"class_type": "VAELoader", "inputs": {"vae_name": "ae.safetensors"}},
  "7": {"class_type": "VAEDecode", "inputs": {"samples": ["5", 0], "vae": ["6", 0]}}
})";

}  // namespace

TEST_CASE("an API workflow: named inputs, links, and the generation they set up") {
  const Read r = readSetup(kApi);
  CHECK(r.workflow.format == WorkflowFormat::Api);
  REQUIRE(r.workflow.nodes.size() == 7);
  const WorkflowNode* sampler = r.workflow.find("5");
  REQUIRE(sampler != nullptr);
  CHECK(sampler->number("steps") == 20);
  CHECK(r.workflow.upstream(*sampler, "latent_image") == r.workflow.find("4"));
  CHECK(sampler->value("model") == nullptr);  // a link, not a value
  const WorkflowSetup& s = *r.setup;
  REQUIRE(s.estimable());
  CHECK(s.generation.family->id == "flux");
  CHECK(s.generation.tool == WebUiTool::ComfyUi);
  CHECK(s.generation.width == 1024);
  CHECK(s.generation.batchSize == 2);
  CHECK_FALSE(s.generation.unetFp8);
  CHECK(valueText(r.workflow, s.weightDtype) == "\"default\"");
  CHECK(s.weightDtype->path.toString() == "1.inputs.weight_dtype");
  CHECK(s.decode == r.workflow.find("7"));
  CHECK(s.generation.vaeDecode == VaeDecode::Full);
  CHECK(s.mismatches.empty());
}

TEST_CASE("a wrapped API body is the same graph one level down") {
  const Read r = readSetup(std::string(R"({"input": {"workflow": )") + kApi + "}}");
  CHECK(r.workflow.format == WorkflowFormat::WrappedApi);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->weightDtype->path.toString() == "input.workflow.1.inputs.weight_dtype");
}

TEST_CASE("a UI workflow: widgets by position, control_after_generate, links, bypass passing through, muted nodes") {
  // KSampler's widgets_values carry the frontend's control_after_generate after the seed; the LoRA is
  // bypassed (its model input passes on to the sampler), the second latent node is muted.
  const Read r = readSetup(R"({"nodes": [
    {"id": 1, "type": "CheckpointLoaderSimple", "widgets_values": ["sd_xl_base_1.0.safetensors"]},
    {"id": 2, "type": "LoraLoader", "mode": 4, "inputs": [{"name": "model", "type": "MODEL", "link": 1}], "widgets_values": ["x.safetensors", 1, 1]},
    {"id": 3, "type": "EmptyLatentImage", "widgets_values": [896, 1152, 4]},
    {"id": 4, "type": "EmptyLatentImage", "mode": 2, "widgets_values": [4096, 4096, 1]},
    {"id": 5, "type": "KSampler", "inputs": [{"name": "model", "type": "MODEL", "link": 2}, {"name": "latent_image", "type": "LATENT", "link": 3}],
     "widgets_values": [99, "randomize", 30, 7, "dpmpp_2m", "karras", 1]},
    {"id": 6, "type": "VAEDecodeTiled", "inputs": [{"name": "samples", "type": "LATENT", "link": 4}], "widgets_values": [512, 64, 64, 8]}
  ], "links": [[1, 1, 0, 2, 0, "MODEL"], [2, 2, 0, 5, 0, "MODEL"], [3, 3, 0, 5, 3, "LATENT"], [4, 5, 0, 6, 0, "LATENT"]]})");
  CHECK(r.workflow.format == WorkflowFormat::Ui);
  const WorkflowNode* sampler = r.workflow.find("5");
  REQUIRE(sampler != nullptr);
  CHECK(sampler->number("steps") == 30);  // position 2, after the seed's control entry
  CHECK(sampler->text("scheduler") == "karras");
  CHECK(sampler->value("steps")->path.toString() == "nodes[4].widgets_values[2]");
  CHECK(r.workflow.upstream(*sampler, "model") == r.workflow.find("1"));  // through the bypassed LoRA
  CHECK_FALSE(r.workflow.find("4")->active());
  const WorkflowSetup& s = *r.setup;
  REQUIRE(s.estimable());
  CHECK(s.generation.family->id == "sdxl");
  CHECK(s.latent == r.workflow.find("3"));
  CHECK(s.generation.width == 896);
  CHECK(s.generation.height == 1152);
  CHECK(s.generation.batchSize == 4);
  CHECK(s.generation.vaeDecode == VaeDecode::Tiled);
  CHECK(s.notCosted.empty());
}

TEST_CASE("a UI workflow's variables: a GetNode reads the input of the SetNode of its name, in its own graph") {
  // Two loaders; the sampler's model comes from the second through KJNodes' Set/Get pair, which the saved
  // links do not join (the frontend resolves it by name). A getter without a setter feeds nothing.
  const Read r = readSetup(R"({"nodes": [
    {"id": 1, "type": "CheckpointLoaderSimple", "widgets_values": ["v1-5-pruned-emaonly.safetensors"]},
    {"id": 2, "type": "CheckpointLoaderSimple", "widgets_values": ["sd_xl_base_1.0.safetensors"]},
    {"id": 3, "type": "SetNode", "inputs": [{"name": "MODEL", "type": "MODEL", "link": 1}], "widgets_values": ["base_model"]},
    {"id": 4, "type": "GetNode", "outputs": [{"name": "MODEL", "type": "MODEL", "links": [2]}], "widgets_values": ["base_model"]},
    {"id": 5, "type": "EmptyLatentImage", "widgets_values": [1024, 1024, 1]},
    {"id": 6, "type": "KSampler", "inputs": [{"name": "model", "type": "MODEL", "link": 2}, {"name": "latent_image", "type": "LATENT", "link": 3}],
     "widgets_values": [1, "fixed", 20, 7, "euler", "normal", 1]},
    {"id": 7, "type": "GetNode", "outputs": [{"name": "VAE", "type": "VAE", "links": [4]}], "widgets_values": ["no_such_variable"]},
    {"id": 8, "type": "VAEDecode", "inputs": [{"name": "samples", "type": "LATENT", "link": 5}, {"name": "vae", "type": "VAE", "link": 4}]}
  ], "links": [[1, 2, 0, 3, 0, "MODEL"], [2, 4, 0, 6, 0, "MODEL"], [3, 5, 0, 6, 3, "LATENT"], [4, 7, 0, 8, 1, "VAE"], [5, 6, 0, 8, 0, "LATENT"]]})");
  const WorkflowNode* sampler = r.workflow.find("6");
  REQUIRE(sampler != nullptr);
  CHECK(r.workflow.upstream(*sampler, "model") == r.workflow.find("2"));
  CHECK(r.workflow.upstream(*r.workflow.find("8"), "vae") == nullptr);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->generation.family->id == "sdxl");  // not the first loader's SD 1.5
  CHECK(r.setup->notCosted.empty());                // Set and Get are wiring, not custom nodes to cost

  // A hand-edited loop (the setter's input is its own getter) ends within the hop limit: nothing feeds it.
  const Read loop = readSetup(R"({"nodes": [
    {"id": 1, "type": "SetNode", "inputs": [{"name": "MODEL", "type": "MODEL", "link": 1}], "widgets_values": ["m"]},
    {"id": 2, "type": "GetNode", "outputs": [{"name": "MODEL", "type": "MODEL", "links": [1, 2]}], "widgets_values": ["m"]},
    {"id": 3, "type": "KSampler", "inputs": [{"name": "model", "type": "MODEL", "link": 2}], "widgets_values": [1, "fixed", 20, 7, "euler", "normal", 1]}
  ], "links": [[1, 2, 0, 1, 0, "MODEL"], [2, 2, 0, 3, 0, "MODEL"]]})");
  CHECK(loop.workflow.upstream(*loop.workflow.find("3"), "model") == nullptr);
  CHECK_FALSE(loop.setup->estimable());
}

TEST_CASE("a workflow without nodes is unreadable, and says so") {
  for (const char* text : {R"({"nodes": [], "links": []})", R"({"1": {"class_type": 5}})"}) {
    const FileReport report = analyzeInput(Input{"w.json", text});
    INFO(text);
    CHECK(report.kind == InputKind::ComfyUiWorkflow);
    CHECK(report.unreadable);
    REQUIRE_FALSE(report.diagnostics.empty());
    CHECK(report.diagnostics.front().code == "OL905");
  }
}

TEST_CASE("a model file named for no family is identified by a latent node only one family uses") {
  const std::string graph = R"({
  "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "my_finetune_v3.safetensors", "weight_dtype": "default"}},
  "2": {"class_type": "LATENT", "inputs": {"width": 1280, "height": 704, "length": 121, "batch_size": 1}},
  "3": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "latent_image": ["2", 0], "seed": 1, "steps": 30, "cfg": 5,
        "sampler_name": "euler", "scheduler": "simple", "denoise": 1}}
})";
  std::string wan22 = graph;
  wan22.replace(wan22.find("\"LATENT\""), 8, "\"Wan22ImageToVideoLatent\"");
  const Read r = readSetup(wan22);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->generation.family->id == "wan22_5b");
  CHECK(r.setup->generation.frames == 121);
  // WanImageToVideo serves Wan 2.1 and Wan 2.2 A14B alike: it names no family, and the model stays unknown.
  std::string shared = graph;
  shared.replace(shared.find("\"LATENT\""), 8, "\"WanImageToVideo\"");
  CHECK_FALSE(readSetup(shared).setup->estimable());
}

TEST_CASE("LTX-2: its checkpoint, Gemma loaded beside it, the audio-video latent traced to the video's") {
  std::string graph = R"({
  "1": {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": "ltx-2-19b-dev-fp8.safetensors"}},
  "2": {"class_type": "LTXAVTextEncoderLoader", "inputs": {"text_encoder": "gemma_3_12B_it.safetensors", "ckpt_name": "ltx-2-19b-dev-fp8.safetensors", "device": "default"}},
  "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a fox runs through snow at dawn"}},
  "5": {"class_type": "LTXVConditioning", "inputs": {"positive": ["3", 0], "negative": ["3", 0], "frame_rate": 25}},
  "6": {"class_type": "EmptyLTXVLatentVideo", "inputs": {"width": 768, "height": 512, "length": 97, "batch_size": 1}},
  "7": {"class_type": "LTXVAudioVAELoader", "inputs": {"ckpt_name": "ltx-2-19b-dev-fp8.safetensors"}},
  "8": {"class_type": "LTXVEmptyLatentAudio", "inputs": {"frames_number": 97, "frame_rate": 25, "batch_size": 1, "audio_vae": ["7", 0]}},
  "9": {"class_type": "LTXVConcatAVLatent", "inputs": {"video_latent": ["6", 0], "audio_latent": ["8", 0]}},
  "10": {"class_type": "CFGGuider", "inputs": {"model": ["1", 0], "positive": ["5", 0], "negative": ["5", 1], "cfg": 4}},
  "14": {"class_type": "SamplerCustomAdvanced", "inputs": {"guider": ["10", 0], "latent_image": ["9", 0]}},
  "15": {"class_type": "LTXVSeparateAVLatent", "inputs": {"av_latent": ["14", 0]}},
  "16": {"class_type": "VAEDecode", "inputs": {"samples": ["15", 0], "vae": ["1", 2]}},
  "17": {"class_type": "LTXVAudioVAEDecode", "inputs": {"samples": ["15", 1], "audio_vae": ["7", 0]}}
})";
  const Read r = readSetup(graph);
  REQUIRE(r.setup->estimable());
  const WorkflowSetup& s = *r.setup;
  CHECK(s.generation.family->id == "ltx2");
  CHECK(s.latent == r.workflow.find("6"));  // through LTXVConcatAVLatent's video_latent
  CHECK(s.decode == r.workflow.find("16"));  // through LTXVSeparateAVLatent's av_latent
  CHECK(s.generation.width == 768);
  CHECK(s.generation.frames == 97);
  CHECK(s.generation.unetFp8);
  CHECK_FALSE(s.generation.textEncoderFp8);  // Gemma's own file, not the fp8 checkpoint
  CHECK(s.notCosted.empty());

  graph.replace(graph.find("gemma_3_12B_it.safetensors"), 26, "gemma_3_12B_it_fp8_scaled.safetensors");
  for (std::size_t at; (at = graph.find("ltx-2-19b-dev-fp8")) != std::string::npos;) graph.replace(at, 17, "ltx-2.3-22b-dev");
  const Read later = readSetup(graph);
  REQUIRE(later.setup->estimable());
  CHECK(later.setup->generation.family->id == "ltx2.3");
  CHECK_FALSE(later.setup->generation.unetFp8);
  CHECK(later.setup->generation.textEncoderFp8);
}

TEST_CASE("LTX-2 in the UI format: the audio nodes' widgets by position, links through the audio-video latent") {
  const Read r = readSetup(R"({"nodes": [
    {"id": 1, "type": "CheckpointLoaderSimple", "widgets_values": ["ltx-2-19b-dev.safetensors"]},
    {"id": 2, "type": "LTXAVTextEncoderLoader", "widgets_values": ["gemma_3_12B_it_fp8_e4m3fn.safetensors", "ltx-2-19b-dev.safetensors", "default"]},
    {"id": 6, "type": "EmptyLTXVLatentVideo", "widgets_values": [1280, 704, 121, 1]},
    {"id": 7, "type": "LTXVAudioVAELoader", "widgets_values": ["ltx-2-19b-dev.safetensors"]},
    {"id": 8, "type": "LTXVEmptyLatentAudio", "inputs": [{"name": "audio_vae", "type": "VAE", "link": 5}], "widgets_values": [121, 25, 1]},
    {"id": 9, "type": "LTXVConcatAVLatent", "inputs": [{"name": "video_latent", "type": "LATENT", "link": 1}, {"name": "audio_latent", "type": "LATENT", "link": 2}]},
    {"id": 10, "type": "CFGGuider", "inputs": [{"name": "model", "type": "MODEL", "link": 3}], "widgets_values": [4]},
    {"id": 14, "type": "SamplerCustomAdvanced", "inputs": [{"name": "guider", "type": "GUIDER", "link": 4}, {"name": "latent_image", "type": "LATENT", "link": 6}]},
    {"id": 15, "type": "LTXVSeparateAVLatent", "inputs": [{"name": "av_latent", "type": "LATENT", "link": 7}]},
    {"id": 16, "type": "VAEDecode", "inputs": [{"name": "samples", "type": "LATENT", "link": 8}, {"name": "vae", "type": "VAE", "link": 9}]}
  ], "links": [[1, 6, 0, 9, 0, "LATENT"], [2, 8, 0, 9, 1, "LATENT"], [3, 1, 0, 10, 0, "MODEL"], [4, 10, 0, 14, 0, "GUIDER"],
               [5, 7, 0, 8, 0, "VAE"], [6, 9, 0, 14, 1, "LATENT"], [7, 14, 0, 15, 0, "LATENT"], [8, 15, 0, 16, 0, "LATENT"],
               [9, 1, 2, 16, 1, "VAE"]]})");
  CHECK(r.workflow.find("8")->number("frame_rate") == 25);
  CHECK(r.workflow.find("2")->text("ckpt_name") == "ltx-2-19b-dev.safetensors");
  const WorkflowSetup& s = *r.setup;
  REQUIRE(s.estimable());
  CHECK(s.generation.family->id == "ltx2");
  CHECK(s.latent == r.workflow.find("6"));
  CHECK(s.decode == r.workflow.find("16"));
  CHECK(s.generation.width == 1280);
  CHECK(s.generation.height == 704);
  CHECK(s.generation.frames == 121);
  CHECK_FALSE(s.generation.unetFp8);
  CHECK(s.generation.textEncoderFp8);
  CHECK(s.notCosted.empty());
}

TEST_CASE("HunyuanVideo 1.5: its own latent node and 32-channel VAE, not the 2024 model its file names contain") {
  const Read r = readSetup(comfyFixture("hunyuanvideo15-848x480-121-api.json"));
  const WorkflowSetup& s = *r.setup;
  REQUIRE(s.estimable());
  CHECK(s.generation.family->id == "hunyuan_video_1_5");
  CHECK(s.arch.vae.latentChannels == 32);
  CHECK(s.arch.vae.spatial == 16);
  CHECK(s.latent == r.workflow.find("6"));
  CHECK(s.generation.width == 848);
  CHECK(s.generation.frames == 121);
  CHECK(s.generation.textEncoderFp8);  // the Qwen2.5-VL file, the largest encoder
  CHECK(s.mismatches.empty());         // hunyuanvideo15_vae: 32 channels, as the latent's
  CHECK(s.notCosted.empty());
}

TEST_CASE("FLUX's InstantX IP-Adapter: the adapter and its own SigLIP encoder on the loader's provider") {
  const std::string text = comfyFixture("flux-instantx-ipadapter-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->generation.family->id == "flux");
  REQUIRE(r.setup->generation.ipadapters.size() == 1);
  CHECK(r.setup->generation.ipadapters[0].label == "InstantX FLUX.1-dev IP-Adapter with its SigLIP encoder");
  CHECK(r.setup->generation.ipadapters[0].bytes == Approx(2 * 3.0738e9));
  CHECK(r.setup->generation.clipVision.empty());  // the loader's own encoder, counted with it
  CHECK(r.setup->notCosted.empty());
  std::string onCpu = text;
  onCpu.replace(onCpu.find("\"provider\": \"cuda\""), 20, "\"provider\": \"cpu\"");
  CHECK(readSetup(onCpu).setup->generation.ipadapters.empty());
}

TEST_CASE("XLabs' XlabsSampler moves the whole transformer onto the GPU: no partial loading, fp8 the fix") {
  const std::string text = comfyFixture("flux-xlabs-sampler-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->sampler->type == "XlabsSampler");
  CHECK(r.setup->latent->type == "EmptyLatentImage");
  CHECK(r.setup->generation.wholeModelSampler == "XlabsSampler");
  CHECK(r.setup->notCosted.empty());
  AnalyzeOptions options;
  options.gpu = "RTX 4090";
  const auto denoiseWeights = [&](const std::string& workflow) {
    const FileReport report = analyzeInput(Input{"flux.json", workflow}, options);
    REQUIRE(report.estimate.has_value());
    return std::make_pair(report.estimate->verdict, test::component(test::phase(*report.estimate, "denoise"), "transformer weights"));
  };
  // ComfyUI's KSampler would load 11.9 B × 2 B partially and stream the rest; XLabs' sampler holds all of it.
  const auto [xlabsVerdict, xlabsWeights] = denoiseWeights(text);
  CHECK(xlabsVerdict == Verdict::Oom);
  CHECK(xlabsWeights == Approx(2 * knowledge().architectures.byId("flux")->denoiser.params));
  std::string ksampler = text;
  ksampler.replace(ksampler.find("XlabsSampler"), 12, "KSampler");
  const auto [managedVerdict, managedWeights] = denoiseWeights(ksampler);
  CHECK(managedVerdict != Verdict::Oom);
  CHECK(managedWeights < xlabsWeights);
  // The manager's levers do nothing for it: the plan's one needed step is UNETLoader's fp8 weight_dtype.
  const FileReport report = analyzeInput(Input{"flux.json", text}, options);
  REQUIRE_FALSE(report.plan.empty());
  CHECK(report.plan.front().needed);
  CHECK(report.plan.front().fix.toJson == "\"fp8_e4m3fn\"");
  for (const PlanStep& step : report.plan) CHECK(step.fix.toJson.find("--novram") == std::string::npos);
}

TEST_CASE("ControlNets of the transformer families: 16-bit weights beside fp8 ones, a residual map per block, and a file with no size listed") {
  // FLUX.1 fp8 with Shakker's Union-Pro (5 double + 10 single blocks): ComfyUI loads the ControlNet in bf16.
  const std::string flux = R"({
    "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "flux1-dev.safetensors", "weight_dtype": "fp8_e4m3fn"}},
    "2": {"class_type": "DualCLIPLoader", "inputs": {"clip_name1": "t5xxl_fp16.safetensors", "clip_name2": "clip_l.safetensors", "type": "flux"}},
    "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a lighthouse"}},
    "4": {"class_type": "EmptySD3LatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 1}},
    "5": {"class_type": "ControlNetLoader", "inputs": {"control_net_name": "FLUX.1-dev-ControlNet-Union-Pro.safetensors"}},
    "6": {"class_type": "LoadImage", "inputs": {"image": "pose.png", "upload": "image"}},
    "7": {"class_type": "ControlNetApplyAdvanced", "inputs": {"positive": ["3", 0], "negative": ["3", 0], "control_net": ["5", 0], "image": ["6", 0],
          "strength": 0.7, "start_percent": 0, "end_percent": 1}},
    "8": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["7", 0], "negative": ["7", 1], "latent_image": ["4", 0],
          "seed": 1, "steps": 20, "cfg": 1, "sampler_name": "euler", "scheduler": "simple", "denoise": 1}},
    "9": {"class_type": "VAELoader", "inputs": {"vae_name": "ae.safetensors"}},
    "10": {"class_type": "VAEDecode", "inputs": {"samples": ["8", 0], "vae": ["9", 0]}}
  })";
  const Read r = readSetup(flux);
  REQUIRE(r.setup->generation.controlnets.size() == 1);
  const ControlNetModel* union_ = r.setup->generation.controlnets[0].model;
  REQUIRE(union_ != nullptr);
  CHECK(union_->params == 3301956608.0);
  CHECK(union_->residualMaps == 15);
  CHECK(r.setup->notCosted.empty());
  AnalyzeOptions options;
  options.vramGib = 80;  // everything loaded: the components are the whole models
  const FileReport report = analyzeInput(Input{"flux.json", flux}, options);
  REQUIRE(report.estimate.has_value());
  const PhaseEstimate& denoise = test::phase(*report.estimate, "denoise");
  const double fluxParams = knowledge().architectures.byId("flux")->denoiser.params;
  CHECK(test::component(denoise, "transformer weights") == Approx(fluxParams * 1 + 3301956608.0 * 2));  // fp8 model, bf16 ControlNet
  // 4096 image tokens, one pass (cfg 1)
  CHECK(test::component(denoise, "ControlNet activations") == Approx(15.0 * (1024 / 16) * (1024 / 16) * 3072 * 2));

  // XLabs' own loader names its file in `controlnet_path` (`model_name` is the FLUX variant).
  std::string xlabs = flux;
  xlabs.replace(xlabs.find(R"("class_type": "ControlNetLoader", "inputs": {"control_net_name": "FLUX.1-dev-ControlNet-Union-Pro.safetensors"})"),
                std::string(R"("class_type": "ControlNetLoader", "inputs": {"control_net_name": "FLUX.1-dev-ControlNet-Union-Pro.safetensors"})").size(),
                R"("class_type": "LoadFluxControlNet", "inputs": {"model_name": "flux-dev", "controlnet_path": "flux-depth-controlnet-v3.safetensors"})");
  const Read x = readSetup(xlabs);
  REQUIRE(x.setup->generation.controlnets.size() == 1);
  REQUIRE(x.setup->generation.controlnets[0].model != nullptr);
  CHECK(x.setup->generation.controlnets[0].model->params == 743807280.0);
  CHECK(x.setup->generation.controlnets[0].fp32UntilSampled);
  // Built in fp32 on the GPU, cast by the first sampling: 2 B per param more for a moment, before the activations.
  const FileReport xr = analyzeInput(Input{"xlabs.json", xlabs}, options);
  REQUIRE(xr.estimate.has_value());
  const PhaseEstimate& xd = test::phase(*xr.estimate, "denoise");
  CHECK(test::component(xd, "ControlNet fp32 hold") ==
        Approx(743807280.0 * 2 - test::component(xd, "transformer activations") - test::component(xd, "ControlNet activations")));

  // Qwen-Image's workflows: a model file, and a ControlNet's loader and apply node.
  const auto qwenWith = [](const std::string& unet, const std::string& loaderAndApply) {
    return readSetup(R"({
      "1": {"class_type": "UNETLoader", "inputs": {"unet_name": ")" + unet + R"(", "weight_dtype": "default"}},
      "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "qwen_2.5_vl_7b_fp8_scaled.safetensors", "type": "qwen_image"}},
      "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a lighthouse"}},
      "4": {"class_type": "EmptySD3LatentImage", "inputs": {"width": 1328, "height": 1328, "batch_size": 1}},
      "6": {"class_type": "LoadImage", "inputs": {"image": "pose.png", "upload": "image"}},
      )" + loaderAndApply + R"(,
      "8": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["7", 0], "negative": ["7", 1], "latent_image": ["4", 0],
            "seed": 1, "steps": 20, "cfg": 2.5, "sampler_name": "euler", "scheduler": "simple", "denoise": 1}}
    })");
  };
  const std::string instantxUnion = R"("5": {"class_type": "ControlNetLoader", "inputs": {"control_net_name": "Qwen-Image-InstantX-ControlNet-Union.safetensors"}},
      "7": {"class_type": "ControlNetApplyAdvanced", "inputs": {"positive": ["3", 0], "negative": ["3", 0], "control_net": ["5", 0], "image": ["6", 0], "strength": 1, "start_percent": 0, "end_percent": 1}})";

  // Qwen-Image Edit has no ControlNet in the data: the loader is listed as not costed, the estimate has no unit.
  const Read qwen = qwenWith("qwen_image_edit_2509_fp8_e4m3fn.safetensors", instantxUnion);
  REQUIRE(qwen.setup->estimable());
  CHECK(qwen.setup->generation.controlnets.empty());
  REQUIRE(qwen.setup->notCosted.size() == 1);
  CHECK(qwen.setup->notCosted[0]->type == "ControlNetLoader");

  // Qwen-Image's own: InstantX's Union through ControlNetLoader, DiffSynth's patch through ModelPatchLoader.
  const Read instantx = qwenWith("qwen_image_fp8_e4m3fn.safetensors", instantxUnion);
  REQUIRE(instantx.setup->generation.controlnets.size() == 1);
  CHECK(instantx.setup->generation.controlnets[0].model->params == 1768003584.0);
  CHECK(instantx.setup->notCosted.empty());
  const Read diffsynth = qwenWith("qwen_image_fp8_e4m3fn.safetensors", R"("5": {"class_type": "ModelPatchLoader", "inputs": {"name": "qwen_image_canny_diffsynth_controlnet.safetensors"}},
      "7": {"class_type": "QwenImageDiffsynthControlnet", "inputs": {"model": ["1", 0], "model_patch": ["5", 0], "image": ["6", 0], "strength": 1}})");
  REQUIRE(diffsynth.setup->generation.controlnets.size() == 1);
  CHECK(diffsynth.setup->generation.controlnets[0].model->residualMaps == 1);
  CHECK(diffsynth.setup->notCosted.empty());
}

TEST_CASE("Wan 2.1 VACE files are the T2V model with its VACE blocks, 14B and 1.3B") {
  const auto setupOf = [](const std::string& file) {
    return readSetup(R"({
      "1": {"class_type": "UNETLoader", "inputs": {"unet_name": ")" + file + R"(", "weight_dtype": "default"}},
      "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "umt5_xxl_fp8_e4m3fn_scaled.safetensors", "type": "wan"}},
      "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a fox"}},
      "4": {"class_type": "WanVaceToVideo", "inputs": {"positive": ["3", 0], "negative": ["3", 0], "width": 832, "height": 480, "length": 81, "batch_size": 1, "strength": 1}},
      "5": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["4", 0], "negative": ["4", 1], "latent_image": ["4", 2],
            "seed": 1, "steps": 20, "cfg": 6, "sampler_name": "uni_pc", "scheduler": "simple", "denoise": 1}}
    })");
  };
  const Read big = setupOf("wan2.1_vace_14B_fp16.safetensors");
  REQUIRE(big.setup->estimable());
  CHECK(big.setup->arch.label == "Wan 2.1 VACE 14B");
  CHECK(big.setup->arch.denoiser.params == Approx(17337592896.0).epsilon(1e-6));
  CHECK(big.setup->arch.denoiser.hidden == 5120);
  const Read small = setupOf("wan2.1_vace_1.3B_fp16.safetensors");
  REQUIRE(small.setup->estimable());
  CHECK(small.setup->arch.label == "Wan 2.1 VACE 1.3B");
  CHECK(small.setup->arch.denoiser.params == Approx(2153972032.0).epsilon(1e-6));
  CHECK(small.setup->arch.denoiser.hidden == 1536);
  CHECK(setupOf("wan2.1_t2v_1.3B_fp16.safetensors").setup->arch.label == "Wan 2.1 T2V 1.3B");
}

TEST_CASE("FLUX.2 and Z-Image are their own architectures, not FLUX.1; a sampler's cfg of 1 skips the unconditional pass") {
  // FLUX.2-dev as ComfyUI's template runs it: SamplerCustomAdvanced with a guider, its own latent node and VAE.
  const Read flux2 = readSetup(R"({
    "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "flux2_dev_fp8mixed.safetensors", "weight_dtype": "default"}},
    "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "mistral_3_small_flux2_fp8.safetensors", "type": "flux2", "device": "default"}},
    "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a lighthouse"}},
    "4": {"class_type": "FluxGuidance", "inputs": {"conditioning": ["3", 0], "guidance": 4}},
    "5": {"class_type": "CFGGuider", "inputs": {"model": ["1", 0], "positive": ["4", 0], "negative": ["4", 0], "cfg": 1}},
    "6": {"class_type": "EmptyFlux2LatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 1}},
    "7": {"class_type": "Flux2Scheduler", "inputs": {"steps": 20, "width": 1024, "height": 1024}},
    "8": {"class_type": "RandomNoise", "inputs": {"noise_seed": 1}},
    "9": {"class_type": "KSamplerSelect", "inputs": {"sampler_name": "euler"}},
    "10": {"class_type": "SamplerCustomAdvanced", "inputs": {"noise": ["8", 0], "guider": ["5", 0], "sampler": ["9", 0], "sigmas": ["7", 0], "latent_image": ["6", 0]}},
    "11": {"class_type": "VAELoader", "inputs": {"vae_name": "flux2-vae.safetensors"}},
    "12": {"class_type": "VAEDecode", "inputs": {"samples": ["10", 0], "vae": ["11", 0]}}
  })");
  REQUIRE(flux2.setup->estimable());
  CHECK(flux2.setup->arch.arch == "flux2");
  CHECK(flux2.setup->generation.unetFp8);
  CHECK(flux2.setup->generation.textEncoderFp8);
  CHECK(flux2.setup->latent->type == "EmptyFlux2LatentImage");
  CHECK(flux2.setup->mismatches.empty());  // flux2-vae decodes its 32 channels
  CHECK(flux2.setup->notCosted.empty());
  REQUIRE(flux2.setup->generation.unconditionalPass.has_value());
  CHECK_FALSE(*flux2.setup->generation.unconditionalPass);  // CFGGuider's cfg 1

  const auto zimage = [](const std::string& cfg) {
    return std::string(R"({
      "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "z_image_turbo_bf16.safetensors", "weight_dtype": "default"}},
      "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "qwen_3_4b.safetensors", "type": "lumina2", "device": "default"}},
      "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "a lighthouse"}},
      "4": {"class_type": "EmptySD3LatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 1}},
      "5": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["3", 0], "negative": ["3", 0], "latent_image": ["4", 0],
            "seed": 1, "steps": 8, "cfg": )") + cfg + R"(, "sampler_name": "res_multistep", "scheduler": "simple", "denoise": 1}},
      "6": {"class_type": "VAELoader", "inputs": {"vae_name": "ae.safetensors"}},
      "7": {"class_type": "VAEDecode", "inputs": {"samples": ["5", 0], "vae": ["6", 0]}}
    })";
  };
  const Read turbo = readSetup(zimage("1"));
  REQUIRE(turbo.setup->estimable());
  CHECK(turbo.setup->arch.arch == "zimage");
  CHECK(turbo.setup->mismatches.empty());
  CHECK_FALSE(turbo.setup->generation.unconditionalPass.value_or(true));
  CHECK(readSetup(zimage("4.5")).setup->generation.unconditionalPass.value_or(false));
  // The estimate: one guidance pass at cfg 1, two batched (they fit on 80 GB) at 4.5.
  AnalyzeOptions options;
  options.vramGib = 80;
  const auto activations = [&](const std::string& cfg) {
    const FileReport report = analyzeInput(Input{"z.json", zimage(cfg)}, options);
    REQUIRE(report.estimate.has_value());
    return test::component(test::phase(*report.estimate, "denoise"), "transformer activations");
  };
  CHECK(activations("1") > 0);
  CHECK(activations("4.5") == Approx(2 * activations("1")));
  // A cfg that is not a number written there (a link from another node) leaves the architecture's habit.
  CHECK_FALSE(readSetup(zimage(R"(["9", 0])")).setup->generation.unconditionalPass.has_value());
}

TEST_CASE("a diffusion model's file names its architecture, the specific names before the families they contain") {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"flux2_dev_fp8mixed.safetensors", "flux2"},
      {"flux-2-klein-9b.safetensors", "flux2_klein_9b"},
      {"flux-2-klein-4b-fp8.safetensors", "flux2_klein_4b"},
      {"flux1-dev.safetensors", "flux"},
      {"z_image_turbo_bf16.safetensors", "zimage"},
      {"lumina_2.safetensors", "lumina2"},
      {"omnigen2_fp16.safetensors", "omnigen2"},
      {"chroma-radiance-x0.safetensors", "chroma_radiance"},
      {"chroma1-hd.safetensors", "chroma"},
      {"wan2.2_fun_control_high_noise_14B_fp8_scaled.safetensors", "wan22_14b"},
      {"wan2.2_animate_14B_bf16.safetensors", "wan22_animate"},
      {"wan2.2_s2v_14B_fp8_scaled.safetensors", "wan22_s2v"},
      {"mochi_preview_fp8_scaled.safetensors", "mochi"},
      {"cosmos_predict2_2B_t2i.safetensors", "cosmos_predict2_2b"},
      {"cosmos_predict2_14B_video2world_720p_16fps.safetensors", "cosmos_predict2_14b"},
      {"Cosmos-1_0-Diffusion-7B-Text2World.safetensors", "cosmos1_7b"},
      {"hunyuanimage2.1_bf16.safetensors", "hunyuan_image_2_1"},
  };
  for (const auto& [file, arch] : files) {
    INFO(file);
    const Read r = readSetup(R"({
      "1": {"class_type": "UNETLoader", "inputs": {"unet_name": ")" + file + R"(", "weight_dtype": "default"}},
      "2": {"class_type": "EmptyLatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 1}},
      "3": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "latent_image": ["2", 0], "seed": 1, "steps": 20, "cfg": 1,
            "sampler_name": "euler", "scheduler": "simple", "denoise": 1}}
    })");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->arch.arch == arch);
  }
}

TEST_CASE("a video latent node's extra latent frames are tokens: Wan 2.2 Animate's reference image") {
  // Wan 2.2 Animate's latent node adds the reference image's latent frame: 77 frames are 20 latent frames + 1.
  const Read animate = readSetup(R"({
    "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "wan2.2_animate_14B_bf16.safetensors", "weight_dtype": "default"}},
    "2": {"class_type": "WanAnimateToVideo", "inputs": {"width": 832, "height": 480, "length": 77, "batch_size": 1, "continue_motion_max_frames": 5, "video_frame_offset": 0}},
    "3": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "latent_image": ["2", 0], "seed": 1, "steps": 6, "cfg": 1,
          "sampler_name": "euler", "scheduler": "simple", "denoise": 1}}
  })");
  REQUIRE(animate.setup->estimable());
  CHECK(imageTokens(animate.setup->arch, 832, 480, animate.setup->generation.frames) == 21 * 52 * 30);
}

TEST_CASE("an unknown node is listed as not costed, never dropped; a muted one is not listed") {
  const Read r = readSetup(R"({"nodes": [
    {"id": 1, "type": "FaceDetailer", "widgets_values": [512]},
    {"id": 2, "type": "SomeMutedPack", "mode": 2, "widgets_values": []}
  ], "links": []})");
  REQUIRE(r.setup->notCosted.size() == 1);
  CHECK(r.setup->notCosted.front()->type == "FaceDetailer");
  CHECK_FALSE(r.setup->estimable());
}

TEST_CASE("a hostile graph stays linear: long Reroute chains and thousands of samplers") {
  // 10,000 Reroutes in a chain and 2,000 samplers each wired to its end: every lookup is bounded (one node
  // per line: the reader's line limit is 1 MiB; under its 500,000 values).
  std::string text = R"({"nodes": [{"id": 0, "type": "EmptyLatentImage", "widgets_values": [512, 512, 1]})";
  std::string links = R"("links": [)";
  constexpr int kChain = 10000, kSamplers = 2000;
  for (int i = 1; i <= kChain; ++i) {
    text += R"(,
{"id": )" + std::to_string(i) + R"(, "type": "Reroute", "inputs": [{"name": "", "type": "*", "link": )" + std::to_string(i) + "}]}";
    links += (i > 1 ? ",\n[" : "[") + std::to_string(i) + ", " + std::to_string(i - 1) + ", 0, " + std::to_string(i) + R"(, 0, "*"])";
  }
  for (int j = 0; j < kSamplers; ++j) {
    const int id = kChain + 1 + j, link = kChain + 1 + j;
    text += R"(,
{"id": )" + std::to_string(id) + R"(, "type": "KSampler", "inputs": [{"name": "latent_image", "type": "LATENT", "link": )" +
            std::to_string(link) + R"(}], "widgets_values": [1, "fixed", 20, 7, "euler", "normal", 1]})";
    links += ",\n[" + std::to_string(link) + ", " + std::to_string(kChain) + ", 0, " + std::to_string(id) + R"(, 3, "LATENT"])";
  }
  text += "], " + links + "]}";
  const Read r = readSetup(text);
  INFO((r.workflow.doc->problems().empty() ? std::string() : r.workflow.doc->problems().front().message));
  REQUIRE_FALSE(r.workflow.doc->fatal());
  CHECK(r.workflow.nodes.size() == kChain + kSamplers + 1);
  CHECK(r.setup->sampler != nullptr);
  CHECK_FALSE(r.setup->estimable());  // no model: read and bounded, nothing to estimate
}

TEST_CASE("node families of the corpus set up as they load", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  SECTION("Wan 2.1 1.3B: the variant's size, frames from the video latent") {
    const Read r = corpusSetup("wan21-t2v-1.3b-ui__text_to_video_wan.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->arch.denoiser.params == Approx(1.42e9));
    CHECK(r.setup->generation.frames == 33);
    CHECK(r.setup->generation.width == 832);
  }
  SECTION("Wan 2.1 I2V: its CLIP vision model is costed with its encoders, not listed") {
    const Read r = corpusSetup("wan21-i2v-14b-ui__image_to_video_wan_example.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.family->id == "wan21_i2v");
    CHECK(r.setup->notCosted.empty());
  }
  SECTION("Wan 2.2 A14B: one expert per loader") {
    const Read r = corpusSetup("wan22-t2v-14b-ui__text_to_video_wan22_14B.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->arch.denoiser.experts == 1);
    CHECK(r.setup->arch.denoiser.params == Approx(2.858e10 / 2));
  }
  SECTION("GGUF: bits per weight from the file name") {
    const Read r = corpusSetup("flux-gguf-lora-ui__flux_gguf.json");
    REQUIRE(r.setup->estimable());
    REQUIRE(r.setup->gguf != nullptr);
    CHECK(r.setup->gguf->name == "q4_0");
    CHECK(r.setup->generation.unetBytesPerParam == Approx(4.5 / 8));
  }
  SECTION("GGUF Q4_K_S: 4.5 bits per weight, and a Q8_0 is not mistaken for 16-bit") {
    const Read r = corpusSetup("hidream-i1-dev-gguf-ui__Hidream_ComfyUI_Workflow.json");
    REQUIRE(r.setup->estimable());
    REQUIRE(r.setup->gguf != nullptr);
    CHECK(r.setup->gguf->name == "q4_k");
    std::string q8 = test::readFile(test::sharedDir() / "corpus/comfyui/flux-gguf-lora-ui__flux_gguf.json");
    q8.replace(q8.find("Q4_0"), 4, "Q8_0");
    const Read r8 = readSetup(q8);
    REQUIRE(r8.setup->estimable());
    CHECK(r8.setup->generation.unetBytesPerParam == Approx(8.5 / 8));
    CHECK_FALSE(r8.setup->generation.unetFp8);
  }
  SECTION("fp8 from the weight_dtype of a wrapped API body") {
    const Read r = corpusSetup("flux-dev-runpod-wrapped-api__workflow_flux1_dev.json");
    CHECK(r.workflow.format == WorkflowFormat::WrappedApi);
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.unetFp8);
  }
  SECTION("fp8 from a checkpoint's file name") {
    const Read r = corpusSetup("flux-dev-fp8-checkpoint-ui__flux_fp8_ui.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.unetFp8);
  }
  SECTION("a second pass through LatentUpscale, with a ControlNet") {
    const Read r = corpusSetup("sd15-controlnet-2pass-latentupscale-ui__2_pass_pose_worship.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.family->id == "sd15");
    REQUIRE(r.setup->secondPass != nullptr);
    CHECK(r.setup->secondPass->type == "LatentUpscale");
    CHECK(r.setup->generation.hiresLatent);
    CHECK(r.setup->generation.width * r.setup->generation.hiresScale == Approx(1536));
    CHECK(r.setup->generation.controlnets.size() == 1);
  }
  SECTION("a second pass through an ESRGAN upscale and a rescale (decode and encode between)") {
    const Read r = corpusSetup("sd21-768-hiresfix-esrgan-api__hiresfix_esrgan_workflow.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.family->id == "sd2");
    REQUIRE(r.setup->secondPass != nullptr);
    CHECK_FALSE(r.setup->generation.hiresLatent);
    // RealESRGAN_x4plus on the first pass's 768² image, between the passes; costed, so not listed.
    const ModelUpscale& u = r.setup->generation.upscale;
    CHECK(u.scale == 4);
    CHECK(u.weights.label == "ESRGAN RRDB ×4 (RealESRGAN_x4plus)");
    CHECK_FALSE(u.weights.assumed);
    CHECK(u.width == 768);
    CHECK(u.beforeHires);
    CHECK(r.setup->notCosted.empty());
  }
  SECTION("an IP-Adapter preset: the adapter beside the UNet and its ViT-H encoder") {
    const Read r = corpusSetup("sd15-ipadapter-simple-ui__ipadapter_simple.json");
    REQUIRE(r.setup->estimable());
    REQUIRE(r.setup->generation.ipadapters.size() == 1);
    CHECK(r.setup->generation.ipadapters[0].label == "IP-Adapter Plus SD 1.5");  // "PLUS (high strength)" on SD 1.5
    REQUIRE(r.setup->generation.clipVision.size() == 1);
    CHECK(r.setup->generation.clipVision[0].label == "CLIP ViT-H/14 vision tower");
    CHECK(r.setup->notCosted.empty());
  }
  SECTION("SD3.5's InstantX IP-Adapter on its provider's device, its SigLIP encoder from its own loader") {
    const std::string text = test::readFile(test::sharedDir() / "corpus/comfyui/sd35-large-ipadapter-api__sd35l_ipadapter_api.json");
    const Read r = readSetup(text);
    REQUIRE(r.setup->estimable());
    REQUIRE(r.setup->generation.ipadapters.size() == 1);
    CHECK(r.setup->generation.ipadapters[0].label == "InstantX IP-Adapter for SD3.5 Large");
    CHECK(r.setup->generation.ipadapters[0].bytes == Approx(2 * 7.979e8));
    REQUIRE(r.setup->generation.clipVision.size() == 1);
    CHECK(r.setup->generation.clipVision[0].label == "SigLIP so400m/14 384 vision tower");
    CHECK(r.setup->notCosted.empty());
    // provider "cpu": the loader keeps the adapter in system RAM, nothing of it on the GPU.
    std::string onCpu = text;
    const std::size_t provider = onCpu.find("\"provider\": \"cuda\"");
    REQUIRE(provider != std::string::npos);
    onCpu.replace(provider, 20, "\"provider\": \"cpu\"");
    const Read cpu = readSetup(onCpu);
    REQUIRE(cpu.setup->estimable());
    CHECK(cpu.setup->generation.ipadapters.empty());
    CHECK(cpu.setup->notCosted.empty());
  }
  SECTION("a model inside a subgraph") {
    const Read r = corpusSetup("qwen-image-edit-subgraph-ui__02_qwen_Image_edit_subgraphed.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.family->id == "qwen_image_edit");
    CHECK(r.setup->model->path.toString().starts_with("definitions.subgraphs[0].nodes["));
  }
  SECTION("a bypassed LoRA and the bypassed latent of Kontext do not count") {
    const Read r = corpusSetup("flux-kontext-dev-fp8-ui__flux_kontext_dev_basic.json");
    REQUIRE(r.setup->estimable());
    CHECK((r.setup->latent == nullptr || r.setup->latent->active()));
  }
  SECTION("models only ComfyUI runs: HunyuanVideo and LTX-Video from rules/comfyui.yaml") {
    const Read hunyuan = corpusSetup("hunyuanvideo-t2v-tiled-ui__hunyuan_video_text_to_video.json");
    REQUIRE(hunyuan.setup->estimable());
    CHECK(hunyuan.setup->generation.family->id == "hunyuan_video");
    CHECK(hunyuan.setup->generation.frames == 73);
    CHECK(hunyuan.setup->generation.vaeDecode == VaeDecode::Tiled);
    CHECK(hunyuan.setup->generation.decodeTilePixels == 256);  // its VAEDecodeTiled's tile_size
    const Read ltx = corpusSetup("ltxv-095-i2v-ui__ltxv_image_to_video.0.9.5.json");
    REQUIRE(ltx.setup->estimable());
    CHECK(ltx.setup->generation.family->id == "ltxv");
    CHECK(ltx.setup->arch.vae.latentChannels == 128);
    CHECK(ltx.setup->mismatches.empty());  // EmptyLTXVLatentVideo's 128 channels are the model's
    // LTX-Video 13B (0.9.7): its own entry, tried before the 2B's (whose "ltxv" its name also contains).
    const Read ltx13 = readSetup(R"({
      "1": {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": "ltxv-13b-0.9.7-dev.safetensors"}},
      "2": {"class_type": "EmptyLTXVLatentVideo", "inputs": {"width": 768, "height": 512, "length": 97, "batch_size": 1}},
      "3": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "latent_image": ["2", 0], "seed": 1, "steps": 30, "cfg": 3,
            "sampler_name": "euler", "scheduler": "simple", "denoise": 1}}
    })");
    REQUIRE(ltx13.setup->estimable());
    CHECK(ltx13.setup->generation.family->id == "ltxv_13b");
    CHECK(ltx13.setup->arch.denoiser.hidden == 4096);
    CHECK(ltx13.setup->generation.frames == 97);
  }
  SECTION("VAE Decode (Tiled) and a GGUF text encoder") {
    const Read r = corpusSetup("wan21-vace-gguf-tiled-ui__wan2.1vace_002.json");
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.vaeDecode == VaeDecode::Tiled);
    CHECK(r.setup->generation.textEncoderBytesPerParam == Approx(6.5625 / 8));
  }
}

TEST_CASE("every workflow of the corpus is read with an estimate and no error", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const auto dir = test::sharedDir() / "corpus/comfyui";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    ++checked;
    DYNAMIC_SECTION(name) {
      AnalyzeOptions options;
      options.gpu = "RTX 4090";
      const FileReport report = analyzeInput(Input{name, test::readFile(entry.path())}, options);
      CHECK(report.kind == InputKind::ComfyUiWorkflow);
      CHECK_FALSE(report.unreadable);
      const auto has = [&](std::string_view code) {
        return std::any_of(report.diagnostics.begin(), report.diagnostics.end(), [&](const Diagnostic& d) { return d.code == code; });
      };
      for (const auto& d : report.diagnostics) {
        INFO(d.range.start.line << ":" << d.range.start.column << " " << d.code << " " << d.message);
        // Out of memory on a 24 GB card is the estimate's verdict, not a broken workflow: the 14B video
        // models at bf16 are what ComfyUI streams or fp8s on such a card.
        CHECK((d.severity != Severity::Error || d.code == "OL501"));
      }
      if (name.starts_with("esrgan-upscale-only")) {
        CHECK(has("OL904"));  // no sampler: an upscale only
        CHECK_FALSE(report.estimate);
      } else {
        CHECK(report.estimate.has_value());
      }
      // The SD3.5 template with an SDXL checkpoint swapped in: the latent node is SD3's. A warning, not an
      // error: ComfyUI narrows the empty latent's channels and the graph runs.
      CHECK(has("OL902") == name.starts_with("sd35-canny-template-sdxl-ckpt"));
    }
  }
  CHECK(checked == 30);
}

namespace {

// Wan 2.1 14B at 1280×720, 81 frames, on an 8 GiB card: ComfyUI streams the weights it cannot hold and
// runs cond and uncond apart, but one pass's activations alone do not fit; the latent node is on its own line.
constexpr const char* kWanApi = R"({
  "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "wan2.1_t2v_14B_bf16.safetensors", "weight_dtype": "default"}},
  "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "umt5_xxl_fp8_e4m3fn_scaled.safetensors", "type": "wan"}},
  "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "waves on a rocky shore"}},
  "4": {"class_type": "EmptyHunyuanLatentVideo", "inputs": {"width": 1280, "height": 720, "length": 81, "batch_size": 1}},
  "5": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["3", 0], "negative": ["3", 0], "latent_image": ["4", 0],
        "seed": 3, "steps": 30, "cfg": 6, "sampler_name": "uni_pc", "scheduler": "simple", "denoise": 1}},
  "6": {"class_type": "VAELoader", "inputs": {"vae_name": "wan_2.1_vae.safetensors"}},
  "7": {"class_type": "VAEDecode", "inputs": {"samples": ["5", 0], "vae": ["6", 0]}}
})";

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) out.push_back(text.substr(from, nl - from));
  out.push_back(text.substr(from));
  return out;
}

}  // namespace

TEST_CASE("fix shortens the clip in the workflow's own bytes, touching nothing else") {
  // Wan 2.1 14B at 1280×720×81 through ComfyUI's own blocks (18 B per token·channel, tests/census/comfyui_wan.json;
  // the range reaching the 22 B of releases before #9898): borderline on 8 GiB, out of memory on 7.
  AnalyzeOptions options;
  options.vramGib = 7;
  const FixResult fixed = fixConfig(Input{"wan.json", kWanApi}, options);
  REQUIRE(fixed.before.estimate.has_value());
  CHECK(fixed.before.estimate->verdict == Verdict::Oom);
  REQUIRE_FALSE(fixed.applied.empty());
  const bool shorter = std::any_of(fixed.applied.begin(), fixed.applied.end(),
                                   [](const PlanStep& s) { return s.fix.path.toString() == "4.inputs.length" && s.fix.toJson == "41"; });
  CHECK(shorter);
  // Only the latent node's line changed: ComfyUI keeps its guess at Wan's work (more than its block's 18 B per
  // token·channel) free and streams the rest of the bf16 model, so its weight dtype is no lever here.
  const auto before = linesOf(kWanApi), after = linesOf(fixed.text);
  REQUIRE(before.size() == after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    INFO(after[i]);
    if (i != 4) CHECK(before[i] == after[i]);
  }
  CHECK(after[4] == R"(  "4": {"class_type": "EmptyHunyuanLatentVideo", "inputs": {"width": 1280, "height": 720, "length": 41, "batch_size": 1}},)");
  const FileReport again = analyzeInput(Input{"wan.json", fixed.text}, options);
  REQUIRE(again.estimate.has_value());
  CHECK(again.estimate->peak().peakBytes < fixed.before.estimate->peak().peakBytes);
}

TEST_CASE("a launch flag the plan needs is advice: said, not written into the workflow", "[shared]") {
  // HunyuanVideo's text-to-video template on 8 GiB: only --novram, which no workflow value sets, is needed.
  const std::string text = test::readFile(test::sharedDir() / "corpus/comfyui/hunyuanvideo-t2v-tiled-ui__hunyuan_video_text_to_video.json");
  AnalyzeOptions options;
  options.vramGib = 8;
  const FixResult fixed = fixConfig(Input{"hunyuan.json", text}, options);
  CHECK(std::any_of(fixed.skipped.begin(), fixed.skipped.end(),
                    [](const std::string& why) { return why.find("launch flag") != std::string::npos && why.find("--novram") != std::string::npos; }));
  CHECK(fixed.text == text);
}

TEST_CASE("a decode ComfyUI must retry in tiles carries the fix to VAE Decode (Tiled), which reads back") {
  // SD 1.5 at 2048² on a 4 GiB card: the full decode does not fit (OL708, with the fix).
  const std::string api = comfyFixture("sd15-2048-decode-retried-api.json");
  AnalyzeOptions options;
  options.vramGib = 4;
  const FileReport report = analyzeInput(Input{"sd15.json", api}, options);
  const auto retried = std::find_if(report.diagnostics.begin(), report.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.code == "OL708" && d.message.find("VAE decode") != std::string::npos; });
  REQUIRE(retried != report.diagnostics.end());
  REQUIRE(retried->fix.has_value());
  const std::string text = applyEdits(api, retried->fix->edits);
  CHECK(text.find(R"("class_type": "VAEDecodeTiled")") != std::string::npos);
  CHECK(text.find(R"("tile_size": 512)") != std::string::npos);
  const Read back = readSetup(text);
  CHECK(back.workflow.problems.empty());
  CHECK(back.setup->generation.vaeDecode == VaeDecode::Tiled);
  CHECK(back.setup->decode->number("temporal_overlap") == 8);
}

TEST_CASE("a model ComfyUI streams carries the fix to fp8 weights", "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const std::string text = test::readFile(test::sharedDir() / "corpus/comfyui/flux-dev-fp16-unet-ui__flux_dev_full_text_to_image.json");
  AnalyzeOptions options;
  options.gpu = "RTX 3060 12GB";
  const FileReport report = analyzeInput(Input{"flux.json", text}, options);
  const auto streams = std::find_if(report.diagnostics.begin(), report.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.code == "OL708" && d.message.find("loaded partially") != std::string::npos; });
  REQUIRE(streams != report.diagnostics.end());
  REQUIRE(streams->fix.has_value());
  REQUIRE(streams->fix->edits.size() == 1);
  const std::string fixed = applyEdits(text, streams->fix->edits);
  // Only the weight_dtype widget changed: `"default"` became `"fp8_e4m3fn"`.
  CHECK(fixed.size() == text.size() + std::string("fp8_e4m3fn").size() - std::string("default").size());
  const Read back = readSetup(fixed);
  REQUIRE(back.setup->estimable());
  CHECK(back.setup->generation.unetFp8);
}

TEST_CASE("a PNG's text chunks: prompt before workflow, Latin-1 tEXt as UTF-8, lengths bounded") {
  const auto chunk = [](std::string type, std::string data) {
    std::string out;
    for (int shift : {24, 16, 8, 0}) out += static_cast<char>((data.size() >> shift) & 0xFF);
    return out + type + data + std::string(4, '\0');  // CRC not checked
  };
  const std::string png = std::string(kPngSignature) + chunk("tEXt", std::string("workflow\0{\"nodes\": []}", 22)) +
                          chunk("tEXt", std::string("prompt\0{\"text\": \"caf\xE9\"}", 23)) + chunk("IEND", "");
  const PngWorkflow w = workflowFromPng(png);
  CHECK(w.error.empty());
  CHECK(w.keyword == "prompt");
  CHECK(w.json == "{\"text\": \"caf\xC3\xA9\"}");
  // Every truncation is an error or a result, never a read past the end.
  for (std::size_t n = 0; n < png.size(); ++n) {
    const PngWorkflow cut = workflowFromPng(std::string_view(png).substr(0, n));
    CHECK((cut.error.empty() != cut.json.empty()));
  }
  const PngWorkflow empty = workflowFromPng(std::string(kPngSignature) + chunk("tEXt", std::string("prompt\0", 7)) + chunk("IEND", ""));
  CHECK(empty.error == "the PNG's `prompt` text chunk is empty");
  const PngWorkflow compressed = workflowFromPng(std::string(kPngSignature) + chunk("iTXt", std::string("prompt\0\1\0\0\0xyz", 13)) + chunk("IEND", ""));
  CHECK(compressed.error.find("compressed") != std::string::npos);
}

// The schema's node_role enum (what rules/comfyui.yaml may say) and NodeRole name the same roles.
TEST_CASE("the node roles of the data schema are NodeRole's") {
  auto schema = readDocument(test::readFile(test::sourceDir() / "rules/schema/comfyui.schema.yaml"));
  const Node* enums = schema->root() ? schema->root()->find("enums") : nullptr;
  const Node* values = enums ? enums->find("node_role") : nullptr;
  REQUIRE(values != nullptr);
  std::size_t count = 0;
  for (const Node* v : values->resolved()->items) {
    const auto role = parseNodeRole(v->resolved()->text);
    REQUIRE(role.has_value());
    CHECK(toString(*role) == v->resolved()->text);
    ++count;
  }
  CHECK(count == static_cast<std::size_t>(NodeRole::NoCost) + 1);
}

TEST_CASE("side models: the IP-Adapter beside the UNet, the upscale after the decode in ComfyUI's tiles") {
  const std::string text = comfyFixture("sdxl-ipadapter-esrgan-api.json");
  const auto upscaleOn = [&](double gib) {
    AnalyzeOptions options;
    options.vramGib = gib;
    const FileReport report = analyzeInput(Input{"w.json", text}, options);
    REQUIRE(report.estimate);
    CHECK(report.estimate->phases.back().phase == Phase::Upscale);  // the last step: nothing samples its image
    const auto& denoise = test::phase(*report.estimate, "denoise").components;
    CHECK(std::any_of(denoise.begin(), denoise.end(),
                      [](const Component& c) { return c.name == "IP-Adapter weights" && c.how.starts_with("IP-Adapter Plus SDXL (ViT-H)"); }));
    const auto& upscale = test::phase(*report.estimate, "upscale").components;
    const auto tile = std::find_if(upscale.begin(), upscale.end(), [](const Component& c) { return c.name == "upscale tile"; });
    REQUIRE(tile != upscale.end());
    return tile->how;
  };
  CHECK(upscaleOn(8).starts_with("512×512 px tile × 9216 B"));
  // On 3 GiB the 512 px tile's 2.25 GiB do not fit beside the context: ComfyUI halves it.
  const std::string small = upscaleOn(3);
  CHECK(small.starts_with("256×256 px tile"));
  CHECK(small.find("halves it") != std::string::npos);
}

TEST_CASE("LTX-2's latent upscale model between the passes: its weights, its maps, slow_conv3d's columns at the top") {
  const std::string text = comfyFixture("ltx2-two-pass-latent-upsampler-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  REQUIRE(r.setup->secondPass != nullptr);
  CHECK(r.setup->secondPass->type == "LTXVLatentUpsampler");
  CHECK(r.setup->generation.hiresScale == Approx(2));
  CHECK(r.setup->notCosted.empty());  // the loader is costed with its upsampler
  const LatentModelUpscale& u = r.setup->generation.latentUpscale;
  CHECK(u.weights.label == "LTX-2 spatial upscaler ×2 (1024 wide)");
  CHECK_FALSE(u.weights.assumed);
  CHECK(u.weights.bytes == Approx(497867904.0 * 2));

  AnalyzeOptions options;
  options.vramGib = 24;
  const FileReport report = analyzeInput(Input{"w.json", text}, options);
  REQUIRE(report.estimate);
  std::vector<Phase> order;
  for (const auto& p : report.estimate->phases) order.push_back(p.phase);
  const auto upscaleAt = std::find(order.begin(), order.end(), Phase::Upscale);
  REQUIRE(upscaleAt != order.end());
  CHECK(*(upscaleAt - 1) == Phase::Denoise);
  CHECK(*(upscaleAt + 1) == Phase::HiresDenoise);
  // 768×512×97 frames: 13 latent frames of 24 × 16 positions (LTX's ×32 VAE, ×8 in time).
  const double positions = 13.0 * 24 * 16;
  const PhaseEstimate& upscale = test::phase(*report.estimate, "upscale");
  // four 1024-wide bf16 maps per output position, four per input
  REQUIRE(test::component(upscale, "upscale model working memory") > 0);
  CHECK(test::component(upscale, "upscale model working memory") == Approx(positions * 32768));
  const RangeReason* columns = test::rangeReason(upscale, "PyTorch 2.9-2.10");
  REQUIRE(columns != nullptr);
  CHECK(columns->aboveBytes == Approx(positions * (245760 - 32768)));
  CHECK(columns->belowBytes == 0);
  CHECK(upscale.highBytes > upscale.peakBytes + columns->aboveBytes);

  SECTION("a card without bf16 (Turing): ComfyUI builds it in fp32, twice the bytes, and cuDNN runs its convolutions") {
    AnalyzeOptions onTuring;
    onTuring.gpu = "RTX 2080 Ti";
    const FileReport turing = analyzeInput(Input{"w.json", text}, onTuring);
    REQUIRE(turing.estimate);
    const PhaseEstimate& fp32 = test::phase(*turing.estimate, "upscale");
    CHECK(test::component(fp32, "upscale model weights") == Approx(497867904.0 * 4));
    CHECK(test::component(fp32, "upscale model working memory") == Approx(positions * 32768 * 2));
    CHECK(test::rangeReason(fp32, "PyTorch 2.9-2.10") == nullptr);
  }
  SECTION("an upscale model oomlint does not know is costed as LTX-2's, and says so") {
    std::string other = text;
    const std::string name = "ltx-2-spatial-upscaler-x2-1.0.safetensors";
    other.replace(other.find(name), name.size(), "my-upscaler.safetensors");
    const Read unknown = readSetup(other);
    CHECK(unknown.setup->generation.latentUpscale.weights.assumed);
    CHECK(unknown.setup->notCosted.empty());
  }
}

namespace {

// A workflow's report on a named card; it must carry an estimate.
FileReport analyzeOn(const char* gpu, std::string workflow) {
  AnalyzeOptions options;
  options.gpu = gpu;
  FileReport report = analyzeInput(Input{"workflow.json", std::move(workflow)}, options);
  REQUIRE(report.estimate.has_value());
  return report;
}

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("WanVideoWrapper: the sampler holds the model less its swapped blocks, VACE's module and hints, cond and uncond apart") {
  const std::string text = comfyFixture("wan-wrapper-vace-blockswap-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const WorkflowSetup& s = *r.setup;
  CHECK(s.notCosted.empty());
  CHECK(s.latent->type == "WanVideoVACEEncode");
  CHECK(s.generation.width == 832);
  CHECK(s.generation.frames == 81);
  CHECK(s.generation.unetFp8);  // quantization fp8_e4m3fn, before base_precision bf16
  CHECK(s.weightDtype->path.toString() == "1.inputs.quantization");
  CHECK(s.packPlacesModel);
  CHECK_FALSE(s.generation.modelOnGpuFromLoad);  // load_device offload_device
  CHECK(s.generation.guidanceBatched == false);
  CHECK(s.generation.textEncoderWhole);
  // The VACE module's 8 blocks join the 14B model; 20 main and 4 VACE blocks wait in RAM, one on the GPU at a time.
  const Denoiser& d = s.arch.denoiser;
  const double vaceBlock = 3022881792.0 / 8;
  CHECK(d.params == Approx(knowledge().architectures.byId("wan21")->denoiser.params + 3022881792.0));
  CHECK(s.generation.swappedParams == Approx(20 * d.largestBlockParams + 4 * vaceBlock - std::max(d.largestBlockParams, vaceBlock)));
  CHECK(s.generation.persistentTokenMaps == 0);  // a block swap makes the hints on the offload device
  CHECK(s.swapMost == d.blocks);

  const FileReport report = analyzeOn("RTX 4090", text);
  const PhaseEstimate& denoise = test::phase(*report.estimate, "denoise");
  CHECK(test::component(denoise, "transformer weights") == Approx(d.params - s.generation.swappedParams));  // 1 B each
  CHECK(test::component(denoise, "VACE hints") == 0);
  // cfg 6 without batched_cfg: one pass at a time; batched, twice the activations.
  const double one = test::component(denoise, "transformer activations");
  const FileReport batched = analyzeOn("RTX 4090", replaced(text, "\"batched_cfg\": false", "\"batched_cfg\": true"));
  CHECK(test::component(test::phase(*batched.estimate, "denoise"), "transformer activations") == Approx(2 * one));
  // No block swap: the whole model, and each VACE block's hint of every token kept through the forward.
  std::string noSwap = replaced(text, "\"block_swap_args\": [\"2\", 0], ", "");
  noSwap = replaced(noSwap, "WanVideoBlockSwap", "WanVideoBlockSwapMuted");  // unknown, not linked: listed, not used
  const Read whole = readSetup(noSwap);
  CHECK(whole.setup->generation.swappedParams == 0);
  CHECK(whole.setup->generation.persistentTokenMaps == 8);
  const FileReport wholeReport = analyzeOn("RTX 4090", noSwap);
  const double tokens = imageTokens(whole.setup->arch, 832, 480, 81) + d.textTokens;
  CHECK(test::component(test::phase(*wholeReport.estimate, "denoise"), "VACE hints") == Approx(8 * tokens * d.hidden * 2));
  CHECK(test::component(test::phase(*wholeReport.estimate, "denoise"), "transformer weights") == Approx(d.params));
  // VACE blocks to swap without a VACE module swap nothing.
  const Read noVace = readSetup(replaced(text, "\"vace_model\": [\"3\", 0]", "\"lora\": null"));
  const Denoiser& plain = noVace.setup->arch.denoiser;
  CHECK(noVace.setup->generation.swappedParams == Approx(19 * plain.largestBlockParams));
}

TEST_CASE("WanVideoDecode: untiled it keeps the decoded clip on the GPU and never retries in tiles; its switch tiles it") {
  const std::string text = comfyFixture("wan-wrapper-vace-blockswap-api.json");
  const Read r = readSetup(text);
  CHECK(r.setup->generation.vaeDecode == VaeDecode::Full);
  CHECK_FALSE(r.setup->generation.decodeRetriesTiled);
  CHECK(r.setup->generation.decodeOutputBytesPerPixel == 12);  // two bf16 RGB copies at its last concatenation
  const FileReport report = analyzeOn("RTX 4090", text);
  CHECK(test::component(test::phase(*report.estimate, "vae_decode"), "decoded clip") == Approx(832.0 * 480 * 81 * 12));
  // Where the full decode does not fit (1280×720 on 12 GB), it is costed whole: ComfyUI's VAEDecode would retry in tiles.
  std::string large = replaced(text, "\"width\": 832, \"height\": 480", "\"width\": 1280, \"height\": 720");
  const double k = knowledge().memory.vae("wan21")->decodeK;
  const FileReport small = analyzeOn("RTX 3060", large);
  CHECK(test::component(test::phase(*small.estimate, "vae_decode"), "VAE decode") == Approx(k * 1280 * 720 * 2));
  const FileReport native = analyzeOn("RTX 3060", replaced(large, "\"WanVideoDecode\"", "\"VAEDecode\""));
  CHECK(test::component(test::phase(*native.estimate, "vae_decode"), "VAE decode") < k * 1280 * 720 * 2 / 4);
  // Its VACE encode takes the whole clip untiled, whatever the decode does, and never retries.
  const double encodeK = knowledge().memory.vae("wan21")->encodeK;
  const PhaseEstimate& encode = test::phase(*report.estimate, "vae_encode");
  CHECK(test::component(encode, "VAE encode") == Approx(encodeK * 832 * 480 * 2));
  CHECK(test::component(encode, "clip to encode") == Approx(832.0 * 480 * 81 * 3 * 2));
  CHECK(test::component(test::phase(*small.estimate, "vae_encode"), "VAE encode") == Approx(encodeK * 1280 * 720 * 2));
  const Read tiledEncode = readSetup(replaced(text, "\"num_frames\": 81,", "\"num_frames\": 81, \"tiled_vae\": true,"));
  CHECK(tiledEncode.setup->generation.clipEncodeTiled);
  const Read tiled = readSetup(replaced(text, "\"enable_vae_tiling\": false", "\"enable_vae_tiling\": true"));
  CHECK(tiled.setup->generation.vaeDecode == VaeDecode::Tiled);
  CHECK(tiled.setup->generation.decodeTilePixels == 272);
  CHECK(tiled.setup->generation.decodeOutputBytesPerPixel == 0);  // tiles go to CPU accumulators
}

TEST_CASE("HunyuanVideoWrapper: main_device keeps the model beside the 8B encoder; sdpa's tokens² mask; both in the plan") {
  const std::string text = comfyFixture("hunyuanvideo-wrapper-sdpa-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const WorkflowSetup& s = *r.setup;
  CHECK(s.notCosted.empty());
  CHECK(s.latent == s.sampler);  // HyVideoSampler takes the size itself
  CHECK(s.generation.frames == 129);
  CHECK(s.generation.modelOnGpuFromLoad);
  CHECK(s.generation.denseAttentionMask);
  CHECK(s.generation.vaeDecode == VaeDecode::Tiled);
  CHECK(s.generation.decodeTilePixels == 256);
  const FileReport report = analyzeOn("RTX 4090", text);
  const Denoiser& d = s.arch.denoiser;
  const PhaseEstimate& encode = test::phase(*report.estimate, "text_encode");
  CHECK(test::component(encode, "transformer weights") == Approx(d.params));
  double te = 0;
  for (const auto& t : s.arch.textEncoders) te += t.params;
  CHECK(test::component(encode, "text encoder weights") == Approx(2 * te));  // fp16, all of it
  const double tokens = imageTokens(s.arch, 960, 544, 129) + d.textTokens;
  CHECK(test::component(test::phase(*report.estimate, "denoise"), "attention mask") == Approx(tokens * tokens));
  // Its decoder takes each 65-frame temporal tile at once: no less than the census floor of such a call, above
  // ComfyUI's planner figure (2800 B × 8 frames) for the same 256² tile.
  const VaeConstants& hv = *knowledge().memory.vae("hunyuan");
  const double floor = hv.allFramesDecodeFloorK * 256 * 256 * 65 * 2;
  CHECK(floor > hv.decodeK * 256 * 256 * 8 * 2);
  CHECK(test::component(test::phase(*report.estimate, "vae_decode"), "VAE decode") == Approx(floor));
  CHECK(report.estimate->verdict == Verdict::Oom);
  std::vector<std::string> edits;
  for (const PlanStep& step : report.plan) edits.push_back(step.fix.path.toString() + " " + step.fix.toJson);
  CHECK(std::find(edits.begin(), edits.end(), "1.inputs.load_device \"offload_device\"") != edits.end());
  CHECK(std::find(edits.begin(), edits.end(), "1.inputs.attention_mode \"sageattn_varlen\"") != edits.end());
  for (const auto& e : edits) CHECK(e.find("--") == std::string::npos);  // ComfyUI's launch flags move nothing here
  // HyVideoBlockSwap: double blocks at the architecture's largest, single ones at 141.6 M, one on the GPU at a time.
  const std::string swap = R"(, "block_swap_args": ["9", 0]}},
  "9": {"class_type": "HyVideoBlockSwap", "inputs": {"double_blocks_to_swap": 20, "single_blocks_to_swap": 10, "offload_txt_in": false, "offload_img_in": false}},)";
  const Read swapped = readSetup(replaced(text, R"("attention_mode": "sdpa"}},)", R"("attention_mode": "sdpa")" + swap));
  CHECK(swapped.setup->generation.swappedParams == Approx(20 * d.largestBlockParams + 10 * 1.416e8 - d.largestBlockParams));
  CHECK(swapped.setup->swapMost == 20);
}

TEST_CASE("MochiWrapper: its loader holds the DiT from the start; its tiled decode takes frame_batch_size latent frames a call") {
  const std::string text = comfyFixture("mochi-wrapper-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const WorkflowSetup& s = *r.setup;
  CHECK(s.notCosted.empty());
  CHECK(s.generation.family->id == "mochi");
  CHECK(s.generation.modelOnGpuFromLoad);
  CHECK(s.generation.unetFp8);  // precision fp8_e4m3fn
  CHECK(s.generation.guidanceBatched == false);
  CHECK(s.generation.decodeFramesInFlight == 6 * 6);  // 6 latent frames × the VAE's 6 in time
  const FileReport report = analyzeOn("RTX 4090", text);
  const double k = knowledge().memory.vae("mochi")->decodeK;
  CHECK(test::component(test::phase(*report.estimate, "vae_decode"), "VAE decode") == Approx(k * 424 * 424 * 36 * 2));
  // A GGUF file is read from its name, the loader's precision notwithstanding.
  const Read gguf = readSetup(replaced(text, "mochi_preview_dit_fp8_e4m3fn.safetensors", "mochi_preview_dit_GGUF_Q8_0.safetensors"));
  REQUIRE(gguf.setup->gguf != nullptr);
  CHECK(gguf.setup->generation.unetBytesPerParam == Approx(8.5 / 8));

  // The text encode holds the DiT beside the whole T5 ...
  const auto textEncode = [](const std::string& workflow) { return test::phase(*analyzeOn("RTX 4090", workflow).estimate, "text_encode"); };
  CHECK(test::component(textEncode(text), "transformer weights") > 0);
  CHECK_FALSE(s.generation.modelLoadsAfterEncodes);
  // ... unless the loader's trigger waits on the last encode (its examples from 3dce06b: "for forcing execution order"),
  // which waits on the first through its clip: both run before the DiT loads.
  const std::string triggered = replaced(text, R"("attention_mode": "sdpa"}},)", R"("attention_mode": "sdpa", "trigger": ["3", 0]}},)");
  CHECK(readSetup(triggered).setup->generation.modelLoadsAfterEncodes);
  const PhaseEstimate alone = textEncode(triggered);
  CHECK(test::component(alone, "transformer weights") == 0);
  CHECK(test::component(alone, "text encoder weights") > 0);
  // A trigger from the first encode alone leaves the second free to run after the load.
  const std::string early = replaced(triggered, R"("trigger": ["3", 0])", R"("trigger": ["2", 0])");
  const std::string second = replaced(early, R"("clip": ["2", 1])", R"("clip": ["1", 0])");
  CHECK_FALSE(readSetup(second).setup->generation.modelLoadsAfterEncodes);
}

TEST_CASE("Canny fed a video is listed as not costed (every frame at the file's size on the GPU); fed an image it is not") {
  const std::string video = R"({
  "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "wan2.1_t2v_14B_fp8_e4m3fn.safetensors", "weight_dtype": "default"}},
  "2": {"class_type": "LoadVideo", "inputs": {"file": "dance.mp4"}},
  "3": {"class_type": "GetVideoComponents", "inputs": {"video": ["2", 0]}},
  "4": {"class_type": "Canny", "inputs": {"image": ["3", 0], "low_threshold": 0.4, "high_threshold": 0.8}},
  "5": {"class_type": "WanFunControlToVideo", "inputs": {"control_video": ["4", 0], "width": 640, "height": 640, "length": 81, "batch_size": 1}},
  "6": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "latent_image": ["5", 2], "seed": 1, "steps": 20, "cfg": 6,
        "sampler_name": "euler", "scheduler": "simple", "denoise": 1}}
})";
  const Read r = readSetup(video);
  REQUIRE(r.setup->estimable());
  REQUIRE(r.setup->notCosted.size() == 1);
  CHECK(r.setup->notCosted.front()->type == "Canny");
  const FileReport report = analyzeInput(Input{"w.json", video}, {});
  CHECK(std::any_of(report.diagnostics.begin(), report.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == "OL901" && d.message.find("every frame of the video") != std::string::npos;
  }));
  // A still image (LoadImage) is small: Canny stays a known node with nothing to cost.
  std::string image = video;
  image.replace(image.find(R"("class_type": "LoadVideo", "inputs": {"file": "dance.mp4"})"),
                std::string(R"("class_type": "LoadVideo", "inputs": {"file": "dance.mp4"})").size(),
                R"("class_type": "LoadImage", "inputs": {"image": "pose.png"})");
  CHECK(readSetup(image).setup->notCosted.empty());
}

TEST_CASE("a UI workflow's TaylorSeerLite is bypassed by the plan: its mode set to 4, the model passing through") {
  const std::string text = R"({"nodes": [
    {"id": 1, "type": "UNETLoader", "mode": 0, "widgets_values": ["flux1-dev.safetensors", "fp8_e4m3fn"]},
    {"id": 2, "type": "TaylorSeerLite", "mode": 0, "inputs": [{"name": "model", "type": "MODEL", "link": 1}],
     "widgets_values": ["flux", 6, 1, 3, 50]},
    {"id": 3, "type": "EmptySD3LatentImage", "mode": 0, "widgets_values": [1024, 1024, 1]},
    {"id": 4, "type": "KSampler", "mode": 0, "inputs": [{"name": "model", "type": "MODEL", "link": 2}, {"name": "latent_image", "type": "LATENT", "link": 3}],
     "widgets_values": [5, "fixed", 28, 1, "euler", "simple", 1]}
  ], "links": [[1, 1, 0, 2, 0, "MODEL"], [2, 2, 0, 4, 0, "MODEL"], [3, 3, 0, 4, 3, "LATENT"]]})";
  const FileReport report = analyzeOn("RTX 3060 12GB", text);
  CHECK(report.estimate->verdict == Verdict::Oom);  // 11.9 GB of fp8 blocks moved in beside the context
  REQUIRE_FALSE(report.plan.empty());
  const PlanStep& bypass = report.plan.front();
  CHECK(bypass.needed);
  CHECK(bypass.fix.path.toString() == "nodes[1].mode");
  REQUIRE(bypass.fix.edits.size() == 1);
  const std::string fixed = applyEdits(text, bypass.fix.edits);
  const Read back = readSetup(fixed);
  REQUIRE(back.setup->estimable());
  CHECK(back.workflow.find("2")->bypassed);
  CHECK(back.setup->generation.wholeModelSampler.empty());
  CHECK(analyzeOn("RTX 3060 12GB", fixed).estimate->verdict != Verdict::Oom);
}

TEST_CASE("a WanVideoWrapper UI workflow: its widgets by position, the block swap through its link, fix edits the widget") {
  // widgets_values as the wrapper's example workflows of March 2025 save them (its INPUT_TYPES order, the seed's
  // control entry after the seed).
  const std::string text = R"({"nodes": [
    {"id": 1, "type": "WanVideoBlockSwap", "widgets_values": [10, false, false]},
    {"id": 2, "type": "WanVideoModelLoader", "inputs": [{"name": "block_swap_args", "type": "BLOCKSWAPARGS", "link": 1}],
     "widgets_values": ["WanVideo\\Wan2_1-T2V-14B_fp8_e4m3fn.safetensors", "bf16", "fp8_e4m3fn", "offload_device", "sdpa"]},
    {"id": 3, "type": "WanVideoEmptyEmbeds", "widgets_values": [1280, 720, 81]},
    {"id": 4, "type": "WanVideoSampler", "inputs": [{"name": "model", "type": "WANVIDEOMODEL", "link": 2}, {"name": "image_embeds", "type": "WANVIDIMAGE_EMBEDS", "link": 3}],
     "widgets_values": [30, 6, 5, 42, "fixed", true, "unipc", 0, 1, false, "comfy"]},
    {"id": 5, "type": "WanVideoDecode", "inputs": [{"name": "samples", "type": "LATENT", "link": 4}], "widgets_values": [false, 272, 272, 144, 128]}
  ], "links": [[1, 1, 0, 2, 0, "BLOCKSWAPARGS"], [2, 2, 0, 4, 0, "WANVIDEOMODEL"], [3, 3, 0, 4, 2, "WANVIDIMAGE_EMBEDS"], [4, 4, 0, 5, 1, "LATENT"]]})";
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const WorkflowSetup& s = *r.setup;
  CHECK(s.notCosted.empty());
  CHECK(s.generation.width == 1280);
  CHECK(s.generation.frames == 81);
  CHECK(s.generation.unetFp8);
  CHECK(s.generation.guidanceBatched == false);  // batched_cfg at position 9 (after the seed's control entry)
  CHECK(s.blockSwap == r.workflow.find("1"));
  CHECK(s.generation.swappedParams == Approx(9 * s.arch.denoiser.largestBlockParams));
  CHECK(s.decode->value("enable_vae_tiling")->path.toString() == "nodes[4].widgets_values[0]");
  // On a 16 GB card the plan tiles the decode and swaps every block, in the workflow's own widgets.
  const FileReport report = analyzeOn("RTX 4080", text);
  std::vector<std::string> edits;
  for (const PlanStep& step : report.plan) edits.push_back(step.fix.path.toString() + " " + step.fix.toJson);
  CHECK(std::find(edits.begin(), edits.end(), "nodes[0].widgets_values[0] 40") != edits.end());
  for (const auto& e : edits) CHECK(e.find("--") == std::string::npos);
}

TEST_CASE("WanVideoWrapper's older releases ran a heavier block: the range's top is the same generation at their figure") {
  const std::string text = comfyFixture("wan-wrapper-vace-blockswap-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const GenerationSetup& g = r.setup->generation;
  CHECK(g.olderBlockBytesPerTokenChannel == 40);
  CHECK(g.blockBytesPerTokenChannel == 0);  // the expected figure: Wan's census block
  const FileReport report = analyzeOn("RTX 4090", text);
  const PhaseEstimate& denoise = test::phase(*report.estimate, "denoise");
  const RangeReason* reason = test::rangeReason(denoise, "WanVideoWrapper before a6071c7");
  REQUIRE(reason != nullptr);
  // The same setup at 40 B: its activations and the range's top above the expected one's by the difference.
  GenerationSetup older = g;
  older.blockBytesPerTokenChannel = 40;
  older.olderBlockBytesPerTokenChannel = 0;
  const Estimate heavier = estimateGeneration(older, *knowledge().webui, knowledge().memory, report.estimate->gpu).estimate;
  const PhaseEstimate& heavierDenoise = test::phase(heavier, "denoise");
  const double kWan = knowledge().memory.activations("wan").inferenceBytesPerTokenChannel;
  CHECK(test::component(heavierDenoise, "transformer activations") ==
        Approx(test::component(denoise, "transformer activations") * 40 / kWan));
  CHECK(denoise.highBytes == Approx(heavierDenoise.highBytes));
  CHECK(reason->aboveBytes > 0);
  CHECK(denoise.peakBytes < heavierDenoise.peakBytes);  // the expected figure does not move
  // ComfyUI's own sampler names no older release.
  CHECK(knowledge().comfyui->node("KSampler")->olderBlockBytesPerTokenChannel == 0);
}

TEST_CASE("a wrapper's bf16 VAE on a card before Ampere: its 3-D convolutions unfold slow_conv3d's columns; fp32 doubles it") {
  const std::string text = comfyFixture("wan-wrapper-vace-blockswap-api.json");  // WanVideoVAELoader precision bf16, 832×480×81
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->generation.vaeBf16);
  const auto decode = [&](const char* gpu) { return test::phase(*analyzeOn(gpu, text).estimate, "vae_decode"); };
  // Turing (7.5): a 4-frame chunk's columns, 96 · 27 · 4 per pixel, beside 96 · (4 · 4 + 2) of maps, in bf16, untiled.
  const PhaseEstimate turing = decode("RTX 2080 Ti");
  CHECK(test::component(turing, "VAE decode") == Approx(96.0 * (27 * 4 + 18) * 832 * 480 * 2));
  // Ampere runs them through cuDNN: the VAE's own figure (memory.yaml's), lower.
  const PhaseEstimate ampere = decode("RTX 3090");
  CHECK(test::component(ampere, "VAE decode") < test::component(turing, "VAE decode"));
  CHECK(std::none_of(ampere.components.begin(), ampere.components.end(), [](const Component& c) { return c.how.find("slow_conv3d") != std::string::npos; }));
  // An fp32 loader: fp32 weights, cuDNN.
  const Read fp32 = readSetup(replaced(text, R"("Wan2_1_VAE_bf16.safetensors", "precision": "bf16")", R"("Wan2_1_VAE_bf16.safetensors", "precision": "fp32")"));
  CHECK(fp32.setup->generation.fp32Vae);
  CHECK_FALSE(fp32.setup->generation.vaeBf16);
}

// comfy/sd.py: the KL VAE of SD, SDXL, SD3 and FLUX.1 works in bf16 or fp32 only; model_management.vae_dtype picks bf16
// from compute capability 8 on, else fp32. Wan's VAE lists fp16 too. --fp16-vae / --bf16-vae / --fp32-vae decide instead.
TEST_CASE("ComfyUI's own KL VAE on a card before Ampere runs in fp32: its weights and decode twice the bf16 ones") {
  const auto vae = [](const char* gpu, const std::string& text, const char* component) {
    return test::component(test::phase(*analyzeOn(gpu, text).estimate, "vae_decode"), component);
  };
  CHECK(readSetup(kApi).setup->generation.vaeWithoutFp16);
  CHECK(vae("RTX 2080 Ti", kApi, "VAE weights") == Approx(2 * vae("RTX 3090", kApi, "VAE weights")));
  CHECK(vae("RTX 2080 Ti", kApi, "VAE decode") == Approx(2 * vae("RTX 3090", kApi, "VAE decode")));
  // Wan's VAE class lists fp16: no fp32 for it.
  CHECK_FALSE(readSetup(kWanApi).setup->generation.vaeWithoutFp16);
  // A launch line's --fp16-vae chooses the dtype: 2 B on Turing too.
  AnalyzeOptions turing;
  turing.gpu = "RTX 2080 Ti";
  const Report flagged = analyze({Input{"workflow.json", kApi}, Input{"run.sh", "python main.py --fp16-vae\n"}}, turing);
  REQUIRE(flagged.files[0].estimate.has_value());
  CHECK(test::component(test::phase(*flagged.files[0].estimate, "vae_decode"), "VAE weights") ==
        Approx(vae("RTX 3090", kApi, "VAE weights")));
  // A ComfyUI generation profile alike; A1111's own VAE handling is its own.
  const std::string profile = "generation:\n  tool: comfyui\n  model: sdxl\n  width: 1024\n  height: 1024\n";
  const auto profileVae = [](const char* gpu, const std::string& text) {
    AnalyzeOptions options;
    options.gpu = gpu;
    const FileReport report = analyzeInput(Input{"profile.yaml", text}, options);
    REQUIRE(report.estimate.has_value());
    return test::component(test::phase(*report.estimate, "vae_decode"), "VAE weights");
  };
  CHECK(profileVae("RTX 2060", profile) == Approx(2 * profileVae("RTX 3060 12GB", profile)));
  const std::string a1111 = "generation:\n  tool: a1111\n  model: sd15\n  width: 512\n  height: 512\n";
  CHECK(profileVae("RTX 2060", a1111) == Approx(profileVae("RTX 3060 12GB", a1111)));
}

// comfy/model_management.py unet_dtype: an fp8 file whose loader leaves the dtype to ComfyUI stays fp8 on a card that
// computes in fp8 (compute capability 8.9+) or where 16 bits would exceed 0.88 × the card less 0.8 GiB and the reserve;
// elsewhere it loads in 16 bits. Scaled files stay quantized; the loader's weight_dtype and the flags decide instead.
TEST_CASE("ComfyUI loads a plain fp8 file in 16 bits on a card without fp8 compute where the 16-bit weights fit") {
  const std::string fp8 = replaced(kApi, "flux1-dev.safetensors", "flux1-dev-fp8.safetensors");
  const auto weights = [](const char* gpu, const std::string& text) {
    return test::component(test::phase(*analyzeOn(gpu, text).estimate, "denoise"), "transformer weights");
  };
  const Read r = readSetup(fp8);
  CHECK(r.setup->generation.unetFp8);
  CHECK(r.setup->generation.unetDtypeByTool);
  const double params = r.setup->arch.denoiser.params;
  // Hopper and Ada keep fp8; an A100 (8.0) loads 2 B × 11.9 B = 23.8 GB, under 0.88 × 80 GiB − 1.2 GiB.
  CHECK(weights("H100 SXM", fp8) == Approx(params));
  CHECK(weights("RTX 4090", fp8) == Approx(params));
  CHECK(weights("A100 80GB", fp8) == Approx(2 * params));
  const auto fp8Reason = [](const FileReport& report) {
    const auto& range = test::phase(*report.estimate, "denoise").range;
    return std::any_of(range.begin(), range.end(), [](const RangeReason& r) { return r.why.find("fp8 compute") != std::string::npos; });
  };
  CHECK_FALSE(fp8Reason(analyzeOn("A100 80GB", fp8)));
  // On a 3090 (8.6) the 16-bit weights would exceed 0.88 × 24 GiB − 1.2 GiB = 19.9 GiB: fp8 stays.
  CHECK(weights("RTX 3090", fp8) == Approx(params));
  // The AMD card has no fp8 compute for ComfyUI.
  CHECK(weights("RX 7900 XTX", replaced(fp8, "flux1-dev-fp8", "sd3.5_medium_fp8_e4m3fn")) ==
        Approx(2 * readSetup(replaced(fp8, "flux1-dev-fp8", "sd3.5_medium_fp8_e4m3fn")).setup->arch.denoiser.params));
  // A scaled file keeps its quantized layers; so does the loader's own fp8 weight_dtype.
  const std::string scaled = replaced(fp8, "flux1-dev-fp8", "flux1-dev-kontext_fp8_scaled");
  CHECK_FALSE(readSetup(scaled).setup->generation.unetDtypeByTool);
  CHECK(weights("A100 80GB", scaled) == Approx(params));
  const std::string chosen = replaced(fp8, R"("weight_dtype": "default")", R"("weight_dtype": "fp8_e4m3fn")");
  CHECK(weights("A100 80GB", chosen) == Approx(params));
  // Launch flags: --supports-fp8-compute keeps fp8, --fp16-unet loads 16 bits on any card.
  const auto flagged = [&](const char* gpu, const char* line) {
    AnalyzeOptions options;
    options.gpu = gpu;
    const Report report = analyze({Input{"workflow.json", fp8}, Input{"run.sh", line}}, options);
    REQUIRE(report.files[0].estimate.has_value());
    return test::component(test::phase(*report.files[0].estimate, "denoise"), "transformer weights");
  };
  CHECK(flagged("A100 80GB", "python main.py --supports-fp8-compute\n") == Approx(params));
  CHECK(flagged("H100 SXM", "python main.py --fp16-unet\n") == Approx(2 * params));
  // A card known only by its size may be either: fp8 expected, the 16-bit weights the range's top.
  AnalyzeOptions sized;
  sized.vramGib = 80;
  const FileReport bySize = analyzeInput(Input{"workflow.json", fp8}, sized);
  REQUIRE(bySize.estimate.has_value());
  const PhaseEstimate& denoise = test::phase(*bySize.estimate, "denoise");
  CHECK(test::component(denoise, "transformer weights") == Approx(params));
  CHECK(denoise.highBytes - denoise.peakBytes >= params);
  CHECK(fp8Reason(bySize));
  // Streamed in 16 bits (batch 24 on an A100 40 GB), the file's fp8 kept by the loader's weight_dtype halves what streams:
  // OL708's fix; where the card keeps the file in fp8 there is nothing to halve.
  const std::string batch = replaced(fp8, R"("batch_size": 2)", R"("batch_size": 24)");
  // Both cards stream (OL708); only the one that loads the file in 16 bits gets the fix.
  const auto streamsWithFix = [&](const char* gpu) {
    const FileReport report = analyzeOn(gpu, batch);
    const auto streams = std::find_if(report.diagnostics.begin(), report.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.code == "OL708"; });
    REQUIRE(streams != report.diagnostics.end());
    return streams->message.find("weight_dtype fp8_e4m3fn halves") != std::string::npos;
  };
  CHECK(streamsWithFix("A100 40GB"));
  CHECK_FALSE(streamsWithFix("RTX 4090"));
}

// comfy/model_management.py should_use_fp16 is false on the GTX 16 cards it lists and, under Linux, on Pascal: its own
// model code then computes in fp32 (unet_manual_cast), its own VAE runs in fp32 (vae_dtype), and on a GTX 16 card
// unet_dtype keeps the weights in fp32 where 4 B per parameter fit 0.88 of the card less 1.2 GiB.
TEST_CASE("ComfyUI on a card it runs no fp16 on: fp32 compute and VAE, and a small model's weights in fp32 on a GTX 16") {
  const std::string sd15 = replaced(comfyFixture("sd15-2048-decode-retried-api.json"), R"("width": 2048, "height": 2048)",
                                    R"("width": 512, "height": 512)");
  const auto component = [](const char* gpu, const std::string& text, const char* phase, const char* name) {
    return test::component(test::phase(*analyzeOn(gpu, text).estimate, phase), name);
  };
  // The weights' dtype, where a partial load keeps only part of them on the card.
  const auto how = [](const char* gpu, const std::string& text, const char* name) {
    const FileReport report = analyzeOn(gpu, text);
    for (const Component& c : test::phase(*report.estimate, "denoise").components) {
      if (c.name == name) return c.how;
    }
    FAIL("no " << name);
    return std::string();
  };
  const double params = readSetup(sd15).setup->arch.denoiser.params;
  // SD 1.5's 0.86 B × 4 B = 3.4 GB fit the 1660 Super's 0.88 × 5.81 GiB − 1.2 GiB: fp32 weights, activations, VAE.
  CHECK(component("GTX 1660 Super", sd15, "denoise", "UNet weights") == Approx(4 * params));
  CHECK(component("RTX 2060", sd15, "denoise", "UNet weights") == Approx(2 * params));
  CHECK(component("GTX 1660 Super", sd15, "denoise", "UNet activations") ==
        Approx(2 * component("RTX 2060", sd15, "denoise", "UNet activations")));
  // SDXL's 2.57 B would not: 16-bit weights, fp32 compute.
  const std::string sdxl = replaced(sd15, "v1-5-pruned-emaonly", "sd_xl_base_1.0");
  CHECK_THAT(how("GTX 1660 Super", sdxl, "UNet weights"), Catch::Contains("× 2 B"));
  CHECK(component("GTX 1660 Super", sdxl, "denoise", "UNet activations") ==
        Approx(2 * component("RTX 2060", sdxl, "denoise", "UNet activations")));
  // Pascal (Linux): 16-bit weights, fp32 compute; Wan's VAE, which ComfyUI runs in fp16 on Turing, in fp32.
  CHECK(component("GTX 1070", sd15, "denoise", "UNet weights") == Approx(2 * params));
  CHECK(component("GTX 1070", sd15, "denoise", "UNet activations") ==
        Approx(2 * component("RTX 2060", sd15, "denoise", "UNet activations")));
  const std::string wan = replaced(kWanApi, "wan2.1_t2v_14B_bf16", "wan2.1_t2v_1.3B_bf16");
  CHECK(component("GTX 1070", wan, "vae_decode", "VAE weights") == Approx(2 * component("RTX 2060", wan, "vae_decode", "VAE weights")));
  // text_encoder_device: the encoders run on the CPU there, unless --gpu-only.
  REQUIRE(component("RTX 2060", sd15, "text_encode", "text encoder weights") > 0);
  CHECK(component("GTX 1660 Super", sd15, "text_encode", "text encoder weights") == 0);
  AnalyzeOptions sixteen;
  sixteen.gpu = "GTX 1660 Super";
  const Report gpuOnly = analyze({Input{"workflow.json", sd15}, Input{"run.sh", "python main.py --gpu-only\n"}}, sixteen);
  REQUIRE(gpuOnly.files[0].estimate.has_value());
  CHECK(test::component(test::phase(*gpuOnly.files[0].estimate, "text_encode"), "text encoder weights") > 0);
  // should_use_fp16's own flags: --force-fp16 holds it on any card (16-bit weights and compute, encoders on the GPU),
  // --force-fp32 fails it on any card (the encoders on the CPU).
  const auto launched = [&](const char* gpu, const char* line) {
    AnalyzeOptions options;
    options.gpu = gpu;
    const Report report = analyze({Input{"workflow.json", sd15}, Input{"run.sh", line}}, options);
    REQUIRE(report.files[0].estimate.has_value());
    return *report.files[0].estimate;
  };
  const Estimate forced = launched("GTX 1660 Super", "python main.py --force-fp16\n");
  CHECK(test::component(test::phase(forced, "denoise"), "UNet weights") == Approx(2 * params));
  CHECK(test::component(test::phase(forced, "text_encode"), "text encoder weights") > 0);
  CHECK(test::component(test::phase(launched("RTX 3090", "python main.py --force-fp32\n"), "text_encode"), "text encoder weights") == 0);
  // The loader's chosen dtype is cast to fp32 on the card all the same; a pack's loader picks its own compute dtype.
  const std::string chosen = replaced(replaced(kApi, "flux1-dev", "sd3.5_medium"), R"("weight_dtype": "default")", R"("weight_dtype": "fp16")");
  CHECK_THAT(how("GTX 1660 Super", chosen, "transformer weights"), Catch::Contains("× 2 B"));
  CHECK(component("GTX 1660 Super", chosen, "denoise", "transformer activations") ==
        Approx(2 * component("RTX 2060", chosen, "denoise", "transformer activations")));
  const std::string pack = comfyFixture("wan-wrapper-vace-blockswap-api.json");
  REQUIRE(component("RTX 2060", pack, "denoise", "transformer activations") > 0);
  CHECK(component("GTX 1070", pack, "denoise", "transformer activations") ==
        Approx(component("RTX 2060", pack, "denoise", "transformer activations")));
  // A launch flag chooses the VAE's dtype; an A1111 profile on the same card keeps its own rules.
  AnalyzeOptions pascal;
  pascal.gpu = "GTX 1070";
  const Report flagged = analyze({Input{"workflow.json", wan}, Input{"run.sh", "python main.py --fp16-vae\n"}}, pascal);
  REQUIRE(flagged.files[0].estimate.has_value());
  CHECK(test::component(test::phase(*flagged.files[0].estimate, "vae_decode"), "VAE weights") ==
        Approx(component("RTX 2060", wan, "vae_decode", "VAE weights")));
  const auto profile = [](const char* gpu, const char* tool) {
    AnalyzeOptions options;
    options.gpu = gpu;
    const FileReport report = analyzeInput(
        Input{"profile.yaml", std::string("generation:\n  tool: ") + tool + "\n  model: sd15\n  width: 512\n  height: 512\n"}, options);
    REQUIRE(report.estimate.has_value());
    return test::component(test::phase(*report.estimate, "denoise"), "UNet activations");
  };
  CHECK(profile("GTX 1070", "comfyui") == Approx(2 * profile("RTX 2060", "comfyui")));
  REQUIRE(profile("RTX 2060", "a1111") > 0);
  CHECK(profile("GTX 1070", "a1111") == Approx(profile("RTX 2060", "a1111")));
}

// comfy/controlnet.py asks unet_dtype with model_params -1 and the file's weight dtype: 16 bits for a 16- or 32-bit file
// (as before), its fp8 for an fp8 file, which 16 bits are never said to fit.
TEST_CASE("ComfyUI keeps an fp8 ControlNet file in fp8; a 16-bit one in 16 bits whatever stores the model") {
  const std::string text = comfyFixture("flux-union-pro-controlnet-api.json");
  const std::string fp8 = replaced(text, "FLUX.1-dev-ControlNet-Union-Pro.safetensors", "FLUX.1-dev-ControlNet-Union-Pro-fp8.safetensors");
  // The manager loads the ControlNet with the model: its bytes join the weights' component.
  const auto weights = [](const std::string& workflow) { return test::component(denoiseOn48GiB(workflow), "transformer weights"); };
  const Read r = readSetup(fp8);
  REQUIRE(r.setup->generation.controlnets.size() == 1);
  CHECK(r.setup->generation.controlnets.front().fp8File);
  CHECK_FALSE(readSetup(text).setup->generation.controlnets.front().fp8File);
  CHECK(weights(text) - weights(fp8) == Approx(r.setup->generation.controlnets.front().model->params));
}

TEST_CASE("WanVideoDecode's older releases read its tiles as latent pixels: the range's top is the untiled decode") {
  const std::string text = replaced(comfyFixture("wan-wrapper-vace-blockswap-api.json"), R"("enable_vae_tiling": false)", R"("enable_vae_tiling": true)");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const GenerationSetup& g = r.setup->generation;
  CHECK(g.vaeDecode == VaeDecode::Tiled);
  CHECK(g.decodeUntiledReleases.starts_with("WanVideoWrapper before 0cf1330"));  // 832 / 8 = 104 latent px: under 272
  const FileReport report = analyzeOn("RTX 4090", text);
  const PhaseEstimate& decode = test::phase(*report.estimate, "vae_decode");
  REQUIRE(test::rangeReason(decode, "WanVideoWrapper before 0cf1330") != nullptr);
  // The same setup untiled: the top reaches its decode, the expected figure stays the tiled one.
  GenerationSetup untiled = g;
  untiled.vaeDecode = VaeDecode::Full;
  untiled.decodeOutputBytesPerPixel = g.decodeUntiledOutputBytesPerPixel;
  untiled.decodeUntiledReleases.clear();
  untiled.olderBlockBytesPerTokenChannel = 0;
  const Estimate whole = estimateGeneration(untiled, *knowledge().webui, knowledge().memory, report.estimate->gpu).estimate;
  CHECK(decode.highBytes == Approx(test::phase(whole, "vae_decode").highBytes));
  CHECK(decode.peakBytes < test::phase(whole, "vae_decode").peakBytes);
  // A latent over 272 a side was tiled by those releases too: no such reason.
  const std::string large = replaced(replaced(text, R"("width": 832)", R"("width": 2560)"), R"("height": 480)", R"("height": 1440)");
  CHECK(readSetup(large).setup->generation.decodeUntiledReleases.empty());
}

TEST_CASE("feature caches: TaylorSeer's block outputs per order, WanVideoWrapper's EasyCache output per guidance pass") {
  const std::string flux = comfyFixture("flux-taylorseer-1024-api.json");
  const Read r = readSetup(flux);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->notCosted.empty());
  CHECK(r.setup->generation.cachedTokenMaps == 76 * 3);  // max_order 2: orders 0, 1 and 2
  const FileReport report = analyzeOn("RTX 4090", flux);
  const double tokens = 64 * 64 + 512;  // 1024² in 2×2 patches of the 8× latent, and T5's 512
  const double cache = test::component(test::phase(*report.estimate, "denoise"), "feature cache");
  CHECK(cache == Approx(228 * tokens * 3072 * 2.0));  // cfg 1: one pass
  CHECK(cache / kGiB == Approx(6.0).epsilon(0.01));   // the node's README: "+6 GB" at order 2
  // Order 0 keeps one copy; an unreadable order is the node's default, 2.
  CHECK(readSetup(replaced(flux, "\"max_order\": 2", "\"max_order\": 0")).setup->generation.cachedTokenMaps == 76);
  CHECK(readSetup(replaced(flux, "\"max_order\": 2", "\"max_order\": \"two\"")).setup->generation.cachedTokenMaps == 228);
  // model_type hidream hooks HiDream's 16 double and 32 single blocks: 96 maps of all tokens per order.
  CHECK(readSetup(replaced(flux, "\"model_type\": \"flux\"", "\"model_type\": \"hidream\"")).setup->generation.cachedTokenMaps == 96 * 3);
  // The Lite node keeps the final layer's output alone: known, and nothing worth costing.
  const Read lite = readSetup(replaced(flux, "\"TaylorSeer\"", "\"TaylorSeerLite\""));
  CHECK(lite.setup->notCosted.empty());
  CHECK(lite.setup->generation.cachedTokenMaps == 0);
  // Both move every block onto the GPU at their first step (flux_block_swap with nothing swapped): the whole model is
  // resident, whatever ComfyUI loaded; flux2 (62d9fac) leaves ComfyUI's partial load alone, and a linked
  // block_swap_args keeps blocks in RAM.
  CHECK(r.setup->generation.wholeModelSampler == "TaylorSeer (model_type flux)");
  CHECK(lite.setup->generation.wholeModelSampler == "TaylorSeerLite (model_type flux)");
  CHECK(readSetup(replaced(flux, "\"model_type\": \"flux\"", "\"model_type\": \"flux2\"")).setup->generation.wholeModelSampler.empty());
  std::string swapping = replaced(flux, "\"model_type\": \"flux\",", "\"model_type\": \"flux\", \"block_swap_args\": [\"9\", 0],");
  swapping = replaced(swapping, "\"8\": {", "\"9\": {\"class_type\": \"FluxBlockSwap\", \"inputs\": {\"double_block_swap\": 10, \"single_block_swap\": 20}},\n  \"8\": {");
  const Read swapped = readSetup(swapping);
  CHECK(swapped.setup->generation.wholeModelSampler.empty());
  CHECK(swapped.setup->notCosted.size() == 1);  // the swap node: how many blocks it keeps in RAM is not modelled
  const auto denoiseWeights = [&](const std::string& workflow, const char* gpu) {
    return test::component(test::phase(*analyzeOn(gpu, workflow).estimate, "denoise"), "transformer weights");
  };
  // On an 8 GB card ComfyUI would load part of the 11.9 GB fp8 model; the node moves in all of it.
  CHECK(denoiseWeights(flux, "RTX 3070") == Approx(11.9e9).epsilon(0.01));
  CHECK(denoiseWeights(replaced(flux, "\"model_type\": \"flux\"", "\"model_type\": \"flux2\""), "RTX 3070") < 8.0 * kGiB);
  // The plan's first step bypasses it: in an API workflow a step without an edit, which says why.
  const FileReport apiPlan = analyzeOn("RTX 3060 12GB", flux);
  REQUIRE_FALSE(apiPlan.plan.empty());
  CHECK(apiPlan.plan.front().fix.toJson == "\"bypassed\"");
  CHECK(apiPlan.plan.front().fix.edits.empty());
  CHECK(apiPlan.plan.front().fix.unplaced.find("has no bypass") != std::string::npos);

  // WanVideoWrapper's EasyCache, anywhere in the graph: one output of all tokens per guidance pass (cfg 6, run apart).
  std::string wan = comfyFixture("wan-wrapper-vace-blockswap-api.json");
  wan = replaced(wan, "\"9\": {", "\"20\": {\"class_type\": \"WanVideoEasyCache\", \"inputs\": {\"easycache_thresh\": 0.015}},\n  \"9\": {");
  const Read w = readSetup(wan);
  REQUIRE(w.setup->estimable());
  CHECK(w.setup->notCosted.empty());
  CHECK(w.setup->generation.cachedTokenMaps == 1);
  const FileReport wanReport = analyzeOn("RTX 4090", wan);
  const Denoiser& d = w.setup->arch.denoiser;
  const double videoTokens = static_cast<double>(imageTokens(w.setup->arch, 832, 480, 81) + d.textTokens);
  CHECK(test::component(test::phase(*wanReport.estimate, "denoise"), "feature cache") == Approx(videoTokens * d.hidden * 2.0 * 2));
}

TEST_CASE("a wrapper workflow's unreadable values: no swap from a word, the size's default said, never a crash") {
  std::string text = comfyFixture("wan-wrapper-vace-blockswap-api.json");
  text = replaced(text, "\"blocks_to_swap\": 20", "\"blocks_to_swap\": \"twenty\"");
  text = replaced(text, "\"num_frames\": 81", "\"num_frames\": -5");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  // Only the 4 VACE blocks are swapped; the frames fall back to 1, and the setup says so.
  const double vaceBlock = 3022881792.0 / 8;
  CHECK(r.setup->generation.swappedParams == Approx(3 * vaceBlock));
  CHECK(r.setup->generation.frames == 1);
  REQUIRE(r.setup->unread.size() == 1);
  CHECK(r.setup->unread.front().message.find("num_frames") != std::string::npos);
  CHECK(analyzeOn("RTX 4090", text).estimate->peak().peakBytes > 0);
}

TEST_CASE("HiDream E1's edit image joins the noise along the width, uncounted by ComfyUI's guess; DualCFGGuider runs three conds") {
  const auto named = [](const PhaseEstimate& p, std::string_view name) {
    const auto it = std::find_if(p.components.begin(), p.components.end(), [&](const Component& c) { return c.name == name; });
    REQUIRE(it != p.components.end());
    return *it;
  };
  const std::string text = comfyFixture("hidream-e1-edit-dualcfg-api.json");
  const Read r = readSetup(text);
  REQUIRE(r.setup->estimable());
  const GenerationSetup& g = r.setup->generation;
  // InstructPixToPixConditioning's latent is its image's: ImageScaleToTotalPixels' 1 MP, taken square.
  CHECK(g.width == 1024);
  CHECK(g.height == 1024);
  CHECK(g.concatsLatent);
  CHECK_FALSE(g.imageSizeAssumed);
  CHECK(g.guidanceConds == 3);
  CHECK(r.setup->notCosted.empty());
  // On 48 GiB the three conds run as one batch, each of 4096 image tokens, the edit image's 4096 and the text's:
  // three times what one pass of the plain model at 1024² keeps, scaled by the tokens.
  const Architecture& hidream = *knowledge().architectures.find("hidream");
  const Component act = named(denoiseOn48GiB(text), "transformer activations");
  CHECK_THAT(act.how, Catch::Contains("4096 of them the edit image's") && Catch::Contains("× 3 (batch × guidance passes)"));
  const Component plain = named(denoiseOn48GiB(R"({
  "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "hidream_e1_1_bf16.safetensors", "weight_dtype": "default"}},
  "2": {"class_type": "EmptySD3LatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 1}},
  "3": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "latent_image": ["2", 0], "seed": 1, "steps": 20, "cfg": 1.0,
        "sampler_name": "euler", "scheduler": "simple", "denoise": 1.0}}
})"), "transformer activations");
  const double text_ = hidream.denoiser.textTokens;
  CHECK(act.bytes == Approx(3 * plain.bytes * (2 * 4096.0 + text_) / (4096.0 + text_)));
  // Partly loaded, ComfyUI keeps free its guess at one pass over the noise latent alone (1024²: 0.6 GiB), not the
  // edit image's tokens; its guess at three passes, × 1.5, is over what is left, so the conds run one at a time.
  AnalyzeOptions options;
  options.vramGib = 22;
  const FileReport report = analyzeInput(Input{"workflow.json", text}, options);
  REQUIRE(report.estimate.has_value());
  const PhaseEstimate tight = test::phase(*report.estimate, "denoise");
  CHECK_THAT(named(tight, "transformer weights").how, Catch::Contains("its guess at the work, 0.6 GiB"));
  const Component one = named(tight, "transformer activations");
  CHECK_THAT(one.how, Catch::Contains("the 3 conds one at a time"));
  CHECK(one.bytes == Approx(act.bytes / 3));
  // Without a size upstream (the loaded image straight in), the model's default is taken, and said.
  std::string direct = text;
  direct.replace(direct.find(R"("pixels": ["7", 0])"), 18, R"("pixels": ["6", 0])");
  const Read unsized = readSetup(direct);
  REQUIRE(unsized.setup->estimable());
  CHECK(unsized.setup->generation.imageSizeAssumed);
  CHECK(unsized.setup->generation.width == knowledge().webui->family("hidream")->defaultSize);
  CHECK_THAT(named(denoiseOn48GiB(direct), "transformer activations").how, Catch::Contains("at the model's default size"));
}

TEST_CASE("reference images join the tokens: a ReferenceLatent's image traced to its size, Qwen's edit node its own 1 MP") {
  constexpr double kMegapixel = 1024.0 * 1024.0;
  const std::string flux2 = comfyFixture("flux2-edit-reference-2mp-api.json");
  {
    // LoadImage → ImageScaleToTotalPixels (2.0 MP) → VAEEncode → ReferenceLatent on the guider's conditioning.
    const Read r = readSetup(flux2);
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.referencePixels == 2 * kMegapixel);
    CHECK_FALSE(r.setup->generation.referenceSizeAssumed);
    CHECK(r.setup->notCosted.empty());
    // On 5.5 GiB its activations' range reaches over the card (ComfyUI's FLUX.2 blocks, 36 B per token·channel): the
    // plan scales the reference to 1 megapixel, and fix writes that value alone.
    AnalyzeOptions options;
    options.vramGib = 5.5;
    const FixResult fixed = fixConfig(Input{"flux2-edit.json", flux2}, options);
    REQUIRE(fixed.before.estimate.has_value());
    CHECK(fixed.before.estimate->verdict == Verdict::Borderline);
    REQUIRE(fixed.applied.size() == 1);
    CHECK(fixed.applied.front().fix.path.toString() == "5.inputs.megapixels");
    CHECK(fixed.text.find(R"("megapixels": 1.0})") != std::string::npos);
    const FileReport again = analyzeInput(Input{"flux2-edit.json", fixed.text}, options);
    REQUIRE(again.estimate.has_value());
    CHECK(again.estimate->verdict == Verdict::Fits);
  }
  {
    // Without the scale node the loaded image's size is not in the workflow: the output's is taken, and said.
    std::string direct = flux2;
    direct.replace(direct.find(R"("pixels": ["5", 0])"), 18, R"("pixels": ["4", 0])");
    const Read r = readSetup(direct);
    CHECK(r.setup->generation.referencePixels == 1408.0 * 1408.0);
    CHECK(r.setup->generation.referenceSizeAssumed);
  }
  {
    // A megapixels value that is no size (negative, a word) sets none: the output's is taken and said, and the
    // plan offers no smaller reference.
    for (const std::string bad : {"-2.0", "\"two\""}) {
      std::string unreadable = flux2;
      unreadable.replace(unreadable.find(R"("megapixels": 2.0)"), 17, R"("megapixels": )" + bad);
      const Read r = readSetup(unreadable);
      REQUIRE(r.setup->estimable());
      CHECK(r.setup->generation.referencePixels == 1408.0 * 1408.0);
      CHECK(r.setup->generation.referenceSizeAssumed);
      AnalyzeOptions options;
      options.vramGib = 6;
      const FixResult fixed = fixConfig(Input{"flux2-edit.json", unreadable}, options);
      CHECK(std::none_of(fixed.applied.begin(), fixed.applied.end(), [](const PlanStep& s) { return s.fix.path.toString() == "5.inputs.megapixels"; }));
    }
  }
  {
    // A ReferenceLatent without a latent adds nothing to the conditioning (comfy_extras/nodes_edit_model.py).
    std::string unlinked = flux2;
    unlinked.replace(unlinked.find(R"(, "latent": ["7", 0])"), 20, "");
    const Read r = readSetup(unlinked);
    REQUIRE(r.setup->estimable());
    CHECK(r.setup->generation.referencePixels == 0);
  }
  // Qwen-Image Edit's encode node scales each image input to 1024² pixels and encodes it, given a VAE.
  const std::string qwen = R"({
  "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "qwen_image_edit_2509_fp8_e4m3fn.safetensors", "weight_dtype": "default"}},
  "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "qwen_2.5_vl_7b_fp8_scaled.safetensors", "type": "qwen_image"}},
  "3": {"class_type": "VAELoader", "inputs": {"vae_name": "qwen_image_vae.safetensors"}},
  "4": {"class_type": "LoadImage", "inputs": {"image": "a.png"}},
  "5": {"class_type": "LoadImage", "inputs": {"image": "b.png"}},
  "6": {"class_type": "TextEncodeQwenImageEditPlus", "inputs": {"clip": ["2", 0], "vae": ["3", 0], "image1": ["4", 0], "image2": ["5", 0], "prompt": "both cats on one sofa"}},
  "7": {"class_type": "TextEncodeQwenImageEditPlus", "inputs": {"clip": ["2", 0], "prompt": ""}},
  "8": {"class_type": "EmptySD3LatentImage", "inputs": {"width": 1024, "height": 1024, "batch_size": 1}},
  "9": {"class_type": "KSampler", "inputs": {"model": ["1", 0], "positive": ["6", 0], "negative": ["7", 0], "latent_image": ["8", 0],
        "seed": 1, "steps": 20, "cfg": 2.5, "sampler_name": "euler", "scheduler": "simple", "denoise": 1}},
  "10": {"class_type": "VAEDecode", "inputs": {"samples": ["9", 0], "vae": ["3", 0]}}
})";
  const Read r = readSetup(qwen);
  REQUIRE(r.setup->estimable());
  CHECK(r.setup->generation.referencePixels == 2 * kMegapixel);
  // Those 2 × 4096 latent tokens (16 px per token side) are in the activations' count.
  const FileReport report = analyzeInput(Input{"qwen.json", qwen}, {});
  REQUIRE(report.estimate.has_value());
  const auto& denoise = test::phase(*report.estimate, "denoise");
  const auto act = std::find_if(denoise.components.begin(), denoise.components.end(), [](const Component& c) { return c.name == "transformer activations"; });
  REQUIRE(act != denoise.components.end());
  CHECK(act->how.find("8192 of them the reference images'") != std::string::npos);
}

TEST_CASE("LTX-2's audio and video latents joined for the sampler are one packed latent, whose channels ComfyUI's guess counts") {
  std::string api = R"({
  "1": {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": "ltx-2-19b-distilled.safetensors"}},
  "2": {"class_type": "LTXAVTextEncoderLoader", "inputs": {"text_encoder": "gemma_3_12B_it_fp4_mixed.safetensors", "ckpt_name": "ltx-2-19b-distilled.safetensors", "device": "default"}},
  "3": {"class_type": "CLIPTextEncode", "inputs": {"clip": ["2", 0], "text": "rain on a tin roof"}},
  "4": {"class_type": "EmptyLTXVLatentVideo", "inputs": {"width": 768, "height": 512, "length": 121, "batch_size": 1}},
  "5": {"class_type": "LTXVEmptyLatentAudio", "inputs": {"frames_number": 121, "frame_rate": 25, "batch_size": 1}},
  "6": {"class_type": "LTXVConcatAVLatent", "inputs": {"video_latent": ["4", 0], "audio_latent": ["5", 0]}},
  "7": {"class_type": "CFGGuider", "inputs": {"model": ["1", 0], "positive": ["3", 0], "negative": ["3", 0], "cfg": 1.0}},
  "8": {"class_type": "KSamplerSelect", "inputs": {"sampler_name": "euler"}},
  "9": {"class_type": "RandomNoise", "inputs": {"noise_seed": 1}},
  "10": {"class_type": "ManualSigmas", "inputs": {"sigmas": "1., 0.5, 0.0"}},
  "11": {"class_type": "SamplerCustomAdvanced", "inputs": {"noise": ["9", 0], "guider": ["7", 0], "sampler": ["8", 0], "sigmas": ["10", 0], "latent_image": ["6", 0]}},
  "12": {"class_type": "VAEDecode", "inputs": {"samples": ["11", 0], "vae": ["1", 2]}}
})";
  const Read packed = readSetup(api);
  REQUIRE(packed.setup->estimable());
  CHECK(packed.setup->latent == packed.workflow.find("4"));
  CHECK(packed.setup->generation.packedLatent);
  // The video latent straight into the sampler: nothing packed.
  api.replace(api.find(R"("latent_image": ["6", 0])"), 24, R"("latent_image": ["4", 0])");
  const Read video = readSetup(api);
  REQUIRE(video.setup->estimable());
  CHECK_FALSE(video.setup->generation.packedLatent);
}

TEST_CASE("a ComfyUI launch line given with the workflow: its flags in the estimate, none of its own; A1111's is not ComfyUI's") {
  const Input workflow{"wan.json", kWanApi};
  AnalyzeOptions options;
  options.vramGib = 24;
  const auto estimateWith = [&](const std::string& path, const std::string& launch) {
    const Report report = analyze({workflow, Input{path, launch}}, options);
    REQUIRE(report.files.size() == 2);
    REQUIRE(report.files[0].estimate.has_value());
    return report;
  };
  const FileReport alone = analyzeInput(workflow, options);
  REQUIRE(alone.estimate.has_value());
  CHECK(alone.estimate->assumes.find("ComfyUI's defaults") != std::string::npos);
  const double aloneDenoise = test::phase(*alone.estimate, "denoise").peakBytes;
  const double aloneEncode = test::phase(*alone.estimate, "text_encode").peakBytes;

  // --novram: the weights stream block by block; the launch line's own report has no estimate of a default model.
  const Report novram = estimateWith("run.sh", "python main.py --novram\n");
  const Estimate& streamed = *novram.files[0].estimate;
  CHECK(streamed.assumes.ends_with("; ComfyUI launched with --novram (run.sh)"));
  CHECK(test::component(test::phase(streamed, "denoise"), "streamed block") > 0);
  CHECK(test::phase(streamed, "denoise").peakBytes < aloneDenoise);
  CHECK_FALSE(novram.files[1].estimate.has_value());
  CHECK(novram.files[1].diagnostics.empty());
  // The plan does not advise the flag the line already has.
  for (const auto& step : novram.files[0].plan) CHECK(step.fix.toJson.find("--novram") == std::string::npos);

  // The portable build's batch file, its flags after the script: --lowvram runs the text encoders on the CPU.
  const Report portable =
      estimateWith("run_nvidia_gpu.bat", ".\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --lowvram\r\npause\r\n");
  CHECK(portable.files[0].estimate->assumes.find("--lowvram (run_nvidia_gpu.bat)") != std::string::npos);
  CHECK(test::phase(*portable.files[0].estimate, "text_encode").peakBytes < aloneEncode);

  // A1111's launch line is no ComfyUI's: the workflow keeps ComfyUI's defaults, the line its own estimate.
  const Report a1111 = estimateWith("webui-user.sh", "./webui.sh --medvram --xformers\n");
  CHECK(a1111.files[0].estimate->assumes.find("ComfyUI's defaults") != std::string::npos);
  CHECK(test::phase(*a1111.files[0].estimate, "denoise").peakBytes == aloneDenoise);
  CHECK(a1111.files[1].estimate.has_value());

  // Workflows with their one launch line are a job, each run under it; a call that mixes in other kinds (a folder of
  // configs and logs checked at once) is no ComfyUI job, and the line is estimated on its own.
  const Report two = analyze({workflow, Input{"wan-2.json", kWanApi}, Input{"run.sh", "python main.py --novram\n"}}, options);
  REQUIRE(two.files.size() == 3);
  for (std::size_t i : {0u, 1u}) CHECK(two.files[i].estimate->assumes.find("--novram") != std::string::npos);
  const Report mixed = analyze({workflow, Input{"run.sh", "python main.py --novram\n"}, Input{"job.yaml", "job: extension\n"}}, options);
  CHECK(mixed.files[0].estimate->assumes.find("ComfyUI's defaults") != std::string::npos);
  CHECK(mixed.files[1].estimate.has_value());

  // A flag value the line gets wrong is the line's finding (OL706, at its range); the workflow keeps ComfyUI's reserve.
  const Report bad = estimateWith("run.sh", "python main.py --reserve-vram lots\n");
  CHECK(bad.files[0].estimate->assumes.ends_with("ComfyUI launched with --reserve-vram lots (run.sh)"));
  CHECK(test::phase(*bad.files[0].estimate, "denoise").peakBytes == aloneDenoise);
  CHECK(std::any_of(bad.files[1].diagnostics.begin(), bad.files[1].diagnostics.end(),
                    [](const Diagnostic& d) { return d.code == "OL706" && d.range.start.line == 1; }));
}

TEST_CASE("a workflow checked with ComfyUI's log of its run: the log's card and memory mode, unless a launch line says more") {
  const std::string log =
      "Total VRAM 12282 MB, total RAM 32637 MB\n"
      "Set vram state to: NO_VRAM\n"
      "got prompt\n"
      "Requested to load WAN21\n"
      "!!! Exception during processing !!! Allocation on device \n";
  const Report report = analyzeWithLog(Input{"wan.json", kWanApi}, Input{"comfy.log", log});
  REQUIRE(report.files.size() == 2);
  const FileReport& workflow = report.files[1];
  REQUIRE(workflow.estimate.has_value());
  CHECK(workflow.gpuGiven);
  CHECK(workflow.estimate->gpu.vramBytes == 12282ull << 20);
  CHECK(workflow.estimate->assumes.ends_with("; ComfyUI launched with --novram (its log: Set vram state to: NO_VRAM)"));
  CHECK(workflow.estimate->assumes.starts_with("ComfyUI's memory manager at "));
  CHECK(test::component(test::phase(*workflow.estimate, "denoise"), "streamed block") > 0);
  REQUIRE(workflow.log.has_value());

  // A card the user names beats the log's; the mode still comes from the log.
  AnalyzeOptions options;
  options.vramGib = 24;
  const Report named = analyzeWithLog(Input{"wan.json", kWanApi}, Input{"comfy.log", log}, options);
  CHECK(named.files[1].estimate->gpu.vramBytes == 24ull << 30);
  CHECK(named.files[1].estimate->assumes.find("--novram") != std::string::npos);
}

TEST_CASE("a workflow far under the card its log ran out on: the GPU's state or another workflow (OL607)") {
  const std::string api = comfyFixture("sd15-2048-decode-retried-api.json");
  const auto findingsWith = [&](const std::string& stage, const std::string& card) {
    const std::string log = "Total VRAM " + card + " MB, total RAM 65373 MB\n"
                            "Set vram state to: NORMAL_VRAM\n"
                            "got prompt\n"
                            "Requested to load " + stage + "\n"
                            "loaded completely; 20000.00 MB usable, 1639.41 MB loaded, full load: True\n"
                            "  0%|          | 0/20 [00:00<?, ?it/s]\n"
                            "!!! Exception during processing !!! Allocation on device \n";
    const Report report = analyzeWithLog(Input{"sd15.json", api}, Input{"comfy.log", log});
    REQUIRE(report.files.size() == 2);
    std::vector<std::string> messages;
    for (const auto& d : report.files[1].diagnostics) {
      if (d.code == "OL607") messages.push_back(d.message);
    }
    return messages;
  };
  // SD 1.5 on a 24 GB card that ran out sampling: nothing in the workflow comes near it.
  const auto far = findingsWith("BaseModel", "24564");
  REQUIRE(far.size() == 1);
  CHECK(far[0].find("this workflow's denoise is estimated at") != std::string::npos);
  // On 4 GB the same run is the workflow's own doing: no disagreement.
  CHECK(findingsWith("BaseModel", "4096").empty());
}

TEST_CASE("ComfyUI's dynamic VRAM, when its launch line or log says so: no weights held for the work, encoders on the GPU") {
  const Input workflow{"wan.json", kWanApi};
  AnalyzeOptions options;
  options.vramGib = 12;
  const FileReport legacy = analyzeInput(workflow, options);
  REQUIRE(legacy.estimate.has_value());
  const Report dynamic = analyze({workflow, Input{"run.sh", "python main.py --lowvram --enable-dynamic-vram\n"}}, options);
  const Estimate& e = *dynamic.files[0].estimate;
  CHECK(e.assumes.ends_with("ComfyUI launched with --lowvram --enable-dynamic-vram (run.sh)"));
  const PhaseEstimate& denoise = test::phase(e, "denoise");
  CHECK(test::component(denoise, "streamed block") > 0);
  CHECK(test::component(denoise, "transformer weights") == 0);  // none held for the work; the rest is an evictable cache
  // --lowvram does nothing under dynamic VRAM: the encoders run on the GPU as without it.
  CHECK(test::phase(e, "text_encode").peakBytes == test::phase(*legacy.estimate, "text_encode").peakBytes);
  // The plan advises no launch flag: the mode flags would switch dynamic VRAM off, --lowvram does nothing.
  for (const auto& step : dynamic.files[0].plan) CHECK(step.fix.path.toString() != "args");

  // The log of a run with it on ("DynamicVRAM support detected and enabled") gives the same.
  const std::string log =
      "Total VRAM 12282 MB, total RAM 32637 MB\n"
      "Set vram state to: NORMAL_VRAM\n"
      "DynamicVRAM support detected and enabled\n"
      "got prompt\n"
      "Requested to load WAN21\n";
  const Report logged = analyzeWithLog(workflow, Input{"comfy.log", log});
  REQUIRE(logged.files[1].estimate.has_value());
  CHECK(logged.files[1].estimate->assumes.ends_with("ComfyUI launched with --enable-dynamic-vram (its log: Set vram state to: NORMAL_VRAM)"));
  CHECK(test::component(test::phase(*logged.files[1].estimate, "denoise"), "streamed block") > 0);
}

TEST_CASE("the release that saved a workflow's core nodes: dynamic VRAM from v0.16.0 on NVIDIA, unless a flag or the log says otherwise",
          "[shared]") {
  OOMLINT_REQUIRE_SHARED();
  const std::string saved = test::readFile(test::sharedDir() / "corpus/comfyui/flux-dev-fp16-unet-ui__flux_dev_full_text_to_image.json");
  REQUIRE(saved.find(R"("ver":"0.3.40")") != std::string::npos);
  // Every core node's `ver` written as the JSON value given.
  const auto withVer = [&](const std::string& json) {
    std::string text = saved;
    const std::string from = R"("ver":"0.3.40")", to = "\"ver\":" + json;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
    return text;
  };
  const auto savedBy = [&](const std::string& release) { return withVer("\"" + release + "\""); };
  const auto run = [](const std::string& workflow, const std::string& gpu, const std::string& launch = "") {
    AnalyzeOptions options;
    options.gpu = gpu;
    std::vector<Input> inputs{Input{"flux.json", workflow}};
    if (!launch.empty()) inputs.push_back(Input{"run.sh", launch});
    Report report = analyze(inputs, options);
    REQUIRE(report.files[0].estimate.has_value());
    return *report.files[0].estimate;
  };
  const auto streamed = [](const Estimate& e) { return test::component(test::phase(e, "denoise"), "streamed block") > 0; };
  const auto dynamic = [](const Estimate& e) { return e.assumes.starts_with("ComfyUI's dynamic VRAM (comfy-aimdo)"); };

  // Saved by 0.3.40: the older manager, which the estimate says it follows.
  const Estimate old = run(saved, "RTX 3060 12GB");
  CHECK_FALSE(streamed(old));
  CHECK_FALSE(dynamic(old));
  CHECK(old.assumes.find("as before v0.16.0 or with --disable-dynamic-vram; its core nodes saved by ComfyUI 0.3.40;") != std::string::npos);
  // The newest node counts: one node saved by 0.16.4 among 0.3.40's makes it a 0.16.4 workflow.
  const std::string mixed = replaced(saved, R"("ver":"0.3.40")", R"("ver":"0.16.4")");
  REQUIRE(mixed != saved);
  CHECK(streamed(run(mixed, "RTX 3060 12GB")));
  // A `ver` that is no release (a commit, a suffix, a number, an object) names none: the estimate assumes no release.
  for (const std::string& ver : {std::string(R"("5dcda71011870278c35d92ff77a677ed2e538f2d")"), std::string(R"("0.16.4rc1")"),
                                 std::string("16"), std::string(R"({"v":"0.16.4"})")}) {
    INFO(ver);
    const Estimate unnamed = run(withVer(ver), "RTX 3060 12GB");
    CHECK_FALSE(dynamic(unnamed));
    CHECK(unnamed.assumes.find("saved by ComfyUI") == std::string::npos);
  }

  const Estimate current = run(savedBy("0.16.4"), "RTX 3060 12GB");
  CHECK(streamed(current));
  CHECK(dynamic(current));
  CHECK(current.assumes.find("; its core nodes saved by ComfyUI 0.16.4;") != std::string::npos);
  CHECK(current.assumes.ends_with("ComfyUI's defaults (no launch flags: give its launch line with the workflow for them)"));
  // A flag that chooses the older manager, and a card dynamic VRAM is not the default on.
  for (const char* line : {"python main.py --disable-dynamic-vram\n", "python main.py --novram\n", "python main.py --highvram\n"}) {
    INFO(line);
    CHECK_FALSE(dynamic(run(savedBy("0.16.4"), "RTX 3060 12GB", line)));
  }
  CHECK_FALSE(dynamic(run(savedBy("0.16.4"), "RX 7900 XTX")));
  // --lowvram leaves dynamic VRAM on; it keeps the text encoders on the CPU only before v0.16.4.
  const Estimate lowvram1603 = run(savedBy("0.16.3"), "RTX 3060 12GB", "python main.py --lowvram\n");
  const Estimate lowvram1604 = run(savedBy("0.16.4"), "RTX 3060 12GB", "python main.py --lowvram\n");
  CHECK(streamed(lowvram1603));
  CHECK(test::phase(lowvram1603, "text_encode").peakBytes < test::phase(lowvram1604, "text_encode").peakBytes);
  CHECK(test::phase(lowvram1604, "text_encode").peakBytes == test::phase(current, "text_encode").peakBytes);

  // A log's start-up lines say which manager ran: no "DynamicVRAM support detected" line, the older one.
  const std::string log =
      "Total VRAM 12282 MB, total RAM 32637 MB\n"
      "Set vram state to: NORMAL_VRAM\n"
      "got prompt\n";
  const Report logged = analyzeWithLog(Input{"flux.json", savedBy("0.16.4")}, Input{"comfy.log", log});
  REQUIRE(logged.files[1].estimate.has_value());
  CHECK_FALSE(dynamic(*logged.files[1].estimate));
  // The release a log printed is the one that ran: with a launch line giving the flags, it decides the default.
  const auto withLaunchAndLog = [&](const std::string& ran) {
    AnalyzeOptions options;
    options.gpu = "RTX 3060 12GB";
    options.attachedLog = analyzeLog("ComfyUI version: " + ran + "\ngot prompt\nRequested to load Flux\n");
    Report report = analyze({Input{"flux.json", saved}, Input{"run.sh", "python main.py --reserve-vram 1\n"}}, options);
    REQUIRE(report.files[0].estimate.has_value());
    return *report.files[0].estimate;
  };
  const Estimate ran = withLaunchAndLog("0.16.4");
  CHECK(dynamic(ran));
  CHECK(ran.assumes.find("; ComfyUI 0.16.4 ran it (its log);") != std::string::npos);
  CHECK_FALSE(dynamic(withLaunchAndLog("0.15.1")));
}

TEST_CASE("ComfyUI's own Wan block sets the sampling's activations; a wrapper's sampler keeps the census block") {
  const FileReport native = analyzeOn("RTX 4090", kWanApi);
  REQUIRE(native.estimate.has_value());
  const auto how = [](const PhaseEstimate& p) {
    for (const auto& c : p.components) {
      if (c.name == "transformer activations") return c.how;
    }
    return std::string();
  };
  CHECK_THAT(how(test::phase(*native.estimate, "denoise")), Catch::Contains("× 18 B"));
  const FileReport wrapper = analyzeOn("RTX 4090", comfyFixture("wan-wrapper-vace-blockswap-api.json"));
  REQUIRE(wrapper.estimate.has_value());
  CHECK_THAT(how(test::phase(*wrapper.estimate, "denoise")), Catch::Contains("× 25 B"));
}

TEST_CASE("ComfyUI's own Qwen-Image block: 26 B per token·channel, the older block's 30 the range's top until v0.3.69", "[shared]") {
  // tests/census/comfyui_qwen.json: the block at edee33f peaks at the joint q's fp32 rotation (26 B per token·channel);
  // before 1c7eaeca (#10725, first in v0.3.69) its frame kept the normed and modulated inputs and both attention
  // outputs, and the image FFN peaked beside them (30). The template's 1280×720: 80 × 45 image tokens beside 512 of
  // text, cond and uncond one after the other.
  OOMLINT_REQUIRE_SHARED();
  const std::string saved = test::readFile(test::sharedDir() / "corpus/comfyui/qwen-image-fp8-ui__image_qwen_image.json");
  REQUIRE(saved.find(R"("ver":"0.3.49")") != std::string::npos);  // the release that saved it, before the clean-up
  const double tokens = 80 * 45 + 512;
  const PhaseEstimate older = denoiseOn48GiB(saved);
  CHECK(test::component(older, "transformer activations") == Approx(tokens * 3072 * 26 * 2));
  const auto* heavier = test::rangeReason(older, "1c7eaeca");
  REQUIRE(heavier != nullptr);
  CHECK(heavier->aboveBytes > 0);

  std::string current = saved;
  for (std::size_t at; (at = current.find(R"("ver":"0.3.4)")) != std::string::npos;) current.replace(at, 14, R"("ver":"0.3.69")");  // "ver":"0.3.48" and "0.3.49"
  const PhaseEstimate lighter = denoiseOn48GiB(current);
  CHECK(test::component(lighter, "transformer activations") == Approx(tokens * 3072 * 26 * 2));
  CHECK(test::rangeReason(lighter, "1c7eaeca") == nullptr);
  CHECK(lighter.highBytes < older.highBytes);
}

TEST_CASE("ComfyUI's own LTX-2 block: older releases were heavier only under a noise mask (per-token timesteps)") {
  // tests/census/comfyui_ltx2.json: the block from v0.31.0 holds 28.41 B per token·channel; before 55bd606e (#12046,
  // first in v0.11.0) v0.8 kept a timestep embedding per token through every block when a noise mask was set
  // (image-to-video, guides): 55.35. Text-to-video embeds one timestep: no older block is heavier.
  const std::string textToVideo = comfyFixture("ltx2-two-pass-latent-upsampler-api.json");
  REQUIRE(textToVideo.find("LTXVImgToVideo") == std::string::npos);
  const std::string imageToVideo = textToVideo.substr(0, textToVideo.rfind('}')) +
                                   R"(, "99": {"class_type": "LTXVImgToVideoInplace", "inputs": {"strength": 1.0, "bypass": false}}})";
  const PhaseEstimate unmasked = denoiseOn48GiB(textToVideo);
  CHECK(test::rangeReason(unmasked, "55bd606e") == nullptr);
  const PhaseEstimate masked = denoiseOn48GiB(imageToVideo);
  const auto* heavier = test::rangeReason(masked, "55bd606e");
  REQUIRE(heavier != nullptr);
  CHECK(heavier->aboveBytes > 0);
  CHECK(masked.highBytes > unmasked.highBytes);
  CHECK(test::component(masked, "transformer activations") == Approx(test::component(unmasked, "transformer activations")));
}

TEST_CASE("ComfyUI on an Intel GPU: PyTorch attention runs the math kernel, float32 scores and their softmax live together") {
  // Comfy-Org/ComfyUI#8767's job (SD 3.5 Large fp8 at 1024², cond and uncond batched) on the card it ran out on.
  const std::string text = fieldWorkflow("sd35_large_fp8_1024_arc_a770_xpu_cui8767.json");
  const auto check = [&](const std::string& gpu, const std::string& launch) {
    AnalyzeOptions options;
    options.gpu = gpu;
    std::vector<Input> inputs{Input{"sd35.json", text}};
    if (!launch.empty()) inputs.push_back(Input{"run.sh", "python main.py " + launch + "\n"});
    const Report report = analyze(inputs, options);
    REQUIRE(report.files.front().estimate.has_value());
    const Estimate& e = *report.files.front().estimate;
    return std::make_pair(e.verdict, test::component(test::phase(e, "denoise"), "attention scores"));
  };
  const Denoiser& d = knowledge().architectures.find("sd3")->denoiser;
  const double tokens = 64.0 * 64.0 + d.textTokens;  // 1024² through the VAE's 8 and the patch's 2, and the joint text
  const auto [arcVerdict, arcScores] = check("Intel Arc A770", "");
  CHECK(arcScores == Approx(2.0 * 2 * d.heads * tokens * tokens * 4));  // scores + softmax × cond, uncond × heads × tokens² × fp32
  CHECK(arcVerdict == Verdict::Oom);
  // An NVIDIA card of the same size: the memory-efficient kernel materialises nothing, and the job fits.
  const auto [nvidiaVerdict, nvidiaScores] = check("RTX 4080", "");
  CHECK(nvidiaScores == 0);
  CHECK(nvidiaVerdict != Verdict::Oom);
  // An attention flag on the launch line still decides: ComfyUI's split attention slices to the free memory.
  const auto [splitVerdict, splitScores] = check("Intel Arc A770", "--use-split-cross-attention");
  CHECK(splitScores < arcScores);
}

TEST_CASE("ComfyUI off NVIDIA loads at least 40% of the free memory in weights, whatever its guess at the work keeps free") {
  // Wan 2.1 I2V 14B at 1280×720×81: ComfyUI's guess at the work is most of a 16 GB card.
  const std::string text = fieldWorkflow("wan21_i2v14b_720p_native_1280x720x81_2080ti22g_wvw276.json");
  const Gpu& radeon = *knowledge().gpus.find("RX 7800 XT");
  AnalyzeOptions bySize;  // a card given by its size is taken for NVIDIA's
  bySize.vramGib = static_cast<double>(radeon.linuxBytes) / (1024.0 * 1024.0 * 1024.0);
  const FileReport sized = analyzeInput(Input{"wan.json", text}, bySize);
  REQUIRE(sized.estimate.has_value());
  const PhaseEstimate nvidia = test::phase(*sized.estimate, "denoise");
  const PhaseEstimate amd = denoiseOnCard(text, radeon.name);
  const WebUiKnowledge& w = *knowledge().webui;
  const double free = static_cast<double>(radeon.linuxBytes) - test::component(amd, "CUDA context and display");
  const double least = std::min(w.comfyMinWeightShareOffNvidia * free, free - w.comfyInferenceBytes - w.comfyReserveBytes);
  CHECK(test::component(nvidia, "transformer weights") < least);
  CHECK(test::component(amd, "transformer weights") == Approx(least));
  CHECK(amd.peakBytes > nvidia.peakBytes);
}

TEST_CASE("ComfyUI on AMD: PyTorch attention on the targets it lists, the sub-quadratic one elsewhere, and its guess at the work by it") {
  const std::string text = fieldWorkflow("wan21_i2v14b_720p_native_1280x720x81_2080ti22g_wvw276.json");
  // ComfyUI's guess at the sampler's work, as the weights' text gives it.
  const auto guessOn = [&](const std::string& gpu) {
    for (const Component& c : denoiseOnCard(text, gpu).components) {
      const std::size_t at = c.how.find("its guess at the work (");
      if (c.name == "transformer weights" && at != std::string::npos) return std::stod(c.how.substr(at + 23));
    }
    FAIL("no guess in the weights' text");
    return 0.0;
  };
  CHECK(knowledge().gpus.find("RX 7800 XT")->arch == "gfx1101");  // on comfy_amd_attention's list
  CHECK(knowledge().gpus.find("RX 6800 XT")->arch == "gfx1030");  // not on it
  // PyTorch attention's guess counts the compute dtype's 2 B × 0.01 MiB per latent pixel, sub-quadratic's 0.15 MiB.
  CHECK(guessOn("RX 6800 XT") == Approx(guessOn("RX 7800 XT") * 0.15 / 0.02).epsilon(0.01));
}

TEST_CASE("ComfyUI on gfx1151: PyTorch's ROCm build runs the math kernel, float32 scores") {
  // Comfy-Org/ComfyUI#9801's job on gfx1151 (a Strix Halo): its log's one score matrix, 12 heads × 32760² × 4 B.
  const std::string text = fieldWorkflow("wan21_t2v13b_fp16_832x480x81_8060s_64g_cui9801.json");
  const auto scoresOn = [&](const std::string& gpu) { return test::component(denoiseOnCard(text, gpu), "attention scores"); };
  const double heads = 12;  // Wan 2.1 1.3B: 12 heads × 128 = 1536
  const double tokens = (832.0 / 16) * (480.0 / 16) * ((81 - 1) / 4 + 1);
  const double matrix = heads * tokens * tokens * 4;
  CHECK(matrix / (1024.0 * 1024 * 1024) == Approx(47.98).epsilon(0.001));
  CHECK(knowledge().gpus.find("Radeon 8060S")->arch == "gfx1151");
  const double scores = scoresOn("Radeon 8060S");
  CHECK(scores >= 2 * matrix);  // the scores and their softmax, for each guidance pass run together
  CHECK(std::fmod(scores / (2 * matrix), 1.0) == Approx(0.0).margin(1e-9));
  CHECK(scoresOn("RX 7900 XTX") == 0);  // gfx1100: a fused kernel, nothing materialised
}

TEST_CASE("a named card with its memory given: the catalog's kind, the memory as given") {
  // An APU's carve-out is the user's BIOS setting: the same job on gfx1151 at 64 GiB runs SDPA's math kernel all the
  // same, where the size alone would be taken for an NVIDIA card's with a fused kernel.
  const std::string text = fieldWorkflow("wan21_t2v13b_fp16_832x480x81_8060s_64g_cui9801.json");
  AnalyzeOptions named;
  named.gpu = "Radeon 8060S";
  named.vramGib = 64;
  const std::optional<GpuTarget> card = resolveGpu(named);
  REQUIRE(card);
  CHECK(card->arch == "gfx1151");
  CHECK(card->vendor == "amd");
  CHECK(card->vramBytes == 64ull << 30);
  CHECK(card->describe() == "Strix Halo 128GB (64.0 GiB, as given)");
  const FileReport onApu = analyzeInput(Input{"workflow.json", text}, named);
  REQUIRE(onApu.estimate.has_value());
  CHECK(onApu.estimate->verdict == Verdict::Oom);

  AnalyzeOptions sized;
  sized.vramGib = 64;
  const FileReport bySize = analyzeInput(Input{"workflow.json", text}, sized);
  REQUIRE(bySize.estimate.has_value());
  CHECK(bySize.estimate->verdict == Verdict::Fits);
}

TEST_CASE("ComfyUI under --highvram or --gpu-only: every diffusion model loaded stays on the GPU") {
  // Wan 2.2 A14B's two experts, each run by its own sampler (fishmongr/ComfyUI's 5090 report: --normalvram ran,
  // --highvram ran out of memory while sampling). unet_offload_device is the GPU under HIGH_VRAM, so sending the first
  // expert "off" for the second leaves it where it is.
  const std::string text = fieldWorkflow("wan22_i2v14b_fp8_4steplora_832x1216x81_5090_highvram_fmfork.json");
  AnalyzeOptions options;
  options.gpu = "RTX 5090";
  const auto launched = [&](const char* line) {
    const Report report = analyze({Input{"workflow.json", text}, Input{"run.sh", line}}, options);
    REQUIRE(report.files[0].estimate.has_value());
    return *report.files[0].estimate;
  };
  const Estimate normal = launched("python main.py --normalvram\n");
  const Estimate high = launched("python main.py --highvram\n");
  // The plan drops the flag before any other mode flag, which would replace it: ComfyUI takes one of its VRAM modes.
  const Report highReport = analyze({Input{"workflow.json", text}, Input{"run.sh", "python main.py --highvram\n"}}, options);
  const auto& plan = highReport.files[0].plan;
  const auto drop = std::find_if(plan.begin(), plan.end(), [](const PlanStep& p) { return p.fix.fromJson == "\"--highvram\""; });
  REQUIRE(drop != plan.end());
  CHECK(drop->needed);
  CHECK(drop->fix.toJson == "\"\"");
  CHECK(drop->fix.unplaced == "a launch flag: start ComfyUI without --highvram (a workflow has no place for it)");
  for (const PlanStep& p : plan) {
    if (p.fix.path.toString() == "args") CHECK(p.fix.fromJson == "\"--highvram\"");  // replaced, never added beside it
  }
  const Estimate gpuOnly = launched("python main.py --gpu-only\n");
  const double expert = test::component(test::phase(high, "denoise"), "transformer weights");
  CHECK(expert == Approx(14.29e9).epsilon(0.01));  // 14.29 B params in fp8
  CHECK(test::component(test::phase(high, "denoise"), "other diffusion model weights") == Approx(expert));
  CHECK(test::component(test::phase(normal, "denoise"), "other diffusion model weights") == 0);
  CHECK(high.verdict == Verdict::Oom);
  CHECK(normal.verdict == Verdict::Fits);
  // The decode runs beside both; --gpu-only keeps the text encoder there too.
  CHECK(test::component(test::phase(high, "vae_decode"), "transformer weights") == Approx(expert));
  CHECK(test::component(test::phase(high, "vae_decode"), "text encoder weights") == 0);
  CHECK(test::component(test::phase(gpuOnly, "vae_decode"), "text encoder weights") > 0);
  CHECK(test::component(test::phase(normal, "vae_decode"), "transformer weights") == 0);
}
