#include "gui/mainwindow/findbar.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolButton>

namespace Gui {

FindBar::FindBar(QWidget *parent)
    : QWidget(parent)
    , m_find(new QLineEdit(this))
    , m_replace(new QLineEdit(this))
    , m_matchCase(new QCheckBox(tr("Match &case"), this))
    , m_replaceButton(new QPushButton(tr("&Replace"), this))
    , m_replaceAllButton(new QPushButton(tr("Replace &All"), this))
    , m_replaceRow(new QWidget(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("findBar"));
    m_find->setObjectName(QStringLiteral("findText"));
    m_find->setPlaceholderText(tr("Find"));
    m_find->setAccessibleName(tr("Text to find"));
    m_find->setClearButtonEnabled(true);
    m_replace->setObjectName(QStringLiteral("replaceText"));
    m_replace->setPlaceholderText(tr("Replace with"));
    m_replace->setAccessibleName(tr("Replacement text"));
    // Arrows, not words: the bar is as wide as the document, which may be narrow.
    auto *previous = new QToolButton(this);
    previous->setArrowType(Qt::UpArrow);
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    previous->setAccessibleName(tr("Previous match"));
    auto *next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setToolTip(tr("Next match (Enter)"));
    next->setAccessibleName(tr("Next match"));
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAccessibleName(tr("Close the find bar"));
    close->setAutoRaise(true);
    m_status->setObjectName(QStringLiteral("findStatus"));

    auto *findRow = new QHBoxLayout;
    findRow->setContentsMargins(0, 0, 0, 0);
    findRow->addWidget(m_find, 1);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addWidget(m_matchCase);
    findRow->addWidget(m_status);
    findRow->addWidget(close);
    auto *replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replaceRow->addWidget(m_replace, 1);
    replaceRow->addWidget(m_replaceButton);
    replaceRow->addWidget(m_replaceAllButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(findRow);
    layout->addWidget(m_replaceRow);

    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(m_replaceButton, &QPushButton::clicked, this, &FindBar::replaceCurrent);
    connect(m_replaceAllButton, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, &FindBar::closeBar);
    connect(m_find, &QLineEdit::textEdited, this, [this] {
        // Find as you type, from where the current match starts, so it grows in place.
        if (!m_editor)
            return;
        QTextCursor c = m_editor->textCursor();
        c.setPosition(c.selectionStart());
        m_editor->setTextCursor(c);
        find({});
    });
    m_find->installEventFilter(this);
    m_replace->installEventFilter(this);
    hide();
}

void FindBar::setEditor(QPlainTextEdit *editor)
{
    m_editor = editor;
    m_status->clear();
    if (!editor)
        hide();
}

void FindBar::showFind()
{
    open(false);
}

void FindBar::showReplace()
{
    open(true);
}

void FindBar::open(bool withReplace)
{
    if (!m_editor)
        return;
    const QString selected = m_editor->textCursor().selectedText();
    if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator))
        m_find->setText(selected);
    m_replaceRow->setVisible(withReplace);
    m_status->clear();
    show();
    m_find->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}

void FindBar::closeBar()
{
    hide();
    if (m_editor)
        m_editor->setFocus(Qt::OtherFocusReason);
}

QTextDocument::FindFlags FindBar::flags() const
{
    return m_matchCase->isChecked() ? QTextDocument::FindCaseSensitively : QTextDocument::FindFlags();
}

bool FindBar::find(QTextDocument::FindFlags direction)
{
    if (!m_editor || m_find->text().isEmpty()) {
        m_status->clear();
        return false;
    }
    const QTextDocument::FindFlags f = flags() | direction;
    if (m_editor->find(m_find->text(), f)) {
        m_status->clear();
        return true;
    }
    // Past the last match: wrap around to the other end, as every editor does.
    QTextCursor c = m_editor->textCursor();
    const QTextCursor before = c;
    c.movePosition(direction & QTextDocument::FindBackward ? QTextCursor::End : QTextCursor::Start);
    m_editor->setTextCursor(c);
    if (m_editor->find(m_find->text(), f)) {
        m_status->setText(tr("Wrapped around"));
        return true;
    }
    m_editor->setTextCursor(before);
    m_status->setText(tr("Not found"));
    return false;
}

bool FindBar::selectionMatches() const
{
    const QString selected = m_editor->textCursor().selectedText();
    return !selected.isEmpty()
           && selected.compare(m_find->text(), m_matchCase->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive) == 0;
}

void FindBar::replaceCurrent()
{
    if (!m_editor || m_find->text().isEmpty() || m_editor->isReadOnly())
        return;
    if (selectionMatches())
        m_editor->textCursor().insertText(m_replace->text());
    find({});
}

int FindBar::replaceAll()
{
    if (!m_editor || m_find->text().isEmpty() || m_editor->isReadOnly())
        return 0;
    QTextDocument *document = m_editor->document();
    QTextCursor edit(document);
    edit.beginEditBlock(); // one undo step for all of them
    int count = 0;
    QTextCursor at(document);
    while (true) {
        at = document->find(m_find->text(), at, flags());
        if (at.isNull())
            break;
        at.insertText(m_replace->text()); // `at` now ends after the replacement: no rematch of it
        ++count;
    }
    edit.endEditBlock();
    m_status->setText(count ? tr("%n replaced", nullptr, count) : tr("Not found"));
    return count;
}

QString FindBar::statusText() const
{
    return m_status->text();
}

bool FindBar::event(QEvent *event)
{
    // Esc closes the bar while the focus is in it (the fields pass both events up to here),
    // instead of triggering the window's Stop shortcut.
    if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
        event->accept();
        return true;
    }
    if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
        closeBar();
        return true;
    }
    return QWidget::event(event);
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (watched == m_replace)
                replaceCurrent();
            else if (key->modifiers() & Qt::ShiftModifier)
                findPrevious();
            else
                findNext();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace Gui
