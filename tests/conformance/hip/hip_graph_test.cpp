// tests/conformance/hip/hip_graph_test.cpp - graphs: build, instantiate, launch, update, clone, capture
// (HIP-GRAPH-1..4).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hip_suite.h"

#if HIP_SUITE_AMD_API
namespace hip_suite {
namespace {

__global__ void scale(int* data, int factor) { data[threadIdx.x] *= factor; }

void append(void* data) {
  auto* log = static_cast<std::vector<int>*>(data);
  log->push_back(1);
}

TEST(HipGraph, HIP_GRAPH_1_NodesRunAfterTheirDependencies) {
  HIP_CLAUSE("HIP-GRAPH-1");
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 64 * sizeof(int)));
  std::vector<int> host(64, 3), back(64, 0);
  hipGraph_t graph;
  ASSERT_HIP_OK(hipGraphCreate(&graph, 0));
  hipGraphNode_t upload, kernel, download, done;
  ASSERT_HIP_OK(hipGraphAddMemcpyNode1D(&upload, graph, nullptr, 0, d, host.data(), 64 * sizeof(int),
                                        hipMemcpyHostToDevice));
  int factor = 7;
  void* args[] = {&d, &factor};
  // rocref learns a host-compiled kernel's parameters from a typed call (HIP-LNC-4).
  hipFuncAttributes attr;
  ASSERT_HIP_OK(hipFuncGetAttributes(&attr, HIP_SUITE_KERNEL(scale)));
  hipKernelNodeParams k = {};
  k.func = reinterpret_cast<void*>(&scale);
  k.gridDim = dim3(1);
  k.blockDim = dim3(64);
  k.kernelParams = args;
  ASSERT_HIP_OK(hipGraphAddKernelNode(&kernel, graph, &upload, 1, &k));
  factor = 100;  // the node keeps its own copy of the arguments
  ASSERT_HIP_OK(hipGraphAddMemcpyNode1D(&download, graph, &kernel, 1, back.data(), d, 64 * sizeof(int),
                                        hipMemcpyDeviceToHost));
  std::vector<int> log;
  hipHostNodeParams h = {append, &log};
  ASSERT_HIP_OK(hipGraphAddHostNode(&done, graph, &download, 1, &h));
  size_t count = 0;
  ASSERT_HIP_OK(hipGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 4u);
  ASSERT_HIP_OK(hipGraphGetRootNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 1u);
  ASSERT_HIP_OK(hipGraphGetEdges(graph, nullptr, nullptr, &count));
  EXPECT_EQ(count, 3u);
  hipGraphNodeType type;
  ASSERT_HIP_OK(hipGraphNodeGetType(kernel, &type));
  EXPECT_EQ(type, hipGraphNodeTypeKernel);
  hipGraphExec_t exec;
  ASSERT_HIP_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  hipStream_t s;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  ASSERT_HIP_OK(hipGraphLaunch(exec, s));
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  EXPECT_EQ(back, std::vector<int>(64, 21));
  EXPECT_EQ(log.size(), 1u);
  ASSERT_HIP_OK(hipGraphLaunch(exec, s));  // launchable again
  ASSERT_HIP_OK(hipStreamSynchronize(s));
  EXPECT_EQ(log.size(), 2u);
  ASSERT_HIP_OK(hipGraphExecDestroy(exec));
  ASSERT_HIP_OK(hipGraphDestroy(graph));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  ASSERT_HIP_OK(hipFree(d));
}

