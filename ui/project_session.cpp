#include "ui/project_session.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace tandem::ui {

ProjectSession::ProjectSession(QObject* parent) : QObject(parent) {}

QString ProjectSession::displayName() const {
    return path_.isEmpty() ? tr("Untitled") : QFileInfo(path_).fileName();
}

void ProjectSession::setModified(bool modified) {
    if (modified_ == modified) return;
    modified_ = modified;
    emit changed();
}

void ProjectSession::reset() {
    path_.clear();
    modified_ = false;
    emit changed();
}

void ProjectSession::markOpened(const QString& path) {
    path_ = QFileInfo(path).absoluteFilePath();
    modified_ = false;
    addRecent(path_);
    rememberFolder(path_);
    emit changed();
}

QStringList ProjectSession::recentFiles() const {
    return QSettings().value("recentProjects").toStringList();
}

void ProjectSession::addRecent(const QString& path) {
    QStringList list = recentFiles();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue("recentProjects", list);
}

void ProjectSession::forgetRecent(const QString& path) {
    QStringList list = recentFiles();
    list.removeAll(path);
    QSettings().setValue("recentProjects", list);
    emit changed();
}

QString ProjectSession::lastFolder() const {
    return QSettings().value("lastFolder", QDir::homePath()).toString();
}

void ProjectSession::rememberFolder(const QString& fileOrFolder) {
    const QFileInfo info(fileOrFolder);
    QSettings().setValue("lastFolder",
                         info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

bool ProjectSession::confirmDiscard(QWidget* parent, const std::function<bool()>& save) {
    if (!modified_) return true;
    const auto answer = QMessageBox::warning(
        parent, tr("Unsaved changes"),
        tr("%1 has changes that are not saved. Save them first?").arg(displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) return true;
    return save();
}

}  // namespace tandem::ui
