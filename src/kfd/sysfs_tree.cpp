// kfd/sysfs_tree.cpp - the in-memory file tree behind the model's sysfs and proc files.
#include "kfd/sysfs_tree.h"

#include <algorithm>
#include <utility>

namespace rocref::kfd {

void SysfsTree::add_entry(const std::string& path) {
  std::string child = path;
  while (!child.empty()) {
    const auto slash = child.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : child.substr(0, slash);
    const std::string leaf = slash == std::string::npos ? child : child.substr(slash + 1);
    auto& entries = dirs_[parent];
    if (std::find(entries.begin(), entries.end(), leaf) == entries.end()) entries.push_back(leaf);
    child = parent;
  }
  dirs_[""];
}

void SysfsTree::add_file(const std::string& path, std::string content) {
  files_[path] = std::move(content);
  add_entry(path);
}

void SysfsTree::add_dir(const std::string& path) {
  dirs_[path];
  add_entry(path);
}

void SysfsTree::add_link(const std::string& path, std::string target) {
  links_[path] = std::move(target);
  add_entry(path);
}

std::optional<std::string> SysfsTree::read(const std::string& path) const {
  const auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::vector<std::string>> SysfsTree::list(const std::string& dir) const {
  const auto it = dirs_.find(dir);
  if (it == dirs_.end()) return std::nullopt;
  auto entries = it->second;
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::optional<std::string> SysfsTree::link(const std::string& path) const {
  const auto it = links_.find(path);
  if (it == links_.end()) return std::nullopt;
  return it->second;
}

}  // namespace rocref::kfd
