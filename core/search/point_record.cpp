#include "core/search/point_record.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tandem::core::search {
namespace {

// The 13th field, the plan's V, ZeRO stage and sequence parallelism (0 or 1), came with the
// search choosing them; a
// record of 13 fields (an older checkpoint: the message follows the seconds) is a plain plan.
constexpr std::size_t kFields = 14;
constexpr std::size_t kFieldsBeforeChoices = 13;

void appendDouble(std::string& out, double value) {
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::hex);
    out.append(buffer, result.ptr);
}

void appendEscaped(std::string& out, std::string_view text) {
    for (const char c : text) {
        switch (c) {
            case '\\':
                out += "\\\\";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                out += c;
        }
    }
}

Expected<std::string> unescaped(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (++i == text.size()) return Error{"message: a lone backslash at its end"};
        switch (text[i]) {
            case '\\':
                out += '\\';
                break;
            case 't':
                out += '\t';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            default:
                return Error{"message: unknown escape \\" + std::string(1, text[i])};
        }
    }
    return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = text.find(separator, begin);
        parts.push_back(text.substr(begin, end - begin));
        if (end == std::string_view::npos) return parts;
        begin = end + 1;
    }
}

// Every number a record holds (throughputs, times, a gap) is finite and at least 0: a record
// with inf, nan or a negative value was not written by Tandem and is refused like any other
// damaged input (from_chars itself accepts "inf" and "nan").
bool parseDouble(std::string_view text, double& out) {
    if (text.empty()) return false;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, out, std::chars_format::hex);
    return result.ec == std::errc() && result.ptr == end && std::isfinite(out) && out >= 0;
}

template <typename Integer>
bool parseInteger(std::string_view text, Integer& out) {
    if (text.empty()) return false;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, out);
    return result.ec == std::errc() && result.ptr == end;
}

Expected<PointStatus> parseStatus(std::string_view text) {
    for (const PointStatus s : {PointStatus::Feasible, PointStatus::Infeasible, PointStatus::Error,
                                PointStatus::Cancelled})
        if (text == toString(s)) return s;
    return Error{"status: '" + std::string(text.substr(0, 40)) + "' is not a point status"};
}

}  // namespace

std::string encodePointRecord(const EvaluatedPoint& e) {
    std::string out = std::to_string(e.point.index);
    out += '\t';
    out += toString(e.status);
    for (const double v :
         {e.throughputSamplesPerSecond, e.objective, e.baselineThroughputSamplesPerSecond}) {
        out += '\t';
        appendDouble(out, v);
    }
    out += '\t' + std::to_string(e.planShape.tensorParallel);
    out += '\t' + std::to_string(e.planShape.dataParallel);
    out += '\t' + std::to_string(e.planShape.stages) + '\t';
    appendDouble(out, e.planShape.timePerBatchSeconds);
    out += '\t';
    if (e.modelThroughputsSamplesPerSecond.empty()) out += '-';
    for (std::size_t i = 0; i < e.modelThroughputsSamplesPerSecond.size(); ++i) {
        if (i) out += ',';
        appendDouble(out, e.modelThroughputsSamplesPerSecond[i]);
    }
    const ScheduleSummary& s = e.schedules;
    out += '\t' + std::to_string(s.schedules) + ',' + std::to_string(s.optimal) + ',' +
           std::to_string(s.feasible) + ',' + std::to_string(s.timedOut) + ',' +
           std::to_string(s.cancelled) + ',';
    appendDouble(out, s.maxGap);
    out += '\t';
    const PhaseSeconds& t = e.seconds;
    const double phases[] = {t.estimate, t.schedule, t.placement, t.total};
    for (std::size_t i = 0; i < 4; ++i) {
        if (i) out += ',';
        appendDouble(out, phases[i]);
    }
    out += '\t' + std::to_string(e.planShape.interleave) + ',' + std::to_string(e.planShape.zero) +
           (e.planShape.sequenceParallel ? ",1," : ",0,") + std::to_string(e.planShape.devicesUsed);
    for (const double v : {e.planShape.joulesPerIteration, e.planShape.averagePowerWatts}) {
        out += ',';
        appendDouble(out, v);
    }
    out += '\t';
    appendEscaped(out, e.message);
    return out;
}