TEST(HipGraph, HIP_GRAPH_1_CyclesAndBadEdgesAreRejected) {
  HIP_CLAUSE("HIP-GRAPH-1");
  hipGraph_t graph;
  ASSERT_HIP_OK(hipGraphCreate(&graph, 0));
  hipGraphNode_t a, b;
  ASSERT_HIP_OK(hipGraphAddEmptyNode(&a, graph, nullptr, 0));
  ASSERT_HIP_OK(hipGraphAddEmptyNode(&b, graph, &a, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddDependencies(graph, &a, &b, 1));  // already an edge
  ASSERT_HIP_OK(hipGraphRemoveDependencies(graph, &a, &b, 1));
  size_t count = 7;
  ASSERT_HIP_OK(hipGraphNodeGetDependencies(b, nullptr, &count));
  EXPECT_EQ(count, 0u);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphCreate(nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(nullptr, graph, nullptr, 0));
  ASSERT_HIP_OK(hipGraphDestroy(graph));
  hipGetLastError();
}

TEST(HipGraph, HIP_GRAPH_2_ExecUpdateAndClone) {
  HIP_CLAUSE("HIP-GRAPH-2");
  void* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(&d, 256));
  hipGraph_t graph;
  ASSERT_HIP_OK(hipGraphCreate(&graph, 0));
  hipMemsetParams m = {};
  m.dst = d;
  m.elementSize = 1;
  m.width = 256;
  m.height = 1;
  m.value = 0x11;
  hipGraphNode_t set;
  ASSERT_HIP_OK(hipGraphAddMemsetNode(&set, graph, nullptr, 0, &m));
  hipGraphExec_t exec;
  ASSERT_HIP_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  m.value = 0x22;
  ASSERT_HIP_OK(hipGraphExecMemsetNodeSetParams(exec, set, &m));
  ASSERT_HIP_OK(hipGraphLaunch(exec, nullptr));
  ASSERT_HIP_OK(hipStreamSynchronize(nullptr));
  uint8_t back[256];
  ASSERT_HIP_OK(hipMemcpy(back, d, 256, hipMemcpyDeviceToHost));
  for (uint8_t v : back) ASSERT_EQ(v, 0x22);
  // The graph itself kept its own parameters.
  hipMemsetParams kept = {};
  ASSERT_HIP_OK(hipGraphMemsetNodeGetParams(set, &kept));
  EXPECT_EQ(kept.value, 0x11u);
  hipGraph_t copy;
  ASSERT_HIP_OK(hipGraphClone(&copy, graph));
  hipGraphNode_t cloned;
  ASSERT_HIP_OK(hipGraphNodeFindInClone(&cloned, set, copy));
  EXPECT_NE(cloned, set);
  // A graph with another topology cannot update the executable graph.
  hipGraphNode_t extra;
  ASSERT_HIP_OK(hipGraphAddEmptyNode(&extra, copy, &cloned, 1));
  hipGraphNode_t error_node = nullptr;
  hipGraphExecUpdateResult why = hipGraphExecUpdateSuccess;
  EXPECT_HIP(hipErrorGraphExecUpdateFailure, hipGraphExecUpdate(exec, copy, &error_node, &why));
  EXPECT_EQ(why, hipGraphExecUpdateErrorTopologyChanged);
  ASSERT_HIP_OK(hipGraphExecDestroy(exec));
  ASSERT_HIP_OK(hipGraphDestroy(copy));
  ASSERT_HIP_OK(hipGraphDestroy(graph));
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

TEST(HipGraph, HIP_GRAPH_3_StreamCaptureRecordsWork) {
  HIP_CLAUSE("HIP-GRAPH-3");
  constexpr int n = 64;
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(int)));
  std::vector<int> host(n, 3), back(n, 0);
  std::vector<int> log;
  hipStream_t stream = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&stream));
  hipStreamCaptureStatus status = hipStreamCaptureStatusActive;
  ASSERT_HIP_OK(hipStreamIsCapturing(stream, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusNone);
  ASSERT_HIP_OK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  EXPECT_HIP(hipErrorIllegalState, hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  hipGetLastError();
  ASSERT_HIP_OK(hipMemcpyAsync(d, host.data(), n * sizeof(int), hipMemcpyHostToDevice, stream));
  hipLaunchKernelGGL(scale, dim3(1), dim3(n), 0, stream, d, 5);
  ASSERT_HIP_OK(hipGetLastError());
  ASSERT_HIP_OK(hipMemcpyAsync(back.data(), d, n * sizeof(int), hipMemcpyDeviceToHost, stream));
#if defined(ROCREF_HIP_HOST_KERNELS)
  ASSERT_HIP_OK(hipLaunchHostFunc(stream, append, &log));
  constexpr size_t kNodes = 4;
#else
  constexpr size_t kNodes = 3;  // Debian's libamdhip64 5.2.3 does not export hipLaunchHostFunc (HIP-STR-7)
#endif
  // Recorded, not run.
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(back, std::vector<int>(n, 0));
  unsigned long long id = 0;
  hipGraph_t captured = nullptr;
  const hipGraphNode_t* leaves = nullptr;
  size_t leaf_count = 0;
  ASSERT_HIP_OK(hipStreamGetCaptureInfo_v2(stream, &status, &id, &captured, &leaves, &leaf_count));
  EXPECT_EQ(status, hipStreamCaptureStatusActive);
  EXPECT_NE(id, 0u);
  EXPECT_NE(captured, nullptr);
  EXPECT_EQ(leaf_count, 1u);
  hipGraph_t graph = nullptr;
  ASSERT_HIP_OK(hipStreamEndCapture(stream, &graph));
  ASSERT_NE(graph, nullptr);
  ASSERT_HIP_OK(hipStreamIsCapturing(stream, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusNone);
  size_t count = 0;
  ASSERT_HIP_OK(hipGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, kNodes);
  size_t roots = 0;
  ASSERT_HIP_OK(hipGraphGetRootNodes(graph, nullptr, &roots));
  EXPECT_EQ(roots, 1u);  // a chain in the stream's order
  hipGraphExec_t exec = nullptr;
  ASSERT_HIP_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  ASSERT_HIP_OK(hipGraphLaunch(exec, stream));
  ASSERT_HIP_OK(hipStreamSynchronize(stream));
  EXPECT_EQ(back, std::vector<int>(n, 15));
  ASSERT_HIP_OK(hipGraphLaunch(exec, stream));
  ASSERT_HIP_OK(hipStreamSynchronize(stream));
  EXPECT_EQ(log.size(), (kNodes - 3) * 2);
  ASSERT_HIP_OK(hipGraphExecDestroy(exec));
  ASSERT_HIP_OK(hipGraphDestroy(graph));

  // Ending a capture that was not begun, and capturing the legacy null stream, are refused.
  EXPECT_HIP(hipErrorStreamCaptureUnmatched, hipStreamEndCapture(stream, &graph));
  EXPECT_HIP(hipErrorStreamCaptureUnsupported, hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal));
  // Waiting for a capturing stream cannot be captured: it invalidates the capture.
  ASSERT_HIP_OK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  EXPECT_HIP(hipErrorStreamCaptureUnsupported, hipStreamSynchronize(stream));
  ASSERT_HIP_OK(hipStreamIsCapturing(stream, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusInvalidated);
  graph = nullptr;
  EXPECT_HIP(hipErrorStreamCaptureInvalidated, hipStreamEndCapture(stream, &graph));
  EXPECT_EQ(graph, nullptr);
  ASSERT_HIP_OK(hipStreamDestroy(stream));
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

size_t node_count(hipGraphNode_t node, bool dependencies) {
  size_t count = 0;
  const hipError_t e = dependencies ? hipGraphNodeGetDependencies(node, nullptr, &count)
                                    : hipGraphNodeGetDependentNodes(node, nullptr, &count);
  return e == hipSuccess ? count : 99;
}

TEST(HipGraph, HIP_GRAPH_4_EventsForkAndJoinCapturingStreams) {
  HIP_CLAUSE("HIP-GRAPH-4");
  constexpr size_t bytes = 256;
  unsigned char *a = nullptr, *b = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&a), bytes));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&b), bytes));
  std::vector<unsigned char> back_a(bytes, 0), back_b(bytes, 0);
  hipStream_t s1 = nullptr, s2 = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s1));
  ASSERT_HIP_OK(hipStreamCreate(&s2));
  hipEvent_t fork = nullptr, join = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&fork));
  ASSERT_HIP_OK(hipEventCreate(&join));
  ASSERT_HIP_OK(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  ASSERT_HIP_OK(hipMemsetAsync(a, 1, bytes, s1));
  // Recording an event in a capture is captured, not refused; waiting on it joins s2 to the capture.
  ASSERT_HIP_OK(hipEventRecord(fork, s1));
  ASSERT_HIP_OK(hipStreamWaitEvent(s2, fork, 0));
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  ASSERT_HIP_OK(hipStreamIsCapturing(s2, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusActive);
  ASSERT_HIP_OK(hipMemsetAsync(b, 2, bytes, s2));
  ASSERT_HIP_OK(hipEventRecord(join, s2));
  ASSERT_HIP_OK(hipStreamWaitEvent(s1, join, 0));
  ASSERT_HIP_OK(hipMemcpyAsync(back_a.data(), a, bytes, hipMemcpyDeviceToHost, s1));
  ASSERT_HIP_OK(hipMemcpyAsync(back_b.data(), b, bytes, hipMemcpyDeviceToHost, s1));
  hipGraph_t graph = nullptr;
  ASSERT_HIP_OK(hipStreamEndCapture(s1, &graph));
  ASSERT_NE(graph, nullptr);
  // memset a -> memset b (s2, after the fork) -> copy a (after the join) -> copy b.
  size_t count = 0;
  ASSERT_HIP_OK(hipGraphGetNodes(graph, nullptr, &count));
  ASSERT_EQ(count, 4u);
  std::vector<hipGraphNode_t> nodes(count);
  ASSERT_HIP_OK(hipGraphGetNodes(graph, nodes.data(), &count));
  size_t roots = 0;
  ASSERT_HIP_OK(hipGraphGetRootNodes(graph, nullptr, &roots));
  EXPECT_EQ(roots, 1u);
  std::vector<size_t> in, out;
  for (hipGraphNode_t n : nodes) {
    in.push_back(node_count(n, true));
    out.push_back(node_count(n, false));
  }
  // The memset of a feeds both streams; the copy after the join waits for both memsets.
  EXPECT_EQ(std::count(in.begin(), in.end(), 2u), 1);
  EXPECT_EQ(std::count(out.begin(), out.end(), 2u), 1);
  ASSERT_HIP_OK(hipGraphGetEdges(graph, nullptr, nullptr, &count));
  EXPECT_EQ(count, 4u);
  hipGraphExec_t exec = nullptr;
  ASSERT_HIP_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  ASSERT_HIP_OK(hipGraphLaunch(exec, s1));
  ASSERT_HIP_OK(hipStreamSynchronize(s1));
  EXPECT_EQ(back_a, std::vector<unsigned char>(bytes, 1));
  EXPECT_EQ(back_b, std::vector<unsigned char>(bytes, 2));
  ASSERT_HIP_OK(hipGraphExecDestroy(exec));
  ASSERT_HIP_OK(hipGraphDestroy(graph));

  // A fork that never joins: hipStreamEndCapture is hipErrorStreamCaptureUnjoined.
  hipStream_t s3 = nullptr, s4 = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s3));
  ASSERT_HIP_OK(hipStreamCreate(&s4));
  ASSERT_HIP_OK(hipStreamBeginCapture(s3, hipStreamCaptureModeGlobal));
  ASSERT_HIP_OK(hipMemsetAsync(a, 3, bytes, s3));
  ASSERT_HIP_OK(hipEventRecord(fork, s3));
  ASSERT_HIP_OK(hipStreamWaitEvent(s4, fork, 0));
  ASSERT_HIP_OK(hipMemsetAsync(b, 4, bytes, s4));
  ASSERT_HIP_OK(hipMemsetAsync(a, 5, bytes, s3));
  EXPECT_HIP(hipErrorStreamCaptureUnjoined, hipStreamEndCapture(s3, &graph));
  hipGetLastError();
  ASSERT_HIP_OK(hipStreamDestroy(s4));
  ASSERT_HIP_OK(hipStreamDestroy(s3));
  ASSERT_HIP_OK(hipStreamDestroy(s2));
  ASSERT_HIP_OK(hipStreamDestroy(s1));
  ASSERT_HIP_OK(hipEventDestroy(fork));
  ASSERT_HIP_OK(hipEventDestroy(join));
  ASSERT_HIP_OK(hipFree(a));
  ASSERT_HIP_OK(hipFree(b));
}

