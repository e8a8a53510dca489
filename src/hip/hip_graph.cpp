// hip/hip_graph.cpp - graphs built node by node, instantiated and launched onto a stream (HIP-GRAPH-1, HIP-GRAPH-2).
//
// An executable graph is a copy of the graph with its nodes in a topological
// order; hipGraphLaunch lowers each node, in that order, to the stream's
// commands (a kernel dispatch, blit copies and fills, a host call, an event
// marker or barrier), so every node runs after the nodes it depends on.
#include "hip/hip_graph.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>

#include "hip/hip_function.h"
#include "hip/hip_memory_2d.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

hipGraphNode::~hipGraphNode() { rocref::hip::detail::free_kernel_params(arguments); }

namespace {

std::mutex g_graphs_mutex;
std::set<const ihipGraph*> g_graphs;
std::set<const hipGraphExec*> g_execs;

bool known_graph(const ihipGraph* g) {
  std::lock_guard lock(g_graphs_mutex);
  return g != nullptr && g_graphs.count(g) == 1;
}
bool known_exec(const hipGraphExec* e) {
  std::lock_guard lock(g_graphs_mutex);
  return e != nullptr && g_execs.count(e) == 1;
}
void track(const ihipGraph* g) {
  std::lock_guard lock(g_graphs_mutex);
  g_graphs.insert(g);
}

// A node belongs to a live graph (child graphs' nodes included through their parent).
bool known_node(const hipGraphNode* n) {
  if (n == nullptr || n->graph == nullptr) return false;
  std::lock_guard lock(g_graphs_mutex);
  return g_graphs.count(n->graph) == 1;
}

bool node_of(const ihipGraph* g, const hipGraphNode* n) {
  for (auto& node : g->nodes) {
    if (node.get() == n) return true;
  }
  return false;
}

hipError_t set_kernel(hipGraphNode* n, const hipKernelNodeParams* p) {
  if (p == nullptr || p->func == nullptr) return hipErrorInvalidValue;
  // HIP 5.2.3: a grid of more than 2^32-1 work-items in a dimension.
  const uint64_t x = uint64_t{p->gridDim.x} * p->blockDim.x, y = uint64_t{p->gridDim.y} * p->blockDim.y,
                 z = uint64_t{p->gridDim.z} * p->blockDim.z;
  if (x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX) return hipErrorInvalidConfiguration;
  ihipModuleSymbol_t* f = rocref::hip::find_function(p->func);
  if (f == nullptr) return hipErrorInvalidDeviceFunction;
  if (p->kernelParams != nullptr && p->extra != nullptr) return hipErrorInvalidValue;
  void** copy = nullptr;
  if (p->kernelParams != nullptr) copy = rocref::hip::copy_params(*f, p->kernelParams);
  rocref::hip::detail::free_kernel_params(n->arguments);
  n->arguments = copy;
  n->kernel = *p;
  n->kernel.kernelParams = copy != nullptr ? copy : p->kernelParams;
  return hipSuccess;
}

hipError_t set_memset(hipGraphNode* n, const hipMemsetParams* p) {
  if (p == nullptr || p->dst == nullptr) return hipErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) return hipErrorInvalidValue;
  if (p->height > 1 && p->pitch < p->width * p->elementSize) return hipErrorInvalidValue;
  n->memset = *p;
  return hipSuccess;
}

hipError_t set_copy3d(hipGraphNode* n, const hipMemcpy3DParms* p) {
  if (p == nullptr) return hipErrorInvalidValue;
  n->copy3d = *p;
  return hipSuccess;
}

hipError_t set_copy1d(hipGraphNode* n, void* dst, const void* src, size_t count, hipMemcpyKind kind) {
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  n->copy1d.dst = dst;
  n->copy1d.src = src;
  n->copy1d.count = count;
  n->copy1d.kind = kind;
  return hipSuccess;
}

hipError_t set_symbol_copy(hipGraphNode* n, void* memory, const void* symbol, size_t count, size_t offset,
                           hipMemcpyKind kind, bool to_symbol) {
  if (memory == nullptr || symbol == nullptr) return hipErrorInvalidValue;
  size_t size = 0;
  if (hipGetSymbolSize(&size, symbol) != hipSuccess) return hipErrorInvalidSymbol;
  if (offset > size || count > size - offset) return hipErrorInvalidValue;
  n->copy1d.symbol = symbol;
  n->copy1d.offset = offset;
  n->copy1d.count = count;
  n->copy1d.kind = kind;
  if (to_symbol) {
    n->copy1d.src = memory;
  } else {
    n->copy1d.dst = memory;
  }
  return hipSuccess;
}

