#pragma once

#include "prompttemplate.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>

namespace Prefetch {

class Engine;
class PrefetchSession;
class ResponseStream;

// Hover prefetch: the pointer resting on a Generate action for `delay` starts its answer;
// leaving before the click cancels it; the click takes over the stream already flowing.
// A mouse press starts it at once if the delay has not run out yet (the press comes ~80 ms
// before the click). The UI only forwards these signals. GUI thread.
class HoverStrategy : public QObject
{
    Q_OBJECT

public:
    using Builder = std::function<RenderedRequest()>;

    explicit HoverStrategy(Engine *engine, QObject *parent = nullptr);

    void pointerEntered(const QString &actionId, Builder builder);
    void pressed(const QString &actionId, Builder builder);
    void pointerLeft(const QString &actionId);
    // The user clicked: the prefetched answer when it matches, else a fresh one. Never null.
    ResponseStream *activate(const QString &actionId, const Builder &builder, qint64 activatedNs, QObject *owner);

    // An answer for this action is streaming or complete in the background.
    bool isPrefetching(const QString &actionId) const;
    bool isReady(const QString &actionId) const; // its first token is in

signals:
    void prefetchStarted(const QString &actionId);
    void readyChanged(const QString &actionId, bool ready);

private:
    void startNow();
    void clear(bool cancelSession);

    Engine *m_engine;
    QTimer m_delay;
    QString m_action;
    Builder m_builder;
    QPointer<PrefetchSession> m_session;
};

} // namespace Prefetch
