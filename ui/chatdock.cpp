#include "chatdock.h"

#include "fittedtextbrowser.h"
#include "uicolors.h"

#include "markdownview.h"

#include "llm/clock.h"
#include "llm/error.h"
#include "llm/log.h"
#include "prefetch/actionprompts.h"
#include "prefetch/debouncestrategy.h"
#include "prefetch/engine.h"
#include "prefetch/responsestream.h"

#include <spdlog/spdlog.h>

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QFuture>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <QtMath>

#include <utility>

namespace Gui {

namespace {

spdlog::logger &log() { return Llm::moduleLogger("ui"); }

// Past this many characters a document is compiled in the thread pool: encoding and hashing
// the prefix costs about a millisecond per megabyte, and the GUI thread gets none of that.
constexpr qsizetype AsyncCompileChars = 200'000;
// A streamed answer is written to the store this often, so a crash loses at most this much.
constexpr int CheckpointIntervalMs = 2000;
// Typing in the search field settles this long before the store is queried.
constexpr int SearchDelayMs = 150;
// Edits to the document settle this long before the chat prompt is compiled again.
constexpr int DocumentSettleMs = 400;
// The history sent with a message: the newest turns within these bounds (a context window is
// finite, and so is the memory a long conversation may take per request).
constexpr qsizetype MaxHistoryMessages = 200;
constexpr qint64 MaxHistoryTokens = 32'000;
// Messages shown when a conversation opens; older ones behind a button.
constexpr qsizetype ShownMessages = 100;
// The input grows up to this many lines, then scrolls.
constexpr int InputMinLines = 2;
constexpr int InputMaxLines = 8;
constexpr int TitleChars = 60;

QString titleFrom(const QString &message)
{
    QString line = message.section(u'\n', 0, 0, QString::SectionSkipEmpty).simplified();
    if (line.size() > TitleChars)
        line = line.left(TitleChars - 1).trimmed() + QChar(0x2026);
    return line;
}

bool sameTarget(const Llm::ProviderProfile &a, const Llm::ProviderProfile &b)
{
    return a.id == b.id && a.endpoint() == b.endpoint() && a.model == b.model && a.format == b.format
        && a.encodeOptions == b.encodeOptions;
}

// Plain text that grows with its content and wraps anywhere (a pasted URL must not widen the
// transcript). Used for the user's messages.
class PlainTextView final : public FittedTextBrowser
{
public:
    explicit PlainTextView(const QString &text, QWidget *parent)
        : FittedTextBrowser(parent)
    {
        setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        setPlainText(text);
    }
};

QLabel *mutedLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    // A role, not a colour: it follows the palette, dark ones included.
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

class UserMessage final : public QFrame
{
public:
    UserMessage(const QString &text, QWidget *parent)
        : QFrame(parent)
        , m_view(new PlainTextView(text, this))
    {
        setAutoFillBackground(true);
        setBackgroundRole(QPalette::AlternateBase);
        m_view->setForegroundRole(QPalette::Text);
        m_view->setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Your message"));
        auto *layout = new QVBoxLayout(this);
        layout->addWidget(mutedLabel(QCoreApplication::translate("Gui::ChatDock", "You"), this));
        layout->addWidget(m_view);
    }
    QString text() const { return m_view->toPlainText(); }

private:
    PlainTextView *m_view;
};

} // namespace

// One answer in the transcript: who and how fast, the Markdown, and an error in plain words
// when it failed (the partial text stays above it).
class AnswerWidget final : public QFrame
{
public:
    explicit AnswerWidget(QWidget *parent)
        : QFrame(parent)
        , m_timing(mutedLabel({}, this))
        , m_view(new MarkdownView(this))
        , m_errorRow(new QWidget(this))
        , m_errorIcon(new QLabel(m_errorRow))
        , m_error(new QLabel(m_errorRow))
        , m_status(mutedLabel({}, this))
    {
        m_timing->setObjectName(QStringLiteral("chatTiming"));
        m_timing->setWordWrap(false);
        m_timing->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_error->setObjectName(QStringLiteral("chatError"));
        m_error->setWordWrap(true);
        m_error->setTextFormat(Qt::PlainText);
        m_error->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        m_error->setAccessibleName(QCoreApplication::translate("Gui::ChatDock", "Error"));
        m_status->setObjectName(QStringLiteral("chatStatus"));
        m_status->hide();

        auto *header = new QHBoxLayout;
        header->addWidget(mutedLabel(QCoreApplication::translate("Gui::ChatDock", "Assistant"), this), 1);
        header->addWidget(m_timing);
        auto *errorLayout = new QHBoxLayout(m_errorRow);
        errorLayout->setContentsMargins(0, 0, 0, 0);
        errorLayout->addWidget(m_errorIcon, 0, Qt::AlignTop);
        errorLayout->addWidget(m_error, 1);
        m_errorRow->hide();

        auto *layout = new QVBoxLayout(this);
        layout->addLayout(header);
        layout->addWidget(m_view);
        layout->addWidget(m_errorRow);
        layout->addWidget(m_status);
        applyErrorStyle();
    }

    MarkdownView *view() const { return m_view; }

