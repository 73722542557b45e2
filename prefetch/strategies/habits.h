#pragma once

#include "prefetch/prompts/actionprompts.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <span>

class QSettings;

namespace Prefetch {

// What this user does next, learnt from what they did: for each context an action may follow
// (a document just opened, a finished selection, a shortcut's modifiers held, the pointer
// heading for an action's button, after an answer of some action) a count per action that
// decays with every new observation in that context, so recent habits weigh more than old
// ones. A small prior says what a new user is likely to do. Where the user can also do none of
// the actions (a selection made to copy, modifiers held for another shortcut, a pointer passing
// the toolbar, a document opened to read), that outcome is counted too (recordNothing()), so the
// chances of the actions say how often anything follows at all, not only which action does.
// No model and nothing in the cloud: the counts are kept in the user's settings. A value type;
// any thread, but not shared between threads.
class Habits
{
public:
    // Where an action can follow. `After` carries the action whose answer came before, `Pointer`
    // the action whose button the pointer is heading for.
    struct Context {
        enum class Kind { Opened, Selection, Modifiers, ModifiersWithSelection, After, Pointer };
        Kind kind = Kind::Opened;
        DocumentAction after = DocumentAction::Summarize; // Kind::After and Kind::Pointer only
        QString key() const;
        friend bool operator==(const Context &, const Context &) = default;
    };
    static Context opened() { return {Context::Kind::Opened}; }
    static Context selection() { return {Context::Kind::Selection}; }
    static Context modifiers(bool withSelection)
    {
        return {withSelection ? Context::Kind::ModifiersWithSelection : Context::Kind::Modifiers};
    }
    static Context after(DocumentAction action) { return {Context::Kind::After, action}; }
    static Context pointer(DocumentAction heading) { return {Context::Kind::Pointer, heading}; }

    // Each observation in a context multiplies its earlier counts by this: about the last ten
    // actions there decide (an assumption: habits change within days, not within minutes).
    static constexpr double Decay = 0.9;

    // The user took `action` in `context`.
    void record(const Context &context, DocumentAction action);
    // The context ended with no action: a finished selection was cleared, replaced or typed
    // over, the modifiers were let go, the pointer went elsewhere, a document's first minutes
    // passed, before any action ran. Where a new user is as likely to do nothing (a selection, a
    // pointer's heading) that has a prior too.
    void recordNothing(const Context &context);
    // How likely each of `candidates` is next in `context` (prior and counts; with nothing
    // counted as one more outcome, so they sum to at most 1 over the candidates), likeliest
    // first, ties in the candidates' order.
    QList<std::pair<DocumentAction, double>> rank(const Context &context,
                                                  std::span<const DocumentAction> candidates) const;
    double count(const Context &context, DocumentAction action) const;
    double nothingCount(const Context &context) const;

    // How much of an answer's wait the user's later signals already cover: at each action, the
    // share of the provider's time to a first token by which a later signal had guessed it
    // before it ran (the pointer heading for its button, the shortcut's modifiers held, focus
    // on the button; 0 where none had: a click nothing saw coming, 1 where the guess had a
    // whole wait's start). A mean that decays as the counts do. What an earlier guess (on a
    // selection, on an opening) still saves is the rest: little for a user whose pointer names
    // the button a second ahead, all of it for one whose shortcut follows the selection at once.
    void recordCovered(double share);
    std::optional<double> coveredShare() const; // none before the first action

    bool isEmpty() const { return m_counts.isEmpty() && m_coveredWeight <= 0; }
    void clear()
    {
        m_counts.clear();
        m_coveredSum = m_coveredWeight = 0;
    }

    // Persisted under "habits/<context>/<action>" (and ".../none"), in the user's settings file
    // (owner-only), nowhere else. Load drops a damaged value (not a number, not positive, huge)
    // and any context that does not exist, so the state stays as small as the contexts are
    // (14 × 6 numbers, and the covered share's two), and returns how many values it dropped: the
    // caller says so in its log; those contexts start from the prior.
    int load(QSettings &settings);
    void save(QSettings &settings) const;

private:
    // Per context: a count per action, in AllDocumentActions' order, then the count of nothing.
    static constexpr size_t Outcomes = std::size(AllDocumentActions) + 1;
    static constexpr size_t Nothing = Outcomes - 1;
    using Counts = std::array<double, Outcomes>;

    static QStringList contextKeys();          // every context there is
    static QString outcomeKey(size_t outcome); // its key in the settings: an action's id, or "none"
    static double prior(const Context &context, DocumentAction action);
    static double nothingPrior(const Context &context);
    void add(const Context &context, size_t outcome);
    double countAt(const Context &context, size_t outcome) const;

    QHash<QString, Counts> m_counts;
    double m_coveredSum = 0; // decayed sum of the covered shares, and of their weights
    double m_coveredWeight = 0;
};

} // namespace Prefetch
