#include "systems/comfyui/workflow.h"

#include <map>
#include <set>

#include "base/document/reader.h"

namespace oomlint {

namespace {

// A scalar's text as written (an id is an int in the UI format, a string in the API format).
std::string scalarId(const Node* node) {
  if (node == nullptr || !node->isScalar()) return "";
  return node->resolved()->text;
}

const Node* entryOf(const Node* map, std::string_view key) {
  return map != nullptr && map->isMapping() ? map->resolved()->find(key) : nullptr;
}

// An API graph: a mapping most of whose values are objects with a class_type.
bool isText(const Node* node) { return node != nullptr && node->isScalar() && node->resolved()->type == ScalarType::String; }

bool isApiGraph(const Node* node) {
  if (node == nullptr || !node->isMapping()) return false;
  for (const MapEntry& e : node->resolved()->entries) {
    if (entryOf(e.value, "class_type") != nullptr) return true;
  }
  return false;
}

class Reader {
 public:
  Reader(Workflow& w, const ComfyUiKnowledge& k) : w_(w), k_(k) {}

  void read() {
    const Node* root = w_.doc->root();
    if (root == nullptr) return;  // the document's own problem says why
    if (!root->isMapping()) {
      w_.problems.push_back({root->range, "a workflow is a JSON object; this is not one"});
      return;
    }
    if (isApiGraph(root)) return readApi(root, {});
    for (const KeyPath& wrapper : {KeyPath::of({"input", "workflow"}), KeyPath::of({"input", "prompt"}), KeyPath::of({"prompt"}),
                                   KeyPath::of({"workflow"})}) {
      const Node* graph = valueAtPath(root, wrapper);
      if (isApiGraph(graph)) {
        w_.format = WorkflowFormat::WrappedApi;
        return readApi(graph->resolved(), wrapper);
      }
      if (graph != nullptr && entryOf(graph, "nodes") != nullptr) return readUi(graph->resolved(), wrapper);
    }
    if (entryOf(root, "nodes") != nullptr) return readUi(root->resolved(), {});
    w_.problems.push_back({root->range, "no workflow here: neither API nodes (`class_type`) nor a UI workflow (`nodes`)"});
  }

 private:
  void readApi(const Node* graph, const KeyPath& at) {
    w_.format = at.empty() ? WorkflowFormat::Api : WorkflowFormat::WrappedApi;
    for (const MapEntry& e : graph->entries) {
      const Node* body = e.value->resolved();
      const std::string id = e.key->resolved()->text;
      const Node* type = entryOf(body, "class_type");
      if (!isText(type)) {
        w_.problems.push_back({type ? type->range : e.key->range, "node " + id + (type ? "'s class_type is not a string" : " has no class_type")});
        continue;
      }
      WorkflowNode n;
      n.id = id;
      n.type = type->resolved()->text;
      n.known = k_.node(n.type);
      n.range = type->range;
      n.path = at.key(id);
      const Node* inputs = entryOf(body, "inputs");
      if (inputs != nullptr && inputs->isMapping()) {
        for (const MapEntry& input : inputs->resolved()->entries) {
          const std::string name = input.key->resolved()->text;
          const Node* v = input.value->resolved();
          if (v->isSequence() && v->items.size() == 2 && v->items[0]->isScalar() && v->items[1]->isNumber()) {
            n.links.push_back({name, scalarId(v->items[0]), ""});
          } else {
            n.values.push_back({name, v, n.path.key("inputs").key(name)});
          }
        }
      }
      w_.nodes.push_back(std::move(n));
    }
  }

  // Link id → (origin node id, type), from a `links` list of arrays or of objects.
  void readLinks(const Node* links, const std::string& prefix, std::map<std::string, std::pair<std::string, std::string>>& out) {
    if (links == nullptr || !links->isSequence()) return;
    for (const Node* link : links->resolved()->items) {
      const Node* l = link->resolved();
      if (l->isSequence() && l->items.size() >= 6) {
        out[prefix + scalarId(l->items[0])] = {prefix + scalarId(l->items[1]), scalarId(l->items[5])};
      } else if (l->isMapping()) {
        out[prefix + scalarId(entryOf(l, "id"))] = {prefix + scalarId(entryOf(l, "origin_id")), scalarId(entryOf(l, "type"))};
      } else {
        w_.problems.push_back({l->range, "a link that is neither [id, from, slot, to, slot, type] nor an object"});
      }
    }
  }

