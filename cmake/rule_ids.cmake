# Generates the RuleId enum from rules/catalog.yaml at configure time, so that a finding can only be
# reported under a code the catalog has: an unknown code does not compile.
#   oomlint_generate_rule_ids(CATALOG OUTPUT)
function(oomlint_generate_rule_ids catalog output)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${catalog}")
  file(STRINGS "${catalog}" lines REGEX "^  - code: OL[0-9]+$|^    name: [a-z0-9-]+$")
  set(codes "")
  set(names "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^  - code: (OL[0-9]+)$")
      list(APPEND codes "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^    name: ([a-z0-9-]+)$")
      list(APPEND names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  list(LENGTH codes count)
  list(LENGTH names nameCount)
  if(count EQUAL 0 OR NOT count EQUAL nameCount)
    message(FATAL_ERROR "${catalog}: ${count} codes and ${nameCount} names: every rule needs both")
  endif()
  set(enumerators "")
  set(codeTexts "")
  set(nameTexts "")
  foreach(code IN LISTS codes)
    string(APPEND enumerators "  ${code},\n")
    string(APPEND codeTexts "    \"${code}\",\n")
  endforeach()
  foreach(name IN LISTS names)
    string(APPEND nameTexts "    \"${name}\",\n")
  endforeach()
  file(CONFIGURE OUTPUT "${output}" @ONLY CONTENT [=[
// Generated from rules/catalog.yaml by cmake/rule_ids.cmake at configure time: do not edit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace oomlint {

// Every rule code of the catalog, in its order (which is the codes' order).
enum class RuleId : std::uint8_t {
@enumerators@};

inline constexpr std::size_t kRuleCount = @count@;
inline constexpr std::array<std::string_view, kRuleCount> kRuleCodes{
@codeTexts@};
inline constexpr std::array<std::string_view, kRuleCount> kRuleNames{
@nameTexts@};

constexpr std::string_view toString(RuleId id) { return kRuleCodes[static_cast<std::size_t>(id)]; }
constexpr std::string_view ruleName(RuleId id) { return kRuleNames[static_cast<std::size_t>(id)]; }

// The id of a code as written ("OL201"), exactly; nullopt for a code the catalog does not have.
constexpr std::optional<RuleId> parseRuleId(std::string_view code) {
  for (std::size_t i = 0; i < kRuleCount; ++i) {
    if (kRuleCodes[i] == code) return static_cast<RuleId>(i);
  }
  return std::nullopt;
}

constexpr bool operator==(RuleId id, std::string_view code) { return toString(id) == code; }

}  // namespace oomlint
]=])
endfunction()
