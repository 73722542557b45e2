#include "gui/chat/conversationlist.h"

#include "gui/chat/conversationdays.h"

#include "gui/widgets/flowlayout.h"

#include "workspace/conversations/conversationexport.h"
#include "workspace/conversations/conversationstore.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

namespace Gui {

namespace {
// Typing in the search field settles this long before the store is queried.
constexpr int SearchDelayMs = 150;

// Where export and import dialogs start: Documents when it exists (not every system has one).
QString startFolder()
{
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QDir(documents).exists() ? documents : QDir::homePath();
}
} // namespace

ConversationListPanel::ConversationListPanel(ConversationStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
{
    createActions();
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search conversations"));
    m_search->setAccessibleName(tr("Search conversations"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });

    m_list = new QListWidget(this);
    m_list->setAccessibleName(tr("Conversations"));
    m_list->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    // Grouped by day: the first row of each stretch carries its heading, and is taller.
    m_list->setItemDelegate(new ConversationDays(m_list));
    // A long title is cut with "…" (its whole in the tooltip) instead of scrolling the list sideways.
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->addAction(m_renameAction);
    m_list->addAction(m_deleteAction);
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    m_list->addAction(separator);
    m_list->addAction(m_exportMarkdownAction);
    m_list->addAction(m_exportJsonAction);
    // In the menu, not the button row: a fourth button would widen the chat's minimum (tst_layout).
    m_list->addAction(m_importAction);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_list, &QListWidget::currentItemChanged, this, &ConversationListPanel::onCurrentItemChanged);
    connect(m_list, &QListWidget::itemChanged, this, &ConversationListPanel::onItemEdited);

    // They wrap in a narrow dock rather than set its minimum width.
    auto *buttons = new FlowLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    for (QAction *action : {m_newAction, m_renameAction, m_deleteAction}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        // The list's own keys (F2, Del) already reach these; the buttons are for the mouse.
        button->setFocusPolicy(Qt::NoFocus);
        buttons->addWidget(button);
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);

    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(&m_searchTimer, &QTimer::timeout, this, [this] { reload(m_currentId); });
    updateActions();
}

void ConversationListPanel::createActions()
{
    m_newAction = new QAction(tr("&New Conversation"), this);
    m_newAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_newAction->setShortcutContext(Qt::WindowShortcut);
    m_newAction->setToolTip(
        tr("Start a new conversation (%1)").arg(m_newAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_newAction, &QAction::triggered, this, &ConversationListPanel::newRequested);

    // Rename and Delete act on the list: F2 or Del typed in the editor must stay the editor's.
    m_renameAction = new QAction(tr("&Rename"), this);
    m_renameAction->setShortcut(QKeySequence(Qt::Key_F2));
    m_renameAction->setShortcutContext(Qt::WidgetShortcut);
    m_renameAction->setToolTip(tr("Rename the conversation (F2)"));
    connect(m_renameAction, &QAction::triggered, this, [this] {
        if (QListWidgetItem *item = m_list->currentItem())
            m_list->editItem(item);
    });

    m_deleteAction = new QAction(tr("&Delete"), this);
    m_deleteAction->setShortcut(QKeySequence(QKeySequence::Delete));
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    m_deleteAction->setToolTip(tr("Delete the conversation (Del)"));
    connect(m_deleteAction, &QAction::triggered, this, &ConversationListPanel::confirmDelete);

    m_exportMarkdownAction = new QAction(tr("Export as &Markdown…"), this);
    m_exportMarkdownAction->setToolTip(tr("Write the conversation to a Markdown file to read or share"));
    connect(m_exportMarkdownAction, &QAction::triggered, this, [this] { exportCurrent(false); });
    m_exportJsonAction = new QAction(tr("Export as &JSON…"), this);
    m_exportJsonAction->setToolTip(tr("Write the conversation to a JSON file that Import reads back"));
    connect(m_exportJsonAction, &QAction::triggered, this, [this] { exportCurrent(true); });
    m_importAction = new QAction(tr("&Import…"), this);
    m_importAction->setToolTip(tr("Add a conversation from a JSON file exported by Headstart"));
    connect(m_importAction, &QAction::triggered, this, &ConversationListPanel::importFile);
}

void ConversationListPanel::askForFile(QFileDialog::AcceptMode mode, const QString &caption, const QString &file,
                                       const QString &filter, std::function<void(const QString &)> accepted)
{
    auto *dialog = new QFileDialog(this, caption, file, filter);
    dialog->setObjectName(QStringLiteral("conversationFileDialog"));
    dialog->setAcceptMode(mode);
    dialog->setFileMode(mode == QFileDialog::AcceptSave ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    // The same dialog on every desktop, and one tests can drive.
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, std::move(accepted));
    dialog->open();
}

void ConversationListPanel::exportCurrent(bool json)
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item || !m_store)
        return;
    const qint64 id = item->data(Qt::UserRole).toLongLong();
    const auto info = m_store->conversation(id);
    if (!info) {
        emit errorOccurred(info.error());
        return;
    }
    const QString folder = startFolder();
    const QString name = ConversationExport::fileStem(*info) + (json ? QStringLiteral(".json") : QStringLiteral(".md"));
    askForFile(QFileDialog::AcceptSave,
               json ? tr("Export Conversation as JSON") : tr("Export Conversation as Markdown"),
               QDir(folder).filePath(name), json ? tr("JSON files (*.json)") : tr("Markdown files (*.md)"),
               [this, id, json](const QString &path) {
                   if (!m_store)
                       return;
                   const auto written = ConversationExport::exportToFile(*m_store, id,
                                                                         json ? ConversationExport::Format::Json
                                                                              : ConversationExport::Format::Markdown,
                                                                         path);
                   if (!written)
                       emit errorOccurred(written.error());
               });
}