    void setTiming(double firstTokenMs, bool prefetched)
    {
        QString text = QCoreApplication::translate("Gui::ChatDock", "First token after %1 ms")
                           .arg(QLocale().toString(firstTokenMs, 'f', 0));
        if (prefetched) {
            text = QCoreApplication::translate("Gui::ChatDock", "%1 · prefetched").arg(text);
            m_timing->setToolTip(QCoreApplication::translate(
                "Gui::ChatDock", "This answer was started while you paused typing, before you pressed Enter."));
        }
        m_timing->setText(text);
    }
    void setStatus(const QString &text)
    {
        m_status->setText(text);
        m_status->setVisible(!text.isEmpty());
    }
    void setError(const QString &message)
    {
        m_error->setText(message);
        m_errorRow->setVisible(!message.isEmpty());
    }
    QString errorText() const { return m_errorRow->isVisible() ? m_error->text() : QString(); }
    QString text() const { return m_view->plainText(); }

protected:
    void changeEvent(QEvent *event) override
    {
        QFrame::changeEvent(event);
        if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
            applyErrorStyle();
    }

private:
    void applyErrorStyle()
    {
        QPalette p = m_error->palette();
        p.setColor(QPalette::WindowText, errorColor(palette()));
        m_error->setPalette(p);
        m_error->setForegroundRole(QPalette::WindowText); // not the Text role a Base background implies
        const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
        m_errorIcon->setPixmap(
            style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(QSize(size, size), devicePixelRatioF()));
    }

    QLabel *m_timing;
    MarkdownView *m_view;
    QWidget *m_errorRow;
    QLabel *m_errorIcon;
    QLabel *m_error;
    QLabel *m_status;
};

struct ChatDock::Exchange {
    QPointer<Prefetch::ResponseStream> stream;
    qint64 conversationId = 0;
    qint64 answerId = -1; // -1: the store refused it; the answer is shown, not kept
    qint64 activatedNs = 0;
    QPointer<AnswerWidget> widget; // null while another conversation is shown
    double firstShownMs = -1;
    qsizetype savedLength = 0; // text and reasoning length at the last checkpoint
};

// --- ChatInput ---------------------------------------------------------------------------------

ChatInput::ChatInput(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setTabChangesFocus(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            [this] { updateGeometry(); });
}

int ChatInput::heightForLines(int lines) const
{
    const QMargins m = contentsMargins();
    return fontMetrics().lineSpacing() * lines + qCeil(2 * document()->documentMargin()) + m.top() + m.bottom();
}

QSize ChatInput::sizeHint() const
{
    // QPlainTextEdit's document counts lines (wrapped ones included) in its height.
    const int lines = qBound(InputMinLines, int(document()->documentLayout()->documentSize().height()), InputMaxLines);
    return {QPlainTextEdit::sizeHint().width(), heightForLines(lines)};
}

QSize ChatInput::minimumSizeHint() const
{
    return {QPlainTextEdit::minimumSizeHint().width(), heightForLines(InputMinLines)};
}

void ChatInput::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && !isReadOnly()) {
        const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
        if (mods == Qt::NoModifier || mods == Qt::ControlModifier) {
            // The moment of the key press is what perceived latency is measured from.
            emit sendRequested(Llm::monotonicNowNs());
            event->accept();
            return;
        }
        if (mods == Qt::ShiftModifier) {
            // A paragraph break, not QPlainTextEdit's line separator (U+2028), so the text
            // reads back with an ordinary '\n'.
            textCursor().insertText(QStringLiteral("\n"));
            ensureCursorVisible();
            event->accept();
            return;
        }
    }
    QPlainTextEdit::keyPressEvent(event);
}

void ChatInput::focusInEvent(QFocusEvent *event)
{
    QPlainTextEdit::focusInEvent(event);
    emit focusEntered();
}

// --- ChatDock: construction ----------------------------------------------------------------------

ChatDock::ChatDock(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
                   QWidget *parent)
    : QDockWidget(tr("Chat"), parent)
    , m_engine(engine)
    , m_debounce(debounce)
    , m_store(store)
{
    setObjectName(QStringLiteral("chatDock"));
    createActions();

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(createConversationPanel());
    splitter->addWidget(createChatPanel());
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    setWidget(splitter);

    // Keyboard order follows the layout: find a conversation, pick it, manage it, then the
    // chat from its mode to the answer and the input.
    const QList<QWidget *> order = {m_search, m_list, m_modeBox, m_transcriptArea, m_input, m_sendButton, m_stopButton};
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));

    m_searchTimer.setSingleShot(true);
    m_searchTimer.setInterval(SearchDelayMs);
    connect(&m_searchTimer, &QTimer::timeout, this, &ChatDock::reloadList);
    m_documentTimer.setSingleShot(true);
    m_documentTimer.setInterval(DocumentSettleMs);
    connect(&m_documentTimer, &QTimer::timeout, this, [this] {
        if (m_mode == ConversationMode::Document)
            ensurePrompt(DocumentCheck::Compare);
    });
    m_checkpointTimer.setInterval(CheckpointIntervalMs);
    connect(&m_checkpointTimer, &QTimer::timeout, this, &ChatDock::saveProgress);
    // The dock may outlive the event loop by a little at exit; store what arrived while the
    // store certainly still exists.
    connect(qApp, &QCoreApplication::aboutToQuit, this, &ChatDock::saveProgress);

    if (m_store) {
        connect(m_store, &ConversationStore::errorOccurred, this, &ChatDock::showBanner);
        if (!m_store->recoveryMessage().isEmpty())
            showBanner(m_store->recoveryMessage());
    }
    if (m_debounce) {
        connect(m_debounce, &Prefetch::DebounceStrategy::prefetchStarted, this, [this](const QString &draft) {
            if (draft == m_input->toPlainText())
                setStatus(tr("Preparing an answer to this message while you pause…"));
        });
    }

    reloadList();
    if (m_list->count() > 0)
        openConversation(m_list->item(0)->data(Qt::UserRole).toLongLong());
    else
        rebuildTranscript();
    updateProviderNotice();
    updateButtons();
}

