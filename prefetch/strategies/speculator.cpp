#include "speculator.h"

#include "guesscost.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"

#include "llm/clock.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace Prefetch {

using A = DocumentAction;

Speculator::Speculator(Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    m_dwell.setSingleShot(true);
    connect(&m_dwell, &QTimer::timeout, this, [this] {
        if (!m_justOpened || !m_engine)
            return;
        const Settings &s = m_engine->settings();
        m_readingWindow.start(s.reading.ttl);
        guess(Strategy::Reading,
              guessedOf(decide(Habits::opened(), possible({A::Summarize, A::ContinueWriting, A::Translate}),
                               s.speculation.maxAnswers)),
              s.reading.ttl);
    });
    // The opening's guesses have expired with no action: an action later is not what the
    // opening led to.
    m_readingWindow.setSingleShot(true);
    connect(&m_readingWindow, &QTimer::timeout, this, [this] {
        if (!m_justOpened)
            return;
        m_justOpened = false;
        nothingFollowed(Habits::opened());
    });
    m_pointerWindow.setSingleShot(true);
    connect(&m_pointerWindow, &QTimer::timeout, this, &Speculator::closePointerDecision);
    m_selectionSettle.setSingleShot(true);
    connect(&m_selectionSettle, &QTimer::timeout, this, &Speculator::guessForSelection);
    m_trajectoryGrace.setSingleShot(true);
    connect(&m_trajectoryGrace, &QTimer::timeout, this, [this] {
        m_predicted.reset();
        drop(Strategy::Trajectory);
    });
}

void Speculator::setContext(ActionBuilder builder, bool hasSelection)
{
    m_builder = std::move(builder);
    m_hasSelection = hasSelection;
}

void Speculator::contextChanged()
{
    // A guess whose request is still what its action would ask now (a summary while only the
    // selection changed) stays; every other is for what no longer is.
    for (auto it = m_guesses.begin(); it != m_guesses.end(); ++it) {
        QList<Guess> kept;
        for (const Guess &g : std::as_const(it.value())) {
            const bool same = m_builder && g.session && g.session->isLive()
                              && g.session->fingerprint() == m_builder(g.action).fingerprint;
            if (same)
                kept.append(g);
            else
                release(g, it.key(), Release::Cancel);
        }
        it.value() = kept;
    }
    if (m_predicted && !guesses(Strategy::Trajectory).contains(*m_predicted))
        m_predicted.reset();
    // A pending guess would be made for the new context; one that depended on the old (a
    // selection that is gone) is not.
    if (!m_hasSelection)
        m_selectionSettle.stop();
}

QList<DocumentAction> Speculator::possible(std::initializer_list<DocumentAction> wanted) const
{
    QList<DocumentAction> out;
    for (DocumentAction action : wanted) {
        if (m_builder && (!actionNeedsSelection(action) || m_hasSelection))
            out.append(action);
    }
    return out;
}

QList<DocumentAction> Speculator::likeliest(const Habits::Context &context, const QList<DocumentAction> &candidates,
                                            int count, double minProbability) const
{
    QList<DocumentAction> out;
    for (const auto &[action, probability] : m_habits.rank(context, candidates)) {
        if (out.size() >= count || probability < minProbability)
            break;
        out.append(action);
    }
    return out;
}

void Speculator::guess(Strategy strategy, const QList<DocumentAction> &actions, std::chrono::milliseconds ttl)
{
    if (!m_engine || !m_builder)
        return;
    QList<Guess> &current = m_guesses[strategy];
    // What is guessed already stays; what is no longer likely is cancelled.
    for (const Guess &g : std::as_const(current)) {
        if (!actions.contains(g.action))
            release(g, strategy, Release::Retire);
    }
    QList<Guess> next;
    for (DocumentAction action : actions) {
        const auto kept = std::find_if(current.cbegin(), current.cend(), [action](const Guess &g) {
            return g.action == action && g.session && g.session->isLive();
        });
        if (kept != current.cend()) {
            next.append(*kept);
            continue;
        }
        PrefetchSession *session = m_engine->prefetch(strategy, m_builder(action), ttl, SignalStrength::Weak);
        if (!session)
            continue; // off, paused, refused, or no prompt yet
        next.append({action, session});
        emit guessed(strategy, action);
    }
    current = next;
}

