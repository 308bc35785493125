#include "app/cli/estimate_command.h"

#include <map>

#include "app/cli/cli_inputs.h"
#include "app/cli/text_table.h"
#include "core/common/units.h"
#include "core/estimate/model_estimate.h"
#include "core/hardware/area_model.h"
#include "core/io/estimate_json.h"

namespace tandem::cli {

namespace est = tandem::core::estimate;
using core::formatBytes;
using core::formatCount;
using core::formatFlops;
using core::formatSeconds;

namespace {
void printHeader(std::ostream& out, const core::model::ModelGraph& graph,
                 const core::hardware::HardwarePoint& hardware, const est::ModelEstimate& e) {
    const auto& o = graph.options();
    const auto& a = hardware.accelerator;
    const auto area = core::hardware::AreaModel().areaSquareMillimetres(a);
    out << "Model     " << graph.name() << ": " << formatCount(e.totals.parameters)
        << " parameters, " << graph.layers().size() << " layers\n"
        << "Build     microbatch " << o.microbatch << ", sequence " << o.sequenceLength
        << " tokens, tensor-parallel t = " << o.tensorParallel << ", " << o.bytesPerElement
        << " B/element\n"
        << "Hardware  " << hardware.name << ": " << a.numTensorCores << " TC of "
        << a.tensorCoreRows << "×" << a.tensorCoreCols << ", " << a.numVectorCores << " VC of "
        << a.vectorCoreLanes << " lanes, " << formatBytes(double(a.globalBufferBytes))
        << " buffer, " << formatBytes(double(a.hbmCapacityBytes)) << " HBM, "
        << core::formatRate(a.peakFlopsPerSecond(), "FLOP") << " peak";
    if (area) out << ", " << core::formatFixed(*area, 2) << " mm²";
    out << "\n";
}

void printTotals(std::ostream& out, const est::ModelEstimate& e) {
    const auto& t = e.totals;
    out << "Totals per device, one microbatch:\n"
        << "  forward FLOPs        " << formatFlops(t.forwardFlops) << " (GEMM "
        << formatFlops(t.gemmForwardFlops) << ")\n"
        << "  backward FLOPs       " << formatFlops(t.backwardFlops) << " (GEMM "
        << formatFlops(t.gemmBackwardFlops) << ")\n"
        << "  parameters on device " << formatCount(t.parametersPerDevice) << "\n";
}

// One table per unique layer graph: identical transformer blocks are printed once.
void printLayers(std::ostream& out, const est::ModelEstimate& e) {
    std::map<int, std::vector<std::string>> layersOfGraph;
    for (const auto& layer : e.layers) layersOfGraph[layer.uniqueIndex].push_back(layer.name);
    std::map<int, bool> printed;
    for (const auto& layer : e.layers) {
        if (printed[layer.uniqueIndex]) continue;
        printed[layer.uniqueIndex] = true;
        const auto& names = layersOfGraph[layer.uniqueIndex];
        out << "\n" << names.front();
        if (names.size() > 1) {
            out << " … " << names.back() << " (" << names.size() << " identical layers)";
        }
        out << "\n";
        TextTable table({"operator", "class", "fwd 1 core", "fwd all", "bwd 1 core", "bwd all",
                         "fwd FLOPs", "fwd bytes"},
                        {false, false, true, true, true, true, true, true});
        for (const auto& op : layer.operators) {
            table.addRow({op.op->name, std::string(core::model::toString(op.op->opClass)),
                          formatSeconds(op.forward.oneCoreSeconds),
                          formatSeconds(op.forward.allCoresSeconds),
                          formatSeconds(op.backward.oneCoreSeconds),
                          formatSeconds(op.backward.allCoresSeconds), formatFlops(op.forward.flops),
                          formatBytes(op.forward.bytes)});
        }
        table.print(out, "  ");
    }
    out << "\n";
}

int runEstimate(const CliArguments& args, std::ostream& out, std::ostream& err) {
    auto fail = [&err](const std::string& message) {
        err << "tandem-cli estimate: " << message << "\n";
        return kExitBadInput;
    };
    const auto loaded = loadModelOnHardware(args);
    if (!loaded) return fail(loaded.message());
    const auto& graph = loaded->graph;
    const auto& hardware = loaded->hardware;
    const est::ModelEstimate estimate = est::estimateModel(graph, loaded->estimator);

    if (args.has("json")) {
        out << core::io::estimateToJson(graph, hardware, estimate) << "\n";
        return kExitOk;
    }
    printHeader(out, graph, hardware, estimate);
    if (!args.has("summary")) printLayers(out, estimate);
    printTotals(out, estimate);
    return kExitOk;
}
}  // namespace

Command estimateCommand() {
    std::vector<FlagSpec> flags = modelAndHardwareFlags();
    for (auto& f : buildOptionFlags()) flags.push_back(f);
    flags.push_back({"json", "", "print one JSON object (per device, one microbatch)"});
    flags.push_back({"summary", "", "print only the model, hardware and totals"});
    for (auto& f : hardwareOverrideFlags()) flags.push_back(f);
    return {"estimate", "operator latencies, FLOPs and bytes per layer", flags, runEstimate, {}};
}

}  // namespace tandem::cli