ChatDock::~ChatDock()
{
    if (m_exchange && m_exchange->stream)
        disconnect(m_exchange->stream, nullptr, this, nullptr);
    saveProgress(); // the stream (a child) is cancelled after this, when it is destroyed
    // Nobody is left to send what a prefetch would answer.
    if (m_debounce)
        m_debounce->setBuilder({});
}

void ChatDock::createActions()
{
    m_newAction = new QAction(tr("&New Conversation"), this);
    m_newAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_newAction->setShortcutContext(Qt::WindowShortcut);
    m_newAction->setToolTip(tr("Start a new conversation (%1)")
                                .arg(m_newAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_newAction, &QAction::triggered, this, &ChatDock::newConversation);
    addAction(m_newAction);

    // Rename and Delete act on the list: F2 or Del typed in the editor must stay the editor's.
    m_renameAction = new QAction(tr("&Rename"), this);
    m_renameAction->setShortcut(QKeySequence(Qt::Key_F2));
    m_renameAction->setShortcutContext(Qt::WidgetShortcut);
    m_renameAction->setToolTip(tr("Rename the conversation (F2)"));
    connect(m_renameAction, &QAction::triggered, this, &ChatDock::renameCurrent);

    m_deleteAction = new QAction(tr("&Delete"), this);
    m_deleteAction->setShortcut(QKeySequence(QKeySequence::Delete));
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    m_deleteAction->setToolTip(tr("Delete the conversation (Del)"));
    connect(m_deleteAction, &QAction::triggered, this, &ChatDock::confirmDelete);
}

QWidget *ChatDock::createConversationPanel()
{
    auto *panel = new QWidget(this);
    m_search = new QLineEdit(panel);
    m_search->setPlaceholderText(tr("Search conversations"));
    m_search->setAccessibleName(tr("Search conversations"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchTimer.start(); });

    m_list = new QListWidget(panel);
    m_list->setAccessibleName(tr("Conversations"));
    m_list->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_list->setUniformItemSizes(true);
    m_list->addAction(m_renameAction);
    m_list->addAction(m_deleteAction);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_list, &QListWidget::currentItemChanged, this, &ChatDock::onCurrentItemChanged);
    connect(m_list, &QListWidget::itemChanged, this, &ChatDock::onItemEdited);

    auto *buttons = new QHBoxLayout;
    for (QAction *action : {m_newAction, m_renameAction, m_deleteAction}) {
        auto *button = new QToolButton(panel);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        // The list's own keys (F2, Del) already reach these; the buttons are for the mouse.
        button->setFocusPolicy(Qt::NoFocus);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_search);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    return panel;
}

QWidget *ChatDock::createChatPanel()
{
    auto *panel = new QWidget(this);

    auto *banner = new QFrame(panel);
    banner->setFrameShape(QFrame::StyledPanel);
    m_banner = banner;
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextFormat(Qt::PlainText);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bannerText->setAccessibleName(tr("Notice"));
    auto *dismiss = new QToolButton(m_banner);
    dismiss->setText(tr("Dismiss"));
    dismiss->setAutoRaise(true);
    connect(dismiss, &QToolButton::clicked, m_banner, &QWidget::hide);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(dismiss, 0, Qt::AlignTop);
    m_banner->hide();

    m_modeBox = new QComboBox(panel);
    m_modeBox->addItem(tr("About the current document"), int(ConversationMode::Document));
    m_modeBox->addItem(tr("Free chat"), int(ConversationMode::FreeChat));
    m_modeBox->setAccessibleName(tr("Conversation mode"));
    m_modeBox->setToolTip(tr("Whether the open document goes with your messages"));
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_mode)));
    connect(m_modeBox, &QComboBox::activated, this, [this](int index) {
        setMode(ConversationMode(m_modeBox->itemData(index).toInt()));
    });
    m_contextLabel = mutedLabel({}, panel);

    m_demoNotice = mutedLabel(tr("Answers come from the local demo engine, not a language model."), panel);
    m_demoNotice->setAccessibleName(tr("Provider notice"));

    m_transcriptArea = new QScrollArea(panel);
    m_transcriptArea->setWidgetResizable(true);
    m_transcriptArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_transcriptArea->setBackgroundRole(QPalette::Base);
    m_transcriptArea->setAccessibleName(tr("Transcript"));
    m_transcriptArea->setFocusPolicy(Qt::StrongFocus); // arrow keys and Page Up/Down scroll it
    QScrollBar *bar = m_transcriptArea->verticalScrollBar();
    // Follow a streaming answer while the view is at the bottom; stay put once the user scrolls up.
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_stickToBottom)
            bar->setValue(max);
    });
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        m_stickToBottom = value >= bar->maximum() - fontMetrics().lineSpacing();
    });

    m_input = new ChatInput(panel);
    m_input->setAccessibleName(tr("Message"));
    m_input->setPlaceholderText(tr("Message (Enter sends, Shift+Enter adds a line)"));
    connect(m_input, &QPlainTextEdit::textChanged, this, &ChatDock::onInputChanged);
    connect(m_input, &ChatInput::sendRequested, this, &ChatDock::sendMessage);
    connect(m_input, &ChatInput::focusEntered, this, [this] { ensurePrompt(DocumentCheck::Compare); });

    m_status = mutedLabel({}, panel);
    m_status->setAccessibleName(tr("Chat status"));
    m_sendButton = new QPushButton(tr("Send"), panel);
    m_sendButton->setToolTip(tr("Send the message (Enter)"));
    m_sendButton->setAccessibleName(tr("Send message"));
    connect(m_sendButton, &QPushButton::clicked, this, [this] { sendMessage(Llm::monotonicNowNs()); });
    m_stopButton = new QPushButton(tr("Stop"), panel);
    m_stopButton->setToolTip(tr("Stop the answer (Esc)"));
    m_stopButton->setAccessibleName(tr("Stop the answer"));
    connect(m_stopButton, &QPushButton::clicked, this, &ChatDock::stop);

    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(m_modeBox);
    modeRow->addWidget(m_contextLabel, 1);
    auto *sendRow = new QHBoxLayout;
    sendRow->addWidget(m_status, 1);
    sendRow->addWidget(m_stopButton);
    sendRow->addWidget(m_sendButton);

    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addLayout(modeRow);
    layout->addWidget(m_demoNotice);
    layout->addWidget(m_transcriptArea, 1);
    layout->addWidget(m_input);
    layout->addLayout(sendRow);
    return panel;
}

