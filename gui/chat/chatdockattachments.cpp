#include "gui/chat/chatdock.h"

#include "gui/chat/attachmentchips.h"
#include "gui/widgets/themeicon.h"
#include "gui/widgets/uicolors.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QToolButton>

// ChatDock, the files attached to the message being written: the paperclip beside the input and
// its shortcut (a file dialog), files dropped onto or pasted into the input, the chips above it
// with their ✕, and the line that says why files were refused. The session keeps the list and
// sends it; reading and checking a file is attachments.cpp. The rest of the dock is in
// chatdock.cpp.

namespace Gui {

void ChatDock::createAttachmentControls(QWidget *parent)
{
    m_chips = new AttachmentChips(AttachmentChips::Mode::Removable, parent);
    m_chips->setObjectName(QStringLiteral("chatAttachments"));
    connect(m_chips, &AttachmentChips::removeRequested, this, &ChatDock::removeAttachment);

    m_attachmentProblem = new QLabel(parent);
    m_attachmentProblem->setObjectName(QStringLiteral("chatAttachmentProblem"));
    m_attachmentProblem->setWordWrap(true);
    m_attachmentProblem->setTextFormat(Qt::PlainText);
    m_attachmentProblem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_attachmentProblem->setAccessibleName(tr("Attachment problem"));
    m_attachmentProblem->hide();

    // Anywhere in the chat, like Regenerate: the input is where the files go.
    m_attachAction = new QAction(tr("Attach Files…"), this);
    m_attachAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_attachAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_attachAction->setToolTip(tr("Attach text files to the message: Markdown, plain text or source code (%1). "
                                  "You can also drop files onto the input.")
                                   .arg(m_attachAction->shortcut().toString(QKeySequence::NativeText)));
    const QIcon icon = themeIcon("mail-attachment");
    m_attachAction->setIcon(icon);
    connect(m_attachAction, &QAction::triggered, this, &ChatDock::chooseAttachments);
    addAction(m_attachAction);

    m_attachButton = new QToolButton(parent);
    m_attachButton->setObjectName(QStringLiteral("chatAttach"));
    m_attachButton->setDefaultAction(m_attachAction);
    m_attachButton->setAutoRaise(true);
    m_attachButton->setAccessibleName(tr("Attach files"));
    // The paperclip where the theme has one, else the word: never an empty button.
    m_attachButton->setToolButtonStyle(icon.isNull() ? Qt::ToolButtonTextOnly : Qt::ToolButtonIconOnly);

    connect(m_input, &ChatInput::filesDropped, this, [this](const QStringList &paths) {
        attachFiles(paths);
        m_input->setFocus();
    });
    connect(m_session, &ChatSession::attachmentsChanged, this, &ChatDock::onAttachmentsChanged);
}

bool ChatDock::attachFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    if (m_session->isPreparing()) {
        showAttachmentProblem(tr("The message sent is waiting for the document; attach files to the next one once "
                                 "it has gone."));
        return false;
    }
    const auto attached = withAttachments(m_session->attachments(), paths);
    if (!attached) {
        showAttachmentProblem(attached.error());
        return false;
    }
    m_attachFolder = QFileInfo(paths.constLast()).absolutePath();
    showAttachmentProblem({});
    return m_session->setAttachments(*attached);
}

QString ChatDock::attachmentProblem() const
{
    return m_attachmentProblem->isHidden() ? QString() : m_attachmentProblem->text();
}

void ChatDock::chooseAttachments()
{
    show();
    raise();
    // Window-modal and asynchronous (no nested event loop); it deletes itself when closed.
    auto *dialog = new QFileDialog(this, tr("Attach Files"),
                                   m_attachFolder.isEmpty() ? QDir::homePath() : m_attachFolder);
    dialog->setObjectName(QStringLiteral("attachDialog"));
    dialog->setFileMode(QFileDialog::ExistingFiles);
    dialog->setNameFilters(attachmentNameFilters());
    dialog->setLabelText(QFileDialog::Accept, tr("Attach"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filesSelected, this, [this](const QStringList &files) {
        attachFiles(files);
        m_input->setFocus();
    });
    dialog->open();
}

void ChatDock::removeAttachment(qsizetype index, bool byKeyboard)
{
    QList<Attachment> attachments = m_session->attachments();
    if (index < 0 || index >= attachments.size())
        return;
    attachments.remove(index);
    if (!m_session->setAttachments(attachments))
        return;
    showAttachmentProblem({});
    if (!byKeyboard)
        return;
    // The focus was on the ✕ that is gone: on to the chip that took its place, else the one
    // before it, else the input.
    const QList<QWidget *> chain = m_chips->focusChain();
    if (chain.isEmpty())
        m_input->setFocus(Qt::TabFocusReason);
    else
        chain.at(std::min(index, chain.size() - 1))->setFocus(Qt::TabFocusReason);
}

void ChatDock::onAttachmentsChanged()
{
    m_chips->setAttachments(m_session->attachments());
    // Tab order: the transcript, the chips above the input, then the input and what follows it.
    QWidget *previous = m_transcript;
    for (QWidget *button : m_chips->focusChain()) {
        setTabOrder(previous, button);
        previous = button;
    }
    setTabOrder(previous, m_input);
}

void ChatDock::showAttachmentProblem(const QString &text)
{
    m_attachmentProblem->setText(text);
    if (!text.isEmpty()) {
        QPalette p = m_attachmentProblem->palette();
        p.setColor(QPalette::WindowText, errorColor(palette())); // read now: the palette may have changed
        m_attachmentProblem->setPalette(p);
    }
    m_attachmentProblem->setVisible(!text.isEmpty());
}

} // namespace Gui
