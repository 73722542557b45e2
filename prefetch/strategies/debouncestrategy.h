#pragma once

#include "prefetch/cache/responsecache.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/strategies/classifier.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

namespace Prefetch {

class CompletenessClassifier;
class Engine;
class PrefetchSession;
class AnswerReader;

// Debounce prefetch: a pause in typing (`delay`, or the shorter `sentenceEndDelay` right after
// a "?" or "." that ends the draft) with a draft of at least `minChars` (or, right after an
// answer with `shortFollowUps`, two) that the completeness classifier rates ≥ `minConfidence`
// starts the answer to that draft. Sending the
// same text (after normalisation: trimmed, white space collapsed, trailing punctuation dropped)
// takes it over; typing on after the pause cancels it. Every pause, complete-looking or not,
// may also warm the provider's cache with the part of the draft's request that comes before the
// draft (see Warmer). GUI thread.
class DebounceStrategy : public QObject
{
    Q_OBJECT

public:
    // Builds the request that answers `text` in the current conversation.
    using Builder = std::function<RenderedRequest(const QString &text)>;
    // Builds the warm-up for what the request answering `text` carries after the conversation
    // and before `text` itself (a library question's passages), with max_tokens 1: its prompt
    // is a byte prefix of that request's. No fingerprint: nothing of the kind to warm.
    using Warmer = std::function<RenderedRequest(const QString &text)>;

    DebounceStrategy(Engine *engine, std::shared_ptr<CompletenessClassifier> classifier, QObject *parent = nullptr);

    // The conversation (or its document) changed: a prefetch for the old one is useless.
    // `owner` is the conversation the builder is for: several windows' chats share the one
    // strategy, and each must find out when another took it (isBuilderOf()).
    void setBuilder(Builder builder, const QObject *owner = nullptr, Warmer warmer = {});
    bool isBuilderOf(const QObject *owner) const { return m_builder && m_builderOwner == owner; }
    // What the conversation says about the drafts to come (the builder's owner sets it with the
    // builder; a new builder starts without it).
    void setDraftContext(DraftContext context) { m_context = context; }
    // `caretAtEnd`: the key went at the end of the draft. An edit inside it (a word added in the
    // middle of a message already typed) takes the full pause: a final "?" typed long before
    // says nothing about whether this edit is done.
    void textChanged(const QString &draft, bool caretAtEnd = true);
    // An input method's pre-edit (what is being composed, not text yet) changed. While there is
    // one the user is still typing: no pause is taken (the committed draft is about to grow) and a
    // guess of the draft is dropped (a suggestion's is kept: its words may be what is being
    // composed). Once it is empty (committed, after the commit's textChanged(), or cancelled) the
    // pause runs from then.
    void compositionChanged(const QString &preedit);
    // After an answer, `text` is the follow-up the user is likeliest to send (a suggestion the
    // chat offers): its answer is guessed as a weak signal (a prefix, where the provider can
    // continue one), before a key is pressed. It is kept while the draft is empty or a beginning
    // of it, and taken over when the message sent is it (or near it, as for a draft); typing
    // anything else drops it. Nothing when the strategy is off, there is no builder, the draft
    // is not empty, or it is not after an answer.
    void suggest(const QString &text);
    // The user accepted a completion that makes `draft` a whole message (one they sent before, or
    // one the chat offers): the draft is final before its last key, so its answer starts now,
    // without waiting for a pause or asking the classifier (Enter is what usually follows). As
    // after a pause otherwise: nothing while the strategy is off, there is no builder, an input
    // method composes or speculation is suspended.
    void draftCompleted(const QString &draft);
    // The follow-up whose answer is being guessed (suggest()), or empty.
    QString suggestedFollowUp() const { return m_suggested && isPrefetching() ? m_draft : QString(); }
    // The user sent `text`. Never null. The response cache is asked first (Engine::answerFromCache):
    // its answer, when it has one, is given instead of any prefetch of the draft (which is
    // cancelled); with `nearDraft`, the near-duplicate lookup comes back in it when it served or
    // drafted (a Draft: shown while the live answer, on its way as usual, comes).
    AnswerReader *send(const QString &text, qint64 activatedNs, QObject *owner,
                       ResponseCache::Lookup *nearDraft = nullptr);

    QString prefetchedDraft() const { return m_draft; }
    bool isPrefetching() const;

signals:
    void prefetchStarted(const QString &draft, double confidence);

private:
    // Starts the typing pause for `draft`: the shorter one after a sentence's end.
    void startPause(const QString &draft);
    void onPause();
    void onClassified(const QString &draft, double confidence);
    void cancelSession();
    // The live session answers a suggested follow-up that `draft` is the beginning of.
    bool suggestionContinues(const QString &draft) const;
    void warmContext(const QString &draft);
    // Counts the last context warm-up's outcome; true when `sent` goes with that context.
    bool countWarmContext(const QString &sent);

    Engine *m_engine;
    std::shared_ptr<CompletenessClassifier> m_classifier;
    Builder m_builder;
    Warmer m_warmer;
    DraftContext m_context;
    const QObject *m_builderOwner = nullptr; // compared, never dereferenced
    QTimer m_timer;
    QString m_pending;          // the draft when typing paused
    bool m_pendingAtEnd = true; // and whether its last key went at its end
    QString m_draft;            // the draft the live session answers
    bool m_suggested = false;   // m_draft is a suggested follow-up, not a draft typed (suggest())
    bool m_composing = false;   // an input method's pre-edit is open
    QPointer<PrefetchSession> m_session;
    quint64 m_generation = 0; // drops classifier answers for drafts typed over since
    QPointer<PrefetchSession> m_warmSession;
    QByteArray m_warmedFingerprint; // the last context warmed
    bool m_warmAwaitsSend = false;  // the next message sent decides whether it was the right one
};

} // namespace Prefetch