// --- document, provider --------------------------------------------------------------------------

void ChatDock::setDocumentProvider(std::function<QString()> provider)
{
    m_documentProvider = std::move(provider);
    if (!m_conversationId && m_messages.isEmpty()) {
        // A chat not started yet follows what is open: about the document when there is one.
        m_mode = defaultMode();
        m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_mode)));
    }
    m_promptDirty = true;
    ensurePrompt(DocumentCheck::Compare);
}

void ChatDock::setDocumentPath(const QString &path)
{
    m_documentPath = path;
}

void ChatDock::documentChanged()
{
    m_documentTimer.start();
}

void ChatDock::profileChanged()
{
    updateProviderNotice();
    ensurePrompt(DocumentCheck::Skip);
}

void ChatDock::updateProviderNotice()
{
    m_demoNotice->setVisible(m_engine && m_engine->profile().isLocalDemo);
}

void ChatDock::updateContextLabel(bool withDocument, const QString &document)
{
    if (m_mode != ConversationMode::Document)
        m_contextLabel->clear();
    else if (!withDocument)
        m_contextLabel->setText(tr("No document is open: messages go without one."));
    else
        m_contextLabel->setText(tr("The open document (about %1 tokens) goes with each message.")
                                    .arg(QLocale().toString(Prefetch::estimateTokens(document))));
}

ConversationMode ChatDock::defaultMode() const
{
    const bool hasDocument = m_documentProvider && !m_documentProvider().trimmed().isEmpty();
    return hasDocument ? ConversationMode::Document : ConversationMode::FreeChat;
}

// --- prompt and builder --------------------------------------------------------------------------

bool ChatDock::compiledFor(const Llm::ProviderProfile &profile, bool withDocument, const QString *document) const
{
    return m_compiledValid && sameTarget(m_compiledProfile, profile) && m_compiledWithDocument == withDocument
        && (!withDocument || !document || *document == m_compiledDocument);
}

// Brings the debounce strategy's builder up to date. False while a large document is compiling
// in the background (no builder then; the compile's end installs it and sends what waits).
bool ChatDock::ensurePrompt(DocumentCheck check)
{
    if (!m_engine || !m_debounce)
        return false;
    updateProviderNotice();
    if (m_exchange) {
        uninstallBuilder(); // the next message's history needs this answer
        return true;
    }
    const Llm::ProviderProfile &profile = m_engine->profile();
    const bool wantDocument = m_mode == ConversationMode::Document;

    if (check == DocumentCheck::Skip) {
        // Typing: no document read per key. The provider is compared (cheap); a document change
        // is caught by documentChanged(), the focus check and the check at send.
        if (m_compiling)
            return false;
        // In document mode with no document open this reads the (empty) document each time.
        if (!m_compiledValid || !sameTarget(m_compiledProfile, profile) || m_compiledWithDocument != wantDocument)
            return ensurePrompt(DocumentCheck::Compare);
    } else {
        QString document;
        if (wantDocument && m_documentProvider)
            document = m_documentProvider();
        const bool withDocument = wantDocument && !document.trimmed().isEmpty();
        updateContextLabel(withDocument, document);
        if (!compiledFor(profile, withDocument, &document)) {
            if (withDocument && document.size() >= AsyncCompileChars) {
                if (!m_compiling || document != m_compiledDocument)
                    startCompile(document, profile);
                return false;
            }
            compileNow(withDocument, document, profile); // also drops a compile still in the pool
        }
    }
    if (m_promptDirty || !m_builderInstalled)
        installBuilder();
    return true;
}

void ChatDock::compileNow(bool withDocument, const QString &document, const Llm::ProviderProfile &profile)
{
    ++m_compileGeneration;
    m_compiling = false;
    const Prefetch::TemplateValues values = withDocument ? Prefetch::documentValues(document) : Prefetch::TemplateValues{};
    setCompiled(Prefetch::chatTemplate(withDocument).compile(profile, values), withDocument, document, profile);
}

void ChatDock::startCompile(const QString &document, const Llm::ProviderProfile &profile)
{
    uninstallBuilder(); // no prefetch may use the previous document meanwhile
    const quint64 generation = ++m_compileGeneration;
    m_compiling = true;
    m_compiledValid = false;
    m_compiledDocument = document; // what is compiling; compared to skip a duplicate start
    log().debug("chat: compiling a {}-character document in the thread pool", document.size());
    // The worker gets copies (implicitly shared, so no copy of the text) and touches no widget.
    QtConcurrent::run([profile, document] {
        return Prefetch::chatTemplate(true).compile(profile, Prefetch::documentValues(document));
    }).then(this, [this, generation, document, profile](std::expected<Prefetch::CompiledPrompt, Llm::Error> result) {
        if (generation != m_compileGeneration)
            return; // superseded by another document, mode or provider
        m_compiling = false;
        setCompiled(std::move(result), true, document, profile);
        if (m_exchange)
            return;
        installBuilder();
        if (m_pendingSend)
            dispatchPending();
    });
}