  void readUi(const Node* root, const KeyPath& at) {
    w_.format = WorkflowFormat::Ui;
    std::set<std::string> subgraphIds;
    const Node* subgraphs = valueAtPath(root, KeyPath::of({"definitions", "subgraphs"}));
    if (subgraphs != nullptr && subgraphs->isSequence()) {
      for (const Node* sg : subgraphs->resolved()->items) subgraphIds.insert(scalarId(entryOf(sg, "id")));
    }
    readUiNodes(entryOf(root, "nodes"), entryOf(root, "links"), "", at.key("nodes"), subgraphIds);
    if (subgraphs == nullptr || !subgraphs->isSequence()) return;
    // A subgraph's nodes run when some instance of it runs (one defined before it, for nested ones).
    std::set<std::string> running;
    const auto noteInstances = [&](std::size_t from) {
      for (std::size_t j = from; j < w_.nodes.size(); ++j) {
        if (w_.nodes[j].subgraphInstance && !w_.nodes[j].muted && !w_.nodes[j].bypassed) running.insert(w_.nodes[j].type);
      }
    };
    noteInstances(0);
    std::size_t i = 0;
    for (const Node* sg : subgraphs->resolved()->items) {
      const KeyPath sgPath = at.key("definitions").key("subgraphs").item(i++);
      const std::string id = scalarId(entryOf(sg, "id"));
      const std::size_t first = w_.nodes.size();
      readUiNodes(entryOf(sg, "nodes"), entryOf(sg, "links"), id + "/", sgPath.key("nodes"), subgraphIds);
      const bool runs = running.count(id) > 0;
      for (std::size_t j = first; j < w_.nodes.size(); ++j) w_.nodes[j].muted |= !runs;
      noteInstances(first);
    }
  }

  void readUiNodes(const Node* nodes, const Node* links, const std::string& prefix, const KeyPath& at,
                   const std::set<std::string>& subgraphIds) {
    if (nodes == nullptr || !nodes->isSequence()) {
      if (nodes != nullptr) w_.problems.push_back({nodes->range, "`nodes` is not a list"});
      return;
    }
    std::map<std::string, std::pair<std::string, std::string>> linkTable;
    readLinks(links, prefix, linkTable);
    std::size_t index = 0;
    for (const Node* item : nodes->resolved()->items) {
      const KeyPath path = at.item(index++);
      const Node* body = item->resolved();
      const Node* type = entryOf(body, "type");
      if (!isText(type)) {
        w_.problems.push_back({type ? type->range : item->range, type ? "a node whose `type` is not a string" : "a node without a `type`"});
        continue;
      }
      WorkflowNode n;
      n.id = prefix + scalarId(entryOf(body, "id"));
      n.type = type->resolved()->text;
      n.known = k_.node(n.type);
      n.range = type->range;
      n.path = path;
      n.subgraphInstance = subgraphIds.count(n.type) > 0;
      const Node* mode = entryOf(body, "mode");
      const double m = mode != nullptr && mode->isNumber() ? mode->number() : 0;
      n.muted = m == 2;
      n.bypassed = m == 4;
      readWidgets(n, entryOf(body, "widgets_values"));
      noteSavedBy(entryOf(body, "properties"));
      const Node* inputs = entryOf(body, "inputs");
      if (inputs != nullptr && inputs->isSequence()) {
        std::size_t slot = 0;
        for (const Node* input : inputs->resolved()->items) {
          const std::string name = scalarId(entryOf(input, "name"));
          const std::string link = scalarId(entryOf(input, "link"));
          const auto found = link.empty() || link == "null" ? linkTable.end() : linkTable.find(prefix + link);
          if (found != linkTable.end()) n.links.push_back({name.empty() ? "#" + std::to_string(slot) : name, found->second.first, found->second.second});
          ++slot;
        }
      }
      w_.nodes.push_back(std::move(n));
    }
  }

  // A core node records the ComfyUI release that made it; custom nodes record their own pack's (or a commit).
  void noteSavedBy(const Node* properties) {
    const Node* package = entryOf(properties, "cnr_id");
    const Node* ver = entryOf(properties, "ver");
    if (!isText(package) || package->resolved()->text != "comfy-core" || !isText(ver)) return;
    const auto release = ReleaseVersion::parse(ver->resolved()->text);
    if (release && (!w_.savedBy || *release > *w_.savedBy)) {
      w_.savedBy = release;
      w_.savedByRange = ver->range;
    }
  }

