#include "gui/chat/attachmentchips.h"

#include "gui/widgets/flowlayout.h"

#include <QCoreApplication>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QToolButton>

#include <utility>

namespace Gui {

namespace {

// Lines of the file shown in a chip's tooltip.
constexpr int PreviewLines = 8;
constexpr int PreviewLineChars = 100;

// An ✕ that also goes on the keys one expects of a chip: Enter and Delete as well as Space.
class RemoveButton final : public QToolButton
{
public:
    using QToolButton::QToolButton;

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        switch (event->key()) {
        case Qt::Key_Delete:
        case Qt::Key_Backspace:
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (event->modifiers() == Qt::NoModifier || event->modifiers() == Qt::KeypadModifier) {
                click();
                event->accept();
                return;
            }
            break;
        default: break;
        }
        QToolButton::keyPressEvent(event);
    }
};

QString chipText(const Attachment &attachment)
{
    return QCoreApplication::translate("Gui::ChatDock", "%1 (%2)")
        .arg(attachment.name, attachmentSizeText(attachment.bytes()));
}

QString preview(const Attachment &attachment)
{
    const QStringList lines = attachment.text.split(u'\n');
    QStringList shown;
    for (const QString &line : lines.mid(0, PreviewLines))
        shown.append(line.size() > PreviewLineChars ? line.left(PreviewLineChars) + QChar(0x2026) : line);
    if (lines.size() > PreviewLines)
        shown.append(QStringLiteral("…"));
    return QCoreApplication::translate("Gui::ChatDock", "%1, %n line(s)", nullptr, int(lines.size()))
               .arg(chipText(attachment))
           + QStringLiteral("\n\n") + shown.join(u'\n');
}

} // namespace

AttachmentChips::AttachmentChips(Mode mode, QWidget *parent)
    : QWidget(parent)
    , m_mode(mode)
    , m_layout(new FlowLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Attached files"));
    hide();
}

void AttachmentChips::setAttachments(const QList<Attachment> &attachments)
{
    if (attachments == m_attachments && m_chips.size() == attachments.size())
        return;
    m_attachments = attachments;
    // Later, not now: this may run inside the clicked() of a chip's own ✕.
    for (QWidget *chip : std::as_const(m_chips)) {
        m_layout->removeWidget(chip);
        chip->hide();
        chip->deleteLater();
    }
    m_chips.clear();
    for (qsizetype i = 0; i < attachments.size(); ++i) {
        QWidget *chip = makeChip(i, attachments.at(i));
        m_layout->addWidget(chip);
        chip->show(); // now, not when the layout gets round to it: Tab may reach it at once
        m_chips.append(chip);
    }
    setVisible(!attachments.isEmpty());
    updateGeometry();
}

QWidget *AttachmentChips::makeChip(qsizetype index, const Attachment &attachment)
{
    auto *chip = new QFrame(this);
    chip->setObjectName(QStringLiteral("attachmentChip"));
    chip->setFrameShape(QFrame::StyledPanel);
    chip->setAutoFillBackground(true);
    chip->setBackgroundRole(QPalette::AlternateBase);
    chip->setToolTip(preview(attachment));
    chip->setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Attached file %1").arg(chipText(attachment)));
    auto *layout = new QHBoxLayout(chip);
    const int margin = fontMetrics().horizontalAdvance(u' ');
    layout->setContentsMargins(margin, 0, m_mode == Mode::Removable ? 0 : margin, 0);
    layout->setSpacing(margin);
    auto *name = new QLabel(attachment.name, chip);
    name->setTextFormat(Qt::PlainText);
    auto *size = new QLabel(attachmentSizeText(attachment.bytes()), chip);
    size->setForegroundRole(QPalette::PlaceholderText); // muted, and it follows dark palettes
    layout->addWidget(name);
    layout->addWidget(size);
    if (m_mode == Mode::Removable) {
        auto *remove = new RemoveButton(chip);
        remove->setObjectName(QStringLiteral("attachmentRemove"));
        remove->setText(QStringLiteral("✕"));
        remove->setAutoRaise(true);
        remove->setFocusPolicy(Qt::StrongFocus);
        const QString removeText = QCoreApplication::translate("Gui::ChatDock", "Remove %1").arg(attachment.name);
        remove->setAccessibleName(removeText);
        remove->setToolTip(removeText);
        connect(remove, &QToolButton::clicked, this,
                [this, remove, index] { emit removeRequested(index, remove->hasFocus()); });
        layout->addWidget(remove);
    }
    return chip;
}

QToolButton *AttachmentChips::removeButton(qsizetype index) const
{
    const QWidget *chip = m_chips.value(index);
    return chip ? chip->findChild<QToolButton *>(QStringLiteral("attachmentRemove")) : nullptr;
}

QList<QWidget *> AttachmentChips::focusChain() const
{
    QList<QWidget *> chain;
    for (qsizetype i = 0; i < m_chips.size(); ++i) {
        if (QToolButton *button = removeButton(i))
            chain.append(button);
    }
    return chain;
}

QStringList AttachmentChips::chipTexts() const
{
    QStringList texts;
    for (const Attachment &a : m_attachments)
        texts.append(chipText(a));
    return texts;
}

} // namespace Gui
