#include "gui/chat/chatdock.h"

#include "gui/answer/markdownview.h"
#include "gui/chat/attachmentchips.h"
#include "gui/chat/chatcontextline.h"
#include "gui/chat/chatdockactions.h"
#include "gui/chat/chatdockattachments.h"
#include "gui/chat/chatdocktranscript.h"
#include "gui/chat/chatlistfold.h"
#include "gui/chat/chattranscript.h"
#include "gui/chat/conversationlist.h"
#include "gui/chat/followupchips.h"
#include "gui/widgets/elidedlabel.h"
#include "gui/widgets/flowlayout.h"
#include "gui/widgets/themeicon.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"

#include "llm/clock.h"
#include "prefetch/engine.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/stream/answerreader.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace Gui {

ChatDock::ChatDock(Prefetch::Engine *engine, Prefetch::DebounceStrategy *debounce, ConversationStore *store,
                   QWidget *parent)
    : QDockWidget(tr("Chat"), parent)
    , m_session(new ChatSession(engine, debounce, store, AssistantMemory::inSettings(), this))
{
    setObjectName(QStringLiteral("chatDock"));
    m_list = new ConversationListPanel(store, this);
    addAction(m_list->newAction()); // its shortcut works anywhere in the window
    m_noticeExpiry = new QTimer(this);
    m_noticeExpiry->setSingleShot(true);
    m_noticeExpiry->setInterval(NoticeLifetime);
    connect(m_noticeExpiry, &QTimer::timeout, this, [this] { setStatus({}); });
    m_actions = new ChatDockActions(
        this, [this](const QString &text) { showNotice(text); }, [this] { updateButtons(); });

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_list);
    QWidget *panel = createChatPanel();
    splitter->addWidget(panel);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    setWidget(splitter);
    // The list's place: the user's choice once made, else as the dock's height allows.
    new ChatListFold({this, splitter, m_list, panel, m_transcript, m_input, m_followUps, m_list->searchField(),
                      m_listToggle},
                     this);
    m_live = std::make_unique<ChatDockTranscript>(m_session, m_transcript, [this] { setStatus({}); });

    // Keyboard order follows the layout: find a conversation, pick it, then the chat from its
    // mode to the answer and the input.
    const QList<QWidget *> order = {m_list->searchField(), m_list->list(), m_listToggle,
                                    m_modeBox,             m_assistantBox, m_transcript,
                                    m_input,               m_attachments->attachButton(), m_sendButton,
                                    m_stopButton};
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));

    connect(m_list, &ConversationListPanel::conversationSelected, this, &ChatDock::openConversation);
    connect(m_list, &ConversationListPanel::newRequested, this, &ChatDock::newConversation);
    connect(m_list, &ConversationListPanel::removeRequested, m_session, &ChatSession::removeConversation);
    connect(m_list, &ConversationListPanel::renamed, m_session, &ChatSession::conversationRenamed);
    connect(m_list, &ConversationListPanel::errorOccurred, this, &ChatDock::showBanner);

    connect(m_session, &ChatSession::conversationOpened, this, &ChatDock::onConversationOpened);
    connect(m_session, &ChatSession::listChanged, this, [this] { m_list->reload(m_session->conversationId()); });
    // Another window's chat dock writes to the same store: the list follows it, once per turn of
    // the event loop however many writes there were.
    connect(store, &ConversationStore::conversationsChanged, this, [this] {
        if (std::exchange(m_listReloadQueued, true))
            return;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_listReloadQueued = false;
                m_list->reload(m_session->conversationId());
            },
            Qt::QueuedConnection);
    });
    connect(m_session, &ChatSession::modeChanged, this, [this](ConversationMode mode) {
        m_modeBox->setCurrentIndex(m_modeBox->findData(int(mode)));
        updateContextLabel();
    });
    connect(m_session, &ChatSession::contextChanged, this, &ChatDock::updateContextLabel);
    // The provider refused a prompt as too long: the document may be over its limit.
    if (engine)
        connect(engine, &Prefetch::Engine::promptTooLong, this, &ChatDock::updateContextLabel);
    connect(m_session, &ChatSession::assistantChanged, this, &ChatDock::updateAssistantBox);
    connect(m_session, &ChatSession::exchangeStarted, this, &ChatDock::onExchangeStarted);
    connect(m_session, &ChatSession::exchangeEnded, this, &ChatDock::onExchangeEnded);
    connect(m_session, &ChatSession::acknowledged, this, [this] { m_live->showAcknowledgement(); });
    connect(m_session, &ChatSession::preparingChanged, this, [this](bool preparing) {
        m_input->setReadOnly(preparing);
        if (preparing)
            setStatus(tr("Preparing the document…"));
        updateButtons();
    });
    connect(m_session, &ChatSession::errorOccurred, this, &ChatDock::showBanner);
    connect(m_session, &ChatSession::messagesChanged, this, [this] {
        m_live->rebuild();
        updateButtons();
    });
    connect(m_session, &ChatSession::editChanged, m_actions, &ChatDockActions::onEditChanged);
    connect(m_session, &ChatSession::followUpsChanged, this, &ChatDock::updateFollowUps);
    connect(m_transcript, &ChatTranscript::actionRequested, m_actions, &ChatDockActions::onMessageAction);

    // After the live answer's widget has been told (ChatDockTranscript connects first).
    connect(&m_live->follower(), &StreamFollower::firstPainted, this,
            [this](double perceivedMs) { emit firstTokenShown(perceivedMs); });
    // Stop stays enabled through the wait: the answer is still being asked for.
    connect(&m_live->follower(), &StreamFollower::retrying, this, [this](const QString &status) { setStatus(status); });
    // The dock may outlive the event loop by a little at exit; store what arrived while the
    // store certainly still exists.
    connect(qApp, &QCoreApplication::aboutToQuit, this, &ChatDock::saveProgress);

    if (store && !store->recoveryMessage().isEmpty())
        showBanner(store->recoveryMessage());
    if (debounce) {
        connect(debounce, &Prefetch::DebounceStrategy::prefetchStarted, this, [this](const QString &draft) {
            if (draft == m_input->toPlainText())
                setStatus(tr("Preparing an answer to this message while you pause…"));
        });
    }

    m_list->reload(0);
    if (m_list->list()->count() > 0)
        openConversation(m_list->list()->item(0)->data(Qt::UserRole).toLongLong());
    else
        m_live->rebuild();
    updateProviderNotice();
    updateButtons();
}

