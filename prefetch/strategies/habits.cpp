#include "habits.h"

#include <QSettings>

#include <algorithm>
#include <cmath>

namespace Prefetch {

namespace {

const QString Group = QStringLiteral("habits");
const QString NothingKey = QStringLiteral("none");
const QString CoveredKey = QStringLiteral("covered");
const QString CoveredWeightKey = QStringLiteral("covered-weight");
// Counts below this are forgotten rather than kept (after ~45 observations elsewhere).
constexpr double Forgotten = 0.01;

size_t indexOf(DocumentAction action)
{
    return size_t(action);
}

} // namespace

QString Habits::Context::key() const
{
    switch (kind) {
    case Kind::Opened: return QStringLiteral("opened");
    case Kind::Selection: return QStringLiteral("selection");
    case Kind::Modifiers: return QStringLiteral("modifiers");
    case Kind::ModifiersWithSelection: return QStringLiteral("modifiers-selection");
    case Kind::After: return QStringLiteral("after-") + QLatin1String(documentActionId(after));
    case Kind::Pointer: return QStringLiteral("pointer-") + QLatin1String(documentActionId(after));
    }
    return QStringLiteral("opened");
}

// What a new user does, before any count: a summary or a continuation of a document just
// opened, a rewrite more often than an explanation of a selection (the same weights the
// behaviour traces use for the actions: an assumption, bench/README.md). Small, so that a
// handful of the user's own actions outweigh it.
double Habits::prior(const Context &context, DocumentAction action)
{
    using A = DocumentAction;
    switch (context.kind) {
    case Context::Kind::Opened: return action == A::Summarize ? 1.0 : action == A::ContinueWriting ? 0.6 : 0.2;
    case Context::Kind::Selection:
    case Context::Kind::ModifiersWithSelection:
        return action == A::RewriteSelection   ? 1.0
               : action == A::ExplainSelection ? 0.6
               : action == A::Translate        ? 0.4
                                               : 0.1;
    case Context::Kind::Modifiers: return action == A::Summarize || action == A::ContinueWriting ? 0.6 : 0.3;
    case Context::Kind::After: return action == context.after ? 0.2 : 0.4; // the same again is the less usual
    case Context::Kind::Pointer: return action == context.after ? 1.0 : 0.05; // a neighbour, rarely
    }
    return 0.3;
}

// That a finished selection, or a pointer heading for a button, is followed by no action at
// all, before any count: as likely as the likeliest action (an assumption, and a deliberately
// humble one: people select text to copy it, delete it or type over it, and pass the toolbar on
// the way elsewhere; no study we know of gives the shares; issue 40). The user's own outcomes
// replace it within a few. Elsewhere (modifiers held, a document opened, an answer read) none:
// a new user's first guesses there go out as before, and what follows teaches.
double Habits::nothingPrior(const Context &context)
{
    return context.kind == Context::Kind::Selection || context.kind == Context::Kind::Pointer ? 1.0 : 0.0;
}

void Habits::add(const Context &context, size_t outcome)
{
    auto &counts = m_counts[context.key()];
    for (double &c : counts) {
        c *= Decay;
        if (c < Forgotten)
            c = 0;
    }
    counts[outcome] += 1.0;
}

void Habits::record(const Context &context, DocumentAction action)
{
    add(context, indexOf(action));
}

void Habits::recordNothing(const Context &context)
{
    add(context, Nothing);
}

void Habits::recordCovered(double share)
{
    if (!std::isfinite(share))
        return;
    m_coveredSum = m_coveredSum * Decay + std::clamp(share, 0.0, 1.0);
    m_coveredWeight = m_coveredWeight * Decay + 1.0;
}

std::optional<double> Habits::coveredShare() const
{
    if (m_coveredWeight <= 0)
        return std::nullopt;
    return m_coveredSum / m_coveredWeight;
}

double Habits::countAt(const Context &context, size_t outcome) const
{
    const auto it = m_counts.constFind(context.key());
    return it == m_counts.cend() ? 0.0 : (*it)[outcome];
}

double Habits::count(const Context &context, DocumentAction action) const
{
    return countAt(context, indexOf(action));
}

double Habits::nothingCount(const Context &context) const
{
    return countAt(context, Nothing);
}

QList<std::pair<DocumentAction, double>> Habits::rank(const Context &context,
                                                      std::span<const DocumentAction> candidates) const
{
    QList<std::pair<DocumentAction, double>> out;
    double total = nothingPrior(context) + nothingCount(context);
    for (DocumentAction action : candidates) {
        const double weight = prior(context, action) + count(context, action);
        out.append({action, weight});
        total += weight;
    }
    for (auto &entry : out)
        entry.second = total > 0 ? entry.second / total : 0.0;
    std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return out;
}

QString Habits::outcomeKey(size_t outcome)
{
    return outcome == Nothing ? NothingKey : QLatin1String(documentActionId(AllDocumentActions[outcome]));
}

QStringList Habits::contextKeys()
{
    QStringList keys{opened().key(), selection().key(), modifiers(false).key(), modifiers(true).key()};
    for (DocumentAction action : AllDocumentActions)
        keys << after(action).key() << pointer(action).key();
    return keys;
}

int Habits::load(QSettings &settings)
{
    clear();
    int dropped = 0;
    const QStringList known = contextKeys();
    settings.beginGroup(Group);
    if (settings.contains(CoveredKey) || settings.contains(CoveredWeightKey)) {
        bool shareOk = false;
        bool weightOk = false;
        const double share = settings.value(CoveredKey).toDouble(&shareOk); // kept as the mean
        const double weight = settings.value(CoveredWeightKey).toDouble(&weightOk);
        // The weight of a decayed mean never passes 1 / (1 - Decay).
        if (shareOk && weightOk && share >= 0 && share <= 1 && weight > 0 && weight <= 1.0 / (1.0 - Decay) + 1e-9) {
            m_coveredSum = share * weight;
            m_coveredWeight = weight;
        } else {
            dropped += 2;
        }
    }
    for (const QString &context : settings.childGroups()) {
        settings.beginGroup(context);
        if (!known.contains(context)) { // bounded: only the contexts there are
            dropped += int(settings.childKeys().size());
            settings.endGroup();
            continue;
        }
        Counts counts{};
        bool any = false;
        for (size_t outcome = 0; outcome < Outcomes; ++outcome) {
            const QString key = outcomeKey(outcome);
            if (!settings.contains(key))
                continue;
            bool ok = false;
            const double value = settings.value(key).toDouble(&ok);
            if (ok && std::isfinite(value) && value > 0 && value < 1e6) {
                counts[outcome] = value;
                any = true;
            } else {
                ++dropped;
            }
        }
        if (any)
            m_counts.insert(context, counts);
        settings.endGroup();
    }
    settings.endGroup();
    return dropped;
}

void Habits::save(QSettings &settings) const
{
    settings.remove(Group);
    settings.beginGroup(Group);
    if (const std::optional<double> covered = coveredShare()) {
        settings.setValue(CoveredKey, *covered);
        settings.setValue(CoveredWeightKey, m_coveredWeight);
    }
    for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it) {
        settings.beginGroup(it.key());
        for (size_t outcome = 0; outcome < Outcomes; ++outcome) {
            const double value = (*it)[outcome];
            if (value > 0)
                settings.setValue(outcomeKey(outcome), value);
        }
        settings.endGroup();
    }
    settings.endGroup();
}

} // namespace Prefetch