// Adds a node of `type` to `graph` after `deps`; the node is configured by `setup`.
template <typename Setup>
hipError_t add_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipGraphNodeType type,
                    Setup setup) {
  if (out == nullptr || !known_graph(graph)) return hipErrorInvalidValue;
  if (count != 0 && deps == nullptr) return hipErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (deps[i] == nullptr || !node_of(graph, deps[i])) return hipErrorInvalidValue;
    for (size_t j = 0; j < i; ++j) {
      if (deps[j] == deps[i]) return hipErrorInvalidValue;  // one edge per pair
    }
  }
  auto node = std::make_unique<hipGraphNode>();
  node->type = type;
  node->graph = graph;
  if (hipError_t e = setup(node.get()); e != hipSuccess) return e;
  for (size_t i = 0; i < count; ++i) {
    node->dependencies.push_back(deps[i]);
    deps[i]->dependents.push_back(node.get());
  }
  *out = node.get();
  graph->nodes.push_back(std::move(node));
  return hipSuccess;
}

// A copy of `graph` whose nodes map from the originals (clone_of); child graphs are copied too.
std::unique_ptr<ihipGraph> clone(const ihipGraph& graph) {
  auto copy = std::make_unique<ihipGraph>();
  for (const auto& n : graph.nodes) {
    auto c = std::make_unique<hipGraphNode>();
    c->type = n->type;
    c->graph = copy.get();
    c->kernel = n->kernel;
    if (n->arguments != nullptr) {
      ihipModuleSymbol_t* f = rocref::hip::find_function(n->kernel.func);
      c->arguments = rocref::hip::copy_params(*f, n->arguments);
      c->kernel.kernelParams = c->arguments;
    }
    std::memcpy(c->attributes, n->attributes, sizeof c->attributes);
    c->copy3d = n->copy3d;
    c->copy1d.dst = n->copy1d.dst;
    c->copy1d.src = n->copy1d.src;
    c->copy1d.count = n->copy1d.count;
    c->copy1d.kind = n->copy1d.kind;
    c->copy1d.symbol = n->copy1d.symbol;
    c->copy1d.offset = n->copy1d.offset;
    c->memset = n->memset;
    c->host = n->host;
    if (n->child) c->child = clone(*n->child);
    c->event = n->event;
    copy->clone_of[n.get()] = c.get();
    copy->nodes.push_back(std::move(c));
  }
  for (const auto& n : graph.nodes) {
    hipGraphNode* c = copy->clone_of[n.get()];
    for (hipGraphNode* d : n->dependencies) c->dependencies.push_back(copy->clone_of[d]);
    for (hipGraphNode* d : n->dependents) c->dependents.push_back(copy->clone_of[d]);
  }
  // Nested child graphs were tracked by their clone() calls' callers: track the copies' children here.
  for (const auto& c : copy->nodes) {
    if (c->child) track(c->child.get());
  }
  return copy;
}

// Kahn's algorithm; false when the edges form a cycle.
bool topological_order(const ihipGraph& graph, std::vector<hipGraphNode*>* order) {
  std::map<const hipGraphNode*, size_t> pending;
  std::vector<hipGraphNode*> ready;
  for (const auto& n : graph.nodes) {
    pending[n.get()] = n->dependencies.size();
    if (n->dependencies.empty()) ready.push_back(n.get());
  }
  order->clear();
  for (size_t i = 0; i < ready.size(); ++i) {
    hipGraphNode* n = ready[i];
    order->push_back(n);
    for (hipGraphNode* d : n->dependents) {
      if (--pending[d] == 0) ready.push_back(d);
    }
  }
  return order->size() == graph.nodes.size();
}

hipError_t run(const ihipGraph& graph, const std::vector<hipGraphNode*>& order, hipStream_t stream);

