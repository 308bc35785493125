#pragma once
// A set of measured runs with where it comes from and the hardware it ran on. The bundled sets
// are resources/validation/<name>.json (embedded, "format": "tandem-validation", "version": 2;
// documented in resources/validation/README.md): either the runs inline (Narayanan et al.
// 2021's TFLOP/s per GPU) or a CSV beside the JSON ("runs_csv", read by run_csv_reader.h) with
// the defaults its columns leave out. A user's CSV or JSON file becomes a set named after the
// file, on the hardware it or the caller names. Errors name the file, run and key.
#include <filesystem>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/validation/measured_run.h"
#include "core/validation/run_csv_reader.h"

namespace tandem::core::validation {

struct MeasuredRunSet {
    std::string name;      // "megatron-a100"
    std::string source;    // the publication and what was measured
    std::string licence;   // of the data; empty for figures quoted from a paper
    std::string hardware;  // preset the runs are predicted on by default
    // The runs carry published TFLOP/s per GPU (their iteration time derives from it):
    // validate reports TFLOP/s beside the times.
    bool tflopsPublished = false;
    std::vector<MeasuredRun> runs;
};

// The bundled sets' names, sorted ("megatron-a100", "single-node-a100").
std::vector<std::string> bundledRunSetNames();
Expected<MeasuredRunSet> bundledRunSet(const std::string& name);

// A user's file of measured runs, named after the file: a CSV file (parseRunsCsv with the
// default RunDefaults), or a tandem-validation JSON set like the bundled ones (its "runs_csv"
// beside it). `hardware` is the preset its runs are predicted on unless the JSON names one.
Expected<MeasuredRunSet> runSetFromFile(const std::filesystem::path& path,
                                        const std::string& hardware);

}  // namespace tandem::core::validation
