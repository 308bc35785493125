// `tandem-cli models` and `tandem-cli presets`: what the zoo and the preset library hold.
#include <nlohmann/json.hpp>

#include "app/cli/catalog_commands.h"
#include "app/cli/text_table.h"
#include "core/common/json_document.h"
#include "core/common/units.h"
#include "core/hardware/area_model.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"

namespace tandem::cli {

namespace hw = tandem::core::hardware;
namespace mdl = tandem::core::model;
using core::formatBytes;
using core::formatCount;
using core::formatFixed;
using core::formatRate;

namespace {
const FlagSpec kJsonFlag{"json", "", "print JSON instead of a table"};

// The table shows the description up to its first colon ("GPT-2 XL (Radford et al. 2019)");
// JSON keeps all of it.
std::string headline(const std::string& description) {
    const auto colon = description.find(':');
    return colon == std::string::npos ? description : description.substr(0, colon);
}

int runModels(const CliArguments& args, std::ostream& out, std::ostream& err) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    TextTable table({"model", "parameters", "seq", "t widths", "description"},
                    {false, true, true, false, false});
    for (const mdl::ZooEntry& entry : mdl::zooModels()) {
        auto source = mdl::zooModel(entry.name);
        if (!source) {
            err << "tandem-cli models: " << source.message() << "\n";
            return kExitInternal;
        }
        const mdl::ModelSource& model = **source;
        mdl::BuildOptions options;
        options.sequenceLength = model.defaultSequenceLength();
        const auto graph = model.build(options);
        const double parameters = graph ? graph->parameterCount() : 0.0;
        std::string widths;
        nlohmann::ordered_json widthList = nlohmann::ordered_json::array();
        for (auto t : model.tensorParallelWidths()) {
            widths += (widths.empty() ? "" : ",") + std::to_string(t);
            widthList.push_back(t);
        }
        table.addRow({entry.name, formatCount(parameters),
                      std::to_string(model.defaultSequenceLength()), widths,
                      headline(entry.description)});
        list.push_back({{"name", entry.name},
                        {"description", entry.description},
                        {"parameters", parameters},
                        {"layers", graph ? graph->layers().size() : 0},
                        {"sequence_length", model.defaultSequenceLength()},
                        {"tensor_parallel_widths", widthList}});
    }
    if (args.has("json")) {
        out << core::jsonText(list, 2) << "\n";
    } else {
        table.print(out);
    }
    return kExitOk;
}

int runPresets(const CliArguments& args, std::ostream& out, std::ostream& err) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    TextTable table({"preset", "area", "peak", "HBM", "devices", "description"},
                    {false, true, true, true, true, false});
    const hw::AreaModel area;
    for (const hw::PresetInfo& info : hw::PresetLibrary::list()) {
        const auto point = hw::PresetLibrary::preset(info.name);
        if (!point) {
            err << "tandem-cli presets: " << point.message() << "\n";
            return kExitInternal;
        }
        const auto mm2 = area.areaSquareMillimetres(point->accelerator);
        const auto& a = point->accelerator;
        table.addRow({info.name, mm2 ? formatFixed(*mm2, 2) + " mm²" : "n/a",
                      formatRate(a.peakFlopsPerSecond(), "FLOP"),
                      formatBytes(double(a.hbmCapacityBytes)),
                      formatCount(double(point->cluster.devices)), headline(info.description)});
        list.push_back({{"name", info.name},
                        {"description", info.description},
                        {"area_mm2", mm2 ? nlohmann::json(*mm2) : nlohmann::json(nullptr)},
                        {"peak_flops_per_s", a.peakFlopsPerSecond()},
                        {"hbm_bytes", a.hbmCapacityBytes},
                        {"devices", point->cluster.devices}});
    }
    if (args.has("json")) {
        out << core::jsonText(list, 2) << "\n";
    } else {
        table.print(out);
    }
    return kExitOk;
}
}  // namespace

Command modelsCommand() {
    return {"models", "list the model zoo", {kJsonFlag}, runModels, {}};
}

Command presetsCommand() {
    return {"presets", "list the hardware presets", {kJsonFlag}, runPresets, {}};
}

}  // namespace tandem::cli
