#pragma once
// The strip above the views that says which point they show (ARCHITECTURE.md §1.10): the
// set-up in the dock, or a point of the design space, with the model and chip by name. For a
// design-space point it offers "Use as set-up" (copy its chip, microbatch and recompute into the
// dock), "Compare with set-up" (the two side by side in the Comparison tab), "Export plan…" and
// "Back to set-up". While a set-up field is invalid it says the views are not updated and the
// window fades them (setNotUpdated). A multi-model search's point also offers "Views show:
// <model>" (setModels): the views show that model's plan and breakdown at the point, one model
// at a time. Wiring only: MainWindow decides what is current.
#include <QFrame>
#include <QString>

class QComboBox;
class QPushButton;

namespace tandem::ui {

class ElidedLabel;

class CurrentPointBar : public QFrame {
    Q_OBJECT
public:
    explicit CurrentPointBar(QWidget* parent = nullptr);

    // `what`: "gpt3-175b on tpuv4-like (1,024 devices)".
    void showSetUp(const QString& what);
    // `models`: a multi-model search's per-model throughputs at the point ("gpt3-175b 42.5
    // samples/s · bert-large 3.1 ksamples/s"), shown after `what`; empty for one model.
    void showSearchPoint(qint64 pointIndex, const QString& what, const QString& models = {});
    // A non-empty `why` ("Tensor cores: must be at least 1") says the views show the last valid
    // point; empty clears it.
    void setNotUpdated(const QString& why);
    // The models of a multi-model search and the one the views show; fewer than two hide the
    // choice. Choosing another emits modelChosen.
    void setModels(const QStringList& names, int shown);
    QComboBox* modelChoice() const { return model_; }

    bool showsSearchPoint() const { return pointIndex_ >= 0; }
    qint64 pointIndex() const { return pointIndex_; }
    bool isUpdated() const { return notUpdated_.isEmpty(); }
    QString text() const;  // the whole text, also when the bar shows it elided

    QPushButton* useAsSetUpButton() const { return use_; }
    QPushButton* compareButton() const { return compare_; }
    QPushButton* exportPlanButton() const { return export_; }
    QPushButton* backButton() const { return back_; }

signals:
    void useAsSetUp();
    void compareWithSetUp();
    void exportPlan();
    void backToSetUp();
    void modelChosen(int index);

private:
    void refresh();

    ElidedLabel* label_ = nullptr;
    QComboBox* model_ = nullptr;
    QPushButton* use_ = nullptr;
    QPushButton* compare_ = nullptr;
    QPushButton* export_ = nullptr;
    QPushButton* back_ = nullptr;
    qint64 pointIndex_ = -1;
    QString what_;
    QString models_;
    QString notUpdated_;
};

}  // namespace tandem::ui