void Speculator::release(const Guess &g, Strategy strategy, Release how)
{
    // Only its own: one a stronger signal took on (the hover on that button) is not.
    if (!m_engine || !g.session || !g.session->isLive() || g.session->strategy() != strategy || g.session->isStrong())
        return;
    if (how == Release::Cancel || g.session->state() == PrefetchSession::State::Pending)
        m_engine->cancel(g.session);
}

void Speculator::drop(Strategy strategy, Release how)
{
    const QList<Guess> guesses = m_guesses.take(strategy);
    for (const Guess &g : guesses)
        release(g, strategy, how);
}

void Speculator::dropAll(Release how)
{
    for (Strategy s : EarlyStrategies)
        drop(s, how);
}

QList<DocumentAction> Speculator::guesses(Strategy strategy) const
{
    QList<DocumentAction> out;
    for (const Guess &g : m_guesses.value(strategy)) {
        if (g.session && g.session->isLive())
            out.append(g.action);
    }
    return out;
}

// --- the signals ----------------------------------------------------------------------------

void Speculator::documentOpened()
{
    drop(Strategy::Reading, Release::Cancel); // for the document before
    if (m_justOpened && m_readingWindow.isActive())
        nothingFollowed(Habits::opened()); // left for another before acting on it
    m_readingWindow.stop();
    m_justOpened = true;
    if (m_engine)
        m_dwell.start(m_engine->settings().reading.dwell);
}

void Speculator::selectionChanged(bool hasSelection)
{
    if (m_selectionOpen) {
        m_selectionOpen = false;
        nothingFollowed(Habits::selection());
    }
    m_hasSelection = hasSelection;
    drop(Strategy::Selection, Release::Cancel); // for the selection before
    m_selectionSettle.stop();
    if (hasSelection && m_engine)
        m_selectionSettle.start(m_engine->settings().selection.settle);
}

void Speculator::selectionFinished()
{
    if (!m_selectionSettle.isActive())
        return; // guessed on already, or nothing selected since
    m_selectionSettle.stop();
    guessForSelection();
}

void Speculator::guessForSelection()
{
    if (!m_hasSelection || !m_engine)
        return;
    m_selectionOpen = true;
    m_lastSelection = selectionGuesses();
    guess(Strategy::Selection, guessedOf(m_lastSelection), m_engine->settings().selection.ttl);
    emit selectionDecided();
}

void Speculator::nothingFollowed(const Habits::Context &context)
{
    m_habits.recordNothing(context);
    emit habitsChanged();
}

QList<DocumentAction> Speculator::guessedOf(const QList<Candidate> &candidates)
{
    QList<DocumentAction> out;
    for (const Candidate &c : candidates) {
        if (c.guessed)
            out.append(c.action);
    }
    return out;
}

void Speculator::forget()
{
    m_habits.clear();
    m_lastSelection.clear();
    emit habitsChanged();
}

QList<Speculator::Candidate> Speculator::decide(const Habits::Context &context,
                                                const QList<DocumentAction> &candidates, int count) const
{
    QList<Candidate> out;
    if (!m_engine || !m_builder)
        return out;
    const Settings &s = m_engine->settings();
    const double removed = waitRemoved(context);
    // Without bound (the replay's fixed rules) it stays without bound, whatever the time saved
    // and the bill. Over the bill's bound a guess may waste at most the bound's share.
    double share = s.speculation.wasteShare;
    if (!std::isinf(share))
        share = (isCutting() ? std::min(share, s.extraCostResume) : share) * removed;
    int guessed = 0;
    for (const auto &[action, probability] : m_habits.rank(context, candidates)) {
        const double breakEven = GuessCost::of(m_builder(action), m_engine->profile(), s.speculation.prefixTokens)
                                     .breakEven(share);
        const bool pays = probability >= breakEven && guessed < count;
        guessed += pays ? 1 : 0;
        out.append({action, probability, breakEven, pays, removed});
    }
    return out;
}

