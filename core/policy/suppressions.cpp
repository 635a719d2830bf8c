#include "policy/suppressions.h"

#include <algorithm>
#include <string_view>

#include "base/knowledge/knowledge.h"

namespace oomlint {

namespace {

constexpr std::string_view kMarker = "oomlint:";

// Byte ranges of every scalar: a `#` inside one ("a#b", a quoted string) is not a comment.
std::vector<std::pair<std::size_t, std::size_t>> scalarSpans(const Document& doc) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for (const Node& node : doc.nodes()) {
    if (node.kind == NodeKind::Scalar) spans.emplace_back(node.range.start.offset, node.range.end.offset);
  }
  std::sort(spans.begin(), spans.end());
  return spans;
}

bool insideScalar(const std::vector<std::pair<std::size_t, std::size_t>>& spans, std::size_t offset) {
  auto it = std::upper_bound(spans.begin(), spans.end(), std::pair{offset, std::size_t(-1)});
  // Spans do not overlap except for nesting in flow collections, which contain no scalars inside
  // scalars: the closest one starting at or before `offset` is the only candidate.
  return it != spans.begin() && offset < std::prev(it)->second;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "disable=OL201,unknown-key reason" → the names before the first space.
void parseCodes(std::string_view list, Suppression& out) {
  list = list.substr(0, list.find_first_of(" \t"));
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view name = trim(list.substr(0, comma));
    if (!name.empty()) {
      if (const RuleInfo* rule = knowledge().catalog.find(name)) out.codes.push_back(rule->code);
      else out.unknown.emplace_back(name);
    }
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
}

Diagnostic finding(RuleId code, const Suppression& s, std::string message) {
  return Diagnostic{code, knowledge().catalog.rule(code).severity, std::move(message), {}, s.comment, std::nullopt};
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

std::vector<Suppression> findSuppressions(const Document& doc) {
  std::vector<Suppression> found;
  const SourceText& source = doc.source();
  const std::string& text = source.text();
  if (doc.format() != DocumentFormat::Yaml || text.find(kMarker) == std::string::npos) return found;
  const auto spans = scalarSpans(doc);
  for (int line = 1; line <= source.lineCount(); ++line) {
    const std::string_view content = source.line(line);
    const std::size_t start = source.lineStart(line);
    for (std::size_t hash = content.find('#'); hash != std::string_view::npos; hash = content.find('#', hash + 1)) {
      if ((hash > 0 && content[hash - 1] != ' ' && content[hash - 1] != '\t') || insideScalar(spans, start + hash)) continue;
      std::string_view comment = trim(content.substr(hash + 1));
      if (!comment.starts_with(kMarker)) break;  // an ordinary comment runs to the end of the line
      comment = trim(comment.substr(kMarker.size()));
      Suppression s;
      s.comment = source.rangeOf(start + hash, start + content.size());
      const bool ownLine = trim(content.substr(0, hash)).empty();
      if (comment.starts_with("disable-file=")) {
        parseCodes(comment.substr(13), s);
      } else if (comment.starts_with("disable=")) {
        parseCodes(comment.substr(8), s);
        s.line = ownLine ? line + 1 : line;
      } else {
        s.unknown.emplace_back(comment.substr(0, comment.find_first_of(" \t")));
      }
      s.used.assign(s.codes.size(), false);
      found.push_back(std::move(s));
      break;
    }
  }
  return found;
}

void applySuppressions(std::vector<Diagnostic>& diagnostics, std::vector<Suppression> suppressions, bool allowed) {
  if (suppressions.empty()) return;
  std::vector<Diagnostic> added;
  if (!allowed) {
    for (const auto& s : suppressions) {
      added.push_back(finding(RuleId::OL109, s, "inline suppressions are forbidden in this project (allow_suppressions: false in .oomlint.yaml); fix the finding instead"));
    }
  } else {
    std::erase_if(diagnostics, [&](const Diagnostic& d) {
      bool suppressed = false;
      for (auto& s : suppressions) {
        if (s.line != 0 && s.line != d.range.start.line) continue;
        for (std::size_t i = 0; i < s.codes.size(); ++i) {
          if (s.codes[i] == d.code) s.used[i] = suppressed = true;
        }
      }
      return suppressed;
    });
    for (const auto& s : suppressions) {
      if (!s.unknown.empty()) {
        added.push_back(finding(RuleId::OL108, s, "this suppression names no rule oomlint has: " + joined(s.unknown) +
                                                " (the form is `# oomlint: disable=OL201` or `disable-file=`)"));
        continue;
      }
      std::vector<std::string> unused;
      for (std::size_t i = 0; i < s.codes.size(); ++i) {
        if (!s.used[i]) unused.push_back(s.codes[i]);
      }
      if (!unused.empty()) {
        added.push_back(finding(RuleId::OL108, s, "unused suppression: no " + joined(unused) +
                                                (s.line == 0 ? " finding in this file" : " finding on line " + std::to_string(s.line))));
      }
    }
  }
  diagnostics.insert(diagnostics.end(), added.begin(), added.end());
}

void applyPolicy(std::vector<Diagnostic>& diagnostics, const Policy& policy) {
  std::erase_if(diagnostics, [&](const Diagnostic& d) { return policy.disabled.contains(std::string(toString(d.code))); });
  for (auto& d : diagnostics) {
    if (auto it = policy.severity.find(std::string(toString(d.code))); it != policy.severity.end()) d.severity = it->second;
  }
}

}  // namespace oomlint
