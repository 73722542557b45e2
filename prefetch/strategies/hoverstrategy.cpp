#include "hoverstrategy.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"

namespace Prefetch {

HoverStrategy::HoverStrategy(Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    m_delay.setSingleShot(true);
    m_delay.setTimerType(Qt::PreciseTimer); // the delay is the behaviour: a coarse timer fires up to 5 % early
    connect(&m_delay, &QTimer::timeout, this, &HoverStrategy::startNow);
}

void HoverStrategy::pointerEntered(DocumentAction action, Builder builder)
{
    if (m_action == action && (m_session || m_delay.isActive()))
        return;
    clear(true);
    if (!m_engine->isEnabled(Strategy::Hover))
        return;
    m_action = action;
    m_builder = std::move(builder);
    m_delay.start(m_engine->settings().hover.delay);
}

void HoverStrategy::pressed(DocumentAction action, Builder builder)
{
    if (m_action == action && m_session)
        return;
    if (m_action != action) {
        clear(true);
        m_action = action;
        m_builder = std::move(builder);
    }
    if (!m_engine->isEnabled(Strategy::Hover))
        return;
    m_delay.stop();
    startNow();
}

void HoverStrategy::pointerLeft(DocumentAction action)
{
    if (action == m_action)
        clear(true);
}

void HoverStrategy::startNow()
{
    if (!m_builder || m_session)
        return;
    const RenderedRequest prepared = m_builder();
    m_session = m_engine->prefetch(Strategy::Hover, prepared, m_engine->settings().hover.ttl);
    if (!m_session)
        return;
    const DocumentAction action = *m_action;
    connect(m_session, &PrefetchSession::stateChanged, this, [this, action](PrefetchSession::State state) {
        if (state == PrefetchSession::State::Streaming || state == PrefetchSession::State::Pending)
            return;
        emit readyChanged(action, state == PrefetchSession::State::Complete);
    });
    connect(m_session, &PrefetchSession::firstTokenReceived, this, [this, action] { emit readyChanged(action, true); });
    emit prefetchStarted(action);
}

AnswerReader *HoverStrategy::activate(DocumentAction action, const Builder &builder, qint64 activatedNs, QObject *owner)
{
    const RenderedRequest prepared = builder();
    QPointer<PrefetchSession> session = action == m_action ? m_session : nullptr;
    // The taken-over stream is the user's now: leaving the button afterwards must not cancel it.
    clear(!session);
    if (!session)
        return m_engine->request(Strategy::Hover, prepared, activatedNs, owner);
    return m_engine->consume(session, prepared, activatedNs, owner, Strategy::Hover);
}

bool HoverStrategy::isPrefetching(DocumentAction action) const
{
    return action == m_action && m_session && m_session->isLive();
}

bool HoverStrategy::isReady(DocumentAction action) const
{
    return isPrefetching(action) && m_session->hasFirstToken();
}

void HoverStrategy::clear(bool cancelSession)
{
    m_delay.stop();
    if (m_session) {
        disconnect(m_session, nullptr, this, nullptr);
        if (cancelSession)
            m_engine->cancel(m_session);
        // Cancelled or taken over: either way nothing waits behind the button any more.
        if (m_action)
            emit readyChanged(*m_action, false);
    }
    m_session = nullptr;
    m_builder = nullptr;
    m_action.reset();
}

} // namespace Prefetch