hipError_t run_node(const hipGraphNode& n, hipStream_t stream) {
  switch (n.type) {
    case hipGraphNodeTypeKernel: {
      ihipModuleSymbol_t* f = rocref::hip::find_function(n.kernel.func);
      if (f == nullptr) return hipErrorInvalidDeviceFunction;
      return rocref::hip::launch_function(*f, n.kernel.gridDim, n.kernel.blockDim, n.kernel.kernelParams,
                                          n.kernel.sharedMemBytes, stream);
    }
    case hipGraphNodeTypeMemcpy: return hipMemcpy3DAsync(&n.copy3d, stream);
    case hipGraphNodeTypeMemcpy1D:
      return rocref::hip::copy(n.copy1d.dst, n.copy1d.src, n.copy1d.count, n.copy1d.kind, stream, true);
    case hipGraphNodeTypeMemcpyToSymbol:
      return hipMemcpyToSymbolAsync(n.copy1d.symbol, n.copy1d.src, n.copy1d.count, n.copy1d.offset, n.copy1d.kind, stream);
    case hipGraphNodeTypeMemcpyFromSymbol:
      return hipMemcpyFromSymbolAsync(n.copy1d.dst, n.copy1d.symbol, n.copy1d.count, n.copy1d.offset, n.copy1d.kind,
                                      stream);
    case hipGraphNodeTypeMemset: {
      const hipMemsetParams& m = n.memset;
      const size_t height = m.height == 0 ? 1 : m.height;
      for (size_t y = 0; y < height; ++y) {
        void* row = static_cast<char*>(m.dst) + y * m.pitch;
        hipError_t e = m.elementSize == 1   ? hipMemsetD8Async(row, static_cast<unsigned char>(m.value), m.width, stream)
                       : m.elementSize == 2 ? hipMemsetD16Async(row, static_cast<unsigned short>(m.value), m.width, stream)
                                            : hipMemsetD32Async(row, static_cast<int>(m.value), m.width, stream);
        if (e != hipSuccess) return e;
      }
      return hipSuccess;
    }
    case hipGraphNodeTypeHost: return hipLaunchHostFunc(stream, n.host.fn, n.host.userData);
    case hipGraphNodeTypeGraph: {
      std::vector<hipGraphNode*> order;
      if (!topological_order(*n.child, &order)) return hipErrorInvalidValue;
      return run(*n.child, order, stream);
    }
    case hipGraphNodeTypeEventRecord: return hipEventRecord(n.event, stream);
    case hipGraphNodeTypeWaitEvent: return hipStreamWaitEvent(stream, n.event, 0);
    case hipGraphNodeTypeEmpty: return hipSuccess;
    default: return hipErrorInvalidValue;
  }
}

hipError_t run(const ihipGraph& graph, const std::vector<hipGraphNode*>& order, hipStream_t stream) {
  (void)graph;
  for (const hipGraphNode* n : order) {
    if (hipError_t e = run_node(*n, stream); e != hipSuccess) return e;
  }
  return hipSuccess;
}

template <typename T>
hipError_t list(const std::vector<T>& items, T* out, size_t* count) {
  if (count == nullptr) return hipErrorInvalidValue;
  if (out == nullptr) {
    *count = items.size();
    return hipSuccess;
  }
  const size_t n = std::min(*count, items.size());
  for (size_t i = 0; i < n; ++i) out[i] = items[i];
  for (size_t i = n; i < *count; ++i) out[i] = nullptr;
  *count = n;
  return hipSuccess;
}

// The exec's copy of `node` (a node of the graph it was instantiated from), or nullptr.
hipGraphNode* exec_node(hipGraphExec_t exec, hipGraphNode_t node) {
  if (!known_exec(exec)) return nullptr;
  auto it = exec->graph->clone_of.find(node);
  return it == exec->graph->clone_of.end() ? nullptr : it->second;
}

}  // namespace

hipError_t hipGraphCreate(hipGraph_t* pGraph, unsigned int flags) {
  if (pGraph == nullptr || flags != 0) return result(hipErrorInvalidValue);
  auto* g = new ihipGraph();
  track(g);
  *pGraph = g;
  return hipSuccess;
}

