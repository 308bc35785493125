#include "app/cli/validate_command.h"

#include <nlohmann/json.hpp>

#include "app/cli/cli_run_control.h"
#include "app/cli/text_table.h"
#include "core/common/units.h"
#include "core/placement/measured_runs.h"

namespace tandem::cli {

namespace pl = tandem::core::placement;

namespace {

int runValidate(const CliArguments& args, std::ostream& out, std::ostream& err) {
    const std::string name = args.value("set").value_or("megatron-a100");
    const auto set = pl::measuredRunSet(name);
    if (!set) {
        err << "tandem-cli validate: " << set.message() << " (bundled: megatron-a100)\n";
        return kExitBadInput;
    }
    CliRunControl run("validate", err, false);
    const auto predictions = pl::predictRuns(*set, &run.control());
    run.endProgress();
    if (run.interruptedBy() != 0) {
        err << "tandem-cli validate: " << run.interruptedText() << "\n";
        return run.interruptedExitCode();
    }
    if (!predictions) {
        err << "tandem-cli validate: " << predictions.message() << "\n";
        return kExitInternal;  // the bundled runs are ours: failing to evaluate them is a bug
    }
    if (args.has("json")) {
        nlohmann::ordered_json runs = nlohmann::ordered_json::array();
        for (const pl::RunPrediction& p : *predictions) {
            nlohmann::ordered_json j = {{"name", p.run.name},
                                        {"pipeline", p.run.pipeline},
                                        {"tensor", p.run.tensor},
                                        {"gpus", p.run.gpus},
                                        {"global_batch", p.run.globalBatch},
                                        {"fits", p.fits},
                                        {"measured_tflops_per_gpu", p.run.measuredTflopsPerGpu}};
            if (p.fits) {
                j["microbatch"] = p.microbatch;
                j["time_per_batch_s"] = p.timePerBatchSeconds;
                j["predicted_tflops_per_gpu"] = p.predictedTflopsPerGpu;
                j["error"] = p.error;
            } else {
                j["reason"] = p.reason;
            }
            runs.push_back(std::move(j));
        }
        out << nlohmann::ordered_json{{"set", set->name},
                                      {"hardware", set->hardware},
                                      {"source", set->source},
                                      {"runs", std::move(runs)}}
                   .dump(2)
            << "\n";
        return kExitOk;
    }
    out << "Measured runs '" << set->name << "' on " << set->hardware
        << " (native cost model, full recomputation, Adam):\n"
        << set->source << "\n\n";
    TextTable table({"run", "P", "T", "GPUs", "batch", "microbatch", "iteration", "predicted",
                     "measured", "error"},
                    {false, true, true, true, true, true, true, true, true, true});
    for (const pl::RunPrediction& p : *predictions) {
        const std::string measured = core::formatFixed(p.run.measuredTflopsPerGpu, 1) + " TFLOP/s";
        if (!p.fits) {
            table.addRow({p.run.name, std::to_string(p.run.pipeline), std::to_string(p.run.tensor),
                          std::to_string(p.run.gpus), std::to_string(p.run.globalBatch), "—",
                          "does not fit", "—", measured, "—"});
            continue;
        }
        table.addRow({p.run.name, std::to_string(p.run.pipeline), std::to_string(p.run.tensor),
                      std::to_string(p.run.gpus), std::to_string(p.run.globalBatch),
                      std::to_string(p.microbatch), core::formatSeconds(p.timePerBatchSeconds),
                      core::formatFixed(p.predictedTflopsPerGpu, 1) + " TFLOP/s", measured,
                      (p.error >= 0 ? "+" : "") + core::formatFixed(100 * p.error, 1) + " %"});
    }
    table.print(out, "  ");
    return kExitOk;
}

}  // namespace

Command validateCommand() {
    return {"validate",
            "predicted vs measured training throughput for bundled published runs",
            {{"set", "NAME", "set of measured runs (default megatron-a100)"},
             {"json", "", "print one JSON object"}},
            runValidate,
            {}};
}

}  // namespace tandem::cli