bool Speculator::isCutting() const
{
    return m_engine && m_engine->recorder().bill().isOver();
}

double Speculator::waitRemoved(const Habits::Context &context) const
{
    if (!(m_weighTime || isCutting()) || (context.kind != Habits::Context::Kind::Selection && context.kind != Habits::Context::Kind::Opened))
        return 1.0;
    return 1.0 - m_habits.coveredShare().value_or(0.0);
}

void Speculator::named(QList<Named> &into, const QList<DocumentAction> &guessed)
{
    const qint64 now = Llm::monotonicNowNs();
    for (DocumentAction action : guessed) {
        if (std::none_of(into.cbegin(), into.cend(), [action](const Named &n) { return n.action == action; }))
            into.append({action, now});
    }
}

QList<Speculator::Candidate> Speculator::selectionGuesses() const
{
    if (!m_engine || !m_hasSelection)
        return {};
    return decide(Habits::selection(), possible({A::RewriteSelection, A::ExplainSelection, A::Translate}),
                  m_engine->settings().speculation.maxAnswers);
}

void Speculator::focusEntered(DocumentAction action)
{
    if (!m_engine || !possible({action}).contains(action))
        return;
    if (!m_focusNamed || m_focusNamed->action != action)
        m_focusNamed = Named{action, Llm::monotonicNowNs()};
    guess(Strategy::Keyboard, {action}, m_engine->settings().keyboard.ttl);
}

void Speculator::focusLeft()
{
    m_focusNamed.reset();
    if (!m_modifiersHeld)
        drop(Strategy::Keyboard);
}

void Speculator::modifiersChanged(bool shortcutModifiersHeld)
{
    m_modifiersHeld = shortcutModifiersHeld;
    if (!shortcutModifiersHeld) {
        // Released after the key (the answer is taken over) or without one: the guesses expire,
        // and the modifiers were held for something else.
        m_modifiersNamed.clear();
        if (const std::optional<Habits::Context> open = std::exchange(m_modifiersOpen, std::nullopt))
            nothingFollowed(*open);
        return;
    }
    m_modifiersOpen = Habits::modifiers(m_hasSelection);
    if (!m_engine)
        return;
    const Settings &s = m_engine->settings();
    const QList<DocumentAction> guessed = guessedOf(
        decide(*m_modifiersOpen,
               possible({A::Summarize, A::ContinueWriting, A::RewriteSelection, A::Translate, A::ExplainSelection}),
               s.speculation.maxAnswers));
    named(m_modifiersNamed, guessed);
    guess(Strategy::Keyboard, guessed, s.keyboard.ttl);
}

void Speculator::setTargets(const QHash<DocumentAction, QRectF> &buttons)
{
    QList<TrajectoryPredictor::Target> targets;
    for (auto it = buttons.cbegin(); it != buttons.cend(); ++it)
        targets.append({int(it.key()), it.value()});
    m_predictor.setTargets(targets);
}

void Speculator::pointerMoved(QPointF position, qint64 monotonicNs)
{
    m_predictor.addSample(position, monotonicNs);
    onPrediction();
}

void Speculator::pointerLeft()
{
    m_predictor.reset();
    m_candidate.reset();
    if (m_predicted && !m_trajectoryGrace.isActive() && m_engine)
        m_trajectoryGrace.start(m_engine->settings().trajectory.grace);
}

