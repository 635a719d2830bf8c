// AI Toolkit's model architectures (rules/ai-toolkit/architectures.yaml).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oomlint {

struct FrameGrid {
  int multiple = 1;
  int offset = 0;
  bool contains(long frames) const { return frames >= offset && (frames - offset) % multiple == 0; }
  std::string describe() const;  // "4n+1"
  long nearestBelow(long frames) const;
};

struct Architecture {
  std::string arch;
  std::vector<std::string> aliases;
  std::string legacyFlag;
  std::string label;
  std::string kind;  // image | video | edit | audio
  int bucketDivisibility = 8;
  std::optional<FrameGrid> frameGrid;
  bool fluxFamily = false;
  bool wanFamily = false;
  bool layerOffloading = false;
  bool lowVram = false;
  bool cannotUnloadTe = false;
  std::string source;

  bool isVideo() const { return kind == "video"; }
};

class Architectures {
 public:
  // `name` as written in model.arch: anything from ':' on is stripped, as AI Toolkit does.
  const Architecture* find(std::string_view name) const;
  const Architecture* byLegacyFlag(std::string_view flag) const;
  std::vector<std::string> names() const;
  const std::vector<Architecture>& all() const { return all_; }
  void add(Architecture arch) { all_.push_back(std::move(arch)); }

 private:
  std::vector<Architecture> all_;
};

}  // namespace oomlint
