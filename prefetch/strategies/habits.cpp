#include "habits.h"

#include <QSettings>

#include <algorithm>
#include <cmath>

namespace Prefetch {

namespace {

const QString Group = QStringLiteral("habits");
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
    }
    return 0.3;
}

void Habits::record(const Context &context, DocumentAction action)
{
    auto &counts = m_counts[context.key()];
    for (double &c : counts) {
        c *= Decay;
        if (c < Forgotten)
            c = 0;
    }
    counts[indexOf(action)] += 1.0;
}

double Habits::count(const Context &context, DocumentAction action) const
{
    const auto it = m_counts.constFind(context.key());
    return it == m_counts.cend() ? 0.0 : (*it)[indexOf(action)];
}

QList<std::pair<DocumentAction, double>> Habits::rank(const Context &context,
                                                      std::span<const DocumentAction> candidates) const
{
    QList<std::pair<DocumentAction, double>> out;
    double total = 0;
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

void Habits::load(QSettings &settings)
{
    m_counts.clear();
    settings.beginGroup(Group);
    for (const QString &context : settings.childGroups()) {
        settings.beginGroup(context);
        std::array<double, std::size(AllDocumentActions)> counts{};
        bool any = false;
        for (DocumentAction action : AllDocumentActions) {
            bool ok = false;
            const double value = settings.value(QLatin1String(documentActionId(action))).toDouble(&ok);
            if (ok && std::isfinite(value) && value > 0 && value < 1e6) {
                counts[indexOf(action)] = value;
                any = true;
            }
        }
        if (any)
            m_counts.insert(context, counts);
        settings.endGroup();
    }
    settings.endGroup();
}

void Habits::save(QSettings &settings) const
{
    settings.remove(Group);
    settings.beginGroup(Group);
    for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it) {
        settings.beginGroup(it.key());
        for (DocumentAction action : AllDocumentActions) {
            const double value = (*it)[indexOf(action)];
            if (value > 0)
                settings.setValue(QLatin1String(documentActionId(action)), value);
        }
        settings.endGroup();
    }
    settings.endGroup();
}

} // namespace Prefetch