void ChatDock::setCompiled(std::expected<Prefetch::CompiledPrompt, Llm::Error> result, bool withDocument,
                           const QString &document, const Llm::ProviderProfile &profile)
{
    if (result) {
        m_compiled = *result;
        m_compileError.reset();
    } else {
        // Not renderable (no model configured, a format that refuses the request): the builder
        // falls back to an unencoded request, and the provider path reports the problem.
        m_compiled = Prefetch::CompiledPrompt();
        m_compileError = result.error();
        log().warn("chat: prompt not compiled ({})", result.error().codeName());
    }
    m_compiledProfile = profile;
    m_compiledWithDocument = withDocument;
    m_compiledDocument = withDocument ? document : QString();
    m_compiledValid = true;
    m_promptDirty = true;
}

QList<Llm::ChatMessage> ChatDock::history() const
{
    // Question and answer pairs; a question whose answer has no text (failed before the first
    // token) is left out, so the model never sees a question twice in a row.
    QList<Llm::ChatMessage> turns;
    for (qsizetype i = 0; i + 1 < m_messages.size(); ++i) {
        const StoredMessage &question = m_messages.at(i);
        const StoredMessage &answer = m_messages.at(i + 1);
        if (question.role != Llm::Role::User || answer.role != Llm::Role::Assistant)
            continue;
        ++i;
        if (answer.content.isEmpty())
            continue;
        turns.append({Llm::Role::User, question.content});
        turns.append({Llm::Role::Assistant, answer.content});
    }
    qint64 tokens = 0;
    qsizetype first = turns.size();
    while (first >= 2 && turns.size() - first + 2 <= MaxHistoryMessages) {
        const qint64 pair = Prefetch::estimateTokens(turns.at(first - 2).content)
            + Prefetch::estimateTokens(turns.at(first - 1).content);
        if (tokens + pair > MaxHistoryTokens)
            break;
        tokens += pair;
        first -= 2;
    }
    return turns.mid(first);
}

void ChatDock::installBuilder()
{
    if (!m_debounce || !m_engine)
        return;
    // Values only, no `this`: the strategy may call it after the dock is gone.
    const Prefetch::CompiledPrompt compiled = m_compiled;
    const QList<Llm::ChatMessage> turns = history();
    const bool withDocument = m_compiledWithDocument;
    const Prefetch::TemplateValues staticValues =
        withDocument ? Prefetch::documentValues(m_compiledDocument) : Prefetch::TemplateValues{};
    const QString model = m_compiledProfile.model;
    m_debounce->setBuilder([compiled, turns, withDocument, staticValues, model](const QString &text) {
        const Prefetch::TemplateValues values{{QStringLiteral("message"), text}};
        if (!compiled.isNull()) {
            if (auto rendered = compiled.render(values, {}, turns))
                return *rendered;
        }
        Prefetch::RenderedRequest fallback;
        auto request = Prefetch::chatTemplate(withDocument).request(model, staticValues, values, {}, turns);
        if (request) {
            fallback.request = *request;
        } else {
            fallback.request.model = model;
            fallback.request.messages = turns;
            fallback.request.messages.append({Llm::Role::User, text});
        }
        return fallback;
    });
    m_builderInstalled = true;
    m_promptDirty = false;
    // A draft typed while there was no builder gets its pause (and its prefetch) now.
    if (!m_pendingSend && !m_input->toPlainText().isEmpty())
        m_debounce->textChanged(m_input->toPlainText());
}

void ChatDock::uninstallBuilder()
{
    if (m_builderInstalled && m_debounce)
        m_debounce->setBuilder({});
    m_builderInstalled = false;
}

// --- sending -------------------------------------------------------------------------------------

