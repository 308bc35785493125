#include "ui/guide_text.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QObject>
#include <QStringList>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

#include "ui/glossary_text.h"

namespace tandem::ui {

QString guideText(const QString& tab) {
    const auto tr = [](const char* s) { return QObject::tr(s); };
    struct Section {
        QString title;
        QString body;
        QStringList terms;  // glossary anchors (glossary_text.h)
    };
    std::vector<Section> sections = {
        {tr("Design space"),
         tr("Every chip a search evaluated: chip area (mm²) across, training throughput "
            "(samples/s) up. The step line is the Pareto front: no chip is both smaller and "
            "faster. Chips below 30 % of the area budget are left out (PHAZE's minimum-area "
            "rule), except chips with one tensor core or one vector core, for which PHAZE waives "
            "it: those are the small chips on the left, and their tooltip says so. Colour shows "
            "one configuration dimension (pick it above the plot). Click a "
            "point to show it in every tab; right-click it to use it as the set-up, compare it "
            "with the set-up or export its plan. Every chart then names the model and the chip "
            "it shows above its plot (and in exports); with several models searched, \"Views "
            "show\" above the tabs picks the model whose plan, schedule and breakdown the tabs "
            "show at the point. Saving the project keeps the selected point and the tab: opening "
            "it again shows them once its results have loaded. The search ranks by what Search "
            "space ▸ Rank by "
            "says: throughput, throughput per watt (samples per kJ of the plan's energy) or cost "
            "to train (samples per device-hour); the axis, the front and the star follow it, and "
            "each point's tooltip gives its energy per iteration and power per device. Rank by "
            "above the plot does the same for the points shown, without searching again (a "
            "search of several models, or a pruned search that skipped points, has to be run "
            "again, and the plot says so). Try: "
            "search, then colour by tensor cores and see which counts sit on the front; rank by "
            "throughput per watt and see the star move to a smaller chip."),
         {"term-pareto", "term-per-watt", "term-microbatch", "term-recomputation", "term-hbm"}},
        {tr("Schedule"),
         tr("One layer's operators on the chip's tensor and vector cores over time, forward then "
            "backward. Bars are operators; the dark line marks the makespan and the dashed red "
            "line the lower bound no schedule can beat. Try: halve the global buffer and watch the "
            "bars stretch."),
         {"term-systolic-array", "term-hbm", "term-recomputation"}},
        {tr("Pipeline"),
         tr("The 1F1B pipeline of one data-parallel replica: each row a stage, each block a "
            "microbatch's forward (blue) or backward (orange) pass; long pipelines open on the "
            "warm-up and a few steady cycles (0 shows the whole batch). Idle gaps are the bubble: "
            "the "
            "share of the time a stage waits, (S − 1)/(m + S − 1) for S equal stages and m "
            "microbatches. The header says where the time per batch goes. The plan is the "
            "placement search's, or the strategy P, T, D fixed in the set-up (Cluster and "
            "training ▸ Strategy); with interleaving (V model chunks per device) each chunk is "
            "a block of its own, every other chunk darker. Play the batch step by step with the "
            "buttons above the charts (K plays or pauses, . and , step): a red line marks the "
            "instant, what has not happened yet is veiled, and the line under the buttons says "
            "what each stage does — a forward or backward of which microbatch, or idle while the "
            "pipeline fills, while it waits for a neighbour, or done — and how many "
            "microbatches' activations it holds. Below 1F1B, GPipe runs the same plan: every "
            "forward, then every backward. Compare the lines above the two charts: about the "
            "same time and bubble, but GPipe's stages hold all m microbatches at once, so its "
            "memory per device is far larger and often does not fit."),
         {"term-1f1b", "term-gpipe", "term-bubble", "term-microbatch", "term-interleaving",
          "term-pipeline-parallel"}},
        {tr("Placement"),
         tr("Which device runs what: one cell per device, grouped into data-parallel replicas, "
            "pipeline stages and tensor-parallel groups, with the links between stages. Hover "
            "a cell for its stage's layers and memory."),
         {"term-tensor-parallel", "term-pipeline-parallel", "term-data-parallel", "term-zero",
          "term-sequence-parallel", "term-hbm"}},
        {tr("Layers"),
         tr("Each layer's kind, stage, forward and backward time, parameters, activations and "
            "schedule status at the plan's tensor-parallel width. Sort by a column to find the "
            "layer that limits a stage."),
         {"term-tensor-parallel", "term-recomputation", "term-sequence-parallel"}},
        {tr("Comparison"),
         tr("What co-searching chip and placement buys, one change at a time: from the "
            "reference chip with the model's fixed Megatron strategy, Tandem's placement on the "
            "same chip and options, then the searched chip, then microbatch and recompute, then "
            "the HBM capacity. Each step's factor says what that one change gained."),
         {"term-microbatch", "term-recomputation", "term-hbm", "term-pareto"}},
        {tr("Summary"),
         tr("The model and the chip at a glance: parameters, layers, FLOPs per sample, the "
            "chip's cores, peak, memory and area, and a stacked bar of where the plan's time per "
            "batch goes, with its model FLOPs utilisation. Below it, the plan's energy per "
            "iteration (arithmetic, HBM, links, static power), its average power per device, and "
            "for the tokens and price per device-hour you set there, the days, device-hours, MWh "
            "and cost to train (GPT-3 on 300 B tokens: about a month on 1,024 A100s)."),
         {"term-mfu", "term-bubble", "term-per-watt", "term-systolic-array"}},
        {tr("Roofline"),
         tr("The chip's roofline: each operator of the chosen layer placed by its arithmetic "
            "intensity (FLOP per HBM byte, across) and the FLOP/s it attains (up), both on log "
            "scales, under the compute roof (the tensor cores' peak) and the memory roof (HBM "
            "bandwidth × intensity), which meet at the dashed ridge. Dots near the sloped roof are "
            "memory-bound, near the flat one compute-bound; hover a dot for its numbers. Try: "
            "double the HBM bandwidth and watch the ridge move left and norms rise."),
         {"term-roofline", "term-hbm", "term-systolic-array", "term-microbatch"}},
        {tr("Sensitivity"),
         tr("What limits the shown point: Analyse moves each hardware parameter 10 % down (blue) "
            "and up (orange) and places the model again, in the background; each bar is the "
            "change in throughput (or, with Show, in energy per sample), the longest on top. A "
            "bar of −100 % means nothing fits any more; a missing bar, a value outside the "
            "parameter's range. Try: analyse the TPUv4-like chip and see the two vector cores "
            "limit it more than its tensor cores."),
         {"term-roofline", "term-systolic-array", "term-hbm", "term-per-watt"}},
        {tr("Scaling"),
         tr("The shown set-up placed again on clusters from 1/64 to 4 times its size, the "
            "placement re-chosen at each: strong scaling keeps the global batch (so the pipeline "
            "bubble and the synchronisation grow with the devices), weak scaling grows the batch "
            "with them. Show throughput against the dashed linear line, MFU, or days to train on "
            "the Summary's token budget; hover a size for its plan and scaling efficiency; grey "
            "crosses are sizes where the model does not fit."),
         {"term-data-parallel", "term-bubble", "term-mfu", "term-pipeline-parallel"}},
        {tr("Operators"),
         tr("Every operator of one layer: its class, forward and backward time on one core "
            "and on all cores, FLOPs and HBM bytes. Pick the layer above the table."),
         {"term-systolic-array", "term-hbm", "term-tensor-parallel"}},
    };
    std::stable_partition(sections.begin(), sections.end(),
                          [&](const Section& s) { return s.title == tab; });
    QStringList html;
    html << tr(
        "<h3>Guide to the tabs</h3><p>The bar above the tabs says which point they "
        "show: the set-up in the dock, or a design-space point. Edit the dock and the "
        "views follow within a moment; F5 evaluates now, Ctrl+R searches; File ▸ Export report… "
        "(Ctrl+Shift+E) writes what the tabs show as one HTML page, or a PDF, to hand in. The <a "
        "href=\"#glossary\">glossary</a> at the end explains the terms (Help ▸ Glossary, "
        "Shift+F1).</p>");
    for (const Section& section : sections) {
        QStringList links;
        for (const QString& anchor : section.terms) links << glossaryLink(anchor);
        html << QStringLiteral("<h4>%1</h4><p>%2</p><p><i>%3</i> %4</p>")
                    .arg(section.title.toHtmlEscaped(), section.body, tr("Terms:"),
                         links.join(QStringLiteral(", ")));
    }
    html << glossaryHtml();
    return html.join(QString());
}

void showGuideDialog(QWidget* parent, const QString& tab, const QString& anchor) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Guide to the tabs — Tandem"));
    auto* layout = new QVBoxLayout(dialog);
    auto* browser = new QTextBrowser(dialog);
    browser->setObjectName("guideBrowser");
    browser->setHtml(guideText(tab));
    layout->addWidget(browser);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(560, 620);
    dialog->show();
    if (!anchor.isEmpty()) browser->scrollToAnchor(anchor);
}

}  // namespace tandem::ui
