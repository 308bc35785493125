#pragma once
// Small inline SVG charts for the HTML report (training_report.h), drawn without any GUI
// library so `tandem-cli report` can write them: a horizontal stacked bar (where the time per
// batch goes), a log-log scatter under roofs (the roofline) and log-log lines (scaling). Each
// returns one <svg> element with a <title>, text escaped; sizes in CSS pixels.
#include <string>
#include <vector>

namespace tandem::core::io::svg {

struct BarPart {
    std::string label;
    double value = 0;    // ≥ 0
    std::string colour;  // "#4e79a7"
};

// One bar of `parts` scaled to `width`, with a legend of label and share under it.
std::string stackedBar(const std::string& title, const std::vector<BarPart>& parts,
                       const std::string& unit, int width = 720);

struct XY {
    double x = 0, y = 0;
    std::string label;   // shown as the mark's tooltip (<title>)
    std::string colour;  // mark colour
};

struct LogLogChart {
    std::string title, xLabel, yLabel;
    std::vector<XY> marks;               // dots
    std::vector<std::vector<XY>> lines;  // polylines (colour of their first point)
    std::vector<bool> dashed;            // per line
};

// Axes spanning every finite positive coordinate with decade ticks; non-positive values are
// left out.
std::string logLog(const LogLogChart& chart, int width = 720, int height = 420);

// "&lt;" etc.: text for HTML and SVG.
std::string escape(const std::string& text);

}  // namespace tandem::core::io::svg
