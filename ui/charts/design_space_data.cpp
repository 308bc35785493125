#include "ui/charts/design_space_data.h"

#include <QObject>
#include <QRectF>
#include <algorithm>
#include <cmath>

#include "core/search/pareto.h"

namespace tandem::ui {

void DesignSpaceData::clear() {
    records_.clear();
    messages_.clear();
    messageIds_.clear();
    feasible_ = 0;
    bounds_ = QRectF();
    hasBounds_ = false;
    colouring_.reset(colouring_.dimension());
    front_.clear();
    best_.reset();
    referenceRecord_.reset();
    modelThroughputs_.clear();
    grid_.clear();
    byIndex_.clear();
    byIndexTail_.clear();
}

bool DesignSpaceData::add(const core::search::EvaluatedPoint& point) {
    if (point.status == core::search::PointStatus::Cancelled) return false;
    auto record = DesignPointRecord::from(point, objective_);
    if (!point.message.empty()) {
        // Messages repeat ("does not fit in HBM …"); one copy each keeps 700k points small.
        const QString text = QString::fromStdString(point.message);
        auto it = messageIds_.find(text);
        if (it == messageIds_.end()) {
            it = messageIds_.insert(text, int(messages_.size()));
            messages_.push_back(text);
        }
        record.messageId = it.value();
    }
    const std::size_t i = records_.size();
    records_.push_back(record);
    if (multiModel()) {
        const auto& each = point.modelThroughputsSamplesPerSecond;
        for (qsizetype m = 0; m < modelNames_.size(); ++m)
            modelThroughputs_.push_back(std::size_t(m) < each.size() ? each[std::size_t(m)] : 0.0);
    }
    const QPointF at(record.areaSquareMillimetres, record.plottedThroughput());
    grid_.append(at.x(), at.y());
    // A non-finite coordinate cannot be drawn; it must not poison the view's range either.
    if (std::isfinite(at.x()) && std::isfinite(at.y())) {
        if (!hasBounds_) bounds_ = QRectF(at, at);
        hasBounds_ = true;
        bounds_.setLeft(std::min(bounds_.left(), at.x()));
        bounds_.setRight(std::max(bounds_.right(), at.x()));
        bounds_.setTop(std::min(bounds_.top(), at.y()));
        bounds_.setBottom(std::max(bounds_.bottom(), at.y()));
    }
    if (record.feasible()) {
        ++feasible_;
        if (!best_ || record.betterThan(records_[*best_])) best_ = i;
    }
    considerForReference(i);
    return colouring_.observe(record);
}

void DesignSpaceData::considerForReference(std::size_t i) {
    const auto& r = records_[i];
    if (!referenceChip_ || !r.feasible() || !r.onChip(*referenceChip_)) return;
    if (!referenceRecord_ || r.betterThan(records_[*referenceRecord_])) referenceRecord_ = i;
}

void DesignSpaceData::mergeFront(std::size_t from) {
    // A point dominated once stays dominated, so the front of (old front ∪ new points) is the
    // front of everything. core computes it with the rule SearchResults uses (objective vs area).
    // Along the front (area ascending) the objective rises, so the front point of largest area
    // ≤ a new point's area is the best one that could dominate it: a new point it strictly
    // dominates (no larger area and a higher objective, or a smaller area and one as high) is
    // left out at O(log front) instead of sorting the whole batch with the front.
    std::vector<std::size_t> candidates = front_;
    for (std::size_t i = from; i < records_.size(); ++i) {
        const auto& r = records_[i];
        if (!r.feasible()) continue;
        const auto above = std::upper_bound(front_.begin(), front_.end(), r.areaSquareMillimetres,
                                            [this](double area, std::size_t f) {
                                                return area < records_[f].areaSquareMillimetres;
                                            });
        if (above != front_.begin()) {
            const auto& q = records_[*std::prev(above)];
            if (q.objective > r.objective ||
                (q.areaSquareMillimetres < r.areaSquareMillimetres && q.objective >= r.objective))
                continue;
        }
        candidates.push_back(i);
    }
    std::vector<core::search::ParetoCandidate> values;
    values.reserve(candidates.size());
    for (auto i : candidates)
        values.push_back({records_[i].areaSquareMillimetres, records_[i].objective});
    front_.clear();
    for (auto k : core::search::paretoFront(values)) front_.push_back(candidates[k]);
}

void DesignSpaceData::adoptResults(const core::search::SearchResults& results) {
    clear();
    const auto& points = results.points();
    std::vector<std::ptrdiff_t> recordOfPoint(points.size(), -1);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::size_t before = records_.size();
        add(points[i]);
        if (records_.size() > before) recordOfPoint[i] = std::ptrdiff_t(before);
    }
    front_.clear();
    for (auto i : results.paretoByArea())
        if (i < points.size() && recordOfPoint[i] >= 0)
            front_.push_back(std::size_t(recordOfPoint[i]));
    best_.reset();
    if (const auto b = results.best(); b && *b < points.size() && recordOfPoint[*b] >= 0)
        best_ = std::size_t(recordOfPoint[*b]);
}

