// kfd/sysfs_tree.h - an in-memory tree of read-only kernel files, directories and symlinks.
//
// The modelled kernel's files (the KFD topology, the CPU and NUMA sysfs trees,
// /proc/cpuinfo) are generated once into trees of this kind; the interposer
// mirrors them entry by entry, so every parent directory of a file is listed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rocref::kfd {

class SysfsTree {
 public:
  // `path` is relative to the tree's root ("a/b/c"); parents are created.
  void add_file(const std::string& path, std::string content);
  void add_dir(const std::string& path);
  // A symlink whose target is relative to the link's directory, as sysfs writes them.
  void add_link(const std::string& path, std::string target);

  std::optional<std::string> read(const std::string& path) const;
  std::optional<std::vector<std::string>> list(const std::string& dir) const;  // sorted
  std::optional<std::string> link(const std::string& path) const;

 private:
  void add_entry(const std::string& path);

  std::map<std::string, std::string> files_;
  std::map<std::string, std::vector<std::string>> dirs_;
  std::map<std::string, std::string> links_;
};

}  // namespace rocref::kfd
