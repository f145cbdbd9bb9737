// optune info [--json]: every device with its capabilities.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "kernels/gemm/gemm.hpp"

namespace optune::tool {

namespace {

std::string mib(std::uint64_t b) { return std::to_string(b >> 20) + " MiB"; }

void print_device(const Capabilities& c) {
  std::printf("%s  %s\n", c.spec.c_str(), c.name.c_str());
  auto row = [](const char* k, const std::string& v) { std::printf("    %-26s %s\n", k, v.c_str()); };
  row("type", std::string(device_type_name(c.type)));
  row("vendor", c.vendor);
  row("platform", c.platform);
  row("driver", c.driver_version);
  row("version", c.device_version);
  if (!c.opencl_c_version.empty()) row("OpenCL C", c.opencl_c_version);
  row("architecture", c.architecture);
  row("compute units", std::to_string(c.compute_units));
  row("max clock", std::to_string(c.max_clock_mhz) + " MHz");
  row("global memory", mib(c.global_mem_bytes));
  row("max allocation", mib(c.max_alloc_bytes));
  row("local memory", std::to_string(c.local_mem_bytes / 1024) + " KiB");
  row("constant buffer", std::to_string(c.max_constant_buffer_bytes / 1024) + " KiB");
  row("max work-group", std::to_string(c.max_work_group_size));
  row("max work-items", std::to_string(c.max_work_item_sizes[0]) + " x " + std::to_string(c.max_work_item_sizes[1]) +
                            " x " + std::to_string(c.max_work_item_sizes[2]));
  const auto& p = c.preferred_vector_width;
  const auto& n = c.native_vector_width;
  row("vector width float/half", "preferred " + std::to_string(p.float_) + "/" + std::to_string(p.half_) +
                                     ", native " + std::to_string(n.float_) + "/" + std::to_string(n.half_));
  std::string sg = c.subgroups ? "yes" : "no";
  for (std::size_t i = 0; i < c.subgroup_sizes.size(); ++i)
    sg += (i ? "," : " (sizes ") + std::to_string(c.subgroup_sizes[i]) + (i + 1 == c.subgroup_sizes.size() ? ")" : "");
  row("subgroups", sg);
  row("fp16 / fp64", std::string(c.fp16 ? "yes" : "no") + " / " + (c.fp64 ? "yes" : "no"));
  std::string mx;
  for (const std::string& e : detail::gemm_kernels::reported_matrix_extensions(c.extensions))
    mx += (mx.empty() ? "" : ", ") + e;
  row("matrix extensions", mx.empty() ? "none" : mx + " (no optune kernel for it yet)");
  row("images", c.images ? "yes (2D up to " + std::to_string(c.image2d_max_width) + " x " +
                               std::to_string(c.image2d_max_height) + ")"
                         : "no");
  row("unified memory", c.unified_memory ? "yes" : "no");
  if (c.backend == Backend::CUDA) {
    row("compute capability", std::to_string(c.compute_capability_major) + "." +
                                  std::to_string(c.compute_capability_minor));
    row("threads per SM", std::to_string(c.max_threads_per_cu));
    row("shared memory per SM", std::to_string(c.shared_mem_per_cu_bytes / 1024) + " KiB");
    row("L2", mib(c.l2_bytes));
    row("warp size", std::to_string(c.warp_size));
    row("memory", std::to_string(c.memory_clock_mhz) + " MHz, " + std::to_string(c.memory_bus_width_bits) + "-bit");
  }
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "List every device and its capabilities");
  auto* json = new bool(false);
  cmd->add_flag("--json", *json, "Print a JSON array of devices");
  cmd->callback([json] {
    const auto devs = devices();
    const auto status = backends();
    if (*json) {
      nlohmann::json arr = nlohmann::json::array();
      for (const Device& d : devs) arr.push_back(caps_to_json(d.caps()));
      std::cout << arr.dump(2) << "\n";
      return;
    }
    for (const BackendStatus& b : status)
      std::printf("backend %-7s %s%s\n", std::string(backend_name(b.backend)).c_str(),
                  b.available ? "available" : "unavailable: ", b.available ? "" : b.reason.c_str());
    std::printf("\n");
    if (devs.empty()) std::printf("no devices\n");
    for (const Device& d : devs) {
      print_device(d.caps());
      std::printf("\n");
    }
    try {
      Device def = default_device();
      std::printf("default device: %s (%s)\n", def.spec().c_str(), def.name().c_str());
    } catch (const Error& e) {
      std::printf("default device: none (%s)\n", e.what());
    }
  });
}

}  // namespace optune::tool
