// Turns text into a Document. The format is chosen from the content: a document whose first
// significant character opens a JSON object or array is read as strict JSON (what AI Toolkit's
// json.loads accepts), anything else as YAML (what its PyYAML SafeLoader accepts).
#pragma once

#include <memory>
#include <string>

#include "base/document/limits.h"
#include "base/document/node.h"

namespace oomlint {

bool looksLikeJson(std::string_view text);

std::unique_ptr<Document> readDocument(std::string text, const ReadLimits& limits = {});

// A TOML text (trainers' config and dataset files), with the same limits and encoding checks.
std::unique_ptr<Document> readTomlDocument(std::string text, const ReadLimits& limits = {});

// The readers, for callers that know the format and have checked the limits.
std::unique_ptr<Document> readYaml(std::shared_ptr<const SourceText> source, const ReadLimits& limits);
std::unique_ptr<Document> readJson(std::shared_ptr<const SourceText> source, const ReadLimits& limits);
std::unique_ptr<Document> readToml(std::shared_ptr<const SourceText> source, const ReadLimits& limits);

}  // namespace oomlint