void Speculator::onPrediction()
{
    if (!m_engine)
        return;
    const auto prediction = m_predictor.predict();
    if (!prediction) {
        m_candidate.reset();
        // Braking and the last corrections blur the prediction before the pointer lands.
        if (m_predicted && !m_trajectoryGrace.isActive())
            m_trajectoryGrace.start(m_engine->settings().trajectory.grace);
        return;
    }
    const auto action = DocumentAction(prediction->target);
    m_trajectoryGrace.stop();
    // A pointer passing over the row on its way elsewhere names each button it nears for a
    // frame or two; one aimed at a button keeps naming it (three frames, 50 ms at 60 Hz). Each
    // wrong guess costs a prompt read, about a whole answer: in the replay benchmark one guess
    // in five was used when every first prediction was guessed.
    m_candidateRun = m_candidate == action ? m_candidateRun + 1 : 1;
    m_candidate = action;
    if (m_candidateRun < StablePredictions || m_predicted == action || !possible({action}).contains(action))
        return;
    m_predicted = action;
    const std::chrono::milliseconds ttl = m_engine->settings().trajectory.ttl;
    if (m_pointerOpen != action) { // a new heading; the one before went elsewhere
        closePointerDecision();
        m_pointerOpen = action;
        m_pointerWindow.start(ttl);
    }
    const QList<DocumentAction> guessed = guessedOf(decide(Habits::pointer(action), {action}, 1));
    if (!guessed.isEmpty() && !m_pointerNamed)
        m_pointerNamed = Named{action, Llm::monotonicNowNs()};
    guess(Strategy::Trajectory, guessed, ttl);
}

void Speculator::closePointerDecision()
{
    m_pointerWindow.stop();
    m_pointerNamed.reset();
    if (const std::optional<DocumentAction> heading = std::exchange(m_pointerOpen, std::nullopt))
        nothingFollowed(Habits::pointer(*heading));
}

void Speculator::answerEnded(DocumentAction action)
{
    m_lastAnswer = action;
    if (!m_engine)
        return;
    const Settings &s = m_engine->settings();
    guess(Strategy::Habits,
          likeliest(Habits::after(action),
                    possible(
                        {A::Summarize, A::ContinueWriting, A::RewriteSelection, A::Translate, A::ExplainSelection}),
                    1, s.habits.minProbability),
          s.habits.ttl);
}

void Speculator::activated(DocumentAction action)
{
    // How much of the answer's wait a later signal's guess had covered when it ran (none: a
    // click nothing saw coming): measured against the provider's recent time to a first token,
    // so only once there is one.
    const double wait = m_engine ? m_engine->metrics().ttftAll().p50 : -1;
    if (wait > 0) {
        const qint64 now = Llm::monotonicNowNs();
        qint64 namedAt = now;
        QList<Named> earlier = m_modifiersNamed;
        if (m_pointerNamed)
            earlier.append(*m_pointerNamed);
        if (m_focusNamed)
            earlier.append(*m_focusNamed);
        for (const Named &n : std::as_const(earlier)) {
            if (n.action == action)
                namedAt = std::min(namedAt, n.atNs);
        }
        m_habits.recordCovered(double(now - namedAt) / 1e6 / wait);
    }
    // Their guesses are dropped below: the next action is measured from new ones, also where
    // focus stays on the button (Enter again runs it with nothing guessed since).
    m_modifiersNamed.clear();
    m_pointerNamed.reset();
    m_focusNamed.reset();
    if (m_justOpened)
        m_habits.record(Habits::opened(), action);
    if (m_hasSelection)
        m_habits.record(Habits::selection(), action);
    m_selectionOpen = false;
    if (const std::optional<Habits::Context> open = std::exchange(m_modifiersOpen, std::nullopt))
        m_habits.record(*open, action);
    if (const std::optional<DocumentAction> heading = std::exchange(m_pointerOpen, std::nullopt))
        m_habits.record(Habits::pointer(*heading), action);
    m_pointerWindow.stop();
    if (m_lastAnswer)
        m_habits.record(Habits::after(*m_lastAnswer), action);
    m_justOpened = false;
    m_dwell.stop();
    m_readingWindow.stop();
    emit habitsChanged();
    // The user chose: the other guesses of the moment are not wanted.
    dropAll();
    m_predicted.reset();
}

void Speculator::stopped()
{
    m_pointerNamed.reset();
    m_modifiersNamed.clear();
    m_focusNamed.reset();
    m_dwell.stop();
    m_selectionSettle.stop();
    m_trajectoryGrace.stop();
    m_predictor.reset();
    m_candidate.reset();
    m_predicted.reset();
    dropAll(Release::Cancel);
}

} // namespace Prefetch
