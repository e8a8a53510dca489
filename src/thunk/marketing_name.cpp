// thunk/marketing_name.cpp - AMDGPU_INFO_DEV_INFO through the transport, then amdgpu.ids.
#include "thunk/marketing_name.h"

#include <libdrm/amdgpu_drm.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace rocref::thunk {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<uint32_t> hex(std::string_view s) {
  s = trim(s);
  if (s.empty() || s.size() > 8) return std::nullopt;
  uint32_t v = 0;
  for (char c : s) {
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return std::nullopt;
    v = v * 16 + static_cast<uint32_t>(d);
  }
  return v;
}

}  // namespace

std::optional<std::string> amdgpu_ids_name(std::string_view text, uint32_t device_id, uint32_t revision) {
  bool version_seen = false;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    const std::string_view line = trim(text.substr(0, eol));
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (line.empty() || line.front() == '#') continue;
    if (!version_seen) {  // the table's version, e.g. "1.0.0"
      version_seen = true;
      continue;
    }
    const size_t c1 = line.find(',');
    const size_t c2 = c1 == std::string_view::npos ? c1 : line.find(',', c1 + 1);
    if (c2 == std::string_view::npos) continue;
    const auto id = hex(line.substr(0, c1));
    const auto rev = hex(line.substr(c1 + 1, c2 - c1 - 1));
    if (id && rev && *id == device_id && *rev == revision) return std::string(trim(line.substr(c2 + 1)));
  }
  return std::nullopt;
}

std::string marketing_name(Transport& t, uint32_t render_minor) {
  const int fd = t.open_render(render_minor);
  if (fd < 0) return {};
  drm_amdgpu_info_device dev{};
  drm_amdgpu_info request{};
  request.return_pointer = reinterpret_cast<uintptr_t>(&dev);
  request.return_size = sizeof dev;
  request.query = AMDGPU_INFO_DEV_INFO;
  const int rc = t.ioctl(fd, DRM_IOCTL_AMDGPU_INFO, &request);
  t.close(fd);
  if (rc != 0) return {};
  std::ifstream in(kAmdgpuIdsPath);
  std::stringstream text;
  text << in.rdbuf();
  return amdgpu_ids_name(text.str(), dev.device_id, dev.pci_rev).value_or("");
}

std::string cpu_model_name(std::string_view cpuinfo, uint32_t first_core_apicid) {
  std::string first, current;
  while (!cpuinfo.empty()) {
    const size_t eol = cpuinfo.find('\n');
    const std::string_view line = cpuinfo.substr(0, eol);
    cpuinfo = eol == std::string_view::npos ? std::string_view{} : cpuinfo.substr(eol + 1);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "model name") {
      current = std::string(value);
      if (first.empty()) first = current;
    } else if (key == "apicid" && !current.empty()) {
      uint64_t id = 0;
      bool digits = !value.empty();
      for (char c : value) {
        if (c < '0' || c > '9') digits = false;
        else id = id * 10 + static_cast<uint64_t>(c - '0');
      }
      if (digits && id == first_core_apicid) return current;
    }
  }
  return first;
}

}  // namespace rocref::thunk
