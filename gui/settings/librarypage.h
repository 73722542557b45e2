#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace Gui {

// The settings dialog's Library page: the folders of the knowledge base, added through a folder
// chooser (window-modal, opened with open()) and removed from the list. Each change is reported through foldersEdited() for the
// dialog to apply at once, like every other setting. GUI thread.
class LibraryPage : public QWidget
{
    Q_OBJECT

public:
    explicit LibraryPage(QWidget *parent = nullptr);

    // Shows `folders`; emits nothing.
    void showFolders(const QStringList &folders);
    QStringList folders() const { return m_folders; }

signals:
    void foldersEdited(const QStringList &folders);

private:
    void addFolder();
    void addChosenFolder(const QString &chosen);
    void removeSelected();
    void refresh();

    QStringList m_folders;
    QListWidget *m_list = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace Gui