ChatDock::~ChatDock() = default; // m_live lets go of the answer it follows

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

    m_listToggle = new QToolButton(panel);
    m_listToggle->setObjectName(QStringLiteral("conversationListToggle"));
    m_listToggle->setText(tr("Conversations"));
    m_listToggle->setAccessibleName(tr("Conversations"));
    m_listToggle->setToolTip(tr("Show or hide the list of conversations, with its search"));
    // An icon where there is one (the style has a list's): the header keeps its room.
    m_listToggle->setIcon(themeIcon("view-list-details", QStyle::SP_FileDialogListView));
    m_listToggle->setToolButtonStyle(m_listToggle->icon().isNull() ? Qt::ToolButtonTextOnly : Qt::ToolButtonIconOnly);
    m_listToggle->setCheckable(true); // ChatListFold follows it
    m_listToggle->setAutoRaise(true);
    m_modeBox = new QComboBox(panel);
    m_modeBox->addItem(tr("About the current document"), int(ConversationMode::Document));
    m_modeBox->addItem(tr("Free chat"), int(ConversationMode::FreeChat));
    m_modeBox->setAccessibleName(tr("Conversation mode"));
    m_modeBox->setToolTip(tr("Whether the open document goes with your messages"));
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_session->mode())));
    connect(m_modeBox, &QComboBox::activated, this,
            [this](int index) { setMode(ConversationMode(m_modeBox->itemData(index).toInt())); });
    m_assistantBox = new QComboBox(panel);
    m_assistantBox->setObjectName(QStringLiteral("assistant"));
    m_assistantBox->setAccessibleName(tr("Assistant"));
    m_assistantBox->setToolTip(tr("Instructions and settings that go with every message of this conversation "
                                  "(edit them in Settings, Assistants)"));
    m_assistantBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *assistantLabel = new QLabel(tr("A&ssistant:"), panel);
    assistantLabel->setBuddy(m_assistantBox);
    updateAssistantBox();
    connect(m_assistantBox, &QComboBox::activated, this,
            [this](int index) { m_session->setAssistant(m_assistantBox->itemData(index).toString()); });
    m_contextLabel = new ChatContextLine(panel);
    connect(m_contextLabel, &QLabel::linkActivated, this,
            [this] { emit openDocumentRequested(m_session->conversationDocument()); });

    m_demoNotice = new ElidedLabel(panel);
    m_demoNotice->setText(tr("Answers come from the local demo engine, not a language model."));
    m_demoNotice->setForegroundRole(QPalette::PlaceholderText);
    m_demoNotice->setAccessibleName(tr("Provider notice"));

    m_transcript = new ChatTranscript(panel);
    connect(m_transcript, &ChatTranscript::earlierRequested, this, [this] { m_live->rebuild(); });
    connect(m_transcript, &ChatTranscript::passageRequested, this, &ChatDock::passageRequested);

    QWidget *editNotice = m_actions->createEditNotice(panel);

    m_input = new ChatInput(panel);
    m_input->setAccessibleName(tr("Message"));
    m_input->setPlaceholderText(tr("Message (Enter sends, Shift+Enter adds a line)"));
    connect(m_input, &QPlainTextEdit::textChanged, this, &ChatDock::onInputChanged);
    connect(m_input, &ChatInput::sendRequested, this, &ChatDock::sendMessage);
    connect(m_input, &ChatInput::compositionChanged, m_session, &ChatSession::compositionChanged);
    connect(m_input, &ChatInput::completionAccepted, this,
            [this](bool wholeMessage) { m_session->completionAccepted(m_input->toPlainText(), wholeMessage); });
    // The user is about to type: have the prompt (a large document's compile) ready by then.
    connect(m_input, &ChatInput::focusEntered, m_session, &ChatSession::profileChanged);
    m_attachments = new ChatDockAttachments(this, panel);

    m_status = new ElidedLabel(panel);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_status->setAccessibleName(tr("Chat status"));
    m_sendButton = new QPushButton(tr("Send"), panel);
    m_sendButton->setToolTip(tr("Send the message (Enter)"));
    m_sendButton->setAccessibleName(tr("Send message"));
    connect(m_sendButton, &QPushButton::clicked, this, [this] { sendMessage(Llm::monotonicNowNs()); });
    m_stopButton = new QPushButton(tr("Stop"), panel);
    m_stopButton->setToolTip(tr("Stop the answer (Esc)"));
    m_stopButton->setAccessibleName(tr("Stop the answer"));
    connect(m_stopButton, &QPushButton::clicked, this, &ChatDock::stop);

    // The header's controls wrap onto a second row in a narrow dock rather than widen it; what
    // goes with each message is a line under them.
    auto *header = new FlowLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_listToggle);
    header->addWidget(m_modeBox);
    auto *assistant = new QWidget(panel);
    auto *assistantRow = new QHBoxLayout(assistant);
    assistantRow->setContentsMargins(0, 0, 0, 0);
    assistantRow->addWidget(assistantLabel);
    assistantRow->addWidget(m_assistantBox);
    header->addWidget(assistant);
    // Under the input, which has the dock's whole width: attach, what is happening, Stop, Send.
    auto *sendRow = new QHBoxLayout;
    sendRow->addWidget(m_attachments->attachButton());
    sendRow->addWidget(m_status, 1);
    sendRow->addWidget(m_stopButton);
    sendRow->addWidget(m_sendButton);

    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addLayout(header);
    layout->addWidget(m_contextLabel);
    layout->addWidget(m_demoNotice);
    layout->addWidget(m_transcript, 1);
    layout->addWidget(editNotice);
    m_followUps = new FollowUpChips(panel);
    connect(m_followUps, &FollowUpChips::picked, this,
            [this](const QString &text) { sendFollowUp(text, Llm::monotonicNowNs()); });
    connect(m_followUps, &FollowUpChips::rested, m_session, &ChatSession::guessFollowUp);
    layout->addWidget(m_followUps);
    layout->addWidget(m_attachments->chips());
    layout->addWidget(m_attachments->problemLabel());
    layout->addWidget(m_input);
    layout->addLayout(sendRow);
    return panel;
}

