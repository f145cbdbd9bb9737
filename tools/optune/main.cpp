// optune: device information, benchmarks, tuning and the tuning database.
#include <cstdio>

#include "commands.hpp"
#include "optune/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"optune: tuned GPU operators on OpenCL and CUDA devices"};
  app.require_subcommand(1);
  optune::tool::add_info_command(app);
  optune::tool::add_bench_command(app);
  optune::tool::add_tune_command(app);
  optune::tool::add_db_command(app);
  optune::tool::add_warm_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const optune::Error& e) {
    std::fprintf(stderr, "optune: error (%s): %s\n", optune::status_name(e.status()), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "optune: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