void nothing(void*) {}

TEST(HipGraph, HIP_GRAPH_4_ArgumentChecksAsHip523) {
  HIP_CLAUSE("HIP-GRAPH-4");
  int* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 256));
  std::vector<int> host(64, 0);
  hipGraph_t graph = nullptr, child = nullptr, gone = nullptr;
  ASSERT_HIP_OK(hipGraphCreate(&graph, 0));
  ASSERT_HIP_OK(hipGraphCreate(&child, 0));
  hipGraphNode_t copy = nullptr, host_node = nullptr, memset_node = nullptr, child_node = nullptr;
  ASSERT_HIP_OK(hipGraphAddMemcpyNode1D(&copy, graph, nullptr, 0, d, host.data(), 256, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphMemcpyNodeSetParams1D(copy, d, host.data(), 0, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphMemcpyNodeSetParams1D(copy, d, d, 256, hipMemcpyDeviceToDevice));
  hipMemsetParams m = {};
  m.dst = d;
  m.elementSize = 4;
  m.width = 64;
  m.height = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &m));
  m.height = 1;
  ASSERT_HIP_OK(hipGraphAddMemsetNode(&memset_node, graph, &copy, 1, &m));
  int data = 0;
  hipHostNodeParams h = {nothing, &data};
  ASSERT_HIP_OK(hipGraphAddHostNode(&host_node, graph, &memset_node, 1, &h));
  h.userData = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphHostNodeSetParams(host_node, &h));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphRemoveDependencies(graph, nullptr, nullptr, 0));
  ASSERT_HIP_OK(hipGraphAddChildGraphNode(&child_node, graph, nullptr, 0, child));
  hipGraphExec_t exec = nullptr;
  ASSERT_HIP_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  // A child graph node cannot take the graph it belongs to.
  EXPECT_HIP(hipErrorUnknown, hipGraphExecChildGraphNodeSetParams(exec, child_node, graph));
  ASSERT_HIP_OK(hipGraphExecDestroy(exec));
  // A graph destroyed already is an illegal state, not an invalid value.
  ASSERT_HIP_OK(hipGraphCreate(&gone, 0));
  ASSERT_HIP_OK(hipGraphDestroy(gone));
  EXPECT_HIP(hipErrorIllegalState, hipGraphDestroy(gone));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroy(nullptr));

  // Capture queries on the legacy null stream and bad arguments.
  hipStreamCaptureStatus status = hipStreamCaptureStatusActive;
  ASSERT_HIP_OK(hipStreamIsCapturing(nullptr, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusNone);
  unsigned long long id = 0;
  EXPECT_HIP(hipErrorUnknown, hipStreamGetCaptureInfo(nullptr, &status, &id));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamEndCapture(nullptr, &graph));
  hipStream_t s = nullptr;
  ASSERT_HIP_OK(hipStreamCreate(&s));
  hipEvent_t e = nullptr;
  ASSERT_HIP_OK(hipEventCreate(&e));
  ASSERT_HIP_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_HIP(hipErrorInvalidHandle, hipEventRecord(nullptr, s));
  ASSERT_HIP_OK(hipEventRecord(e, s));
  // The legacy null stream cannot join a capture.
  EXPECT_HIP(hipErrorInvalidValue, hipStreamWaitEvent(nullptr, e, 0));
  // Flags other than add and set change nothing and succeed.
  EXPECT_HIP(hipSuccess, hipStreamUpdateCaptureDependencies(s, nullptr, 0, 7));
  hipGraph_t captured = nullptr;
  ASSERT_HIP_OK(hipStreamEndCapture(s, &captured));
  ASSERT_NE(captured, nullptr);
  ASSERT_HIP_OK(hipGraphDestroy(captured));
  ASSERT_HIP_OK(hipEventDestroy(e));
  ASSERT_HIP_OK(hipStreamDestroy(s));
  ASSERT_HIP_OK(hipGraphDestroy(graph));
  ASSERT_HIP_OK(hipGraphDestroy(child));
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

}  // namespace
}  // namespace hip_suite
#endif  // HIP_SUITE_AMD_API
