#pragma once

#include <QFileDialog>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <functional>

class QAction;
class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace Gui {

class ConversationStore;

// The list of conversations beside the chat: a search field (titles and message text), the
// list, newest first, and New, Rename (F2, or in place) and Delete (Del, after asking); Export
// (Markdown or JSON) and Import (JSON) through ConversationExport. Reads
// and renames through the store; opening, starting and removing a conversation are the chat
// session's, so they are asked for by signal. GUI thread.
class ConversationListPanel : public QWidget
{
    Q_OBJECT

public:
    ConversationListPanel(ConversationStore *store, QWidget *parent = nullptr);

    // Reads the list again (keeping the search), with `currentId` selected.
    void reload(qint64 currentId);
    void clearSearch();

    QLineEdit *searchField() const { return m_search; }
    QListWidget *list() const { return m_list; }
    QAction *newAction() const { return m_newAction; }
    QAction *renameAction() const { return m_renameAction; }
    QAction *deleteAction() const { return m_deleteAction; }
    QAction *exportMarkdownAction() const { return m_exportMarkdownAction; }
    QAction *exportJsonAction() const { return m_exportJsonAction; }
    QAction *importAction() const { return m_importAction; }

signals:
    void conversationSelected(qint64 id);
    void newRequested();
    // The user confirmed deleting it.
    void removeRequested(qint64 id);
    void renamed(qint64 id, const QString &title);
    void errorOccurred(const QString &message);

private:
    void createActions();
    void onCurrentItemChanged(QListWidgetItem *current);
    void onItemEdited(QListWidgetItem *item);
    void confirmDelete();
    // A non-native, window-modal file dialog (open(), no nested loop); `accepted` gets the path.
    void askForFile(QFileDialog::AcceptMode mode, const QString &caption, const QString &file, const QString &filter,
                    std::function<void(const QString &)> accepted);
    void exportCurrent(bool json);
    void importFile();
    void updateActions();

    QPointer<ConversationStore> m_store;
    QLineEdit *m_search = nullptr;
    QListWidget *m_list = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_renameAction = nullptr;
    QAction *m_deleteAction = nullptr;
    QAction *m_exportMarkdownAction = nullptr;
    QAction *m_exportJsonAction = nullptr;
    QAction *m_importAction = nullptr;
    QTimer m_searchTimer;
    qint64 m_currentId = 0;
};

} // namespace Gui
