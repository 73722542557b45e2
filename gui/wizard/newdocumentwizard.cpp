#include "gui/wizard/newdocumentwizard.h"

#include "gui/widgets/uicolors.h"

#include "llm/clock.h"
#include "prefetch/actionprompts.h"
#include "prefetch/engine.h"
#include "prefetch/answerreader.h"
#include "prefetch/workflowstrategy.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
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

// A pause in typing this long means the user is done for now (the typing prefetch uses the
// same figure).
constexpr auto SettleDelay = 350ms;

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

// --- page 1 ----------------------------------------------------------------------------------

WizardTopicPage::WizardTopicPage(QWidget *parent)
    : QWizardPage(parent)
    , m_topic(new QLineEdit(this))
    , m_audience(new QLineEdit(this))
    , m_tone(new QComboBox(this))
    , m_length(new QComboBox(this))
{
    setTitle(tr("Topic and audience"));
    setSubTitle(tr("Say what the document is about and who will read it. The outline starts as soon as you pause."));

    m_topic->setPlaceholderText(tr("What the document is about (required)"));
    m_topic->setAccessibleName(tr("Topic"));
    m_audience->setPlaceholderText(tr("Who will read it, e.g. engineers new to the project"));
    m_audience->setAccessibleName(tr("Audience"));
    // The data is a stable English key: the prompt must not depend on the UI language.
    m_tone->addItem(tr("Neutral"), QStringLiteral("neutral"));
    m_tone->addItem(tr("Friendly"), QStringLiteral("friendly"));
    m_tone->addItem(tr("Formal"), QStringLiteral("formal"));
    m_tone->addItem(tr("Persuasive"), QStringLiteral("persuasive"));
    m_tone->addItem(tr("Playful"), QStringLiteral("playful"));
    m_tone->setAccessibleName(tr("Tone"));
    m_length->addItem(tr("Short (about 500 words)"), QStringLiteral("short"));
    m_length->addItem(tr("Medium (about 1,500 words)"), QStringLiteral("medium"));
    m_length->addItem(tr("Long (about 3,000 words)"), QStringLiteral("long"));
    m_length->setCurrentIndex(1);
    m_length->setAccessibleName(tr("Length"));

    // The wizard's buttons own Alt+B, Alt+N and Alt+F; these mnemonics avoid them.
    auto *form = new QFormLayout(this);
    form->addRow(tr("&Topic:"), m_topic);
    form->addRow(tr("&Audience:"), m_audience);
    form->addRow(tr("T&one:"), m_tone);
    form->addRow(tr("&Length:"), m_length);

    m_pause.setSingleShot(true);
    m_pause.setInterval(SettleDelay);
    connect(&m_pause, &QTimer::timeout, this, &WizardTopicPage::settled);
    connect(m_topic, &QLineEdit::textChanged, this, [this] {
        emit completeChanged();
        onEdited();
    });
    connect(m_audience, &QLineEdit::textChanged, this, &WizardTopicPage::onEdited);
    connect(m_tone, &QComboBox::currentIndexChanged, this, &WizardTopicPage::onEdited);
    connect(m_length, &QComboBox::currentIndexChanged, this, &WizardTopicPage::onEdited);
    for (QWidget *field : {static_cast<QWidget *>(m_topic), static_cast<QWidget *>(m_audience),
                           static_cast<QWidget *>(m_tone), static_cast<QWidget *>(m_length)})
        field->installEventFilter(this);
}

QString WizardTopicPage::topic() const
{
    return m_topic->text().trimmed();
}

QString WizardTopicPage::audience() const
{
    return m_audience->text().trimmed();
}

QString WizardTopicPage::tone() const
{
    return m_tone->currentData().toString();
}

QString WizardTopicPage::length() const
{
    return m_length->currentData().toString();
}

bool WizardTopicPage::isComplete() const
{
    return !topic().isEmpty();
}

void WizardTopicPage::onEdited()
{
    m_pause.start();
}

bool WizardTopicPage::eventFilter(QObject *watched, QEvent *event)
{
    // Moving on to another field (or to Next) settles a pending change at once.
    if (event->type() == QEvent::FocusOut && m_pause.isActive()) {
        m_pause.stop();
        emit settled();
    }
    return QWizardPage::eventFilter(watched, event);
}

// --- generated pages -------------------------------------------------------------------------