void ChatDock::sendMessage(qint64 activatedNs)
{
    const QString text = m_input->toPlainText();
    if (text.trimmed().isEmpty() || m_pendingSend)
        return;
    if (m_exchange) {
        setStatus(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
        return;
    }
    if (!m_engine || !m_debounce) {
        setStatus(tr("Chat is not available: no provider is set up."));
        return;
    }
    m_pendingSend = PendingSend{text, activatedNs};
    if (!ensurePrompt(DocumentCheck::Compare)) {
        // The document is compiling in the background; the message goes as soon as it is done.
        m_input->setReadOnly(true);
        setStatus(tr("Preparing the document…"));
        updateButtons();
        return;
    }
    dispatchPending();
}

void ChatDock::dispatchPending()
{
    const PendingSend pending = *std::exchange(m_pendingSend, std::nullopt);
    m_input->setReadOnly(false);

    // First the request (a prefetch of this very draft is taken over), then the bookkeeping.
    Prefetch::ResponseStream *stream = m_debounce->send(pending.text, pending.activatedNs, this);
    m_exchange = std::make_unique<Exchange>();
    m_exchange->stream = stream;
    m_exchange->activatedNs = pending.activatedNs;
    connect(stream, &Prefetch::ResponseStream::eventReceived, this, &ChatDock::onStreamEvent);
    connect(stream, &Prefetch::ResponseStream::finished, this, &ChatDock::onStreamFinished);
    connect(stream, &Prefetch::ResponseStream::failed, this, &ChatDock::onStreamFailed);
    uninstallBuilder();

    if (ensureConversation(pending.text) && m_store) {
        StoredMessage question;
        question.conversationId = m_conversationId;
        question.role = Llm::Role::User;
        question.content = pending.text;
        if (auto id = m_store->appendMessage(m_conversationId, Llm::Role::User, pending.text))
            question.id = *id;
        StoredMessage answer;
        answer.conversationId = m_conversationId;
        answer.role = Llm::Role::Assistant;
        answer.state = MessageState::Partial; // until it ends: what a crash leaves is partial
        if (auto id = m_store->appendMessage(m_conversationId, Llm::Role::Assistant, {}, {}, MessageState::Partial))
            answer.id = m_exchange->answerId = *id;
        m_messages.append(question);
        m_messages.append(answer);
    } else {
        m_messages.append({0, 0, Llm::Role::User, pending.text, {}, MessageState::Complete, {}, {}});
        m_messages.append({0, 0, Llm::Role::Assistant, {}, {}, MessageState::Partial, {}, {}});
    }
    m_exchange->conversationId = m_conversationId;

    if (m_messages.size() == 2)
        rebuildTranscript(); // replaces the empty-chat hint
    else
        addUserMessage(pending.text);
    if (!m_exchange->widget)
        attachLiveAnswer(addAnswer());
    m_stickToBottom = true;

    m_input->clear();
    m_checkpointTimer.start();
    setStatus(stream->isPrefetched() ? tr("Answer prefetched while you paused.") : QString());
    updateButtons();
    reloadList();
    emit answerStarted(stream);
}

void ChatDock::attachLiveAnswer(AnswerWidget *widget)
{
    m_exchange->widget = widget;
    Prefetch::ResponseStream *stream = m_exchange->stream;
    if (!stream)
        return;
    // Whatever arrived while another conversation was shown.
    widget->view()->appendReasoning(stream->reasoning());
    widget->view()->appendText(stream->text());
    if (m_exchange->firstShownMs >= 0)
        widget->setTiming(m_exchange->firstShownMs, stream->isPrefetched());
}

void ChatDock::onStreamEvent(const Llm::StreamEvent &event)
{
    if (!m_exchange || event.choice != 0 || event.text.isEmpty())
        return;
    AnswerWidget *widget = m_exchange->widget;
    switch (event.type) {
    case Llm::StreamEvent::Type::TextDelta:
    case Llm::StreamEvent::Type::RefusalDelta:
        if (widget)
            widget->view()->appendText(event.text);
        break;
    case Llm::StreamEvent::Type::ReasoningDelta:
        if (widget)
            widget->view()->appendReasoning(event.text);
        break;
    default:
        return;
    }
    if (m_exchange->firstShownMs < 0) {
        // The view paints its first piece at once, so this is when the user sees it.
        m_exchange->firstShownMs = double(Llm::monotonicNowNs() - m_exchange->activatedNs) / 1e6;
        const bool prefetched = m_exchange->stream && m_exchange->stream->isPrefetched();
        if (widget)
            widget->setTiming(m_exchange->firstShownMs, prefetched);
        emit firstTokenShown(m_exchange->firstShownMs);
    }
}

void ChatDock::onStreamFinished()
{
    endExchange(MessageState::Complete, {}, false);
}

void ChatDock::onStreamFailed(const Llm::Error &error)
{
    if (error.code() == Llm::Error::Code::Cancelled)
        endExchange(MessageState::Partial, {}, true);
    else
        endExchange(MessageState::Failed, error.message(), false);
}

void ChatDock::endExchange(MessageState state, const QString &error, bool cancelled)
{
    if (!m_exchange)
        return;
    const std::unique_ptr<Exchange> exchange = std::move(m_exchange);
    m_checkpointTimer.stop();
    Prefetch::ResponseStream *stream = exchange->stream;
    const QString text = stream ? stream->text() : QString();
    const QString reasoning = stream ? stream->reasoning() : QString();
    if (stream) {
        disconnect(stream, nullptr, this, nullptr);
        stream->deleteLater();
    }
    if (m_store && exchange->answerId > 0)
        m_store->updateMessage(exchange->answerId, text, reasoning, state, error);
    if (exchange->conversationId == m_conversationId) {
        // The answer's row: by id, or (not stored) the last answer, which is the one streaming.
        for (qsizetype i = m_messages.size() - 1; i >= 0; --i) {
            StoredMessage &m = m_messages[i];
            if (m.role == Llm::Role::Assistant && (exchange->answerId <= 0 || m.id == exchange->answerId)) {
                m.content = text;
                m.reasoning = reasoning;
                m.state = state;
                m.error = error;
                break;
            }
        }
    }
    if (AnswerWidget *widget = exchange->widget) {
        widget->view()->finish();
        if (!error.isEmpty())
            widget->setError(error);
        else if (cancelled)
            widget->setStatus(tr("Stopped."));
    }
    if (!error.isEmpty())
        setStatus(tr("The answer failed; your message is kept. Send again to retry."));
    else if (cancelled)
        setStatus(tr("Stopped."));
    else
        setStatus({});
    m_promptDirty = true; // the history grew
    ensurePrompt(DocumentCheck::Skip);
    updateButtons();
    reloadList();
    emit answerEnded(state == MessageState::Complete);
}

void ChatDock::saveProgress()
{
    if (!m_exchange || !m_exchange->stream || !m_store || m_exchange->answerId <= 0)
        return;
    const Prefetch::ResponseStream *stream = m_exchange->stream;
    const qsizetype length = stream->text().size() + stream->reasoning().size();
    if (length == m_exchange->savedLength)
        return;
    if (m_store->updateMessage(m_exchange->answerId, stream->text(), stream->reasoning(), MessageState::Partial))
        m_exchange->savedLength = length;
}

void ChatDock::stop()
{
    if (m_pendingSend) {
        m_pendingSend.reset();
        m_input->setReadOnly(false);
        setStatus(tr("Not sent."));
    }
    if (m_exchange && m_exchange->stream)
        m_exchange->stream->cancel(); // ends through onStreamFailed(Cancelled)
    updateButtons();
}

bool ChatDock::isAnswering() const
{
    return m_exchange != nullptr;
}

Prefetch::ResponseStream *ChatDock::currentAnswer() const
{
    return m_exchange ? m_exchange->stream.data() : nullptr;
}

// --- conversations -------------------------------------------------------------------------------

bool ChatDock::ensureConversation(const QString &firstMessage)
{
    if (!m_store)
        return false;
    const QString title = titleFrom(firstMessage);
    if (m_conversationId == 0) {
        auto id = m_store->create(title.isEmpty() ? tr("New conversation") : title, m_documentPath, m_mode);
        if (!id)
            return false;
        m_conversationId = *id;
        m_title = title;
        emit conversationChanged(m_conversationId);
        return true;
    }
    // A conversation made with "New" is named after its first message.
    if (m_messages.isEmpty() && m_title == tr("New conversation") && !title.isEmpty() && m_store->rename(m_conversationId, title))
        m_title = title;
    return true;
}

void ChatDock::reloadList()
{
    if (!m_store)
        return;
    // A title editor is a child of the list's viewport (QAbstractItemView::state() is protected).
    if (QWidget *focus = QApplication::focusWidget(); focus && m_list->viewport()->isAncestorOf(focus)) {
        m_searchTimer.start(); // rebuilding now would throw away the title being typed
        return;
    }
    const auto list = m_store->conversations(m_search->text());
    if (!list) {
        showBanner(list.error());
        return;
    }
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const ConversationInfo &c : *list) {
        auto *item = new QListWidgetItem(c.title.isEmpty() ? tr("Untitled conversation") : c.title, m_list);
        item->setData(Qt::UserRole, c.id);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        QString tip = tr("%1 · %2 messages").arg(QLocale().toString(c.updated.toLocalTime(), QLocale::ShortFormat))
                          .arg(c.messageCount);
        if (c.mode == ConversationMode::Document)
            tip += u'\n' + (c.documentPath.isEmpty() ? tr("About a document") : tr("About %1").arg(c.documentPath));
        item->setToolTip(tip);
        if (c.id == m_conversationId)
            m_list->setCurrentItem(item);
    }
    updateButtons();
}

