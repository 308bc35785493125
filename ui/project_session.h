#pragma once
// The document side of the main window: which project file is open, whether
// the set-up changed since it was saved, the recent-files list (QSettings) and the last folder
// used. The files themselves are read and written by the window (ProjectFileJob, through
// core::io::ProjectFile, so the CLI reads the same files; saving is atomic), which reports the
// outcome with markOpened() / markSaved(). The window asks confirmDiscard() before anything
// that would lose unsaved changes.
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

class QWidget;

namespace tandem::ui {

class ProjectSession : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 8;
    explicit ProjectSession(QObject* parent = nullptr);

    QString path() const { return path_; }  // empty: untitled
    bool isModified() const { return modified_; }
    QString displayName() const;  // file name or "Untitled"

    void setModified(bool modified);
    void reset();  // an untitled, unmodified project

    // `path` was read (and applied) or written: it becomes the current, unmodified file and
    // goes to the top of the recent list.
    void markOpened(const QString& path);
    void markSaved(const QString& path) { markOpened(path); }

    QStringList recentFiles() const;
    void forgetRecent(const QString& path);
    QString lastFolder() const;
    void rememberFolder(const QString& fileOrFolder);

    // When modified, asks Save / Discard / Cancel; `save` is called for Save and must return
    // true when the project was saved. True when it is safe to go on.
    bool confirmDiscard(QWidget* parent, const std::function<bool()>& save);

signals:
    void changed();  // path, modified flag or recent list changed

private:
    void addRecent(const QString& path);

    QString path_;
    bool modified_ = false;
};

}  // namespace tandem::ui
