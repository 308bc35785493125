#include "core/io/report_svg.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/common/units.h"

namespace tandem::core::io::svg {

namespace {

std::string number(double v) {
    return formatFixed(v, 1);
}

// As "%g" prints it ("1e+14", "0.5"), whatever the C locale (std::to_chars ignores it).
std::string tickText(double v) {
    char buffer[32];
    const auto [end, error] =
        std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::general, 6);
    return error == std::errc{} ? std::string(buffer, end) : std::string("n/a");
}

}  // namespace

std::string escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string stackedBar(const std::string& title, const std::vector<BarPart>& parts,
                       const std::string& unit, int width) {
    double total = 0;
    for (const BarPart& p : parts) total += std::max(0.0, p.value);
    const int rows = int(parts.size() + 2) / 3;
    const int height = 40 + 22 * rows;
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                      "\" height=\"" + std::to_string(height) + "\" role=\"img\"><title>" +
                      escape(title) + "</title>";
    double x = 0;
    for (const BarPart& p : parts) {
        const double w = total > 0 ? std::max(0.0, p.value) / total * width : 0;
        out += "<rect x=\"" + number(x) + "\" y=\"0\" width=\"" + number(w) +
               "\" height=\"28\" fill=\"" + escape(p.colour) + "\"><title>" + escape(p.label) +
               ": " + tickText(p.value) + " " + escape(unit) + "</title></rect>";
        x += w;
    }
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const int cx = int(i % 3) * (width / 3), cy = 40 + int(i / 3) * 22;
        const double share = total > 0 ? 100 * std::max(0.0, parts[i].value) / total : 0;
        out += "<rect x=\"" + std::to_string(cx) + "\" y=\"" + std::to_string(cy) +
               "\" width=\"12\" height=\"12\" fill=\"" + escape(parts[i].colour) + "\"/>";
        out += "<text x=\"" + std::to_string(cx + 18) + "\" y=\"" + std::to_string(cy + 11) +
               "\" font-size=\"12\">" + escape(parts[i].label) + " (" + formatFixed(share, 1) +
               " %)</text>";
    }
    return out + "</svg>";
}

std::string logLog(const LogLogChart& chart, int width, int height) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double x0 = kInf, x1 = 0, y0 = kInf, y1 = 0;
    const auto include = [&](const XY& p) {
        if (!(p.x > 0) || !(p.y > 0) || !std::isfinite(p.x) || !std::isfinite(p.y)) return;
        x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y),
        y1 = std::max(y1, p.y);
    };
    for (const XY& p : chart.marks) include(p);
    for (const auto& line : chart.lines)
        for (const XY& p : line) include(p);
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                      "\" height=\"" + std::to_string(height) + "\" role=\"img\"><title>" +
                      escape(chart.title) + "</title>";
    if (!(x1 > 0)) return out + "<text x=\"10\" y=\"20\">no data</text></svg>";
    // Whole decades around the data.
    const double lx0 = std::floor(std::log10(x0)),
                 lx1 = std::max(lx0 + 1, std::ceil(std::log10(x1)));
    const double ly0 = std::floor(std::log10(y0)),
                 ly1 = std::max(ly0 + 1, std::ceil(std::log10(y1)));
    const double left = 70, right = width - 20, top = 20, bottom = height - 50;
    const auto px = [&](double x) {
        return left + (std::log10(x) - lx0) / (lx1 - lx0) * (right - left);
    };
    const auto py = [&](double y) {
        return bottom - (std::log10(y) - ly0) / (ly1 - ly0) * (bottom - top);
    };
    out += "<rect x=\"" + number(left) + "\" y=\"" + number(top) + "\" width=\"" +
           number(right - left) + "\" height=\"" + number(bottom - top) +
           "\" fill=\"none\" stroke=\"#888\"/>";
    for (double d = lx0; d <= lx1; d += 1) {
        const double x = px(std::pow(10.0, d));
        out += "<line x1=\"" + number(x) + "\" y1=\"" + number(top) + "\" x2=\"" + number(x) +
               "\" y2=\"" + number(bottom) + "\" stroke=\"#ddd\"/><text x=\"" + number(x) +
               "\" y=\"" + number(bottom + 16) + "\" font-size=\"11\" text-anchor=\"middle\">" +
               tickText(std::pow(10.0, d)) + "</text>";
    }
    for (double d = ly0; d <= ly1; d += 1) {
        const double y = py(std::pow(10.0, d));
        out += "<line x1=\"" + number(left) + "\" y1=\"" + number(y) + "\" x2=\"" + number(right) +
               "\" y2=\"" + number(y) + "\" stroke=\"#ddd\"/><text x=\"" + number(left - 6) +
               "\" y=\"" + number(y + 4) + "\" font-size=\"11\" text-anchor=\"end\">" +
               tickText(std::pow(10.0, d)) + "</text>";
    }
    for (std::size_t l = 0; l < chart.lines.size(); ++l) {
        const auto& line = chart.lines[l];
        std::string points;
        for (const XY& p : line)
            if (p.x > 0 && p.y > 0) points += number(px(p.x)) + "," + number(py(p.y)) + " ";
        if (points.empty()) continue;
        const bool dashed = l < chart.dashed.size() && chart.dashed[l];
        out += "<polyline fill=\"none\" stroke=\"" + escape(line.front().colour) +
               "\" stroke-width=\"2\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") +
               " points=\"" + points + "\"/>";
    }
    for (const XY& p : chart.marks) {
        if (!(p.x > 0) || !(p.y > 0)) continue;
        out += "<circle cx=\"" + number(px(p.x)) + "\" cy=\"" + number(py(p.y)) +
               "\" r=\"4\" fill=\"" + escape(p.colour) + "\"><title>" + escape(p.label) +
               "</title></circle>";
    }
    out += "<text x=\"" + number((left + right) / 2) + "\" y=\"" + number(height - 12) +
           "\" font-size=\"12\" text-anchor=\"middle\">" + escape(chart.xLabel) + "</text>";
    out += "<text transform=\"translate(14," + number((top + bottom) / 2) +
           ") rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">" + escape(chart.yLabel) +
           "</text>";
    return out + "</svg>";
}

}  // namespace tandem::core::io::svg
