#include "gui/chat/followupchips.h"

#include "gui/widgets/flowlayout.h"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QTimer>
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
    , m_rest(new QTimer(this))
{
    m_rest->setSingleShot(true);
    m_rest->setInterval(150);
    connect(m_rest, &QTimer::timeout, this, [this] {
        if (!m_pointedAt.isEmpty())
            emit rested(m_pointedAt);
    });
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
    m_rest->stop();
    m_pointedAt.clear();
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
        button->installEventFilter(this);
        m_layout->addWidget(button);
        button->show(); // now: Tab may reach it at once
        m_buttons.append(button);
    }
    setVisible(!suggestions.isEmpty());
    updateGeometry();
}

void FollowUpChips::setRestDelay(int ms)
{
    m_rest->setInterval(ms);
}

bool FollowUpChips::eventFilter(QObject *watched, QEvent *event)
{
    auto *button = qobject_cast<QToolButton *>(watched);
    if (button && m_buttons.contains(button)) {
        switch (event->type()) {
        case QEvent::Enter:
            m_pointedAt = button->text();
            m_rest->start();
            break;
        case QEvent::Leave:
            m_pointedAt.clear();
            m_rest->stop();
            break;
        case QEvent::FocusIn:
            // Tab or Shift+Tab brought it here: the keyboard's way of pointing at it.
            if (static_cast<QFocusEvent *>(event)->reason() != Qt::MouseFocusReason)
                emit rested(button->text());
            break;
        default: break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QList<QWidget *> FollowUpChips::focusChain() const
{
    return {m_buttons.cbegin(), m_buttons.cend()};
}

} // namespace Gui
