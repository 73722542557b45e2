#include "gui/chat/chatlistfold.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QLayout>
#include <QSettings>
#include <QSplitter>
#include <QToolButton>

namespace Gui {

namespace {

constexpr QLatin1StringView ShownKey{"chat/conversationList"};
constexpr int ChatLines = 10;

} // namespace

ChatListFold::ChatListFold(const Parts &parts, QObject *parent)
    : QObject(parent)
    , m_parts(parts)
{
    const QString shown = QSettings().value(ShownKey).toString();
    m_choice = shown == u"shown" ? Choice::Shown : shown == u"hidden" ? Choice::Hidden : Choice::Fit;
    setShown(m_choice != Choice::Hidden);
    connect(m_parts.toggle, &QToolButton::clicked, this, [this](bool on) {
        m_choice = on ? Choice::Shown : Choice::Hidden;
        QSettings().setValue(ShownKey, on ? QStringLiteral("shown") : QStringLiteral("hidden"));
        setShown(on);
        (on ? m_parts.search : m_parts.input)->setFocus(Qt::OtherFocusReason);
    });
    m_parts.dock->installEventFilter(this);
    m_parts.transcript->installEventFilter(this);
}

bool ChatListFold::eventFilter(QObject *watched, QEvent *event)
{
    // After the layouts have placed the children at the new size. The dock grew or shrank: the
    // list may fold or unfold. The transcript alone shrank (a notice, attachments, a longer
    // message): the list may have to give way, and comes back only with the dock.
    if (event->type() == QEvent::Resize && (watched == m_parts.dock || watched == m_parts.transcript)) {
        const bool mayShow = watched == m_parts.dock;
        QMetaObject::invokeMethod(this, [this, mayShow] { fit(mayShow); }, Qt::QueuedConnection);
    }
    return QObject::eventFilter(watched, event);
}

void ChatListFold::setShown(bool shown)
{
    m_parts.list->setVisible(shown);
    m_parts.toggle->setChecked(shown);
}

void ChatListFold::fit(bool mayShow)
{
    QSplitter *splitter = m_parts.splitter;
    QWidget *panel = m_parts.panel;
    if (m_choice != Choice::Fit || splitter->height() <= 0 || !panel->layout())
        return;
    const int lines = ChatLines * m_parts.input->fontMetrics().lineSpacing();
    const int transcriptFrame = m_parts.transcript->height() - m_parts.transcript->viewport()->height();
    int controls = panel->height() - m_parts.transcript->height();
    if (!m_parts.followUps->isVisible()) {
        QWidget *row = m_parts.followUps;
        controls += (row->hasHeightForWidth() ? row->heightForWidth(panel->width()) : row->sizeHint().height())
                    + panel->layout()->spacing();
    }
    const int listHeight = m_parts.list->minimumSizeHint().height();
    const int chatHeight = controls + transcriptFrame + lines;
    const bool shown = splitter->height() >= chatHeight + splitter->handleWidth() + listHeight;
    if (shown != m_parts.list->isVisible() && (mayShow || !shown))
        setShown(shown);
    // Beside the list, the chat keeps at least its ten lines (the list gets the rest).
    if (shown && m_parts.list->isVisible() && panel->height() < chatHeight)
        splitter->setSizes({splitter->height() - splitter->handleWidth() - chatHeight, chatHeight});
}

} // namespace Gui
