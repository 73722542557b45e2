#pragma once

#include "workspace/conversations/attachments.h"

#include <QWidget>

class QToolButton;

namespace Gui {

class FlowLayout;

// The files attached to a message as a row of chips (name and size; the first lines as the
// tooltip) that wraps onto more rows in a narrow chat. Removable: each chip has an ✕ button
// that asks for it to go (a click, or Space, Enter, Delete or Backspace with the focus on it;
// the buttons are in the keyboard's Tab order). Read-only: the chips of a sent message in the
// transcript. Hidden while there are none. GUI thread.
class AttachmentChips : public QWidget
{
    Q_OBJECT

public:
    enum class Mode { Removable, ReadOnly };

    explicit AttachmentChips(Mode mode, QWidget *parent = nullptr);

    void setAttachments(const QList<Attachment> &attachments);
    const QList<Attachment> &attachments() const { return m_attachments; }
    // The ✕ button of the chip at `index` (Removable), or null.
    QToolButton *removeButton(qsizetype index) const;
    // Every chip's ✕ button, in order (empty when read-only): for the caller's Tab order.
    QList<QWidget *> focusChain() const;
    // What the chips say, one "name (size)" per attachment, for tests and the accessible text.
    QStringList chipTexts() const;

signals:
    // The ✕ of the chip at `index` was activated; `byKeyboard` when it had the focus then, so
    // that the caller can move the focus on to a neighbour once the chip is gone.
    void removeRequested(qsizetype index, bool byKeyboard);

private:
    QWidget *makeChip(qsizetype index, const Attachment &attachment);

    Mode m_mode;
    FlowLayout *m_layout;
    QList<Attachment> m_attachments;
    QList<QWidget *> m_chips;
};

} // namespace Gui
