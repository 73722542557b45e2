#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>

#include <functional>

class QAction;
class QMenu;
class QPlainTextEdit;
class QWidget;

namespace Gui {

class FindBar;

// The platform's keys for `key`, and `fallback` too when the platform has none or others. Some
// platform themes (the generic one under a bare X server, among them) bind nothing to Save As or
// Replace, and a shortcut the menus and the user guide name must work everywhere.
QList<QKeySequence> standardShortcuts(QKeySequence::StandardKey key, const QKeySequence &fallback);

// The Edit menu every editor has. Undo, Redo, Cut, Copy, Paste and Select All act on the text
// field that has the focus (a document, the chat input, a search field) and, when the focus is
// elsewhere (a button just clicked), on the current document. Find and Replace open the find bar.
class EditMenu : public QObject
{
    Q_OBJECT

public:
    EditMenu(QMenu *menu, std::function<QPlainTextEdit *()> currentDocument, FindBar *findBar);

    QAction *undoAction() const { return m_undo; }

private:
    QWidget *target() const;
    void updateStates();

    QMenu *m_menu;
    std::function<QPlainTextEdit *()> m_currentDocument;
    QAction *m_undo;
    QAction *m_redo;
    QAction *m_cut;
    QAction *m_copy;
    QAction *m_paste;
    QAction *m_selectAll;
};

} // namespace Gui
