#pragma once

#include "habits.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/strategy.h"
#include "trajectory.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QRectF>
#include <QTimer>

#include <chrono>
#include <functional>
#include <optional>

namespace Prefetch {

class Engine;
class PrefetchSession;

// The earlier, weaker signals for the document actions, each a strategy of its own (settings,
// counters): the pointer's predicted target (Trajectory), a finished selection (Selection),
// keyboard focus on an action or a shortcut's modifiers held down (Keyboard), a document just
// opened (Reading), and what this user usually does after an answer (Habits). A signal that
// leaves several actions possible guesses the likeliest one or two by the user's own habits
// (Habits, which it also teaches: activated()), and each only where it is likely enough to pay
// for itself (decide()). What follows a signal is observed whether or not anything was guessed,
// so no exploration is needed: each decision ends in the action run in its window or in
// nothing (the selection goes, the modifiers are let go, the pointer's guess or the document's
// first guesses would have expired), and that outcome is what the habits learn. Each guess is a short prefix
// (SignalStrength::Weak) that a stronger signal (a hover, the click) upgrades or takes over
// through the engine, which finds it by its fingerprint; a guess for a context that changed
// (an edit, another selection, another document) is cancelled. The UI and the replay benchmark
// only forward what the user does. GUI thread.
class Speculator : public QObject
{
    Q_OBJECT

public:
    // Renders `action` on the current document and selection (an empty request, with no
    // fingerprint, while there is no prompt: nothing is guessed then).
    using ActionBuilder = std::function<RenderedRequest(DocumentAction action)>;

    Speculator(Engine *engine, QObject *parent = nullptr);

    Habits &habits() { return m_habits; }
    const Habits &habits() const { return m_habits; }

    // What guesses are made for: the current document and selection. An empty builder: no
    // document. Setting it is not a change of context (see contextChanged()).
    void setContext(ActionBuilder builder, bool hasSelection);
    // The document's text, the selection or the document itself changed (after setContext()
    // with the new one): a guess whose action would now ask for something else (its
    // fingerprint differs) is for what no longer is, and is cancelled; the others stay.
    void contextChanged();

    // Reading: a document was opened or became current; once it has been read for
    // `reading.dwell` without an edit, its likeliest actions (summarize, continue) are guessed.
    // No action within `reading.ttl` after that (the guesses' life), or another document first:
    // nothing followed the opening.
    void documentOpened();
    // Selection: the selection changed; once it stays for `selection.settle`, the likeliest of
    // the actions on it is guessed, each only if it is likely enough to pay for itself (see
    // selectionGuesses()). `hasSelection` false: there is none any more. A finished selection
    // that goes (cleared, replaced, typed over) with no action run on it teaches the habits
    // that selections are also made for other things.
    void selectionChanged(bool hasSelection);
    // The user let go of what made the selection (the mouse button after a drag, Shift after
    // Shift+arrows; a selection made in one step, Ctrl+A, needs neither): it is the one they
    // meant, so a selection still settling is guessed on now. Nothing happens otherwise.
    void selectionFinished();
    // Keyboard: focus moved onto an action's button, or away from them.
    void focusEntered(DocumentAction action);
    void focusLeft();
    // Keyboard: a shortcut's modifiers (Ctrl+Alt) are held down, or released. Released with no
    // action run meanwhile: they were held for something else (nothing followed).
    void modifiersChanged(bool shortcutModifiersHeld);
    // Trajectory: where the action buttons are, in the coordinates of pointerMoved(). A button
    // the pointer is steadily predicted to land on is guessed where that pays; no action within
    // `trajectory.ttl`, or another button predicted first: nothing followed the heading.
    void setTargets(const QHash<DocumentAction, QRectF> &buttons);
    void pointerMoved(QPointF position, qint64 monotonicNs);
    void pointerLeft();
    // Habits: an answer of `action` ended.
    void answerEnded(DocumentAction action);
    // The user ran `action` now: what it followed teaches the habits, and the other guesses
    // of the moment are no longer wanted.
    void activated(DocumentAction action);
    // Stop: the engine cancelled every guess; what was about to be guessed (a selection
    // settling, a document being read, the pointer's predicted target) is not guessed either.
    // The next signal starts afresh.
    void stopped();

