#include "gui/metrics/selectionlearningline.h"

#include "gui/metrics/metricsdock.h"
#include "prefetch/strategies/speculator.h"

namespace Gui {

namespace {

QString actionName(Prefetch::DocumentAction action)
{
    using A = Prefetch::DocumentAction;
    switch (action) {
    case A::Summarize: return SelectionLearningLine::tr("Summarize");
    case A::ContinueWriting: return SelectionLearningLine::tr("Continue Writing");
    case A::RewriteSelection: return SelectionLearningLine::tr("Rewrite");
    case A::Translate: return SelectionLearningLine::tr("Translate");
    case A::ExplainSelection: return SelectionLearningLine::tr("Explain");
    }
    return {};
}

} // namespace

SelectionLearningLine::SelectionLearningLine(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("selectionLearningLine"));
    setAccessibleName(tr("What your selections are for"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setToolTip(QStringLiteral("<p>%1</p>")
                   .arg(tr("Learnt on this computer from what you do after selecting text. A guess is made only "
                           "where its wrong guesses are expected to cost at most the share set in Settings, "
                           "Prefetch (\"Let wrong guesses cost at most\") of what its right ones are for; "
                           "\"Forget what was learnt\" there starts again.")
                            .toHtmlEscaped()));
    setVisible(false);
}

void SelectionLearningLine::setSpeculator(Prefetch::Speculator *speculator)
{
    if (m_speculator)
        disconnect(m_speculator, nullptr, this, nullptr);
    m_speculator = speculator;
    if (speculator) {
        connect(speculator, &Prefetch::Speculator::habitsChanged, this, &SelectionLearningLine::refresh);
        connect(speculator, &Prefetch::Speculator::selectionDecided, this, &SelectionLearningLine::refresh);
    }
    refresh();
}

void SelectionLearningLine::refresh()
{
    QStringList sentences;
    if (m_speculator) {
        const Prefetch::Habits &habits = m_speculator->habits();
        const Prefetch::Habits::Context selection = Prefetch::Habits::selection();
        double acted = 0;
        for (Prefetch::DocumentAction action : Prefetch::AllDocumentActions)
            acted += habits.count(selection, action);
        const double seen = acted + habits.nothingCount(selection);
        if (seen > 0)
            sentences
                << tr("Lately an action followed %1 of your selections.").arg(MetricsDock::formatPercent(acted / seen));
        const auto &decision = m_speculator->lastSelectionDecision();
        if (!decision.isEmpty()) {
            const Prefetch::Speculator::Candidate &likeliest = decision.first();
            const QString name = actionName(likeliest.action);
            const QString chance = MetricsDock::formatPercent(likeliest.probability);
            const QString needed = MetricsDock::formatPercent(likeliest.breakEven);
            sentences << (likeliest.guessed
                              ? tr("At the last one %1 was %2 likely, and its guess pays from %3: guessed.")
                              : tr("At the last one %1 was %2 likely, and its guess pays only from %3: not guessed "
                                   "for now."))
                             .arg(name, chance, needed);
            // Where the pointer or a shortcut starts the answer early anyway, a guess on the
            // selection saves only the rest of the wait, and may waste only that share.
            if (likeliest.waitRemoved < 0.995)
                sentences << tr("Your pointer or shortcuts already start %1 of an answer's wait before you run an "
                                "action, so a guess here saves at most the other %2.")
                                 .arg(MetricsDock::formatPercent(1.0 - likeliest.waitRemoved),
                                      MetricsDock::formatPercent(likeliest.waitRemoved));
            if (m_speculator->isCutting())
                sentences << tr("Early guesses have lately added more to your bill than Settings allow, so each one "
                                "must be likelier to pay until the bill is back within it.");
        }
    }
    // Sentences that end in a full-width stop (Chinese) follow each other without a space.
    QString joined;
    for (const QString &sentence : std::as_const(sentences)) {
        if (!joined.isEmpty() && !joined.endsWith(u'\u3002'))
            joined += u' ';
        joined += sentence;
    }
    const QString text = joined.isEmpty() ? QString() : tr("Selections: %1").arg(joined);
    if (this->text() != text)
        setText(text);
    if (isHidden() != text.isEmpty())
        setVisible(!text.isEmpty());
}

} // namespace Gui