WizardGenerationPage::WizardGenerationPage(const Texts &texts, QWidget *parent)
    : QWizardPage(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_regenerate(new QPushButton(tr("&Regenerate"), this))
    , m_stop(new QPushButton(tr("&Stop"), this))
    , m_extraRows(new QFormLayout)
    , m_follower({[this](const QString &text) {
                      // The generated text becomes the base the user's edits undo back to, so
                      // the stream's pieces stay out of the undo history (see follow()).
                      const QScopedValueRollback<bool> applying(m_applyingStream, true);
                      appendStreamed(m_editor->document(), m_editor->verticalScrollBar(), text);
                  },
                  {},
                  m_editor->viewport(),
                  [this] {
                      const QScopedValueRollback<bool> applying(m_applyingStream, true);
                      m_editor->clear();
                  }})
{
    setTitle(texts.title);
    setSubTitle(texts.subTitle);

    auto *label = new QLabel(texts.fieldLabel, this);
    label->setBuddy(m_editor);
    m_editor->setAccessibleName(texts.fieldName);
    m_editor->setPlaceholderText(texts.placeholder);
    // Tab leaves the field, so every control stays reachable from the keyboard.
    m_editor->setTabChangesFocus(true);
    m_status->setAccessibleName(texts.statusName);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_regenerate->setToolTip(tr("Write this step again from the earlier steps"));
    m_stop->setToolTip(tr("Stop writing (Esc)"));
    m_stop->setEnabled(false);
    // Return belongs to the wizard's Next button.
    m_regenerate->setAutoDefault(false);
    m_stop->setAutoDefault(false);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    buttons->addWidget(m_regenerate);
    buttons->addWidget(m_stop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(label);
    layout->addWidget(m_editor, 1);
    layout->addLayout(m_extraRows);
    layout->addLayout(buttons);

    connect(&m_follower, &StreamFollower::firstPainted, this, [this](double perceivedMs) {
        setStatus(tr("Writing…") + QLatin1Char(' ') + firstTokenSentence());
        emit firstTokenShown(perceivedMs);
    });
    connect(&m_follower, &StreamFollower::finished, this, &WizardGenerationPage::onFinished);
    connect(&m_follower, &StreamFollower::failed, this, &WizardGenerationPage::onFailed);
    connect(&m_follower, &StreamFollower::retrying, this, [this](const QString &status) { setStatus(status); });
    m_editPause.setSingleShot(true);
    m_editPause.setInterval(SettleDelay);
    connect(&m_editPause, &QTimer::timeout, this, &WizardGenerationPage::editSettled);
    connect(m_editor->document(), &QTextDocument::contentsChanged, this, &WizardGenerationPage::onContentsChanged);
    m_editor->installEventFilter(this);
    connect(m_regenerate, &QPushButton::clicked, this, &WizardGenerationPage::regenerateRequested);
    connect(m_stop, &QPushButton::clicked, this, &WizardGenerationPage::stop);
}

void WizardGenerationPage::addRow(QWidget *label, QWidget *field)
{
    m_extraRows->addRow(label, field);
}

QString WizardGenerationPage::text() const
{
    return m_editor->toPlainText() + m_follower.pendingText();
}

QString WizardGenerationPage::statusText() const
{
    return m_status->text();
}

bool WizardGenerationPage::isGenerating() const
{
    return m_stream != nullptr;
}

bool WizardGenerationPage::hasResult() const
{
    return isGenerating() || !text().trimmed().isEmpty();
}

bool WizardGenerationPage::isComplete() const
{
    // Next waits for the text it builds on; Stop ends the wait.
    return !isGenerating();
}

void WizardGenerationPage::follow(Prefetch::AnswerReader *stream, const QVariantMap &data)
{
    if (m_stream) {
        m_follower.release();
        m_stream->cancel();
        m_stream->deleteLater();
    }
    m_editPause.stop();
    {
        // The generated text becomes the base the user's edits undo back to, so the stream's
        // pieces stay out of the undo history.
        const QScopedValueRollback<bool> applying(m_applyingStream, true);
        m_editor->document()->setUndoRedoEnabled(false);
        m_editor->clear();
    }
    m_stream = stream;
    m_sourceData = data;
    m_userEdited = false;
    m_stale = false;
    m_prefetched = stream->isPrefetched();
    m_follower.follow(stream);
    m_stop->setEnabled(true);
    setStatus(tr("Waiting for the first token…"));
    emit completeChanged();
}

void WizardGenerationPage::stop()
{
    if (m_stream)
        m_stream->cancel(); // ends through onFailed(Cancelled)
}

void WizardGenerationPage::showError(const QString &message)
{
    setStatus(message + QLatin1Char(' ') + tr("You can type the text yourself, or press Regenerate."), true);
}

void WizardGenerationPage::setStale(bool stale)
{
    if (stale) {
        setStatus(tr("The earlier steps changed since this text was written. Press Regenerate to write it again "
                     "from them."));
    } else if (m_stale) {
        setStatus(QString()); // the earlier steps are back to what this text was written from
    }
    m_stale = stale;
}

QString WizardGenerationPage::firstTokenSentence() const
{
    if (perceivedLatencyMs() < 0)
        return tr("No text arrived.");
    const QString ms = QLocale().toString(perceivedLatencyMs(), 'f', 0);
    return m_prefetched ? tr("First token after %1 ms, prefetched.").arg(ms) : tr("First token after %1 ms.").arg(ms);
}

void WizardGenerationPage::onFinished(Llm::FinishReason reason)
{
    QString status = tr("Done.") + QLatin1Char(' ') + firstTokenSentence();
    if (reason == Llm::FinishReason::Length)
        status += QLatin1Char(' ') + tr("It stopped at the token limit.");
    else if (reason == Llm::FinishReason::ContentFilter)
        status += QLatin1Char(' ') + tr("The provider's content filter withheld the rest.");
    endStream();
    setStatus(status);
    emit generationEnded(true);
}

void WizardGenerationPage::onFailed(const Llm::Error &error)
{
    endStream();
    if (error.code() == Llm::Error::Code::Cancelled)
        setStatus(tr("Stopped. Edit the text, or press Regenerate."));
    else
        showError(error.message());
    emit generationEnded(false);
}

void WizardGenerationPage::endStream()
{
    m_follower.flush(); // whatever arrived is the user's text now
    m_follower.release();
    if (m_stream) {
        m_stream->deleteLater(); // we are inside its terminal signal
        m_stream = nullptr;
    }
    m_editor->document()->setUndoRedoEnabled(true);
    m_stop->setEnabled(false);
    emit completeChanged();
}

void WizardGenerationPage::onContentsChanged()
{
    if (m_applyingStream)
        return;
    // Typing into a text that is still being written means the user takes over from here.
    if (m_stream)
        stop();
    m_userEdited = true;
    m_editPause.start();
    emit userEdited();
}

bool WizardGenerationPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::FocusOut && m_editPause.isActive()) {
        m_editPause.stop();
        emit editSettled();
    }
    return QWizardPage::eventFilter(watched, event);
}

