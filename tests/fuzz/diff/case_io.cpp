#include "case_io.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace fuzz {

std::string to_json(const Case& c, const std::string& note) {
  nlohmann::json j;
  j["note"] = note;
  j["source"] = c.source;
  j["signature"] = c.signature;
  for (const auto& b : c.buffers)
    j["buffers"].push_back({{"name", b.name}, {"dtype", b.dtype}, {"elements", b.elements}, {"output", b.output}});
  j["n_rows"] = c.n_rows;
  j["n_cols"] = c.n_cols;
  j["s0"] = c.s0;
  j["k0"] = c.k0;
  j["n_iter"] = c.n_iter;
  j["grid"] = {c.grid_x, c.grid_y};
  j["input_seed"] = std::to_string(c.input_seed);  // a string: JSON readers may round 64-bit integers
  j["libm"] = c.libm;
  return j.dump(2) + "\n";
}

Case load_case(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open");
  nlohmann::json j;
  try {
    f >> j;
    Case c;
    c.source = j.at("source").get<std::string>();
    c.signature = j.at("signature").get<std::string>();
    for (const auto& b : j.at("buffers"))
      c.buffers.push_back({b.at("name").get<std::string>(), b.at("dtype").get<std::string>(),
                           b.at("elements").get<int64_t>(), b.at("output").get<bool>()});
    c.n_rows = j.at("n_rows").get<int64_t>();
    c.n_cols = j.at("n_cols").get<int64_t>();
    c.s0 = j.at("s0").get<float>();
    c.k0 = j.at("k0").get<int32_t>();
    c.n_iter = j.at("n_iter").get<int32_t>();
    c.grid_x = j.at("grid").at(0).get<int64_t>();
    c.grid_y = j.at("grid").at(1).get<int64_t>();
    c.input_seed = std::stoull(j.at("input_seed").get<std::string>());
    c.libm = j.at("libm").get<bool>();
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

}  // namespace fuzz