hipError_t hipGraphDestroy(hipGraph_t graph) {
  if (graph == nullptr) return result(hipErrorInvalidValue);
  if (!known_graph(graph)) return result(hipErrorIllegalState);  // HIP 5.2.3: destroyed already
  {
    std::lock_guard lock(g_graphs_mutex);
    g_graphs.erase(graph);
    for (auto& n : graph->nodes) {
      if (n->child) g_graphs.erase(n->child.get());
    }
  }
  delete graph;
  return hipSuccess;
}

hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to,
                                   size_t numDependencies) {
  if (!known_graph(graph) || (numDependencies != 0 && (from == nullptr || to == nullptr))) {
    return result(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!node_of(graph, from[i]) || !node_of(graph, to[i]) || from[i] == to[i]) return result(hipErrorInvalidValue);
    auto& deps = to[i]->dependencies;
    if (std::find(deps.begin(), deps.end(), from[i]) != deps.end()) return result(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < numDependencies; ++i) {
    to[i]->dependencies.push_back(from[i]);
    from[i]->dependents.push_back(to[i]);
  }
  return hipSuccess;
}

hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to,
                                      size_t numDependencies) {
  if (!known_graph(graph) || from == nullptr || to == nullptr) {  // HIP 5.2.3: null arrays even for no edges
    return result(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < numDependencies; ++i) {
    if (!node_of(graph, from[i]) || !node_of(graph, to[i])) return result(hipErrorInvalidValue);
    auto& deps = to[i]->dependencies;
    if (std::find(deps.begin(), deps.end(), from[i]) == deps.end()) return result(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < numDependencies; ++i) {
    auto& deps = to[i]->dependencies;
    deps.erase(std::find(deps.begin(), deps.end(), from[i]));
    auto& out = from[i]->dependents;
    out.erase(std::find(out.begin(), out.end(), to[i]));
  }
  return hipSuccess;
}

hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to, size_t* numEdges) {
  if (!known_graph(graph) || numEdges == nullptr || ((from == nullptr) != (to == nullptr))) {
    return result(hipErrorInvalidValue);
  }
  std::vector<hipGraphNode_t> f, t;
  for (auto& n : graph->nodes) {
    for (hipGraphNode* d : n->dependents) {
      f.push_back(n.get());
      t.push_back(d);
    }
  }
  if (from == nullptr) {
    *numEdges = f.size();
    return hipSuccess;
  }
  size_t count = *numEdges;
  (void)list(f, from, &count);
  return result(list(t, to, numEdges));
}

hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* numNodes) {
  if (!known_graph(graph)) return result(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> all;
  for (auto& n : graph->nodes) all.push_back(n.get());
  return result(list(all, nodes, numNodes));
}

hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t* pRootNodes, size_t* pNumRootNodes) {
  if (!known_graph(graph)) return result(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> roots;
  for (auto& n : graph->nodes) {
    if (n->dependencies.empty()) roots.push_back(n.get());
  }
  return result(list(roots, pRootNodes, pNumRootNodes));
}

hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* pDependencies, size_t* pNumDependencies) {
  if (!known_node(node)) return result(hipErrorInvalidValue);
  return result(list(node->dependencies, pDependencies, pNumDependencies));
}

hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t* pDependentNodes,
                                         size_t* pNumDependentNodes) {
  if (!known_node(node)) return result(hipErrorInvalidValue);
  return result(list(node->dependents, pDependentNodes, pNumDependentNodes));
}

hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* pType) {
  if (!known_node(node) || pType == nullptr) return result(hipErrorInvalidValue);
  *pType = node->type;
  return hipSuccess;
}

hipError_t hipGraphDestroyNode(hipGraphNode_t node) {
  if (!known_node(node)) return result(hipErrorInvalidValue);
  ihipGraph* graph = node->graph;
  for (hipGraphNode* d : node->dependencies) {
    auto& out = d->dependents;
    out.erase(std::remove(out.begin(), out.end(), node), out.end());
  }
  for (hipGraphNode* d : node->dependents) {
    auto& in = d->dependencies;
    in.erase(std::remove(in.begin(), in.end(), node), in.end());
  }
  if (node->child) {
    std::lock_guard lock(g_graphs_mutex);
    g_graphs.erase(node->child.get());
  }
  graph->nodes.erase(std::remove_if(graph->nodes.begin(), graph->nodes.end(),
                                    [node](const std::unique_ptr<hipGraphNode>& n) { return n.get() == node; }),
                     graph->nodes.end());
  return hipSuccess;
}

