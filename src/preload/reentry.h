// preload/reentry.h - marks a thread as inside the model, so the model's own file and memory
// calls go straight to the C library instead of back into the hooks.
#pragma once

namespace rocref::preload {

// initial-exec: the interposer is preloaded, and a TLS access must not call into the loader.
inline bool& inside_model() {
  static __thread __attribute__((tls_model("initial-exec"))) bool flag = false;
  return flag;
}

class ModelScope {
 public:
  ModelScope() : outer_(inside_model()) { inside_model() = true; }
  ~ModelScope() { inside_model() = outer_; }
  ModelScope(const ModelScope&) = delete;
  ModelScope& operator=(const ModelScope&) = delete;

 private:
  bool outer_;
};

}  // namespace rocref::preload
