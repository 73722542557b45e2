#pragma once

#include "prefetch/prompts/prompttemplate.h"

#include <QObject>
#include <QPointer>
#include <QVariantMap>

namespace Prefetch {

class Engine;
class PrefetchSession;
class AnswerReader;

// Workflow prefetch: when a wizard step is completed with its form data, the next step's
// generation starts at once, keyed by that step and a hash of the form data. Opening the next
// step with the same data takes it over; other data (the user went back and changed a field)
// is a miss. GUI thread.
class WorkflowStrategy : public QObject
{
    Q_OBJECT

public:
    explicit WorkflowStrategy(Engine *engine, QObject *parent = nullptr);

    // step + SHA-256 of the form data as canonical JSON (sorted keys), first 16 bytes.
    static QByteArray stepKey(int step, const QVariantMap &formData);

    // Step `completedStep` is done: prefetch step completedStep + 1 with `nextStep`.
    void stepCompleted(int completedStep, const QVariantMap &formData, const RenderedRequest &nextStep);
    // Step `step` needs its generation now. Never null.
    AnswerReader *activate(int step, const QVariantMap &formData, const RenderedRequest &request, qint64 activatedNs,
                           QObject *owner);
    // The wizard closed: nothing it prefetched will be used.
    void reset();

    bool isPrefetching(int step) const;

private:
    static RenderedRequest keyed(int step, const QVariantMap &formData, RenderedRequest request);

    Engine *m_engine;
    int m_step = -1;
    QPointer<PrefetchSession> m_session;
};

} // namespace Prefetch