void DesignSpaceData::setColourDimension(ColourDimension dimension) {
    colouring_.reset(dimension);
    records_.forEachFrom(0, [this](const DesignPointRecord& r) { colouring_.observe(r); });
}

void DesignSpaceData::setSpace(const core::search::SearchSpace& space) {
    colouring_.setValueLists(space);
    minAreaFraction_ = space.minAreaFraction;
    areaBudgetSquareMillimetres_ = space.areaBudgetSquareMillimetres;
    records_.forEachFrom(0, [this](const DesignPointRecord& r) { colouring_.observe(r); });
}

void DesignSpaceData::clearSpace() {
    colouring_.clearValueLists();
    minAreaFraction_ = core::hardware::AreaModel::kMinAreaFraction;
    areaBudgetSquareMillimetres_ = core::hardware::AreaModel::kReferenceAreaSquareMillimetres;
    records_.forEachFrom(0, [this](const DesignPointRecord& r) { colouring_.observe(r); });
}

void DesignSpaceData::setReferenceChip(std::optional<core::hardware::AcceleratorConfig> chip,
                                       QString name) {
    referenceChip_ = std::move(chip);
    referenceName_ = std::move(name);
    referenceRecord_.reset();
    for (std::size_t i = 0; i < records_.size(); ++i) considerForReference(i);
}

void DesignSpaceData::setModelNames(const QStringList& names) {
    if (names == modelNames_) return;
    modelNames_ = names;
    // Records already held keep no per-model numbers (zeros keep the table's stride).
    modelThroughputs_.clear();
    if (multiModel())
        for (std::size_t i = 0; i < records_.size() * std::size_t(modelNames_.size()); ++i)
            modelThroughputs_.push_back(0.0);
}

std::vector<std::pair<QString, double>> DesignSpaceData::modelThroughputs(std::size_t i) const {
    std::vector<std::pair<QString, double>> out;
    if (!multiModel() || !records_[i].feasible() || !records_[i].normalised) return out;
    const std::size_t n = std::size_t(modelNames_.size());
    for (std::size_t m = 0; m < n; ++m)
        out.emplace_back(modelNames_[qsizetype(m)], modelThroughputs_[i * n + m]);
    return out;
}

