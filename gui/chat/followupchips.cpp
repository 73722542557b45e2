#include "gui/chat/followupchips.h"

#include "gui/widgets/flowlayout.h"

#include <QKeyEvent>
#include <QLabel>
#include <QToolButton>

namespace Gui {

namespace {

// A suggestion goes on Enter as well as Space, as a chip's ✕ does.
class SuggestionButton final : public QToolButton
{
public:
    using QToolButton::QToolButton;

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        const bool plain = event->modifiers() == Qt::NoModifier || event->modifiers() == Qt::KeypadModifier;
        if (plain && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)) {
            click();
            event->accept();
            return;
        }
        QToolButton::keyPressEvent(event);
    }
};

} // namespace

FollowUpChips::FollowUpChips(QWidget *parent)
    : QWidget(parent)
    , m_layout(new FlowLayout(this))
    , m_label(new QLabel(tr("Suggestions:"), this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_label->setForegroundRole(QPalette::PlaceholderText); // muted: not part of the conversation
    m_layout->addWidget(m_label);
    setAccessibleName(tr("Suggested follow-ups"));
    hide();
}

void FollowUpChips::setSuggestions(const QStringList &suggestions)
{
    if (suggestions == m_suggestions)
        return;
    m_suggestions = suggestions;
    // Later, not now: this may run inside a button's own clicked().
    for (QToolButton *button : std::as_const(m_buttons)) {
        m_layout->removeWidget(button);
        button->hide();
        button->deleteLater();
    }
    m_buttons.clear();
    for (const QString &text : suggestions) {
        auto *button = new SuggestionButton(this);
        button->setText(text);
        button->setObjectName(QStringLiteral("followUpSuggestion"));
        button->setFocusPolicy(Qt::StrongFocus);
        button->setToolTip(tr("A suggestion: click to send “%1” (nothing is sent until you do)").arg(text));
        button->setAccessibleName(tr("Send the suggestion “%1”").arg(text));
        connect(button, &QToolButton::clicked, this, [this, text] { emit picked(text); });
        m_layout->addWidget(button);
        button->show(); // now: Tab may reach it at once
        m_buttons.append(button);
    }
    setVisible(!suggestions.isEmpty());
    updateGeometry();
}

QList<QWidget *> FollowUpChips::focusChain() const
{
    return {m_buttons.cbegin(), m_buttons.cend()};
}

} // namespace Gui
