#include "speculationplan.h"

#include "engine.h"

#include <algorithm>

namespace Prefetch {

namespace {

// The strategies that send text the user has not sent: consent gates these (AppSettings::
// effectivePrefetch); warm-up sends the document the user opened to work on with the provider,
// and the wizard the steps the user completed.
bool needsConsent(Strategy s)
{
    return s != Strategy::Warmup && s != Strategy::Workflow;
}

bool isEarly(Strategy s)
{
    return std::find(std::begin(EarlyStrategies), std::end(EarlyStrategies), s) != std::end(EarlyStrategies);
}

} // namespace

SpeculationPlan SpeculationPlan::of(const Engine &engine, Consent consent, const QString &pause)
{
    SpeculationPlan plan;
    const QString provider = engine.profile().displayName;
    const bool continues = engine.canContinue();
    const bool limited = engine.speculationSuspensions().testFlag(Engine::Suspension::RateLimited);
    const qint64 limitSeconds = (engine.rateLimitBackoff().remaining().count() + 999) / 1000;
    const bool withheld = consent == Consent::NotAnswered || consent == Consent::Declined;
    for (Strategy s : AllStrategies) {
        Entry e;
        if (withheld && needsConsent(s)) {
            e.state = consent == Consent::NotAnswered ? State::AwaitingConsent : State::NotAllowed;
            e.note = consent == Consent::NotAnswered
                         ? tr("Waits for your answer: may %1 receive text before you send it?").arg(provider)
                         : tr("Not allowed for %1 (Settings, Prefetch allows it).").arg(provider);
        } else if (!engine.isEnabled(s)) {
            e.state = State::SwitchedOff;
            e.note = tr("Switched off in Settings, Prefetch.");
        } else if (isEarly(s) && !continues) {
            e.state = State::NotWorthIt;
            e.note = tr("Not with %1: it cannot continue an answer, and a whole answer on a signal this weak "
                        "costs more than it saves.")
                         .arg(provider);
        } else {
            e.state = State::Runs;
            if (s == Strategy::Warmup)
                e.note = tr("Sends the open document once, so that %1 has it cached before you ask.").arg(provider);
            else if (isEarly(s))
                e.note = tr("Asks for the first words only; the rest comes when you click.");
            else if (continues)
                e.note = tr("Asks for the answer's beginning; the rest comes when you ask.");
            else
                e.note = tr("Asks for the whole answer (%1 cannot continue one) and closes it if you do not ask.")
                             .arg(provider);
        }
        if (e.runs() && (limited || !pause.isEmpty())) {
            e.state = State::Paused;
            e.note = limited ? tr("Paused: %1 is limiting requests (%2 s more).").arg(provider).arg(limitSeconds)
                             : tr("Paused: %1.").arg(pause);
        }
        if (e.runs() && needsConsent(s))
            plan.m_guesses = true;
        plan.m_entries.insert(s, e);
    }

    if (withheld)
        plan.m_summary = consent == Consent::NotAnswered ? tr("Early answers: waiting for your answer")
                                                         : tr("Early answers: not allowed for %1").arg(provider);
    else if (limited)
        plan.m_summary = tr("Early answers: paused, %1 is limiting requests").arg(provider);
    else if (!pause.isEmpty())
        plan.m_summary = tr("Early answers: paused");
    else if (!plan.m_guesses)
        plan.m_summary = tr("Early answers: off");
    else if (!continues)
        plan.m_summary = tr("Early answers: whole answers on strong signals");
    else
        plan.m_summary = tr("Early answers: on");
    return plan;
}

} // namespace Prefetch