    // What a signal in `context` would guess now among `candidates`, and why: each one's chance
    // (from the habits) and the chance it needs to pay for itself at the provider's prices
    // (GuessCost), its waste allowed in proportion to the time a right guess saves: the share
    // of speculation.wasteShare that is the share of the wait it removes (waitRemoved()).
    // Guessed: the likeliest that pay, at most `count`.
    struct Candidate {
        DocumentAction action;
        double probability;
        double breakEven;
        bool guessed;
        double waitRemoved = 1; // the share of the answer's wait a right guess removes
    };
    QList<Candidate> decide(const Habits::Context &context, const QList<DocumentAction> &candidates, int count) const;
    // What a finished selection would guess now: decide() on the selection's actions.
    QList<Candidate> selectionGuesses() const;
    // The share of an answer's wait that a right guess on a signal in `context` removes, beyond
    // what the later signals would give anyway. 1 for the last signals before an action (the
    // pointer's heading, the modifiers): nothing of ours comes later. For the earlier ones (a
    // selection, an opening) what the user's later signals leave uncovered
    // (1 - Habits::coveredShare()); 1 before the first action measured, and 1 everywhere while
    // neither weighing is on nor the bill over its bound (isCutting()).
    double waitRemoved(const Habits::Context &context) const;
    // Whether the earlier signals always weigh the time they save (waitRemoved()). Off by
    // default: on its own it cut the sweep's cost where selections are stray (48 -> 41 % at 50 %,
    // 50 -> 35 % at 20 %) but took the pooled replay's p50 from 136 to 240 ms where the bill was
    // well within bounds already (docs/benchmarks.md, "Weighing the time a guess saves"). The
    // replay's --weigh-time turns it on. What the later signals cover is measured either way.
    void setWeighTime(bool on) { m_weighTime = on; }
    bool weighsTime() const { return m_weighTime; }
    // The bill is over its bound (the engine's BillEstimate: Settings::extraCostResume added to
    // what the user's answers would cost without prefetch): until it is back under, every
    // signal's guesses may waste at most that share of what they are right about, and the
    // earlier signals weigh the time they save, so that the guesses that stay are those that
    // save the most wait per unit of money.
    bool isCutting() const;

    // The candidates and decision of the last finished selection (empty before the first): what
    // the metrics panel explains.
    const QList<Candidate> &lastSelectionDecision() const { return m_lastSelection; }
    // Everything learnt is forgotten (Settings, "Forget what was learnt"): the habits start from
    // the prior again and the last decision is gone (habitsChanged). Guesses in flight stay.
    void forget();

    // The actions a strategy is guessing now (tests, the metrics panel).
    QList<DocumentAction> guesses(Strategy strategy) const;
    const TrajectoryPredictor &predictor() const { return m_predictor; }

signals:
    void guessed(Prefetch::Strategy strategy, Prefetch::DocumentAction action);
    // The habits learnt something, or forgot everything (the app keeps them in the user's settings).
    void habitsChanged();
    // A finished selection was decided on (lastSelectionDecision()).
    void selectionDecided();

private:
    struct Guess {
        DocumentAction action;
        QPointer<PrefetchSession> session;
    };

    void guess(Strategy strategy, const QList<DocumentAction> &actions, std::chrono::milliseconds ttl);
    // What happens to a guess no longer wanted. Its request sent, the provider has billed its
    // prompt already and a prefix costs little more: it is `Retire`d, left to finish and kept
    // for its TTL (the same guess again, or the click, takes it over at no new cost). `Cancel`
    // is for a guess that can never be used (its context changed) and for Stop. A guess still
    // queued is cancelled either way: nothing was billed for it.
    enum class Release { Retire, Cancel };
    void release(const Guess &guess, Strategy strategy, Release how);
    void drop(Strategy strategy, Release how = Release::Retire);
    void dropAll(Release how = Release::Retire);
    QList<DocumentAction> possible(std::initializer_list<DocumentAction> wanted) const;
    QList<DocumentAction> likeliest(const Habits::Context &context, const QList<DocumentAction> &candidates, int count,
                                    double minProbability = 0) const;
    static QList<DocumentAction> guessedOf(const QList<Candidate> &candidates);
    void onPrediction();
    void guessForSelection();
    // A decision's window closed with no action: `context` learns that nothing followed.
    void nothingFollowed(const Habits::Context &context);
    void closePointerDecision(); // as nothing, if one is open

    QPointer<Engine> m_engine;
    Habits m_habits;
    TrajectoryPredictor m_predictor;
    ActionBuilder m_builder;
    bool m_hasSelection = false;
    // A finished selection no action has been run on yet: if it goes, nothing followed it.
    bool m_selectionOpen = false;
    QList<Candidate> m_lastSelection;
    bool m_justOpened = false; // no action yet since the document was opened
    QTimer m_readingWindow;    // the opening's guesses' life, from the dwell on
    bool m_modifiersHeld = false;
    std::optional<Habits::Context> m_modifiersOpen; // held, no action yet
    std::optional<DocumentAction> m_pointerOpen;    // heading for this button, no action yet
    // When each later signal guessed an action (Llm::monotonicNowNs()), while its decision is
    // open: what activated() learns the share of the wait they cover from.
    struct Named {
        DocumentAction action;
        qint64 atNs;
    };
    std::optional<Named> m_pointerNamed;   // the trajectory's guess for the open heading
    QList<Named> m_modifiersNamed;         // the modifiers' guesses while held
    std::optional<Named> m_focusNamed;     // focus on the action's button
    bool m_weighTime = false;
    void named(QList<Named> &into, const QList<DocumentAction> &guessed); // first time each
    QTimer m_pointerWindow;
    std::optional<DocumentAction> m_lastAnswer;
    std::optional<DocumentAction> m_predicted; // the trajectory's guess
    // The target the last predictions named, and how many in a row did: a guess waits for
    // StablePredictions of them (see onPrediction()).
    std::optional<DocumentAction> m_candidate;
    int m_candidateRun = 0;
    static constexpr int StablePredictions = 3;
    QMap<Strategy, QList<Guess>> m_guesses;
    QTimer m_dwell;
    QTimer m_selectionSettle;
    QTimer m_trajectoryGrace;
};

} // namespace Prefetch
