// OL303 guidance-conflict, OL401 dtype-defaults-to-fp32, OL403 sampler-mismatch, OL414 optimizer-overrides-lr,
// OL419 ema-never-built.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {

void checkTraining(const AitkCheckContext& c, Findings& findings) {
  const TrainerProcess& p = c.process;
  const Section& t = p.train;
  if (t.flag("bypass_guidance_embedding") && t.flag("do_guidance_loss")) {
    findings.report(RuleId::OL303, t.keyRange("do_guidance_loss"), t.pathOf("do_guidance_loss"),
                    "AI Toolkit raises \"Cannot bypass guidance embedding and do guidance loss at the same time\"; set "
                    "bypass_guidance_embedding or do_guidance_loss to false");
  }

  if (!t.has("dtype")) {
    findings.report(RuleId::OL401, t.present() ? t.anchorRange() : p.typeRange, t.pathOf("dtype"),
                    "train.dtype is not set, so AI Toolkit trains and loads the model in fp32 (its default, forced into "
                    "model.dtype too): twice the weight memory of bf16; add dtype: bf16",
                    std::nullopt, Fix{t.pathOf("dtype"), "null", "\"bf16\""});
  }

  if (p.sample.present() && !t.flag("disable_sampling") && (p.sample.has("sampler") || t.has("noise_scheduler"))) {
    const std::string sampler = lowercase(p.sample.string("sampler"));
    const std::string scheduler = lowercase(t.string("noise_scheduler"));
    if (!sampler.empty() && !scheduler.empty() && sampler != scheduler) {
      const bool atSampler = p.sample.has("sampler");
      findings.report(RuleId::OL403, atSampler ? p.sample.valueRange("sampler") : t.valueRange("noise_scheduler"),
                      atSampler ? p.sample.pathOf("sampler") : t.pathOf("noise_scheduler"),
                      "sample.sampler is " + code(sampler) + (p.sample.has("sampler") ? "" : " (default)") +
                          " but train.noise_scheduler is " + code(scheduler) + (t.has("noise_scheduler") ? "" : " (default)") +
                          ": previews are made with another scheduler than the one trained; make them match",
                      std::nullopt,
                      atSampler ? std::optional(Fix{p.sample.pathOf("sampler"), jsonString(p.sample.string("sampler")),
                                                    jsonString(t.string("noise_scheduler"))})
                                : std::nullopt);
    }
  }

  // BaseSDTrainProcess.setup_ema() is defined and never called (ostris/ai-toolkit#524): the run prints
  // "Using EMA" and trains without one. memory.yaml's ema_resident says the same to the estimate.
  if (const Node* ema = t.written("ema_config"); ema && ema->isMapping() && ema->find("use_ema") &&
                                                 ema->find("use_ema")->truthy() && !c.knowledge.memory.emaResident) {
    const Node* use = ema->find("use_ema");
    findings.report(RuleId::OL419, use->range, t.pathOf("ema_config").key("use_ema"),
                    "AI Toolkit prints \"Using EMA\" but never builds the EMA (setup_ema() is not called, "
                    "ostris/ai-toolkit#524): the saved weights are the raw ones, and the EMA costs no memory");
  }

  const std::string optimizer = lowercase(t.string("optimizer"));
  if ((optimizer.starts_with("prodigy") || optimizer.starts_with("dadaptation")) && t.number("lr", 1e-6) < 0.1) {
    findings.report(RuleId::OL414, t.has("lr") ? t.valueRange("lr") : t.valueRange("optimizer"), t.pathOf("lr"),
                    code(t.string("optimizer")) + " adapts the step size itself and AI Toolkit sets an lr below 0.1 to "
                    "1.0; write lr: 1.0 to say what runs");
  }
}

void checkJob(const AitkJobCheckContext& c, Findings& findings) {
  const JobModel& job = c.job;
  if (job.jobType == "train" && !job.config.has("training_folder")) {
    findings.report(RuleId::OL314, job.jobRange, job.config.pathOf("training_folder"),
                    "`job: train` requires config.training_folder; AI Toolkit's TrainJob raises without it");
  }
  for (const auto& p : job.trainers) {
    if (p.type == "ui_trainer" && !p.process.has("sqlite_db_path")) {
      findings.report(RuleId::OL314, p.typeRange, p.process.pathOf("sqlite_db_path"),
                      "the legacy ui_trainer raises without sqlite_db_path (and AITK_JOB_ID): use diffusion_trainer, "
                      "which runs with or without the UI");
    }
  }
}

}  // namespace oomlint