void ChatDock::onCurrentItemChanged(QListWidgetItem *current)
{
    if (current) {
        const qint64 id = current->data(Qt::UserRole).toLongLong();
        if (id != m_conversationId)
            openConversation(id);
    }
    updateButtons();
}

bool ChatDock::openConversation(qint64 id)
{
    if (!m_store)
        return false;
    const auto info = m_store->conversation(id);
    if (!info) {
        showBanner(info.error());
        reloadList();
        return false;
    }
    auto messages = m_store->messages(id);
    if (!messages) {
        showBanner(messages.error());
        return false;
    }
    if (m_exchange && m_exchange->widget && m_exchange->conversationId != id)
        m_exchange->widget = nullptr; // keeps streaming into the store; shown again on return
    m_conversationId = id;
    m_title = info->title;
    m_mode = info->mode;
    m_messages = std::move(*messages);
    m_showAll = false;
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_mode)));
    rebuildTranscript();
    {
        const QSignalBlocker blocker(m_list);
        for (int row = 0; row < m_list->count(); ++row) {
            if (m_list->item(row)->data(Qt::UserRole).toLongLong() == id)
                m_list->setCurrentRow(row);
        }
    }
    m_promptDirty = true;
    ensurePrompt(DocumentCheck::Compare);
    updateButtons();
    emit conversationChanged(id);
    return true;
}

void ChatDock::newConversation()
{
    show();
    raise();
    if (m_messages.isEmpty() && (m_conversationId == 0 || m_title == tr("New conversation"))) {
        m_input->setFocus(); // this one is still empty: use it
        return;
    }
    if (!m_store)
        return;
    const ConversationMode mode = defaultMode();
    const auto id = m_store->create(tr("New conversation"), m_documentPath, mode);
    if (!id)
        return; // the store reported it
    m_search->clear();
    m_searchTimer.stop();
    reloadList();
    openConversation(*id);
    m_input->setFocus();
}

void ChatDock::renameCurrent()
{
    if (QListWidgetItem *item = m_list->currentItem())
        m_list->editItem(item);
}

void ChatDock::onItemEdited(QListWidgetItem *item)
{
    if (!m_store)
        return;
    const qint64 id = item->data(Qt::UserRole).toLongLong();
    const QString title = item->text().simplified();
    const auto info = m_store->conversation(id);
    if (!info)
        return;
    if (title.isEmpty() || title == info->title) {
        const QSignalBlocker blocker(m_list);
        item->setText(info->title.isEmpty() ? tr("Untitled conversation") : info->title);
        return;
    }
    if (!m_store->rename(id, title))
        return;
    if (id == m_conversationId)
        m_title = title;
    const QSignalBlocker blocker(m_list);
    item->setText(title);
}

void ChatDock::confirmDelete()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    const qint64 id = item->data(Qt::UserRole).toLongLong();
    // Window-modal and asynchronous: no nested event loop while the stream keeps arriving.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete Conversation"),
                                tr("Delete “%1” and all its messages? This cannot be undone.").arg(item->text()),
                                QMessageBox::NoButton, this);
    QPushButton *remove = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, id] {
        if (box->clickedButton() == remove)
            removeConversation(id);
    });
    box->open();
}

