// A ComfyUI workflow as a graph of nodes, every value with its place in the text. Three shapes are read,
// told apart by content: the API format (`{"3": {"class_type", "inputs"}}`, links as `["4", 0]`), the same
// graph inside a request body (`{"input": {"workflow": …}}`, `{"prompt": …}`), and the UI format (`nodes`
// with positional `widgets_values`, `links`, `mode`, and the nodes of `definitions.subgraphs`). A UI node's
// widget values are named by rules/comfyui.yaml's table for its type; a type the table lacks keeps its raw
// values and is reported as not costed, never dropped.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/document/key_path.h"
#include "base/document/limits.h"
#include "base/document/node.h"
#include "base/knowledge/comfyui.h"
#include "base/text/release_version.h"

namespace oomlint {

enum class WorkflowFormat { Api, WrappedApi, Ui };
std::string_view toString(WorkflowFormat format);  // "API", "API (wrapped)", "UI"

// One named setting of a node: the JSON value and where it is written.
struct NodeValue {
  std::string name;
  const Node* value = nullptr;
  KeyPath path;
};

// An input wired to another node's output.
struct NodeLink {
  std::string input;  // the input's name ("model", "latent_image"); UI inputs without a name: "#slot"
  std::string from;   // the upstream node's id
  std::string type;   // the link's data type where the format says it ("LATENT"), else empty
};

struct WorkflowNode {
  std::string id;  // API key or UI id; a subgraph's nodes are prefixed by its id ("<uuid>/12")
  std::string type;
  const NodeType* known = nullptr;  // null: not in rules/comfyui.yaml
  Range range;                      // the node's type (class_type / type value): where findings point
  KeyPath path;                     // the node's object
  bool muted = false;               // UI mode 2: neither runs nor passes anything on
  bool bypassed = false;            // UI mode 4: does not run; its inputs pass through to its outputs
  bool subgraphInstance = false;    // a UI node whose type is a subgraph's id (its nodes are read apart)
  std::vector<NodeValue> values;    // named settings, in order
  std::vector<NodeLink> links;

  bool active() const { return !muted && !bypassed && !subgraphInstance; }
  const NodeValue* value(std::string_view name) const;
  // A value's number / text (nullopt / empty when absent or of another type).
  std::optional<double> number(std::string_view name) const;
  std::string text(std::string_view name) const;
  std::optional<bool> flag(std::string_view name) const;
};

struct WorkflowProblem {
  Range range;
  std::string message;
};

struct Workflow {
  // How far a link is followed through pass-through nodes: real chains are a few Reroutes long, and a
  // hostile file must not make each lookup walk the whole graph.
  static constexpr std::size_t kMaxHops = 256;

  std::unique_ptr<Document> doc;
  WorkflowFormat format = WorkflowFormat::Api;
  std::vector<WorkflowNode> nodes;
  std::vector<WorkflowProblem> problems;  // a node that cannot be read (no type, a malformed link)
  std::unordered_map<std::string, std::size_t> byId;  // node id → index in `nodes` (the first of a repeated id)
  std::unordered_map<std::string, std::size_t> setters;  // variableKey → the first SetNode of that name
  // The newest ComfyUI that saved a core node here (a UI node's properties: "cnr_id": "comfy-core", "ver": "0.3.43"):
  // the user runs it or a later one. nullopt in the API format, which carries no properties.
  std::optional<ReleaseVersion> savedBy;
  Range savedByRange;  // that `ver` value

  const WorkflowNode* find(std::string_view id) const;
  // The active node whose output feeds `input` of `node`, through Reroutes and bypassed nodes (which pass
  // on their input of the same type) and variables (a GetNode reads its SetNode's input); nullptr when
  // nothing (or a muted node) feeds it.
  const WorkflowNode* upstream(const WorkflowNode& node, std::string_view input) const;
  // The SetNode a GetNode reads (same name, same graph), or nullptr.
  const WorkflowNode* setterOf(const WorkflowNode& getter) const;
};

// A variable node's name within its graph: the key of Workflow::setters.
std::string variableKey(const WorkflowNode& n);

// Whether the text (its first kilobytes) is a workflow: a JSON object with a node's markers.
bool looksLikeWorkflow(std::string_view head);

// Reads the workflow; a text that is not JSON, or JSON of no workflow shape, leaves `doc` with its
// problems and `nodes` empty, with a problem saying why.
Workflow readWorkflow(std::string text, const ComfyUiKnowledge& comfyui, const ReadLimits& limits);

}  // namespace oomlint