void WizardGenerationPage::setStatus(const QString &text, bool isError)
{
    m_status->setText(text);
    // Only the one role is set, so the label keeps following palette changes otherwise.
    QPalette p;
    if (isError)
        p.setColor(QPalette::WindowText, errorColor(palette()));
    m_status->setPalette(p);
}

// --- page 4 ----------------------------------------------------------------------------------

WizardTitlePage::WizardTitlePage(const Texts &texts, QWidget *parent)
    : WizardGenerationPage(texts, parent)
    , m_title(new QComboBox(this))
{
    m_title->setEditable(true);
    m_title->setInsertPolicy(QComboBox::NoInsert);
    m_title->setAccessibleName(tr("Title"));
    m_title->lineEdit()->setPlaceholderText(tr("Pick an option or type your own title"));
    auto *label = new QLabel(tr("&Title:"), this);
    label->setBuddy(m_title);
    addRow(label, m_title);
    setTabOrder(editor(), m_title);
    setTabOrder(m_title, regenerateButton());

    connect(m_title, &QComboBox::editTextChanged, this, &QWizardPage::completeChanged);
    connect(this, &WizardGenerationPage::generationEnded, this, [this] { updateOptions(true); });
    connect(this, &WizardGenerationPage::userEdited, this, [this] {
        if (!isGenerating())
            updateOptions(false);
    });
}

QString WizardTitlePage::title() const
{
    return m_title->currentText().simplified();
}

bool WizardTitlePage::isComplete() const
{
    return !title().isEmpty();
}

void WizardTitlePage::updateOptions(bool pickFirst)
{
    QStringList options = NewDocumentWizard::splitItems(text());
    for (QString &option : options) {
        if (option.endsWith(QLatin1Char('.')) && !option.endsWith(QLatin1String("..")))
            option.chop(1); // a title is no sentence
    }
    options.removeAll(QString());
    if (options != m_options) {
        const QString typed = m_title->currentText();
        const QSignalBlocker blocker(m_title);
        m_title->clear();
        m_title->addItems(options);
        m_title->setEditText(typed);
        m_options = options;
    }
    if (pickFirst && title().isEmpty() && !options.isEmpty())
        m_title->setEditText(options.first());
    emit completeChanged();
}

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
    , m_introductionPage(new WizardGenerationPage(
          {.title = tr("Introduction"),
           .subTitle = tr("The opening of the document, written from your topic and the outline."),
           .fieldLabel = tr("&Introduction:"),
           .fieldName = tr("Introduction"),
           .placeholder = tr("The introduction appears here; you can also write it yourself."),
           .statusName = tr("Introduction status")},
          this))
    , m_titlePage(new WizardTitlePage(
          {.title = tr("Title"),
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