void ChatDock::removeConversation(qint64 id)
{
    if (!m_store)
        return;
    if (m_exchange && m_exchange->conversationId == id) {
        // Its answer has nowhere to go: stop it without storing.
        if (m_exchange->stream) {
            disconnect(m_exchange->stream, nullptr, this, nullptr);
            m_exchange->stream->cancel();
            m_exchange->stream->deleteLater();
        }
        m_exchange.reset();
        m_checkpointTimer.stop();
        m_promptDirty = true;
    }
    if (!m_store->remove(id))
        return;
    if (id == m_conversationId) {
        m_conversationId = 0;
        m_title.clear();
        m_messages.clear();
        m_mode = defaultMode();
        m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_mode)));
    }
    reloadList();
    if (m_conversationId == 0 && m_list->count() > 0) {
        openConversation(m_list->item(0)->data(Qt::UserRole).toLongLong());
    } else if (m_conversationId == 0) {
        rebuildTranscript();
        m_promptDirty = true;
        ensurePrompt(DocumentCheck::Compare);
    }
    updateButtons();
}

void ChatDock::setMode(ConversationMode mode)
{
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(mode)));
    if (mode == m_mode)
        return;
    m_mode = mode;
    if (m_conversationId && m_store)
        m_store->setMode(m_conversationId, mode);
    m_promptDirty = true;
    ensurePrompt(DocumentCheck::Compare);
}

// --- transcript ----------------------------------------------------------------------------------

void ChatDock::rebuildTranscript()
{
    auto *content = new QWidget;
    content->setBackgroundRole(QPalette::Base);
    m_transcriptLayout = new QVBoxLayout(content);
    m_transcriptLayout->addStretch(1); // always last: messages go in before it
    m_transcriptArea->setWidget(content); // deletes the previous content

    if (m_exchange)
        m_exchange->widget = nullptr;
    if (m_messages.isEmpty()) {
        showEmptyHint();
        return;
    }
    qsizetype first = 0;
    if (!m_showAll && m_messages.size() > ShownMessages) {
        first = m_messages.size() - ShownMessages;
        if (m_messages.at(first).role == Llm::Role::Assistant)
            --first; // start at a question
        auto *earlier = new QPushButton(tr("Show %1 earlier messages").arg(first), content);
        connect(earlier, &QPushButton::clicked, this, [this] {
            m_showAll = true;
            rebuildTranscript();
            m_stickToBottom = false; // the user went looking upwards: stay at the top
        });
        m_transcriptLayout->insertWidget(m_transcriptLayout->count() - 1, earlier, 0, Qt::AlignHCenter);
    }
    for (qsizetype i = first; i < m_messages.size(); ++i) {
        const StoredMessage &m = m_messages.at(i);
        if (m.role == Llm::Role::User) {
            addUserMessage(m.content);
            continue;
        }
        AnswerWidget *answer = addAnswer();
        const bool live = m_exchange && m_exchange->conversationId == m_conversationId
            && (m.id == m_exchange->answerId || (m_exchange->answerId <= 0 && i == m_messages.size() - 1));
        if (live) {
            attachLiveAnswer(answer);
            continue;
        }
        answer->view()->setMarkdown(m.content);
        answer->view()->setReasoning(m.reasoning);
        if (m.state == MessageState::Failed)
            answer->setError(m.error);
        else if (m.state == MessageState::Partial)
            answer->setStatus(tr("Incomplete: the answer was stopped or interrupted."));
    }
    m_stickToBottom = true;
}

void ChatDock::showEmptyHint()
{
    auto *hint = mutedLabel(tr("Ask anything. In “About the current document” mode, the open document goes with "
                               "your message."),
                            m_transcriptArea->widget());
    hint->setAlignment(Qt::AlignCenter);
    m_transcriptLayout->insertWidget(m_transcriptLayout->count() - 1, hint);
}

void ChatDock::addUserMessage(const QString &text)
{
    auto *message = new UserMessage(text, m_transcriptArea->widget());
    m_transcriptLayout->insertWidget(m_transcriptLayout->count() - 1, message); // before the stretch
}

AnswerWidget *ChatDock::addAnswer()
{
    auto *answer = new AnswerWidget(m_transcriptArea->widget());
    m_transcriptLayout->insertWidget(m_transcriptLayout->count() - 1, answer); // before the stretch
    return answer;
}

QString ChatDock::transcriptText() const
{
    QStringList parts;
    if (!m_transcriptArea->widget())
        return {};
    for (int i = 0; i < m_transcriptLayout->count(); ++i) {
        QWidget *w = m_transcriptLayout->itemAt(i)->widget();
        if (auto *user = dynamic_cast<UserMessage *>(w)) {
            parts << user->text();
        } else if (auto *answer = dynamic_cast<AnswerWidget *>(w)) {
            QString text = answer->text();
            if (!answer->errorText().isEmpty())
                text += u'\n' + answer->errorText();
            parts << text;
        }
    }
    return parts.join(QStringLiteral("\n\n"));
}

// --- feedback ------------------------------------------------------------------------------------

void ChatDock::onInputChanged()
{
    if (m_pendingSend || !m_debounce)
        return;
    const QString draft = m_input->toPlainText();
    ensurePrompt(DocumentCheck::Skip);
    m_debounce->textChanged(draft);
    if (!m_debounce->isPrefetching() && !m_exchange)
        setStatus({});
    updateButtons();
}

void ChatDock::updateButtons()
{
    const bool hasText = !m_input->toPlainText().trimmed().isEmpty();
    m_sendButton->setEnabled(hasText && !m_exchange && !m_pendingSend && m_engine && m_debounce);
    m_stopButton->setEnabled(m_exchange || m_pendingSend);
    const bool hasCurrent = m_list->currentItem() != nullptr;
    m_renameAction->setEnabled(hasCurrent);
    m_deleteAction->setEnabled(hasCurrent);
}

void ChatDock::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString ChatDock::statusText() const
{
    return m_status->text();
}

void ChatDock::showBanner(const QString &text)
{
    m_bannerText->setText(text);
    m_banner->show();
}

} // namespace Gui