// --- forwarding to the session -------------------------------------------------------------------

void ChatDock::setDocument(Document *document)
{
    m_session->setDocument(document);
}

void ChatDock::documentChanged()
{
    m_session->documentChanged();
}

void ChatDock::profileChanged()
{
    updateProviderNotice();
    m_session->profileChanged();
}

void ChatDock::saveProgress()
{
    m_session->saveProgress();
}

void ChatDock::setLibrary(Knowledge::Library *library)
{
    m_session->setLibrary(library);
    const int index = m_modeBox->findData(int(ConversationMode::Library));
    if (library && index < 0)
        m_modeBox->addItem(tr("About my library"), int(ConversationMode::Library));
    else if (!library && index >= 0)
        m_modeBox->removeItem(index);
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_session->mode())));
}

void ChatDock::setMode(ConversationMode mode)
{
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(mode)));
    m_session->setMode(mode);
}

void ChatDock::setAssistants(const AssistantSettings &assistants)
{
    m_session->setAssistants(assistants); // assistantChanged refills the box
    updateAssistantBox();
}

void ChatDock::updateAssistantBox()
{
    const QSignalBlocker blocker(m_assistantBox);
    m_assistantBox->clear();
    for (const Assistant &a : m_session->assistants().list())
        m_assistantBox->addItem(a.name, a.id);
    m_assistantBox->setCurrentIndex(m_assistantBox->findData(m_session->assistant().id));
}

