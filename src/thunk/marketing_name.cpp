// thunk/marketing_name.cpp - AMDGPU_INFO_DEV_INFO through the transport, then amdgpu.ids.
#include "thunk/marketing_name.h"

#include <libdrm/amdgpu_drm.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "thunk/key_values.h"

namespace rocref::thunk {
namespace {

// A whole hexadecimal number of 32 bits (amdgpu.ids' device ids and revisions).
std::optional<uint32_t> hex(std::string_view s) {
  s = trim(s);
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
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

std::string read_amdgpu_ids() {
  std::ifstream in(kAmdgpuIdsPath);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string marketing_name(Transport& t, uint32_t render_minor, std::string_view ids_text) {
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
  return amdgpu_ids_name(ids_text, dev.device_id, dev.pci_rev).value_or("");
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
      if (parse_u64(value, &id) && id == first_core_apicid) return current;
    }
  }
  return first;
}

}  // namespace rocref::thunk
