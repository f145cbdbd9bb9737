// optune: device information, benchmarks, tuning and the tuning database.
#include <cstdio>

#include "commands.hpp"
#include "optune/error.hpp"
#include "suggest.hpp"

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
    // An unknown word is named, with the closest valid spelling; CLI11 2.1
    // would say "A subcommand is required" for `optune bnech`.
    if (e.get_exit_code() != 0)
      if (auto message = optune::tool::diagnose_unknown(app, argc, argv)) {
        std::fprintf(stderr, "optune: error: %s\nRun with --help for more information.\n", message->c_str());
        return e.get_exit_code();
      }
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
