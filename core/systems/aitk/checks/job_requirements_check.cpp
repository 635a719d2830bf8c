// OL314 job-requirements: the job type, or a legacy process type, needs a setting it does not have.
#include "systems/aitk/checks/checks.h"

namespace oomlint {

void checkJobRequirements(const AitkJobCheckContext& c, Findings& findings) {
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