Expected<EvaluatedPoint> decodePointRecord(std::string_view record, const SearchGrid& grid) {
    const std::vector<std::string_view> f = split(record, '\t');
    if (f.size() != kFields && f.size() != kFieldsBeforeChoices)
        return Error{"expected " + std::to_string(kFields) + " tab-separated fields, found " +
                     std::to_string(f.size())};
    EvaluatedPoint e;
    std::int64_t index = 0;
    if (!parseInteger(f[0], index) || index < 0 || index >= grid.pointCount())
        return Error{"index: '" + std::string(f[0].substr(0, 40)) + "' is not a point of the " +
                     std::to_string(grid.pointCount()) + "-point grid"};
    e.point = grid.point(index);
    auto status = parseStatus(f[1]);
    if (!status) return Error{status.message()};
    e.status = *status;
    const char* doubleNames[] = {"throughput", "objective", "fixed throughput"};
    double* doubles[] = {&e.throughputSamplesPerSecond, &e.objective,
                         &e.baselineThroughputSamplesPerSecond};
    for (std::size_t i = 0; i < 3; ++i)
        if (!parseDouble(f[2 + i], *doubles[i]))
            return Error{std::string(doubleNames[i]) + ": not a finite number >= 0"};
    if (!parseInteger(f[5], e.planShape.tensorParallel) ||
        !parseInteger(f[6], e.planShape.dataParallel) || !parseInteger(f[7], e.planShape.stages) ||
        !parseDouble(f[8], e.planShape.timePerBatchSeconds))
        return Error{"plan shape: not a number (time per batch: finite, >= 0)"};
    if (f[9] != "-") {
        for (const std::string_view part : split(f[9], ',')) {
            double v = 0;
            if (!parseDouble(part, v)) return Error{"model throughputs: not a finite number >= 0"};
            e.modelThroughputsSamplesPerSecond.push_back(v);
        }
    }
    const std::vector<std::string_view> s = split(f[10], ',');
    ScheduleSummary& summary = e.schedules;
    if (s.size() != 6 || !parseInteger(s[0], summary.schedules) ||
        !parseInteger(s[1], summary.optimal) || !parseInteger(s[2], summary.feasible) ||
        !parseInteger(s[3], summary.timedOut) || !parseInteger(s[4], summary.cancelled) ||
        !parseDouble(s[5], summary.maxGap))
        return Error{"schedules: expected 5 counts and a gap"};
    const std::vector<std::string_view> t = split(f[11], ',');
    PhaseSeconds& seconds = e.seconds;
    if (t.size() != 4 || !parseDouble(t[0], seconds.estimate) ||
        !parseDouble(t[1], seconds.schedule) || !parseDouble(t[2], seconds.placement) ||
        !parseDouble(t[3], seconds.total))
        return Error{"seconds: expected 4 numbers"};
    if (f.size() == kFields) {
        const std::vector<std::string_view> c = split(f[12], ',');
        PlanShape& shape = e.planShape;
        // Records written before energy was modelled end after sequence parallelism.
        if ((c.size() != 3 && c.size() != 6) || !parseInteger(c[0], shape.interleave) ||
            !parseInteger(c[1], shape.zero) || shape.interleave < 1 || shape.zero < 0 ||
            shape.zero > 3 || (c[2] != "0" && c[2] != "1"))
            return Error{
                "plan choices: expected V >= 1, a ZeRO stage 0 to 3, sequence parallelism 0 "
                "or 1, then devices in use, joules per iteration and watts"};
        shape.sequenceParallel = c[2] == "1";
        if (c.size() == 6 && (!parseInteger(c[3], shape.devicesUsed) || shape.devicesUsed < 0 ||
                              !parseDouble(c[4], shape.joulesPerIteration) ||
                              !parseDouble(c[5], shape.averagePowerWatts)))
            return Error{"plan energy: expected devices in use, joules and watts (finite, >= 0)"};
    }
    auto message = unescaped(f.back());
    if (!message) return Error{message.message()};
    e.message = std::move(*message);
    return e;
}

}  // namespace tandem::core::search
