// hip/hip_graph.h - graphs: nodes with dependencies, executable copies, lowering onto a stream.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "hip/hip_runtime.h"

struct hipGraphNode {
  hipGraphNodeType type = hipGraphNodeTypeEmpty;
  ihipGraph* graph = nullptr;
  std::vector<hipGraphNode*> dependencies;  // incoming edges
  std::vector<hipGraphNode*> dependents;    // outgoing edges
  // Kernel: params.kernelParams points at `arguments`, the node's own copy.
  hipKernelNodeParams kernel{};
  void** arguments = nullptr;
  hipKernelNodeAttrValue attributes[2]{};  // AccessPolicyWindow, Cooperative
  hipMemcpy3DParms copy3d{};
  struct {
    void* dst = nullptr;
    const void* src = nullptr;
    size_t count = 0;
    hipMemcpyKind kind = hipMemcpyDefault;
    const void* symbol = nullptr;
    size_t offset = 0;
  } copy1d;
  hipMemsetParams memset{};
  hipHostNodeParams host{};
  std::unique_ptr<ihipGraph> child;
  hipEvent_t event = nullptr;

  hipGraphNode() = default;
  hipGraphNode(const hipGraphNode&) = delete;
  hipGraphNode& operator=(const hipGraphNode&) = delete;
  ~hipGraphNode();
};

struct ihipGraph {
  std::vector<std::unique_ptr<hipGraphNode>> nodes;
  std::map<const hipGraphNode*, hipGraphNode*> clone_of;  // original node -> this graph's copy (clones only)
};

struct hipGraphExec {
  std::unique_ptr<ihipGraph> graph;  // the instantiated copy
  std::vector<hipGraphNode*> order;  // topological order of graph->nodes
};
