#include "base/document/reader.h"

#include "base/text/decimal_text.h"

namespace oomlint {

bool looksLikeJson(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

namespace {

// A document whose text breaks a limit or is not UTF-8: the one fatal problem, no tree; else nullptr.
std::unique_ptr<Document> unreadable(const std::shared_ptr<const SourceText>& source, DocumentFormat format, const ReadLimits& limits) {
  if (source->size() > limits.maxBytes) {
    // Not the exact size: the CLI stops reading one byte past the limit.
    auto doc = std::make_unique<Document>(source, format);
    doc->addProblem({RuleId::OL103,
                     "input limit: the file is larger than " + std::to_string(limits.maxBytes) +
                         " bytes; larger configs are not analysed",
                     source->rangeOf(0, 0), true});
    return doc;
  }
  if (auto bad = firstInvalidUtf8(source->text())) {
    auto doc = std::make_unique<Document>(source, format);
    const auto byte = static_cast<unsigned char>(source->text()[*bad]);
    doc->addProblem({RuleId::OL102,
                     "invalid UTF-8: byte 0x" + hexText(byte, 2, /*upper=*/true) +
                         " at this position; save the file as UTF-8 text",
                     source->rangeOf(*bad, *bad + 1), true});
    return doc;
  }
  for (int line = 1; line <= source->lineCount(); ++line) {
    if (source->line(line).size() > limits.maxLineBytes) {
      auto doc = std::make_unique<Document>(source, format);
      doc->addProblem({RuleId::OL103, "input limit: line " + std::to_string(line) + " is longer than " +
                                    std::to_string(limits.maxLineBytes) + " bytes",
                       source->rangeOf(source->lineStart(line), source->lineStart(line)), true});
      return doc;
    }
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<Document> readDocument(std::string text, const ReadLimits& limits) {
  const bool json = looksLikeJson(text);
  auto source = std::make_shared<const SourceText>(std::move(text));
  if (auto doc = unreadable(source, json ? DocumentFormat::Json : DocumentFormat::Yaml, limits)) return doc;
  return json ? readJson(source, limits) : readYaml(source, limits);
}

std::unique_ptr<Document> readTomlDocument(std::string text, const ReadLimits& limits) {
  auto source = std::make_shared<const SourceText>(std::move(text));
  if (auto doc = unreadable(source, DocumentFormat::Toml, limits)) return doc;
  return readToml(source, limits);
}

}  // namespace oomlint
