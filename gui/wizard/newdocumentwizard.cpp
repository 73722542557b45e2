#include "gui/wizard/newdocumentwizard.h"

#include "gui/widgets/uicolors.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerreader.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QTextDocument>
#include <QVBoxLayout>

#include <chrono>

namespace Gui {

using namespace std::chrono_literals;

namespace {

using namespace Prefetch::WizardKeys;

// "1. ", "- ", "## ", "**…**", quotes: what models put around list items and titles.
QString stripMarker(QString item)
{
    static const QRegularExpression marker(QStringLiteral("^(?:#{1,6}\\s*|[-*+•]\\s+|\\(?\\d{1,3}[.):]\\s*)"));
    item.remove(marker);
    item = item.trimmed();
    static const QString wrappers = QStringLiteral("*_\"'“”‘’«»「」");
    while (item.size() >= 2 && wrappers.contains(item.front()) && wrappers.contains(item.back()))
        item = item.mid(1, item.size() - 2).trimmed();
    return item;
}

int indentation(const QString &line)
{
    int width = 0;
    for (const QChar c : line) {
        if (c == QLatin1Char(' '))
            ++width;
        else if (c == QLatin1Char('\t'))
            width += 4;
        else
            break;
    }
    return width;
}

// The outline as Markdown sections: top-level items become "##" headings, indented ones
// bullets under the heading before them.
QString outlineMarkdown(const QString &outline)
{
    QStringList lines;
    for (const QString &line : outline.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            lines.append(line);
    }
    if (lines.size() == 1)
        lines = NewDocumentWizard::splitItems(lines.first());
    QString md;
    bool inSection = false;
    bool inList = false;
    for (const QString &line : std::as_const(lines)) {
        const QString item = stripMarker(line.trimmed());
        if (item.isEmpty())
            continue;
        if (indentation(line) > 0 && inSection) {
            if (!inList)
                md += QLatin1Char('\n');
            md += QStringLiteral("- ") + item + QLatin1Char('\n');
            inList = true;
            continue;
        }
        if (inSection)
            md += QLatin1Char('\n');
        md += QStringLiteral("## ") + item + QLatin1Char('\n');
        inSection = true;
        inList = false;
    }
    return md;
}

} // namespace

// --- the wizard ------------------------------------------------------------------------------

NewDocumentWizard::NewDocumentWizard(Prefetch::Engine *engine, Prefetch::WorkflowStrategy *workflow, QWidget *parent)
    : QWizard(parent)
    , m_engine(engine)
    , m_workflow(workflow)
    , m_topicPage(new WizardTopicPage(this))
    , m_outlinePage(new WizardGenerationPage(
          {.title = tr("Outline"),
           .subTitle = tr("The sections of the document, written from your topic. Edit them as you like: the "
                          "introduction follows the outline as you leave it."),
           .fieldLabel = tr("&Outline:"),
           .fieldName = tr("Outline"),
           .placeholder = tr("One section per line; indent a line to make it a point under the section above."),
           .statusName = tr("Outline status")},
          this))
    , m_introductionPage(
          new WizardGenerationPage({.title = tr("Introduction"),
                                    .subTitle = tr(
                                        "The opening of the document, written from your topic and the outline."),
                                    .fieldLabel = tr("&Introduction:"),
                                    .fieldName = tr("Introduction"),
                                    .placeholder = tr("The introduction appears here; you can also write it yourself."),
                                    .statusName = tr("Introduction status")},
                                   this))
    , m_titlePage(
          new WizardTitlePage({.title = tr("Title"),
                               .subTitle = tr("Some titles for the document. Pick one, edit it, or type your own."),
                               .fieldLabel = tr("Title &options:"),
                               .fieldName = tr("Title options"),
                               .placeholder = tr("One title per line."),
                               .statusName = tr("Title options status")},
                              this))
{
    setWindowTitle(tr("New Document"));
    setOption(QWizard::NoBackButtonOnStartPage);
    setPage(TopicStep, m_topicPage);
    setPage(OutlineStep, m_outlinePage);
    setPage(IntroductionStep, m_introductionPage);
    setPage(TitleStep, m_titlePage);
    setStartId(TopicStep);

    connect(m_topicPage, &WizardTopicPage::settled, this, [this] {
        if (m_topicPage->isComplete() && Prefetch::wizardFormFilledIn(formData(OutlineStep)))
            completeStep(TopicStep);
    });
    for (int step : {OutlineStep, IntroductionStep, TitleStep}) {
        WizardGenerationPage *page = generationPage(step);
        connect(page, &WizardGenerationPage::regenerateRequested, this,
                [this, step] { generate(step, Llm::monotonicNowNs(), true); });
        connect(page, &WizardGenerationPage::generationEnded, this, [this, step](bool ok) {
            if (ok)
                completeStep(step);
        });
        connect(page, &WizardGenerationPage::editSettled, this, [this, step] { completeStep(step); });
    }
}

NewDocumentWizard::~NewDocumentWizard()
{
    // Destroyed while open (its parent closed): the pages' streams would close with them, but
    // the workflow's prefetch belongs to the strategy and would run on.
    if (!m_closed)
        stopEverything();
}

WizardGenerationPage *NewDocumentWizard::generationPage(int step) const
{
    switch (step) {
    case OutlineStep: return m_outlinePage;
    case IntroductionStep: return m_introductionPage;
    case TitleStep: return m_titlePage;
    default: return nullptr;
    }
}

QVariantMap NewDocumentWizard::formData(int step) const
{
    QVariantMap data{{TopicKey, m_topicPage->topic()},
                     {AudienceKey, m_topicPage->audience()},
                     {ToneKey, m_topicPage->tone()}};
    if (step == OutlineStep || step == IntroductionStep)
        data.insert(LengthKey, m_topicPage->length());
    if (step >= IntroductionStep)
        data.insert(OutlineKey, m_outlinePage->text().trimmed());
    if (step >= TitleStep)
        data.insert(IntroductionKey, m_introductionPage->text().trimmed());
    return data;
}

QString NewDocumentWizard::stepPrompt(int step, const QVariantMap &data)
{
    return Prefetch::wizardStepPrompt(step, data);
}

std::expected<Prefetch::RenderedRequest, Llm::Error> NewDocumentWizard::stepRequest(int step, const QVariantMap &data,
                                                                                    std::optional<qint64> seed) const
{
    if (!m_engine)
        return std::unexpected(Llm::Error(Llm::Error::Code::InvalidRequest, QString()));
    const Llm::ProviderProfile &profile = m_engine->profile();
    // Compiled once per provider: the prefetch, the real request and every step then start
    // with the same bytes.
    if (!m_compiled || !m_compiled->isFor(profile)) {
        auto compiled = Prefetch::compileWizard(profile);
        if (!compiled)
            return std::unexpected(compiled.error());
        m_compiled = *compiled;
    }
    Prefetch::GenerationParams params;
    params.maxTokens = Prefetch::wizardMaxTokens(step);
    params.seed = seed;
    return m_compiled->render({{QStringLiteral("prompt"), stepPrompt(step, data)}}, params);
}

bool NewDocumentWizard::validateCurrentPage()
{
    // Next (or Finish) was pressed now: the page it opens measures its latency from here.
    m_activatedNs = Llm::monotonicNowNs();
    // A change still waiting for its pause would otherwise settle when this page hides (focus
    // leaves it) and start a prefetch only to take it over a moment later.
    if (currentId() == TopicStep)
        m_topicPage->cancelPendingSettle();
    else if (WizardGenerationPage *page = generationPage(currentId()))
        page->cancelPendingEdit();
    return QWizard::validateCurrentPage();
}

void NewDocumentWizard::initializePage(int id)
{
    QWizard::initializePage(id);
    m_closed = false; // restart() after a close initialises the first page again
    const qint64 activated = m_activatedNs >= 0 ? m_activatedNs : Llm::monotonicNowNs();
    m_activatedNs = -1;
    WizardGenerationPage *page = generationPage(id);
    if (!page)
        return;
    const QVariantMap data = formData(id);
    const bool unchanged = page->hasResult() && page->sourceData() == data;
    // Changed data regenerates a text the user has not touched; their own words win over it.
    const bool ownWords = !unchanged && page->hasResult() && page->isUserEdited();
    page->setStale(ownWords);
    if (unchanged || ownWords) {
        // Back and Next again: the user keeps what they have (Regenerate is offered). A text
        // that finished while they were on an earlier page predicts the next step only now.
        if (!page->isGenerating())
            completeStep(id);
        return;
    }
    generate(id, activated, false);
}

void NewDocumentWizard::generate(int step, qint64 activatedNs, bool regenerate)
{
    WizardGenerationPage *page = generationPage(step);
    if (!page || !m_engine || !m_workflow)
        return;
    const QVariantMap data = formData(step);
    // Regenerate with unchanged data asks for another text (another seed). After a change the
    // plain request is the one a prefetch may already be running for.
    std::optional<qint64> seed;
    if (regenerate && page->sourceData() == data)
        seed = ++m_regenerations;
    auto request = stepRequest(step, data, seed);
    if (!request) {
        page->stop();
        page->showError(request.error().message());
        return;
    }
    // The workflow holds one prefetch. One for another step is built on this page's text, which
    // is about to change; activate() would drop it without cancelling, so cancel it here.
    for (int other : {OutlineStep, IntroductionStep, TitleStep}) {
        if (other != step && m_workflow->isPrefetching(other)) {
            m_workflow->reset();
            break;
        }
    }
    m_prefetchedStep = -1;
    m_prefetchedData.clear();
    page->follow(m_workflow->activate(step, data, *request, activatedNs, page), data);
}

void NewDocumentWizard::completeStep(int step)
{
    // Only the page the user is on predicts the next one: a generation that ends on a page
    // left behind must not replace the prefetch for where the user is now.
    if (m_closed || !m_engine || !m_workflow || step >= TitleStep || currentId() != step)
        return;
    const int next = step + 1;
    const QVariantMap data = formData(next);
    if (m_prefetchedStep == next && m_prefetchedData == data && m_workflow->isPrefetching(next))
        return; // already on its way; starting it again would only waste what it has
    const WizardGenerationPage *nextPage = generationPage(next);
    if (nextPage->hasResult() && (nextPage->sourceData() == data || nextPage->isUserEdited()))
        return; // Next keeps what the user has there, so a prefetch would be wasted
    const auto request = stepRequest(next, data);
    if (!request)
        return; // the activation shows the error
    m_workflow->stepCompleted(step, data, *request);
    const bool prefetching = m_workflow->isPrefetching(next);
    m_prefetchedStep = prefetching ? next : -1;
    m_prefetchedData = prefetching ? data : QVariantMap();
    emit stepCompleted(step, prefetching);
}

void NewDocumentWizard::stopEverything()
{
    m_closed = true;
    if (m_workflow)
        m_workflow->reset();
    m_prefetchedStep = -1;
    m_prefetchedData.clear();
    for (int step : {OutlineStep, IntroductionStep, TitleStep})
        generationPage(step)->stop();
}

void NewDocumentWizard::done(int result)
{
    stopEverything();
    if (result == QDialog::Accepted)
        emit documentCreated(documentTitle(), documentMarkdown());
    QWizard::done(result);
}

void NewDocumentWizard::reject()
{
    if (m_discardQuestion && m_discardQuestion->isVisible())
        return; // already asking
    if (m_topicPage->topic().trimmed().isEmpty()) {
        QWizard::reject();
        return;
    }
    m_discardQuestion = new QMessageBox(QMessageBox::Question, tr("New Document"),
                                        tr("Discard this document? Its topic and everything written for it will be "
                                           "lost."),
                                        QMessageBox::Discard | QMessageBox::Cancel, this);
    m_discardQuestion->setObjectName(QStringLiteral("discardQuestion"));
    m_discardQuestion->setDefaultButton(QMessageBox::Cancel); // Enter or Esc keep it
    m_discardQuestion->setAttribute(Qt::WA_DeleteOnClose);
    QMessageBox *box = m_discardQuestion;
    connect(box, &QMessageBox::finished, this, [this, box] {
        if (box->standardButton(box->clickedButton()) == QMessageBox::Discard)
            QWizard::reject();
    });
    box->open();
}

void NewDocumentWizard::keyPressEvent(QKeyEvent *event)
{
    // Esc stops a generation first, as Stop does everywhere in the app; the next Esc cancels.
    if (event->matches(QKeySequence::Cancel)) {
        if (WizardGenerationPage *page = generationPage(currentId()); page && page->isGenerating()) {
            page->stop();
            event->accept();
            return;
        }
    }
    QWizard::keyPressEvent(event);
}

QString NewDocumentWizard::documentTitle() const
{
    const QString title = m_titlePage->title();
    return title.isEmpty() ? m_topicPage->topic().simplified() : title;
}

QString NewDocumentWizard::documentMarkdown() const
{
    QString md = QStringLiteral("# ") + documentTitle() + QStringLiteral("\n\n");
    const QString introduction = m_introductionPage->text().trimmed();
    if (!introduction.isEmpty())
        md += introduction + QStringLiteral("\n\n");
    md += outlineMarkdown(m_outlinePage->text());
    while (md.endsWith(QStringLiteral("\n\n")))
        md.chop(1);
    return md;
}

QStringList NewDocumentWizard::splitItems(const QString &text)
{
    QStringList lines;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            lines.append(line.trimmed());
    }
    if (lines.size() == 1) {
        // A model that ignored "one per line" (and the local demo engine): one per sentence.
        static const QRegularExpression sentenceEnd(QStringLiteral("(?<=[.!?])\\s+|(?<=[。！？])"));
        lines = lines.first().split(sentenceEnd, Qt::SkipEmptyParts);
    }
    QStringList items;
    for (const QString &line : std::as_const(lines)) {
        const QString item = stripMarker(line.trimmed());
        if (!item.isEmpty())
            items.append(item);
    }
    return items;
}

} // namespace Gui
