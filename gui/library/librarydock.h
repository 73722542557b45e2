#pragma once

#include <QDockWidget>
#include <QPointer>

class QLabel;
class QProgressBar;
class QTreeWidget;

namespace Knowledge {
class Library;
}

namespace Gui {

// The Library panel (View, Library): the knowledge base's folders with their file and passage
// counts, a progress bar while a pass runs, the files skipped with their reasons, and what the
// index said about itself (rebuilt after damage, or failed). It only reads the Library; the
// folders are edited in Settings, Library. GUI thread, like the Library.
class LibraryDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit LibraryDock(Knowledge::Library *library, QWidget *parent = nullptr);

    // Re-reads counts and skipped files from the index.
    void refresh();

signals:
    // The user asked to edit the folders (the panel's button).
    void settingsRequested();

private:
    void showMessage(const QString &message, bool problem);

    QPointer<Knowledge::Library> m_library;
    QLabel *m_summary = nullptr;
    QLabel *m_message = nullptr;
    QProgressBar *m_progress = nullptr;
    QTreeWidget *m_folders = nullptr;
    QLabel *m_skippedLabel = nullptr;
    QTreeWidget *m_skipped = nullptr;
};

} // namespace Gui
