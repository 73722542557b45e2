#pragma once

#include "prefetch/prompts/actionprompts.h"
#include "prefetch/prompts/prompttemplate.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <optional>

namespace Prefetch {

class Engine;
class PrefetchSession;
class AnswerReader;

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

    void pointerEntered(DocumentAction action, Builder builder);
    void pressed(DocumentAction action, Builder builder);
    void pointerLeft(DocumentAction action);
    // The user clicked: the prefetched answer when it matches, else a fresh one. Never null.
    AnswerReader *activate(DocumentAction action, const Builder &builder, qint64 activatedNs, QObject *owner);

    // An answer for this action is streaming or complete in the background.
    bool isPrefetching(DocumentAction action) const;
    bool isReady(DocumentAction action) const; // its first token is in

signals:
    void prefetchStarted(Prefetch::DocumentAction action);
    void readyChanged(Prefetch::DocumentAction action, bool ready);

private:
    void startNow();
    void clear(bool cancelSession);

    Engine *m_engine;
    QTimer m_delay;
    std::optional<DocumentAction> m_action;
    Builder m_builder;
    QPointer<PrefetchSession> m_session;
};

} // namespace Prefetch