bool ChatDock::openConversation(qint64 id)
{
    return m_session->openConversation(id);
}

void ChatDock::newConversation()
{
    show();
    raise();
    if (m_session->newConversation()) {
        m_list->clearSearch();
        m_list->reload(m_session->conversationId());
    }
    m_input->setFocus();
}

void ChatDock::sendMessage(qint64 activatedNs)
{
    switch (m_session->send(m_input->toPlainText(), activatedNs)) {
    case ChatSession::SendResult::Sent:
    case ChatSession::SendResult::Preparing:
    case ChatSession::SendResult::Empty: break;
    case ChatSession::SendResult::Busy:
        if (m_session->isAnswering())
            setStatus(tr("An answer is still coming: wait for it, or stop it first (Esc)."));
        break;
    case ChatSession::SendResult::Unavailable: setStatus(tr("Chat is not available: no provider is set up.")); break;
    }
}

void ChatDock::sendFollowUp(const QString &text, qint64 activatedNs)
{
    // Offered only while nothing is typed (updateFollowUps()): a draft is never replaced.
    if (m_session->isAnswering() || m_session->isPreparing() || !m_input->toPlainText().isEmpty())
        return;
    const bool hadFocus = m_followUps->isAncestorOf(focusWidget());
    m_input->setPlainText(text); // the draft is the suggestion: its guess is kept (DebounceStrategy)
    m_sendingFollowUp = true;    // for the status line: no pause made this guess
    sendMessage(activatedNs);
    m_sendingFollowUp = false;
    if (hadFocus)
        m_input->setFocus(); // the button goes with the offer
}

void ChatDock::stop()
{
    const bool wasPreparing = m_session->isPreparing();
    m_session->stop();
    if (wasPreparing)
        setStatus(tr("Not sent."));
    updateButtons();
}

// --- transcript ----------------------------------------------------------------------------------

void ChatDock::onConversationOpened(qint64 id)
{
    m_list->reload(id);
    m_live->rebuild();
    updateContextLabel();
    updateButtons();
    emit conversationChanged(id);
}

void ChatDock::onExchangeStarted(Prefetch::AnswerReader *stream)
{
    m_live->start(stream);
    m_input->clear();
    m_attachments->showProblem({}); // about files for the message that has gone
    switch (m_session->currentCached()) {
    case CachedAnswer::None:
        if (!stream->isPrefetched())
            setStatus({});
        else
            setStatus(m_sendingFollowUp ? tr("Answer prepared in advance for this suggestion.")
                                        : tr("Answer prefetched while you paused."));
        break;
    case CachedAnswer::Exact:
    case CachedAnswer::Similar:
        setStatus(tr("Answered from the cache; nothing was sent. Regenerate (%1) asks anew.")
                      .arg(regenerateAction()->shortcut().toString(QKeySequence::NativeText)));
        break;
    case CachedAnswer::Draft:
        setStatus(tr("A similar question's answer, shown as a draft until this one's answer comes."));
        break;
    }
    updateButtons();
    emit answerStarted(stream);
}

