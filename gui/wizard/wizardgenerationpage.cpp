#include "gui/wizard/wizardgenerationpage.h"

#include "gui/widgets/uicolors.h"
#include "gui/wizard/wizardsettle.h"

#include "prefetch/stream/answerreader.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QTextDocument>
#include <QVBoxLayout>

namespace Gui {

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
    m_editPause.setInterval(WizardSettleDelay);
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
    m_ready = stream->origin() == Prefetch::AnswerReader::Origin::Hit;
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
    // What the early start did, in words ("prefetched" beside a long wait read as "instant").
    if (m_prefetched && m_ready)
        return tr("First token after %1 ms: written while you read the step before, ready at Next.").arg(ms);
    if (m_prefetched)
        return tr("First token after %1 ms: started while you read the step before, not ready at Next.").arg(ms);
    return tr("First token after %1 ms.").arg(ms);
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

} // namespace Gui
