#include "ui/guide_text.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QObject>
#include <QStringList>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>
#include <vector>

namespace tandem::ui {

QString guideText(const QString& tab) {
    const auto tr = [](const char* s) { return QObject::tr(s); };
    std::vector<std::pair<QString, QString>> sections = {
        {tr("Design space"),
         tr("Every chip a search evaluated: chip area (mm²) across, training throughput "
            "(samples/s) up. The step line is the Pareto front: no chip is both smaller and "
            "faster. Chips below 30 % of the area budget are left out (PHAZE's minimum-area "
            "rule), except chips with one tensor core or one vector core, for which PHAZE waives "
            "it: those are the small chips on the left, and their tooltip says so. Colour shows "
            "one configuration dimension (pick it above the plot). Click a "
            "point to show it in every tab; right-click it to use it as the set-up, compare it "
            "with the set-up or export its plan. The search ranks by what Search space ▸ Rank by "
            "says: throughput, throughput per watt (samples per kJ of the plan's energy) or cost "
            "to train (samples per device-hour); the axis, the front and the star follow it, and "
            "each point's tooltip gives its energy per iteration and power per device. Try: "
            "search, then colour by tensor cores and see which counts sit on the front; rank by "
            "throughput per watt and see the star move to a smaller chip.")},
        {tr("Schedule"),
         tr("One layer's operators on the chip's tensor and vector cores over time, forward then "
            "backward. Bars are operators; the dark line marks the makespan and the dashed red "
            "line the lower bound no schedule can beat. Try: halve the global buffer and watch the "
            "bars stretch.")},
        {tr("Pipeline"),
         tr("The 1F1B pipeline of one data-parallel replica: each row a stage, each block a "
            "microbatch's forward (blue) or backward (orange) pass; long pipelines open on the "
            "warm-up and a few steady cycles (0 shows the whole batch). Idle gaps are the bubble: "
            "the "
            "share of the time a stage waits, (S − 1)/(m + S − 1) for S equal stages and m "
            "microbatches. The header says where the time per batch goes. The plan is the "
            "placement search's, or the strategy P, T, D fixed in the set-up (Cluster and "
            "training ▸ Strategy); with interleaving (V model chunks per device) each chunk is "
            "a block of its own, every other chunk darker.")},
        {tr("Placement"),
         tr("Which device runs what: one cell per device, grouped into data-parallel replicas, "
            "pipeline stages and tensor-parallel groups, with the links between stages. Hover "
            "a cell for its stage's layers and memory.")},
        {tr("Layers"),
         tr("Each layer's kind, stage, forward and backward time, parameters, activations and "
            "schedule status at the plan's tensor-parallel width. Sort by a column to find the "
            "layer that limits a stage.")},
        {tr("Comparison"),
         tr("What co-searching chip and placement buys, one change at a time: from the "
            "reference chip with the model's fixed Megatron strategy, Tandem's placement on the "
            "same chip and options, then the searched chip, then microbatch and recompute, then "
            "the HBM capacity. Each step's factor says what that one change gained.")},
        {tr("Summary"),
         tr("The model and the chip at a glance: parameters, layers, FLOPs per sample, the "
            "chip's cores, peak, memory and area, and a stacked bar of where the plan's time per "
            "batch goes, with its model FLOPs utilisation. Below it, the plan's energy per "
            "iteration (arithmetic, HBM, links, static power), its average power per device, and "
            "for the tokens and price per device-hour you set there, the days, device-hours, MWh "
            "and cost to train (GPT-3 on 300 B tokens: about a month on 1,024 A100s).")},
        {tr("Operators"),
         tr("Every operator of one layer: its class, forward and backward time on one core "
            "and on all cores, FLOPs and HBM bytes. Pick the layer above the table.")},
    };
    std::stable_partition(sections.begin(), sections.end(),
                          [&](const auto& s) { return s.first == tab; });
    QStringList html;
    html << tr(
        "<h3>Guide to the tabs</h3><p>The bar above the tabs says which point they "
        "show: the set-up in the dock, or a design-space point. Edit the dock and the "
        "views follow within a moment; F5 evaluates now, Ctrl+R searches.</p>");
    for (const auto& [title, body] : sections)
        html << QStringLiteral("<h4>%1</h4><p>%2</p>").arg(title.toHtmlEscaped(), body);
    return html.join(QString());
}

void showGuideDialog(QWidget* parent, const QString& tab) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Guide to the tabs — Tandem"));
    auto* layout = new QVBoxLayout(dialog);
    auto* browser = new QTextBrowser(dialog);
    browser->setHtml(guideText(tab));
    layout->addWidget(browser);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(560, 620);
    dialog->show();
}

}  // namespace tandem::ui