hipError_t hipGraphClone(hipGraph_t* pGraphClone, hipGraph_t originalGraph) {
  if (pGraphClone == nullptr || !known_graph(originalGraph)) return result(hipErrorInvalidValue);
  std::unique_ptr<ihipGraph> copy = clone(*originalGraph);
  track(copy.get());
  *pGraphClone = copy.release();
  return hipSuccess;
}

hipError_t hipGraphNodeFindInClone(hipGraphNode_t* pNode, hipGraphNode_t originalNode, hipGraph_t clonedGraph) {
  if (pNode == nullptr || originalNode == nullptr || !known_graph(clonedGraph)) return result(hipErrorInvalidValue);
  auto it = clonedGraph->clone_of.find(originalNode);
  if (it == clonedGraph->clone_of.end()) return result(hipErrorInvalidValue);
  *pNode = it->second;
  return hipSuccess;
}

hipError_t hipGraphInstantiate(hipGraphExec_t* pGraphExec, hipGraph_t graph, hipGraphNode_t* pErrorNode,
                               char* pLogBuffer, size_t bufferSize) {
  if (pGraphExec == nullptr || !known_graph(graph)) return result(hipErrorInvalidValue);
  auto exec = std::make_unique<hipGraphExec>();
  exec->graph = clone(*graph);
  if (!topological_order(*exec->graph, &exec->order)) {
    if (pErrorNode != nullptr) *pErrorNode = nullptr;
    if (pLogBuffer != nullptr && bufferSize > 0) std::snprintf(pLogBuffer, bufferSize, "graph has a cycle");
    return result(hipErrorInvalidValue);
  }
  if (pLogBuffer != nullptr && bufferSize > 0) pLogBuffer[0] = '\0';
  if (rocref::hip::hip_mutant_active(rocref::hip::HipMutant::GraphReversedOrder)) {
    std::reverse(exec->order.begin(), exec->order.end());
  }
  {
    std::lock_guard lock(g_graphs_mutex);
    g_execs.insert(exec.get());
  }
  *pGraphExec = exec.release();
  return hipSuccess;
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* pGraphExec, hipGraph_t graph, unsigned long long flags) {
  // HIP 5.2.3 knows hipGraphInstantiateFlagAutoFreeOnLaunch only.
  if (flags != 0 && flags != hipGraphInstantiateFlagAutoFreeOnLaunch) return result(hipErrorInvalidValue);
  return hipGraphInstantiate(pGraphExec, graph, nullptr, nullptr, 0);
}

hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
  if (!known_exec(graphExec)) return result(hipErrorInvalidValue);
  if (rocref::hip::resolve_stream(stream) == nullptr) return result(hipErrorInvalidValue);
  return result(run(*graphExec->graph, graphExec->order, stream));
}

hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
  if (!known_exec(graphExec)) return result(hipErrorInvalidValue);
  {
    std::lock_guard lock(g_graphs_mutex);
    g_execs.erase(graphExec);
  }
  delete graphExec;
  return hipSuccess;
}

hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph, hipGraphNode_t* hErrorNode_out,
                              hipGraphExecUpdateResult* updateResult_out) {
  if (!known_exec(hGraphExec) || !known_graph(hGraph) || updateResult_out == nullptr) return result(hipErrorInvalidValue);
  if (hErrorNode_out != nullptr) *hErrorNode_out = nullptr;
  ihipGraph& current = *hGraphExec->graph;
  // Same topology: node i of the new graph takes the place of node i of the instantiated one.
  if (current.nodes.size() != hGraph->nodes.size()) {
    *updateResult_out = hipGraphExecUpdateErrorTopologyChanged;
    return result(hipErrorGraphExecUpdateFailure);
  }
  std::map<const hipGraphNode*, size_t> index_new, index_old;
  for (size_t i = 0; i < hGraph->nodes.size(); ++i) {
    index_new[hGraph->nodes[i].get()] = i;
    index_old[current.nodes[i].get()] = i;
  }
  for (size_t i = 0; i < hGraph->nodes.size(); ++i) {
    const hipGraphNode& a = *current.nodes[i];
    const hipGraphNode& b = *hGraph->nodes[i];
    auto fail = [&](hipGraphExecUpdateResult why) {
      *updateResult_out = why;
      if (hErrorNode_out != nullptr) *hErrorNode_out = hGraph->nodes[i].get();
      return result(hipErrorGraphExecUpdateFailure);
    };
    if (a.dependencies.size() != b.dependencies.size()) return fail(hipGraphExecUpdateErrorTopologyChanged);
    for (size_t d = 0; d < a.dependencies.size(); ++d) {
      if (index_old[a.dependencies[d]] != index_new[b.dependencies[d]]) return fail(hipGraphExecUpdateErrorTopologyChanged);
    }
    if (a.type != b.type) return fail(hipGraphExecUpdateErrorNodeTypeChanged);
    if (a.type == hipGraphNodeTypeKernel && a.kernel.func != b.kernel.func) {
      return fail(hipGraphExecUpdateErrorFunctionChanged);
    }
  }
  std::unique_ptr<ihipGraph> updated = clone(*hGraph);
  // Keep the mapping from the originally instantiated graph's nodes to the exec's nodes.
  for (auto& [original, old_copy] : current.clone_of) {
    updated->clone_of[original] = updated->nodes[index_old[old_copy]].get();
  }
  hGraphExec->graph = std::move(updated);
  topological_order(*hGraphExec->graph, &hGraphExec->order);
  *updateResult_out = hipGraphExecUpdateSuccess;
  return hipSuccess;
}

// Kernel nodes.
hipError_t hipGraphAddKernelNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                 size_t numDependencies, const hipKernelNodeParams* pNodeParams) {
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeKernel,
                         [&](hipGraphNode* n) { return set_kernel(n, pNodeParams); }));
}

hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeKernel || pNodeParams == nullptr) {
    return result(hipErrorInvalidValue);
  }
  *pNodeParams = node->kernel;
  return hipSuccess;
}

hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeKernel) return result(hipErrorInvalidValue);
  return result(set_kernel(node, pNodeParams));
}

hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams* pNodeParams) {
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeKernel) return result(hipErrorInvalidValue);
  if (pNodeParams != nullptr && pNodeParams->func != n->kernel.func) return result(hipErrorInvalidValue);
  return result(set_kernel(n, pNodeParams));
}

hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                          const hipKernelNodeAttrValue* value) {
  if (!known_node(hNode) || hNode->type != hipGraphNodeTypeKernel || value == nullptr) return result(hipErrorInvalidValue);
  if (attr != hipKernelNodeAttributeAccessPolicyWindow && attr != hipKernelNodeAttributeCooperative) {
    return result(hipErrorInvalidValue);
  }
  hNode->attributes[attr - 1] = *value;
  return hipSuccess;
}

hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr, hipKernelNodeAttrValue* value) {
  if (!known_node(hNode) || hNode->type != hipGraphNodeTypeKernel || value == nullptr) return result(hipErrorInvalidValue);
  if (attr != hipKernelNodeAttributeAccessPolicyWindow && attr != hipKernelNodeAttributeCooperative) {
    return result(hipErrorInvalidValue);
  }
  *value = hNode->attributes[attr - 1];
  return hipSuccess;
}

// Copy nodes.
hipError_t hipGraphAddMemcpyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                 size_t numDependencies, const hipMemcpy3DParms* pCopyParams) {
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpy,
                         [&](hipGraphNode* n) { return set_copy3d(n, pCopyParams); }));
}

hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeMemcpy || pNodeParams == nullptr) {
    return result(hipErrorInvalidValue);
  }
  *pNodeParams = node->copy3d;
  return hipSuccess;
}

hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeMemcpy) return result(hipErrorInvalidValue);
  return result(set_copy3d(node, pNodeParams));
}

hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           hipMemcpy3DParms* pNodeParams) {
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeMemcpy) return result(hipErrorInvalidValue);
  return result(set_copy3d(n, pNodeParams));
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                   size_t numDependencies, void* dst, const void* src, size_t count, hipMemcpyKind kind) {
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpy1D,
                         [&](hipGraphNode* n) { return set_copy1d(n, dst, src, count, kind); }));
}

hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void* dst, const void* src, size_t count,
                                         hipMemcpyKind kind) {
  if (!known_node(node) || node->type != hipGraphNodeTypeMemcpy1D || count == 0 || src == dst) {
    return result(hipErrorInvalidValue);
  }
  return result(set_copy1d(node, dst, src, count, kind));
}

hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node, void* dst, const void* src,
                                             size_t count, hipMemcpyKind kind) {
  if (count == 0 || src == dst) return result(hipErrorInvalidValue);
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeMemcpy1D) return result(hipErrorInvalidValue);
  return result(set_copy1d(n, dst, src, count, kind));
}

hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                           const void* symbol, size_t count, size_t offset, hipMemcpyKind kind) {
  if (pDependencies == nullptr) return result(hipErrorInvalidValue);  // HIP 5.2.3 asks for the array even when empty
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpyFromSymbol,
                         [&](hipGraphNode* n) { return set_symbol_copy(n, dst, symbol, count, offset, kind, false); }));
}

hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void* dst, const void* symbol, size_t count,
                                                 size_t offset, hipMemcpyKind kind) {
  if (symbol == nullptr) return result(hipErrorInvalidSymbol);
  if (count == 0 || symbol == dst) return result(hipErrorInvalidValue);
  if (!known_node(node) || node->type != hipGraphNodeTypeMemcpyFromSymbol) return result(hipErrorInvalidValue);
  return result(set_symbol_copy(node, dst, symbol, count, offset, kind, false));
}

hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node, void* dst,
                                                     const void* symbol, size_t count, size_t offset,
                                                     hipMemcpyKind kind) {
  if (symbol == nullptr) return result(hipErrorInvalidSymbol);
  if (count == 0 || symbol == dst) return result(hipErrorInvalidValue);
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeMemcpyFromSymbol) return result(hipErrorInvalidValue);
  return result(set_symbol_copy(n, dst, symbol, count, offset, kind, false));
}

hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t* pDependencies, size_t numDependencies,
                                         const void* symbol, const void* src, size_t count, size_t offset,
                                         hipMemcpyKind kind) {
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemcpyToSymbol,
                         [&](hipGraphNode* n) {
                           return set_symbol_copy(n, const_cast<void*>(src), symbol, count, offset, kind, true);
                         }));
}

hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void* symbol, const void* src, size_t count,
                                               size_t offset, hipMemcpyKind kind) {
  if (symbol == nullptr) return result(hipErrorInvalidSymbol);
  if (count == 0 || symbol == src) return result(hipErrorInvalidValue);
  if (!known_node(node) || node->type != hipGraphNodeTypeMemcpyToSymbol) return result(hipErrorInvalidValue);
  return result(set_symbol_copy(node, const_cast<void*>(src), symbol, count, offset, kind, true));
}

hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node, const void* symbol,
                                                   const void* src, size_t count, size_t offset, hipMemcpyKind kind) {
  if (symbol == nullptr) return result(hipErrorInvalidSymbol);
  if (count == 0 || symbol == src) return result(hipErrorInvalidValue);
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeMemcpyToSymbol) return result(hipErrorInvalidValue);
  return result(set_symbol_copy(n, const_cast<void*>(src), symbol, count, offset, kind, true));
}

// Memset nodes.
hipError_t hipGraphAddMemsetNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                 size_t numDependencies, const hipMemsetParams* pMemsetParams) {
  if (pMemsetParams != nullptr && pMemsetParams->height == 0) return result(hipErrorInvalidValue);  // HIP 5.2.3
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeMemset,
                         [&](hipGraphNode* n) { return set_memset(n, pMemsetParams); }));
}

hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeMemset || pNodeParams == nullptr) {
    return result(hipErrorInvalidValue);
  }
  *pNodeParams = node->memset;
  return hipSuccess;
}

hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeMemset) return result(hipErrorInvalidValue);
  return result(set_memset(node, pNodeParams));
}

hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipMemsetParams* pNodeParams) {
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeMemset) return result(hipErrorInvalidValue);
  return result(set_memset(n, pNodeParams));
}

// Host nodes.
hipError_t hipGraphAddHostNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                               size_t numDependencies, const hipHostNodeParams* pNodeParams) {
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeHost, [&](hipGraphNode* n) {
    if (pNodeParams == nullptr || pNodeParams->fn == nullptr) return hipErrorInvalidValue;
    n->host = *pNodeParams;
    return hipSuccess;
  }));
}

hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeHost || pNodeParams == nullptr) {
    return result(hipErrorInvalidValue);
  }
  *pNodeParams = node->host;
  return hipSuccess;
}

hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams* pNodeParams) {
  if (!known_node(node) || node->type != hipGraphNodeTypeHost || pNodeParams == nullptr || pNodeParams->fn == nullptr ||
      pNodeParams->userData == nullptr) {
    return result(hipErrorInvalidValue);
  }
  node->host = *pNodeParams;
  return hipSuccess;
}

hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                         const hipHostNodeParams* pNodeParams) {
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeHost || pNodeParams == nullptr || pNodeParams->fn == nullptr ||
      pNodeParams->userData == nullptr) {
    return result(hipErrorInvalidValue);
  }
  n->host = *pNodeParams;
  return hipSuccess;
}

// Child graph nodes hold a copy of the child graph, as CUDA's do.
hipError_t hipGraphAddChildGraphNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                     size_t numDependencies, hipGraph_t childGraph) {
  if (!known_graph(childGraph) || childGraph == graph) return result(hipErrorInvalidValue);
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeGraph, [&](hipGraphNode* n) {
    n->child = clone(*childGraph);
    track(n->child.get());
    return hipSuccess;
  }));
}

hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t* pGraph) {
  if (!known_node(node) || node->type != hipGraphNodeTypeGraph || pGraph == nullptr) return result(hipErrorInvalidValue);
  *pGraph = node->child.get();
  return hipSuccess;
}

hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, hipGraph_t childGraph) {
  if (!known_exec(hGraphExec) || node == nullptr || !known_graph(childGraph)) return result(hipErrorInvalidValue);
  if (known_node(node) && childGraph == node->graph) return result(hipErrorUnknown);  // HIP 5.2.3: its own graph
  hipGraphNode* n = exec_node(hGraphExec, node);
  if (n == nullptr || n->type != hipGraphNodeTypeGraph || !known_graph(childGraph)) return result(hipErrorInvalidValue);
  if (childGraph->nodes.size() != n->child->nodes.size()) return result(hipErrorInvalidValue);  // same topology only
  n->child = clone(*childGraph);
  track(n->child.get());
  return hipSuccess;
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                size_t numDependencies) {
  return result(add_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeEmpty,
                         [](hipGraphNode*) { return hipSuccess; }));
}

// Event nodes.
namespace {
hipError_t event_node(hipGraphNode_t* out, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                      hipGraphNodeType type, hipEvent_t event) {
  return add_node(out, graph, deps, count, type, [&](hipGraphNode* n) {
    if (event == nullptr) return hipErrorInvalidValue;
    n->event = event;
    return hipSuccess;
  });
}
hipError_t get_event(hipGraphNode_t node, hipGraphNodeType type, hipEvent_t* out) {
  if (!known_node(node) || node->type != type || out == nullptr) return hipErrorInvalidValue;
  *out = node->event;
  return hipSuccess;
}
hipError_t set_event(hipGraphNode* node, hipGraphNodeType type, hipEvent_t event) {
  if (node == nullptr || node->type != type || event == nullptr) return hipErrorInvalidValue;
  node->event = event;
  return hipSuccess;
}
}  // namespace

hipError_t hipGraphAddEventRecordNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                      size_t numDependencies, hipEvent_t event) {
  return result(event_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeEventRecord, event));
}
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t* event_out) {
  return result(get_event(node, hipGraphNodeTypeEventRecord, event_out));
}
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  if (!known_node(node)) return result(hipErrorInvalidValue);
  return result(set_event(node, hipGraphNodeTypeEventRecord, event));
}
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event) {
  return result(set_event(exec_node(hGraphExec, hNode), hipGraphNodeTypeEventRecord, event));
}
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                    size_t numDependencies, hipEvent_t event) {
  return result(event_node(pGraphNode, graph, pDependencies, numDependencies, hipGraphNodeTypeWaitEvent, event));
}
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t* event_out) {
  return result(get_event(node, hipGraphNodeTypeWaitEvent, event_out));
}
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  if (!known_node(node)) return result(hipErrorInvalidValue);
  return result(set_event(node, hipGraphNodeTypeWaitEvent, event));
}
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event) {
  return result(set_event(exec_node(hGraphExec, hNode), hipGraphNodeTypeWaitEvent, event));
}
