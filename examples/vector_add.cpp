// examples/vector_add.cpp: the README's C++ example, whole: vector add through the C++ API on
// the cpu backend, checked on the host. Run from the repository root (the kernel path is
// relative). Built and run by ctest (test name example_vector_add).
#include <tritium/tritium.h>

#include <cstdio>
#include <vector>

int main() {
  try {
    const int n = 100003;
    std::vector<float> xs(n), ys(n);
    for (int i = 0; i < n; ++i) xs[i] = 0.5f * i, ys[i] = 1.0f - i;
    auto module = tritium::Module::from_file("kernels/vector_add.py");
    auto device = tritium::Device::get("cpu");
    auto kernel = module.kernel("add_kernel")
                      .compile(device, "*fp32:16, *fp32:16, *fp32:16, i32, 1024");
    auto x = device.upload(xs), y = device.upload(ys), out = device.alloc(n * 4);
    kernel.launch({tritium::cdiv(n, 1024), 1, 1}, {x, y, out, n});
    auto result = out.download<float>();
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += result[i] != xs[i] + ys[i];
    std::printf("%d of %d wrong\n", bad, n);
    return bad != 0;
  } catch (const tritium::Error& e) {  // compile errors, bad arguments, I/O, cache (what())
    std::fprintf(stderr, "vector_add: %s\n", e.what());
    return 2;
  }
}
