// The replayer's new-document wizard: each step's data, its request, Next and the settle pause
// that lets the workflow strategy guess the next step (as ui/newdocumentwizard.cpp does).
#include "replayer.h"

#include "prefetch/engine.h"
#include "prefetch/strategies/workflowstrategy.h"

namespace Bench {

QVariantMap Replayer::wizardData(int step) const
{
    using namespace Prefetch::WizardKeys;
    QVariantMap data;
    for (const QString &key : {TopicKey, AudienceKey, ToneKey})
        data.insert(key, m_wizardForm.value(key).toString());
    if (step == Prefetch::WizardOutlineStep || step == Prefetch::WizardIntroductionStep)
        data.insert(LengthKey, m_wizardForm.value(LengthKey).toString());
    if (step >= Prefetch::WizardIntroductionStep)
        data.insert(OutlineKey, m_wizardText.value(Prefetch::WizardOutlineStep).trimmed());
    if (step >= Prefetch::WizardTitleStep)
        data.insert(IntroductionKey, m_wizardText.value(Prefetch::WizardIntroductionStep).trimmed());
    return data;
}

std::optional<Prefetch::RenderedRequest> Replayer::wizardRequest(int step, const QVariantMap &data)
{
    if (!m_wizardPrompt || !m_wizardPrompt->isFor(m_engine->profile())) {
        auto compiledWizard = Prefetch::compileWizard(m_engine->profile());
        if (!compiledWizard)
            return std::nullopt;
        m_wizardPrompt = *compiledWizard;
    }
    Prefetch::GenerationParams params;
    params.maxTokens = Prefetch::wizardMaxTokens(step);
    auto rendered = m_wizardPrompt->render({{QStringLiteral("prompt"), Prefetch::wizardStepPrompt(step, data)}},
                                           params);
    if (!rendered)
        return std::nullopt;
    return *rendered;
}

void Replayer::wizardGenerate(int step, qint64 activatedNs)
{
    const QVariantMap data = wizardData(step);
    // Back and Next with unchanged data keeps the text the user has (NewDocumentWizard).
    if (m_wizardText.contains(step) && m_wizardSource.value(step) == data)
        return;
    const auto request = wizardRequest(step, data);
    if (!request) {
        m_result.problems.append(QStringLiteral("wizard step %1: the request could not be rendered").arg(step));
        return;
    }
    // The workflow holds one prefetch; one for another step is dropped (NewDocumentWizard::generate).
    for (int other : {Prefetch::WizardOutlineStep, Prefetch::WizardIntroductionStep, Prefetch::WizardTitleStep}) {
        if (other != step && m_workflow->isPrefetching(other)) {
            m_workflow->reset();
            break;
        }
    }
    if (m_wizardAnswer)
        m_wizardAnswer->cancel();
    m_wizardText.remove(step);
    m_wizardSource[step] = data;
    const Prefetch::CachedAnswers::Counters before = m_engine->cachedAnswers().counters();
    m_wizardAnswer = m_workflow->activate(step, data, *request, activatedNs, this);
    Prefetch::AnswerReader *handle = m_wizardAnswer;
    track(handle, QStringLiteral("wizard"), Prefetch::Strategy::Workflow, [this, step, handle](const QString &text) {
        if (m_wizardAnswer != handle || !handle->isDone() || handle->error())
            return; // replaced, closed or stopped: the page keeps no finished text to build on
        m_wizardAnswer = nullptr;
        m_wizardText[step] = text;
        wizardStepCompleted(step); // the text is finished: the next step is predictable now
    });
    noteCache(m_result.samples.size() - 1, before, nullptr, activatedNs);
}

void Replayer::wizardStepCompleted(int step)
{
    // Only the page the user is on predicts the next one (NewDocumentWizard::completeStep), and
    // the topic form only once it is filled in.
    if (!m_wizardOpen || step >= Prefetch::WizardTitleStep || step != m_wizardStep)
        return;
    if (step == Prefetch::WizardTopicStep && !Prefetch::wizardFormFilledIn(m_wizardForm))
        return;
    const int next = step + 1;
    const QVariantMap data = wizardData(next);
    if (m_wizardText.contains(next) && m_wizardSource.value(next) == data)
        return;
    if (const auto request = wizardRequest(next, data))
        m_workflow->stepCompleted(step, data, *request);
}

} // namespace Bench
