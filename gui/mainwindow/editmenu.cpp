#include "gui/mainwindow/editmenu.h"
#include "gui/widgets/themeicon.h"

#include "gui/mainwindow/findbar.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace Gui {

QList<QKeySequence> standardShortcuts(QKeySequence::StandardKey key, const QKeySequence &fallback)
{
    QList<QKeySequence> keys = QKeySequence::keyBindings(key);
    if (!keys.contains(fallback))
        keys.append(fallback);
    return keys;
}

namespace {

bool isTextField(const QWidget *w)
{
    return qobject_cast<const QLineEdit *>(w) || qobject_cast<const QPlainTextEdit *>(w)
           || qobject_cast<const QTextEdit *>(w);
}

bool readOnly(const QWidget *w)
{
    if (auto *line = qobject_cast<const QLineEdit *>(w))
        return line->isReadOnly();
    if (auto *plain = qobject_cast<const QPlainTextEdit *>(w))
        return plain->isReadOnly();
    if (auto *rich = qobject_cast<const QTextEdit *>(w))
        return rich->isReadOnly();
    return true;
}

bool hasSelection(const QWidget *w)
{
    if (auto *line = qobject_cast<const QLineEdit *>(w))
        return line->hasSelectedText();
    if (auto *plain = qobject_cast<const QPlainTextEdit *>(w))
        return plain->textCursor().hasSelection();
    if (auto *rich = qobject_cast<const QTextEdit *>(w))
        return rich->textCursor().hasSelection();
    return false;
}

bool canUndo(const QWidget *w, bool redo)
{
    if (auto *line = qobject_cast<const QLineEdit *>(w))
        return redo ? line->isRedoAvailable() : line->isUndoAvailable();
    const QTextDocument *document = nullptr;
    if (auto *plain = qobject_cast<const QPlainTextEdit *>(w))
        document = plain->document();
    else if (auto *rich = qobject_cast<const QTextEdit *>(w))
        document = rich->document();
    return document && !readOnly(w) && (redo ? document->isRedoAvailable() : document->isUndoAvailable());
}

} // namespace

EditMenu::EditMenu(QMenu *menu, std::function<QPlainTextEdit *()> currentDocument, FindBar *findBar)
    : QObject(menu)
    , m_menu(menu)
    , m_currentDocument(std::move(currentDocument))
{
    // Each goes to the target's slot of the same name, which all three text widgets have.
    auto add = [this](const QString &text, QKeySequence::StandardKey key, const char *slot) {
        // The theme's edit-undo, edit-cut, ... where there is one.
        QAction *action = m_menu->addAction(
            themeIcon((QByteArray("edit-") + (qstrcmp(slot, "selectAll") == 0 ? "select-all" : slot)).constData()),
            text);
        action->setShortcuts(QKeySequence::keyBindings(key));
        // A text field with the focus handles these keys itself (it overrides the shortcut), so
        // the shortcut fires only when the focus is elsewhere: then it is for the document.
        connect(action, &QAction::triggered, this, [this, slot] {
            if (QWidget *w = target())
                QMetaObject::invokeMethod(w, slot);
        });
        return action;
    };
    m_undo = add(tr("&Undo"), QKeySequence::Undo, "undo");
    m_redo = add(tr("&Redo"), QKeySequence::Redo, "redo");
    m_menu->addSeparator();
    m_cut = add(tr("Cu&t"), QKeySequence::Cut, "cut");
    m_copy = add(tr("&Copy"), QKeySequence::Copy, "copy");
    m_paste = add(tr("&Paste"), QKeySequence::Paste, "paste");
    m_menu->addSeparator();
    m_selectAll = add(tr("Select &All"), QKeySequence::SelectAll, "selectAll");
    m_menu->addSeparator();
    QAction *find = m_menu->addAction(themeIcon("edit-find"), tr("&Find…"), findBar, &FindBar::showFind);
    find->setShortcuts(standardShortcuts(QKeySequence::Find, QKeySequence(Qt::CTRL | Qt::Key_F)));
    QAction *next = m_menu->addAction(tr("Find &Next"), findBar, &FindBar::findNext);
    next->setShortcuts(standardShortcuts(QKeySequence::FindNext, QKeySequence(Qt::Key_F3)));
    QAction *previous = m_menu->addAction(tr("Find Pre&vious"), findBar, &FindBar::findPrevious);
    previous->setShortcuts(standardShortcuts(QKeySequence::FindPrevious, QKeySequence(Qt::SHIFT | Qt::Key_F3)));
    QAction *replace = m_menu->addAction(themeIcon("edit-find-replace"), tr("R&eplace…"), findBar,
                                         &FindBar::showReplace);
    replace->setShortcuts(standardShortcuts(QKeySequence::Replace, QKeySequence(Qt::CTRL | Qt::Key_H)));

    // What applies now, while the menu is open; every entry again once it closes, so the
    // shortcuts keep working for whatever has the focus then.
    connect(m_menu, &QMenu::aboutToShow, this, &EditMenu::updateStates);
    connect(m_menu, &QMenu::aboutToHide, this, [this] {
        for (QAction *a : {m_undo, m_redo, m_cut, m_copy, m_paste, m_selectAll})
            a->setEnabled(true);
    });
}

QWidget *EditMenu::target() const
{
    // The menu's main window, floating docks included (a floating dock is a window of its own).
    const QWidget *window = m_menu->parentWidget() ? m_menu->parentWidget()->window() : nullptr;
    QWidget *focus = QApplication::focusWidget();
    if (focus && isTextField(focus)) {
        for (const QWidget *w = focus; w; w = w->parentWidget()) {
            if (w == window)
                return focus;
        }
    }
    return m_currentDocument ? m_currentDocument() : nullptr;
}

void EditMenu::updateStates()
{
    const QWidget *w = target();
    const bool editable = w && !readOnly(w);
    m_undo->setEnabled(w && canUndo(w, false));
    m_redo->setEnabled(w && canUndo(w, true));
    m_cut->setEnabled(editable && hasSelection(w));
    m_copy->setEnabled(w && hasSelection(w));
    m_paste->setEnabled(editable && !QApplication::clipboard()->text().isEmpty());
    m_selectAll->setEnabled(w != nullptr);
}

} // namespace Gui