  // widgets_values by the table's positions (or by name where a node stores them as an object).
  void readWidgets(WorkflowNode& n, const Node* widgets) {
    if (widgets == nullptr || n.known == nullptr) return;
    const KeyPath at = n.path.key("widgets_values");
    if (widgets->isMapping()) {
      for (const MapEntry& e : widgets->resolved()->entries) {
        const std::string name = e.key->resolved()->text;
        if (n.known->widgetIndex(name)) n.values.push_back({name, e.value->resolved(), at.key(name)});
      }
      return;
    }
    if (!widgets->isSequence()) return;
    const auto& items = widgets->resolved()->items;
    for (std::size_t i = 0; i < n.known->widgets.size() && i < items.size(); ++i) {
      n.values.push_back({n.known->widgets[i], items[i]->resolved(), at.item(i)});
    }
  }

  Workflow& w_;
  const ComfyUiKnowledge& k_;
};

}  // namespace

std::string_view toString(WorkflowFormat format) {
  switch (format) {
    case WorkflowFormat::Api: return "API";
    case WorkflowFormat::WrappedApi: return "API (wrapped)";
    case WorkflowFormat::Ui: return "UI";
  }
  return "API";
}

const NodeValue* WorkflowNode::value(std::string_view name) const {
  for (const auto& v : values) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::optional<double> WorkflowNode::number(std::string_view name) const {
  const NodeValue* v = value(name);
  if (v == nullptr || !v->value->isNumber()) return std::nullopt;
  return v->value->number();
}

std::string WorkflowNode::text(std::string_view name) const {
  const NodeValue* v = value(name);
  if (v == nullptr || !v->value->isScalar() || v->value->resolved()->type != ScalarType::String) return "";
  return v->value->resolved()->text;
}

std::optional<bool> WorkflowNode::flag(std::string_view name) const {
  const NodeValue* v = value(name);
  if (v == nullptr || !v->value->isScalar() || v->value->resolved()->type != ScalarType::Bool) return std::nullopt;
  return v->value->resolved()->boolValue;
}

// A variable's name within its graph (a subgraph's nodes carry the subgraph's id as prefix: "<uuid>/12").
std::string variableKey(const WorkflowNode& n) { return n.id.substr(0, n.id.rfind('/') + 1) + n.text("name"); }

const WorkflowNode* Workflow::find(std::string_view id) const {
  const auto it = byId.find(std::string(id));
  return it == byId.end() ? nullptr : &nodes[it->second];
}

const WorkflowNode* Workflow::setterOf(const WorkflowNode& getter) const {
  const auto it = setters.find(variableKey(getter));
  return it == setters.end() ? nullptr : &nodes[it->second];
}

const WorkflowNode* Workflow::upstream(const WorkflowNode& node, std::string_view input) const {
  const NodeLink* link = nullptr;
  for (const auto& l : node.links) {
    if (l.input == input) link = &l;
  }
  if (link == nullptr) return nullptr;
  const std::string type = link->type;
  const WorkflowNode* from = find(link->from);
  // Reroutes, bypassed nodes and a variable's setter hand their input on, a getter its setter's; the
  // chain is at most as long as the graph.
  for (std::size_t hops = 0; from != nullptr && hops < kMaxHops; ++hops) {
    if (from->muted) return nullptr;
    const NodeRole role = from->known != nullptr ? from->known->role : NodeRole::NoCost;
    if (role == NodeRole::VariableGet) {
      from = setterOf(*from);
      continue;
    }
    const bool passes = from->bypassed || role == NodeRole::PassThrough || role == NodeRole::VariableSet;
    if (!passes) return from;
    const NodeLink* next = nullptr;
    for (const auto& l : from->links) {
      if (next == nullptr && (type.empty() || l.type.empty() || l.type == type)) next = &l;
    }
    from = next ? find(next->from) : nullptr;
  }
  return nullptr;
}

bool looksLikeWorkflow(std::string_view head) {
  if (!looksLikeJson(head) || head.find('{') > head.find('[')) return false;
  if (head.find("\"class_type\"") != std::string_view::npos) return true;
  return head.find("\"nodes\"") != std::string_view::npos &&
         (head.find("\"widgets_values\"") != std::string_view::npos || head.find("\"links\"") != std::string_view::npos ||
          head.find("\"last_node_id\"") != std::string_view::npos);
}

Workflow readWorkflow(std::string text, const ComfyUiKnowledge& comfyui, const ReadLimits& limits) {
  Workflow w;
  w.doc = readDocument(std::move(text), limits);
  if (!w.doc->fatal()) Reader(w, comfyui).read();
  for (std::size_t i = 0; i < w.nodes.size(); ++i) {
    const WorkflowNode& n = w.nodes[i];
    w.byId.emplace(n.id, i);
    if (n.known != nullptr && n.known->role == NodeRole::VariableSet && !n.muted) w.setters.emplace(variableKey(n), i);
  }
  return w;
}

}  // namespace oomlint