std::optional<std::size_t> DesignSpaceData::recordOf(std::int64_t pointIndex) const {
    if (pointIndex < 0) return std::nullopt;
    using Entry = std::pair<std::int64_t, std::size_t>;
    // Appends records [first, end) to `run`, sorted, and merges them into it.
    const auto extend = [this](std::vector<Entry>& run, std::size_t first) {
        const auto old = std::ptrdiff_t(run.size());
        for (std::size_t i = first; i < records_.size(); ++i)
            run.emplace_back(records_[i].index, i);
        // Searches stream in index order more often than not: then there is nothing to sort.
        if (!std::is_sorted(run.begin() + old, run.end())) std::sort(run.begin() + old, run.end());
        if (old > 0 && std::size_t(old) < run.size() &&
            run[std::size_t(old)] < run[std::size_t(old) - 1])
            std::inplace_merge(run.begin(), run.begin() + old, run.end());
    };
    const std::size_t indexed = byIndex_.size() + byIndexTail_.size();
    if (indexed < records_.size()) {
        if (records_.size() - byIndex_.size() > std::max<std::size_t>(4096, byIndex_.size() / 8)) {
            // The tail would outgrow its limit: everything goes into the main run.
            byIndex_.reserve(records_.size());
            if (!byIndexTail_.empty()) {
                const auto old = std::ptrdiff_t(byIndex_.size());
                byIndex_.insert(byIndex_.end(), byIndexTail_.begin(), byIndexTail_.end());
                std::inplace_merge(byIndex_.begin(), byIndex_.begin() + old, byIndex_.end());
                byIndexTail_.clear();
            }
            extend(byIndex_, byIndex_.size());
        } else {
            extend(byIndexTail_, indexed);
        }
    }
    for (const auto* run : {&byIndex_, &byIndexTail_}) {
        const auto it = std::lower_bound(run->begin(), run->end(), Entry(pointIndex, 0));
        if (it != run->end() && it->first == pointIndex) return it->second;
    }
    return std::nullopt;
}

std::optional<std::size_t> DesignSpaceData::nearest(
    const QPointF& pixel, double radius, const QRectF& dataRect,
    const std::function<QPointF(double, double)>& toPixel) const {
    grid_.index();
    std::optional<std::size_t> best;
    double bestDistance = radius * radius;
    const auto consider = [&](std::size_t i) {
        const auto& r = records_[i];
        const QPointF d = toPixel(r.areaSquareMillimetres, r.plottedThroughput()) - pixel;
        const double distance = d.x() * d.x() + d.y() * d.y();
        // Options of one chip stack on one x; among equally near points the best one is the
        // answer, as a reader expects of the top of a stack.
        if (distance < bestDistance ||
            (best && distance == bestDistance && r.betterThan(records_[*best]))) {
            bestDistance = distance;
            best = i;
        }
    };
    grid_.forEachNear(dataRect.left(), dataRect.right(), dataRect.top(), dataRect.bottom(),
                      consider);
    return best;
}

QString DesignSpaceData::tooltip(std::size_t i) const {
    const auto& r = records_[i];
    QString text = r.tooltip(r.messageId >= 0 ? messages_[std::size_t(r.messageId)] : QString(),
                             modelThroughputs(i));
    if (best_ == i) text += QStringLiteral("<br><b>Best point of the search</b>");
    const double minimum = minAreaFraction_ * areaBudgetSquareMillimetres_;
    if (r.areaSquareMillimetres < minimum && (r.tensorCores == 1 || r.vectorCores == 1))
        text += QObject::tr(
                    "<br>Below the minimum area (%1 % of the %2 mm² budget, %3 mm²): "
                    "searched because it has a single %4 core, for which PHAZE waives "
                    "the rule")
                    .arg(100 * minAreaFraction_, 0, 'f', 0)
                    .arg(areaBudgetSquareMillimetres_, 0, 'f', 1)
                    .arg(minimum, 0, 'f', 1)
                    .arg(r.tensorCores == 1 ? QObject::tr("tensor") : QObject::tr("vector"));
    if (referenceRecord_ == i)
        text +=
            QStringLiteral("<br><b>Best point on the %1</b>").arg(referenceName_.toHtmlEscaped());
    if (std::find(front_.begin(), front_.end(), i) != front_.end())
        text += multiModel() || objective_ != core::search::SearchObjective::Throughput
                    ? QStringLiteral("<br>On the Pareto front: no smaller chip scores as high")
                    : QStringLiteral("<br>On the Pareto front: no smaller chip is as fast");
    return text;
}

}  // namespace tandem::ui