void ConversationListPanel::importFile()
{
    askForFile(QFileDialog::AcceptOpen, tr("Import Conversation"), startFolder(),
               tr("Headstart conversations (*.json);;All files (*)"), [this](const QString &path) {
                   if (!m_store)
                       return;
                   const auto id = ConversationExport::importFromFile(*m_store, path);
                   if (!id) {
                       emit errorOccurred(id.error());
                       return;
                   }
                   clearSearch(); // the new conversation must be in the list
                   reload(*id);
                   m_currentId = *id;
                   emit conversationSelected(*id);
               });
}

void ConversationListPanel::clearSearch()
{
    m_search->clear();
    m_searchTimer.stop();
}

void ConversationListPanel::reload(qint64 currentId)
{
    m_currentId = currentId;
    if (!m_store)
        return;
    // A title editor is a child of the list's viewport (QAbstractItemView::state() is protected).
    if (QWidget *focus = QApplication::focusWidget(); focus && m_list->viewport()->isAncestorOf(focus)) {
        m_searchTimer.start(); // rebuilding now would throw away the title being typed
        return;
    }
    const auto conversations = m_store->conversations(m_search->text());
    if (!conversations) {
        emit errorOccurred(conversations.error());
        return;
    }
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const ConversationInfo &c : *conversations) {
        auto *item = new QListWidgetItem(c.title.isEmpty() ? tr("Untitled conversation") : c.title, m_list);
        item->setData(Qt::UserRole, c.id);
        item->setData(ConversationDays::UpdatedRole, c.updated);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        QString tip = tr("%1 · %2 messages")
                          .arg(QLocale().toString(c.updated.toLocalTime(), QLocale::ShortFormat))
                          .arg(c.messageCount);
        if (c.mode == ConversationMode::Document)
            tip += u'\n' + (c.documentPath.isEmpty() ? tr("About a document") : tr("About %1").arg(c.documentPath));
        item->setToolTip(tip);
        if (c.id == currentId)
            m_list->setCurrentItem(item);
    }
    updateActions();
}

void ConversationListPanel::onCurrentItemChanged(QListWidgetItem *current)
{
    if (current) {
        const qint64 id = current->data(Qt::UserRole).toLongLong();
        if (id != m_currentId) {
            m_currentId = id;
            emit conversationSelected(id);
        }
    }
    updateActions();
}

void ConversationListPanel::onItemEdited(QListWidgetItem *item)
{
    if (!m_store)
        return;
    const qint64 id = item->data(Qt::UserRole).toLongLong();
    const QString title = item->text().simplified();
    const auto info = m_store->conversation(id);
    if (!info)
        return;
    const QSignalBlocker blocker(m_list);
    if (title.isEmpty() || title == info->title) {
        item->setText(info->title.isEmpty() ? tr("Untitled conversation") : info->title);
        return;
    }
    if (!m_store->rename(id, title))
        return;
    item->setText(title);
    emit renamed(id, title);
}

void ConversationListPanel::confirmDelete()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    const qint64 id = item->data(Qt::UserRole).toLongLong();
    // Window-modal and asynchronous: no nested event loop while the stream keeps arriving.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete Conversation"),
                                tr("Delete “%1” and all its messages? This cannot be undone.").arg(item->text()),
                                QMessageBox::NoButton, this);
    QPushButton *remove = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, id] {
        if (box->clickedButton() == remove)
            emit removeRequested(id);
    });
    box->open();
}

void ConversationListPanel::updateActions()
{
    const bool hasCurrent = m_list->currentItem() != nullptr;
    m_renameAction->setEnabled(hasCurrent);
    m_deleteAction->setEnabled(hasCurrent);
    m_exportMarkdownAction->setEnabled(hasCurrent);
    m_exportJsonAction->setEnabled(hasCurrent);
}

} // namespace Gui
