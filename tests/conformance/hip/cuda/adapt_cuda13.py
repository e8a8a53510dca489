#!/usr/bin/env python3
"""adapt_cuda13.py SRC DST: Debian's HIP 5.2.3 headers (SRC, e.g. /usr/include/hip) rewritten for
CUDA 13 into DST/hip.

HIP 5.2.3's NVIDIA path (hip/nvidia_detail) was written for CUDA 11. CUDA 12 removed texture
references; CUDA 13 removed cudaDeviceProp fields (clockRate, memoryClockRate, computeMode,
kernelExecTimeoutEnabled, cooperativeMultiDeviceLaunch), multi-device cooperative launch, and
takes a cudaMemLocation in cudaMemAdvise/cudaMemPrefetchAsync and a params argument in
cuCtxCreate. Each rewrite below names what it stands in for; each must match exactly once
(or the given count), so a different header fails loudly instead of being half adapted. What a
rewrite makes unsupported is an expected deviation of the hip-cuda column (expected_deviations.tsv).
"""
import pathlib
import re
import shutil
import sys

HEADER = "nvidia_detail/nvidia_hip_runtime_api.h"

PRELUDE = """
// adapt_cuda13.py: CUDA 13 answers these through cudaDeviceGetAttribute and cudaMemLocation.
static inline int hipCuda13Attribute(enum cudaDeviceAttr attr, int device) {
    int value = 0;
    return cudaDeviceGetAttribute(&value, attr, device) == cudaSuccess ? value : 0;
}
static inline struct cudaMemLocation hipCuda13Location(int device) {
    struct cudaMemLocation location;
    location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    location.id = device;
    return location;
}
"""

# (old text, new text, occurrences)
REWRITES = [
    ("#include <stdio.h>\n", "#include <stdio.h>\n" + PRELUDE, 1),
    # cudaMemAdvise / cudaMemPrefetchAsync take a location.
    ("hipMemoryAdviseTocudaMemoryAdvise(advice), device)", "hipMemoryAdviseTocudaMemoryAdvise(advice), hipCuda13Location(device))", 1),
    ("cudaMemPrefetchAsync(dev_ptr, count, device, stream)", "cudaMemPrefetchAsync(dev_ptr, count, hipCuda13Location(device), 0, stream)", 1),
    # hipChooseDevice: the removed fields cannot be asked for.
    ("    cdprop.clockRate = prop->clockRate;\n", "", 1),
    ("    cdprop.computeMode = prop->computeMode;\n", "", 1),
    ("    cdprop.memoryClockRate = prop->memoryClockRate;\n", "", 1),
    # hipGetDeviceProperties: the removed fields through device attributes.
    ("= cdprop.clockRate;", "= hipCuda13Attribute(cudaDevAttrClockRate, device);", 2),
    ("= cdprop.memoryClockRate;", "= hipCuda13Attribute(cudaDevAttrMemoryClockRate, device);", 1),
    ("= cdprop.computeMode;", "= hipCuda13Attribute(cudaDevAttrComputeMode, device);", 1),
    ("= cdprop.kernelExecTimeoutEnabled;", "= hipCuda13Attribute(cudaDevAttrKernelExecTimeout, device);", 1),
    ("= cdprop.cooperativeMultiDeviceLaunch;", "= 0;", 1),
    # Multi-device cooperative launch is gone: the attribute reads 0, the launch is unsupported.
    ("cdattr = cudaDevAttrCooperativeMultiDeviceLaunch;\n            break;", "*pi = 0;\n            return hipSuccess;", 1),
    ("cudaLaunchCooperativeKernelMultiDevice(launchParamsList, numDevices, flags)", "cudaErrorNotSupported", 1),
    # Texture references are gone (CUDA 12).
    ("cudaBindTexture(offset, tex, devPtr, desc, size)", "cudaErrorNotSupported", 1),
    ("cudaBindTexture2D(offset, tex, devPtr, desc, width, height, pitch)", "cudaErrorNotSupported", 1),
    ("cudaGetTextureAlignmentOffset(offset,texref)", "cudaErrorNotSupported", 1),
    # Graph edges carry edge data (CUDA 13 made the *_v2 forms the only ones): none is passed.
    ("cudaGraphAddDependencies(graph, from, to, numDependencies)", "cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies)", 1),
    ("cudaGraphRemoveDependencies(graph, from, to, numDependencies)", "cudaGraphRemoveDependencies(graph, from, to, nullptr, numDependencies)", 1),
    ("cudaGraphGetEdges(graph, from, to, numEdges)", "cudaGraphGetEdges(graph, from, to, nullptr, numEdges)", 1),
    ("cudaGraphNodeGetDependencies(node, pDependencies, pNumDependencies)", "cudaGraphNodeGetDependencies(node, pDependencies, nullptr, pNumDependencies)", 1),
    ("cudaGraphNodeGetDependentNodes(node, pDependentNodes, pNumDependentNodes)", "cudaGraphNodeGetDependentNodes(node, pDependentNodes, nullptr, pNumDependentNodes)", 1),
    ("cudaStreamGetCaptureInfo_v2(\n        stream, captureStatus_out, id_out, graph_out, dependencies_out, numDependencies_out)",
     "cudaStreamGetCaptureInfo(\n        stream, captureStatus_out, id_out, graph_out, dependencies_out, nullptr, numDependencies_out)", 1),
    ("cudaStreamUpdateCaptureDependencies(stream, dependencies,\n                                                                      numDependencies, flags)",
     "cudaStreamUpdateCaptureDependencies(stream, dependencies, nullptr,\n                                                                      numDependencies, flags)", 1),
    # cuCtxCreate takes creation parameters.
    ("cuCtxCreate(ctx, flags, device)", "cuCtxCreate(ctx, NULL, flags, device)", 1),
]


# (pattern, replacement, occurrences): the texture<T, dim, readMode> overloads (the template
# itself is gone with texture references) are dropped whole.
REGEX_REWRITES = [
    (r"template <class T, int dim, enum cudaTextureReadMode readMode>\n(?:(?!\}\n).*\n)*?\}\n", "", 7),
]


def main() -> int:
    src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]) / "hip"
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    header = dst / HEADER
    text = header.read_text()
    for pattern, new, count in REGEX_REWRITES:
        text, found = re.subn(pattern, new, text)
        if found != count:
            print(f"adapt_cuda13.py: {pattern!r} matched {found} times, expected {count}", file=sys.stderr)
            return 1
    for old, new, count in REWRITES:
        found = text.count(old)
        if found != count:
            print(f"adapt_cuda13.py: {old!r} found {found} times, expected {count}", file=sys.stderr)
            return 1
        text = text.replace(old, new)
    header.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
