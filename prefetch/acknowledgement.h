#pragma once

#include "metrics.h"

#include "llm/llmtypes.h"

#include <QObject>
#include <QPointer>

namespace Llm {
class ProviderRequest;
} // namespace Llm

namespace Prefetch {

class Engine;
class AnswerReader;

// The instant acknowledgement (PREFETCH.md's neighbouring techniques): while a reasoning main
// model thinks a chat message through (seconds before its answer's first word), the profile's
// fast model writes one line on what it is about to think through, and the answer shows that
// line, growing as it streams, until its own text begins. It is not an answer and never becomes
// part of one: nothing of it is stored or sent back with the history.
//
// A side request of the engine's (Engine::SidePurpose::Acknowledgement): it goes only in a free
// slot, within the prefetch budgets, not while speculation is paused, and Stop cancels it. It
// closes its stream at the end of the first line, and as soon as the answer's text comes first
// (too late to be worth anything). Its own metrics line: sent, shown, late, cost, and how long
// the line led the answer. GUI thread.
class Acknowledgement final : public QObject
{
    Q_OBJECT

public:
    // A line longer than this is cut (a model that ignores "one short line").
    static constexpr qsizetype MaxLineChars = 200;

    explicit Acknowledgement(Engine *engine, QObject *parent = nullptr);
    ~Acknowledgement() override;

    // The request: the message alone (no history, no document: one cheap line), on `model`.
    static Llm::ChatRequest buildRequest(const QString &model, const QString &message);
    // The engine's settings and profile ask for one for an answer of `answeringModel`: it is on,
    // that model thinks first, and the fast model is another one that does not.
    static bool isWanted(const Engine &engine, const QString &answeringModel);

    // Asks for the line about `message`, whose answer `answer` is (watched: its first text makes
    // the line late, its end cancels it). `sentNs`: when the user sent it (monotonic). False:
    // not sent (no slot, the budget, paused), and nothing more happens.
    bool start(const QString &message, AnswerReader *answer, qint64 sentNs);
    // The line so far, once it began before the answer's text (lineChanged() was emitted); else
    // empty.
    QString line() const { return m_line; }
    // The model that wrote it.
    QString model() const { return m_model; }

signals:
    // The line grew (its first words are shown as they come, like an answer's).
    void lineChanged(const QString &line);

private:
    void onStreamEvent();
    void onAnswerEvent(const Llm::StreamEvent &event);
    void grow(const QString &line);
    void end(Metrics::SideEnd end);

    QPointer<Engine> m_engine;
    QPointer<Llm::ProviderRequest> m_stream; // a child of this object
    QPointer<AnswerReader> m_answer;
    QString m_model;
    QString m_line;
    qint64 m_sentNs = 0;
    qint64 m_shownNs = 0;
};

} // namespace Prefetch
