#pragma once

#include "strategy.h"

#include <QCoreApplication>
#include <QMap>
#include <QString>

namespace Prefetch {

class Engine;

// Whether the user let speculation send a provider text they have not sent yet. A provider that
// keeps the text on this machine needs no consent; a cloud provider needs the user's Allow.
enum class Consent { NotNeeded, Given, NotAnswered, Declined };

// What speculation does with the engine's provider, strategy by strategy, and why a strategy
// does not run: switched off, not allowed (consent), paused (the desktop's etiquette, the
// provider's rate limit), or not worth it there (a provider that cannot continue an answer gets
// whole answers on strong signals only and no early guesses: a whole answer on a weak signal
// costs more than it saves). The status bar gives summary(), the metrics panel each strategy's
// note; docs/providers.md has the same table per built-in provider.
class SpeculationPlan
{
    Q_DECLARE_TR_FUNCTIONS(Prefetch::SpeculationPlan)

public:
    enum class State { Runs, SwitchedOff, NotAllowed, AwaitingConsent, NotWorthIt, Paused };
    struct Entry {
        State state = State::SwitchedOff;
        QString note; // how it runs with this provider, or why it does not
        bool runs() const { return state == State::Runs; }
    };

    // `pause` is the desktop etiquette's reason, empty when none holds.
    static SpeculationPlan of(const Engine &engine, Consent consent, const QString &pause = {});

    Entry entry(Strategy strategy) const { return m_entries.value(strategy); }
    // One line: whether early answers run and, where they do not, why.
    QString summary() const { return m_summary; }
    // Any strategy that sends what the user has not asked for yet (hover, typing, early
    // signals) runs.
    bool guesses() const { return m_guesses; }

private:
    QMap<Strategy, Entry> m_entries;
    QString m_summary;
    bool m_guesses = false;
};

} // namespace Prefetch
