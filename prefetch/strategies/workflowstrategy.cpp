#include "workflowstrategy.h"

#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace Prefetch {

WorkflowStrategy::WorkflowStrategy(Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
}

QByteArray WorkflowStrategy::stepKey(int step, const QVariantMap &formData)
{
    // QJsonObject sorts its keys, which is exactly the canonical form wanted here.
    const QByteArray json = QJsonDocument(QJsonObject::fromVariantMap(formData)).toJson(QJsonDocument::Compact);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArray::number(step));
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(json);
    return hash.result().left(16);
}

RenderedRequest WorkflowStrategy::keyed(int step, const QVariantMap &formData, RenderedRequest request)
{
    // The step and its data, and the request as it would be sent now (provider, model,
    // template): any of them changing makes the prefetched answer a different answer. A
    // request without a fingerprint keeps none: the step alone does not say what was asked.
    if (!request.fingerprint.isEmpty())
        request.fingerprint = stepKey(step, formData) + request.fingerprint;
    return request;
}

void WorkflowStrategy::stepCompleted(int completedStep, const QVariantMap &formData, const RenderedRequest &nextStep)
{
    reset();
    const int step = completedStep + 1;
    m_session = m_engine->prefetch(Strategy::Workflow, keyed(step, formData, nextStep),
                                   m_engine->settings().workflow.ttl);
    if (m_session)
        m_step = step;
}

AnswerReader *WorkflowStrategy::activate(int step, const QVariantMap &formData, const RenderedRequest &request,
                                         qint64 activatedNs, QObject *owner)
{
    QPointer<PrefetchSession> session = step == m_step ? m_session : nullptr;
    if (!session)
        reset(); // a prefetch for another step will not be used: cancel it, do not let it expire
    m_session = nullptr;
    m_step = -1;
    if (!session)
        return m_engine->request(Strategy::Workflow, request, activatedNs, owner);
    return m_engine->consume(session, keyed(step, formData, request), activatedNs, owner);
}

void WorkflowStrategy::reset()
{
    if (m_session)
        m_engine->cancel(m_session);
    m_session = nullptr;
    m_step = -1;
}

bool WorkflowStrategy::isPrefetching(int step) const
{
    return step == m_step && m_session && m_session->isLive();
}

} // namespace Prefetch