void ChatDock::onExchangeEnded(MessageState state, const QString &error, bool cancelled)
{
    m_live->end(error, cancelled);
    if (!error.isEmpty())
        setStatus(tr("The answer failed; your message is kept. Send again to retry."));
    else if (cancelled)
        setStatus(tr("Stopped."));
    else
        setStatus({});
    updateButtons();
    emit answerEnded(state == MessageState::Complete);
}

QString ChatDock::transcriptText() const
{
    return m_transcript->text();
}

// --- feedback ------------------------------------------------------------------------------------

void ChatDock::onInputChanged()
{
    if (m_session->isPreparing())
        return;
    const QString draft = m_input->toPlainText();
    const bool atEnd = m_input->textCursor().atEnd();
    m_session->draftChanged(draft, atEnd);
    if (!m_session->isPrefetching() && !m_session->isAnswering())
        setStatus({});
    updateButtons();
    showFollowUps();
    // Completed only where the user is writing: at the end of the draft.
    const DraftCompletion completion = atEnd ? m_session->completionOf(draft) : DraftCompletion{};
    m_input->setCompletion(completion.rest, completion.wholeMessage);
    // A screen reader does not see grey text.
    m_input->setAccessibleDescription(
        completion.isEmpty() ? QString()
                             : tr("Completion: %1 (Tab accepts, Esc dismisses)").arg(draft + completion.rest));
}

void ChatDock::updateButtons()
{
    const bool hasText = !m_input->toPlainText().trimmed().isEmpty();
    m_sendButton->setEnabled(hasText && !m_session->isAnswering() && !m_session->isPreparing());
    m_stopButton->setEnabled(m_session->isAnswering() || m_session->isPreparing());
    const bool canChange = !m_session->isAnswering() && !m_session->isPreparing() && m_session->editIndex() < 0;
    m_transcript->setActionsEnabled(canChange, m_session->canRegenerate());
    regenerateAction()->setEnabled(m_session->canRegenerate());
    clearHistoryAction()->setEnabled(!m_session->isAnswering() && !m_session->isPreparing());
    // A message waiting for the document goes with the attachments it was sent with.
    m_attachments->setEnabled(!m_session->isPreparing());
}

void ChatDock::updateFollowUps()
{
    if (const Prefetch::Engine *engine = m_session->engine())
        m_followUps->setRestDelay(int(engine->settings().hover.delay.count()));
    m_followUps->setSuggestions(m_session->followUps());
    showFollowUps();
    // In the Tab order between the answer and the input, where they are shown.
    QWidget *previous = m_transcript;
    for (QWidget *button : m_followUps->focusChain()) {
        setTabOrder(previous, button);
        previous = button;
    }
    setTabOrder(previous, m_input);
}

void ChatDock::showFollowUps()
{
    // Shown while the input is empty: once the user types, the message is theirs.
    m_followUps->setVisible(!m_followUps->suggestions().isEmpty() && m_input->document()->isEmpty());
}

void ChatDock::updateProviderNotice()
{
    const Prefetch::Engine *engine = m_session->engine();
    m_demoNotice->setVisible(engine && engine->profile().isLocalDemo);
}

void ChatDock::updateContextLabel()
{
    m_contextLabel->showContextOf(*m_session);
}

void ChatDock::setStatus(const QString &text)
{
    m_noticeExpiry->stop(); // what is said now replaces the notice, and stays
    m_status->setText(text);
}

void ChatDock::showNotice(const QString &text)
{
    setStatus(text);
    if (!text.isEmpty())
        m_noticeExpiry->start();
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

QListWidget *ChatDock::conversationList() const
{
    return m_list->list();
}

QLineEdit *ChatDock::searchField() const
{
    return m_list->searchField();
}

QAction *ChatDock::newConversationAction() const
{
    return m_list->newAction();
}

QAction *ChatDock::renameConversationAction() const
{
    return m_list->renameAction();
}

QAction *ChatDock::deleteConversationAction() const
{
    return m_list->deleteAction();
}

} // namespace Gui
