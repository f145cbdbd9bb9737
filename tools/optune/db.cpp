// optune db: show the tuning entries that serve a device (with their level),
// export local results as a shippable database file, import one, and clear
// the cache file.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "database/database.hpp"
#include "kernels/families.hpp"
#include "runtime/cache_file.hpp"

namespace optune::tool {

namespace {

using namespace optune::detail;

struct DbCommand {
  std::string family, device, file;
  bool programs = false, tuning = false, all = false;
};

CacheFile& require_cache_file() {
  CacheFile* file = CacheFile::instance();
  if (!file) throw Error(Status::IoError, "no cache file (OPTUNE_CACHE=off, or " + cache_dir() + " is unusable)");
  return *file;
}

std::string verdict_text(const Capabilities& caps, const Candidate& c) {
  Params p = c.entry.params;
  for (const KernelFamily* f : families::all())
    if (f->name() == c.entry.family) {
      p = f->complete(p, caps);
      if (p == f->defaults(caps)) return "default";  // the defaults need no check
    }
  CacheFile* file = CacheFile::instance();
  if (!file) return "-";
  auto v = file->get_verdict(verdict_key(caps, c.entry.family, c.entry.dtype, c.entry.bucket, p));
  return !v ? "unchecked" : *v ? "verified" : "set aside";
}

void show(const DbCommand& o) {
  Device dev = pick_device(o.device);
  const Capabilities& caps = dev.caps();
  std::printf("tuning entries for %s  %s (%s, driver %s, architecture %s)\n", caps.spec.c_str(), caps.name.c_str(),
              std::string(backend_name(caps.backend)).c_str(), caps.driver_version.c_str(), caps.architecture.c_str());
  if (CacheFile* f = CacheFile::instance()) std::printf("cache file: %s\n", f->path().c_str());
  else std::printf("cache file: off\n");
  const auto list = Database::instance().candidates(caps, o.family);
  if (list.empty()) {
    std::printf("\nno entries: every family uses its defaults (level \"default\")\n");
    return;
  }
  std::printf("\n%-12s %-5s %-16s %-13s %-10s %10s %8s  %-44s %s\n", "family", "dtype", "bucket", "level", "trust",
              "time", "speedup", "params", "source");
  for (const Candidate& c : list) {
    char time[32] = "-", speedup[16] = "-";
    if (c.entry.time_ns > 0) std::snprintf(time, sizeof time, "%.1f us", c.entry.time_ns / 1e3);
    if (c.entry.time_ns > 0 && c.entry.default_time_ns > 0)
      std::snprintf(speedup, sizeof speedup, "%.2fx", c.entry.default_time_ns / c.entry.time_ns);
    std::printf("%-12s %-5s %-16s %-13s %-10s %10s %8s  %-44s %s\n", c.entry.family.c_str(), c.entry.dtype.c_str(),
                c.entry.bucket.c_str(), level_name(c.level).c_str(), verdict_text(caps, c).c_str(), time, speedup,
                params_to_json(c.entry.params).c_str(), c.entry.source.c_str());
  }
  std::printf("\nper family, dtype and bucket the first entry that is not set aside is used\n");
}

void export_file(const DbCommand& o) {
  Device dev = pick_device(o.device);
  const Capabilities& caps = dev.caps();
  require_cache_file();
  std::vector<DbEntry> entries;
  for (const Candidate& c : Database(false).candidates(caps))
    if (c.level == Level::Local) entries.push_back(c.entry);
  const nlohmann::json tuned{{"date", iso_date()}, {"commit", git_commit()}, {"clock_mhz", caps.max_clock_mhz},
                             {"tool", "optune db export"}};
  const std::string text = database_json(caps, entries, tuned.dump());
  if (o.file == "-") {
    std::cout << text;
  } else {
    std::ofstream f(o.file);
    if (!(f << text)) throw Error(Status::IoError, "cannot write " + o.file);
    std::printf("exported %zu entr%s for %s to %s\nto ship them, copy the file to database/%s\n", entries.size(),
                entries.size() == 1 ? "y" : "ies", caps.name.c_str(), o.file.c_str(),
                database_path_for(caps).c_str());
  }
}

void import_file(const DbCommand& o) {
  // A directory opens as a stream that reads nothing: say what it is.
  std::error_code ec;
  if (std::filesystem::is_directory(o.file, ec))
    throw Error(Status::InvalidArgument, o.file + " is a directory, not a database JSON file");
  std::ifstream f(o.file);
  if (!f) throw Error(Status::IoError, "cannot read " + o.file);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::vector<DbEntry> entries = parse_database_json(ss.str(), o.file, true);
  Device dev = pick_device(o.device);
  const std::size_t n = import_entries(entries, dev.caps());
  std::printf("imported %zu entr%s from %s into %s; each is verified on this device before its first use\n", n,
              n == 1 ? "y" : "ies", o.file.c_str(), require_cache_file().path().c_str());
}

void clear(const DbCommand& o) {
  CacheFile& file = require_cache_file();
  const bool all = o.all || (!o.programs && !o.tuning);
  if (all || o.programs) {
    const std::size_t n = file.program_count();
    file.clear_programs();
    std::printf("removed %zu compiled program(s)\n", n);
  }
  if (all || o.tuning) {
    const std::size_t n = file.tuning().size();
    file.clear_tuning();
    std::printf("removed %zu tuning result(s)\n", n);
  }
  std::printf("cache file: %s\n", file.path().c_str());
}

}  // namespace

void add_db_command(CLI::App& app) {
  auto o = std::make_shared<DbCommand>();
  CLI::App* db = app.add_subcommand("db", "The tuning database: show, export, import, clear");
  db->require_subcommand(1);

  CLI::App* s = db->add_subcommand("show", "Entries that serve the device, with their fallback level");
  s->add_option("--family", o->family, "only this kernel family");
  s->add_option("--device", o->device, "device spec: opencl:P:D, cuda:N, gpu, cpu");
  s->callback([o] { show(*o); });

  CLI::App* e = db->add_subcommand("export", "Write the device's local results in the shipped JSON format");
  e->add_option("file", o->file, "output file (- for stdout)")->required();
  e->add_option("--device", o->device, "device spec: opencl:P:D, cuda:N, gpu, cpu");
  e->callback([o] { export_file(*o); });

  CLI::App* i = db->add_subcommand("import", "Validate a database JSON file and store its entries locally");
  i->add_option("file", o->file, "a file in the shipped format")->required();
  i->add_option("--device", o->device, "device whose parameter limits validate the file");
  i->callback([o] { import_file(*o); });

  CLI::App* c = db->add_subcommand("clear", "Empty the cache file (both parts by default)");
  c->add_flag("--programs", o->programs, "compiled program binaries");
  c->add_flag("--tuning", o->tuning, "tuning results");
  c->add_flag("--all", o->all, "both");
  c->callback([o] { clear(*o); });
}

}  // namespace optune::tool
