#include "gui/chat/chatdockattachments.h"

#include "gui/chat/attachmentchips.h"
#include "gui/chat/chatdock.h"
#include "gui/widgets/themeicon.h"
#include "gui/widgets/uicolors.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace Gui {

ChatDockAttachments::ChatDockAttachments(ChatDock *dock, QWidget *parent)
    : QObject(dock)
    , m_dock(dock)
{
    m_chips = new AttachmentChips(AttachmentChips::Mode::Removable, parent);
    m_chips->setObjectName(QStringLiteral("chatAttachments"));
    connect(m_chips, &AttachmentChips::removeRequested, this, &ChatDockAttachments::remove);

    m_problem = new QLabel(parent);
    m_problem->setObjectName(QStringLiteral("chatAttachmentProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setAccessibleName(tr("Attachment problem"));
    m_problem->hide();
    m_problemExpiry = new QTimer(this);
    m_problemExpiry->setSingleShot(true);
    m_problemExpiry->setInterval(2 * ChatDock::NoticeLifetime);
    connect(m_problemExpiry, &QTimer::timeout, this, [this] { showProblem({}); });

    // Anywhere in the chat, like Regenerate: the input is where the files go.
    m_attachAction = new QAction(tr("Attach Files…"), dock);
    m_attachAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_attachAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_attachAction->setToolTip(tr("Attach text files to the message: Markdown, plain text or source code (%1). "
                                  "You can also drop files onto the input.")
                                   .arg(m_attachAction->shortcut().toString(QKeySequence::NativeText)));
    const QIcon icon = themeIcon("mail-attachment");
    m_attachAction->setIcon(icon);
    connect(m_attachAction, &QAction::triggered, this, &ChatDockAttachments::choose);
    dock->addAction(m_attachAction);

    m_attachButton = new QToolButton(parent);
    m_attachButton->setObjectName(QStringLiteral("chatAttach"));
    m_attachButton->setDefaultAction(m_attachAction);
    m_attachButton->setAutoRaise(true);
    m_attachButton->setAccessibleName(tr("Attach files"));
    // The paperclip where the theme has one, else the word: never an empty button.
    m_attachButton->setToolButtonStyle(icon.isNull() ? Qt::ToolButtonTextOnly : Qt::ToolButtonIconOnly);

    connect(dock->input(), &ChatInput::filesDropped, this, [this](const QStringList &paths) {
        attachFiles(paths);
        m_dock->input()->setFocus();
    });
    connect(dock->session(), &ChatSession::attachmentsChanged, this, &ChatDockAttachments::onAttachmentsChanged);
}

bool ChatDockAttachments::attachFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    if (m_dock->session()->isPreparing()) {
        showProblem(tr("The message sent is waiting for the document; attach files to the next one once "
                       "it has gone."));
        return false;
    }
    const auto attached = withAttachments(m_dock->session()->attachments(), paths);
    if (!attached) {
        showProblem(attached.error());
        return false;
    }
    m_folder = QFileInfo(paths.constLast()).absolutePath();
    showProblem({});
    return m_dock->session()->setAttachments(*attached);
}

QString ChatDockAttachments::problem() const
{
    return m_problem->isHidden() ? QString() : m_problem->text();
}

void ChatDockAttachments::choose()
{
    m_dock->show();
    m_dock->raise();
    // Window-modal and asynchronous (no nested event loop); it deletes itself when closed.
    auto *dialog = new QFileDialog(m_dock, tr("Attach Files"), m_folder.isEmpty() ? QDir::homePath() : m_folder);
    dialog->setObjectName(QStringLiteral("attachDialog"));
    dialog->setFileMode(QFileDialog::ExistingFiles);
    dialog->setNameFilters(attachmentNameFilters());
    dialog->setLabelText(QFileDialog::Accept, tr("Attach"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filesSelected, this, [this](const QStringList &files) {
        attachFiles(files);
        m_dock->input()->setFocus();
    });
    dialog->open();
}

void ChatDockAttachments::remove(qsizetype index, bool byKeyboard)
{
    QList<Attachment> attachments = m_dock->session()->attachments();
    if (index < 0 || index >= attachments.size())
        return;
    attachments.remove(index);
    if (!m_dock->session()->setAttachments(attachments))
        return;
    showProblem({});
    if (!byKeyboard)
        return;
    // The focus was on the ✕ that is gone: on to the chip that took its place, else the one
    // before it, else the input.
    const QList<QWidget *> chain = m_chips->focusChain();
    if (chain.isEmpty())
        m_dock->input()->setFocus(Qt::TabFocusReason);
    else
        chain.at(std::min(index, chain.size() - 1))->setFocus(Qt::TabFocusReason);
}

void ChatDockAttachments::onAttachmentsChanged()
{
    m_chips->setAttachments(m_dock->session()->attachments());
    // Tab order: the transcript, the chips above the input, then the input and what follows it.
    QWidget *previous = m_dock->transcript();
    for (QWidget *button : m_chips->focusChain()) {
        QWidget::setTabOrder(previous, button);
        previous = button;
    }
    QWidget::setTabOrder(previous, m_dock->input());
}

void ChatDockAttachments::showProblem(const QString &text)
{
    m_problem->setText(text);
    if (!text.isEmpty()) {
        QPalette p = m_problem->palette();
        p.setColor(QPalette::WindowText, errorColor(m_dock->palette())); // read now: the palette may have changed
        m_problem->setPalette(p);
    }
    m_problem->setVisible(!text.isEmpty());
    if (text.isEmpty())
        m_problemExpiry->stop();
    else
        m_problemExpiry->start();
}

void ChatDockAttachments::setEnabled(bool enabled)
{
    m_attachAction->setEnabled(enabled);
    m_chips->setEnabled(enabled);
}

} // namespace Gui
