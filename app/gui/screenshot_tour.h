#pragma once
// `tandem --screenshots DIR`: saves one PNG per central tab of a MainWindow into DIR (named after
// the tab, "design-space.png", …) and, when the window holds search results, the side-by-side
// Comparison of the fastest point on another chip than the best one with the set-up
// ("side-by-side.png"). scripts/screenshots uses it to keep the README's pictures current. It
// waits for the running search and the point's evaluation first, so every view shows real
// numbers; a wait that runs out is a failure (exit code 1).
#include <QString>
#include <functional>

namespace tandem::ui {
class MainWindow;
}

namespace tandem::app {

class ScreenshotTour {
public:
    ScreenshotTour(ui::MainWindow& window, QString folder);

    // 0 when every picture was saved, 1 otherwise.
    int run();

private:
    // Runs the event loop until `done` holds or `seconds` pass.
    static bool waitFor(const std::function<bool()>& done, int seconds);
    bool waitForThePoint() const;
    bool save(const QString& name) const;
    // On the Sensitivity and Scaling tabs: runs the tab's analysis and waits for it.
    bool analyseOnDemand();
    // The charts of File ▸ Export report… for the shown point, rendered as a browser would.
    int report();
    // Help ▸ Glossary's dialog, scrolled to the glossary.
    int glossary();
    int sideBySide();

    ui::MainWindow& window_;
    QString folder_;
};

}  // namespace tandem::app
