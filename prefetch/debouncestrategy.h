#pragma once

#include "prompttemplate.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace Prefetch {

class CompletenessClassifier;
class Engine;
class PrefetchSession;
class ResponseStream;

// Debounce prefetch: a pause in typing (`delay`, or the shorter `sentenceEndDelay` right after
// a "?" or "." that ends the draft) with a draft of at least `minChars` that the
// completeness classifier rates ≥ `minConfidence` starts the answer to that draft. Sending the
// same text (after normalisation: trimmed, white space collapsed, trailing punctuation dropped)
// takes it over; typing on after the pause cancels it. GUI thread.
class DebounceStrategy : public QObject
{
    Q_OBJECT

public:
    // Builds the request that answers `text` in the current conversation.
    using Builder = std::function<RenderedRequest(const QString &text)>;

    DebounceStrategy(Engine *engine, std::shared_ptr<CompletenessClassifier> classifier, QObject *parent = nullptr);

    // The conversation (or its document) changed: a prefetch for the old one is useless.
    void setBuilder(Builder builder);
    void textChanged(const QString &draft);
    // The user sent `text`. Never null.
    ResponseStream *send(const QString &text, qint64 activatedNs, QObject *owner);

    QString prefetchedDraft() const { return m_draft; }
    // The pause that asks the classifier about `draft` now: the configured delay, or shorter for
    // a user who sends sooner after their last key (debounce.adaptive).
    std::chrono::milliseconds pauseFor(const QString &draft) const;
    // The median of this user's last sends, last key to Enter; nullopt until MinSends are known.
    std::optional<std::chrono::milliseconds> typicalSendGap() const;

    // Sends whose gap is learnt (a longer one is a pause to think, not the way they send) ...
    static constexpr std::chrono::milliseconds MaxLearntGap{2000};
    // ... how many decide, and how many are needed before they do.
    static constexpr int KeptSends = 9;
    static constexpr int MinSends = 3;
    // The adapted pause: this share of the typical gap (the rest is the answer's lead), never
    // below the floor (a fast typist's keys come ~120 ms apart: shorter pauses are mid-word).
    static constexpr double GapShare = 0.4;
    static constexpr std::chrono::milliseconds MinPause{90};
    bool isPrefetching() const;

signals:
    void prefetchStarted(const QString &draft, double confidence);

private:
    void onPause();
    void onClassified(const QString &draft, double confidence);
    void cancelSession();

    Engine *m_engine;
    std::shared_ptr<CompletenessClassifier> m_classifier;
    Builder m_builder;
    QTimer m_timer;
    QString m_pending;    // the draft when typing paused
    QString m_draft;      // the draft the live session answers
    QPointer<PrefetchSession> m_session;
    qint64 m_lastEditNs = -1;  // monotonic, the draft's last change
    QList<qint64> m_sendGaps;  // ms, the last KeptSends sends' last key → send
    quint64 m_generation = 0; // drops classifier answers for drafts typed over since
};

} // namespace Prefetch
