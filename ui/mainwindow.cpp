#include "mainwindow.h"

#include "answerpane.h"

#include "llm/clock.h"
#include "prefetch/actionprompts.h"
#include "prefetch/engine.h"
#include "prefetch/hoverstrategy.h"
#include "prefetch/responsestream.h"
#include "prefetch/warmupstrategy.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

namespace Ui {

namespace {
// Beyond this a plain-text editor becomes sluggish and a prompt far exceeds any context window.
constexpr qint64 MaxDocumentBytes = 32 * 1024 * 1024;
const QString SummarizeAction = QStringLiteral("summarize");
} // namespace

MainWindow::MainWindow(Prefetch::Engine *engine, Prefetch::HoverStrategy *hover, Prefetch::WarmupStrategy *warmup,
                       QWidget *parent)
    : QMainWindow(parent)
    , m_engine(engine)
    , m_hover(hover)
    , m_warmup(warmup)
    , m_editor(new QPlainTextEdit(this))
    , m_answer(new AnswerPane(this))
    , m_summarizeButton(new QPushButton(this))
    , m_providerLabel(new QLabel(this))
    , m_stateLabel(new QLabel(this))
{
    setWindowTitle(tr("Headstart"));
    m_editor->setPlaceholderText(tr("Write here, or open a document with Ctrl+O."));
    m_editor->setAccessibleName(tr("Document"));

    createActions();

    // The button repeats the action's text without its menu mnemonic ("&Summarize", "总结(&S)").
    static const QRegularExpression mnemonic(QStringLiteral("\\(&.\\)|&(?=.)"));
    m_summarizeButton->setText(m_summarize->text().remove(mnemonic));
    m_summarizeButton->setToolTip(m_summarize->toolTip());
    m_summarizeButton->setAccessibleName(tr("Summarize the document"));
    connect(m_summarizeButton, &QPushButton::clicked, this, &MainWindow::summarize);
    // Resting on the button or pressing it starts the answer before the click lands.
    m_summarizeButton->installEventFilter(this);
    auto *stopButton = new QPushButton(tr("Stop"), this);
    stopButton->setToolTip(m_stop->toolTip());
    connect(stopButton, &QPushButton::clicked, this, &MainWindow::stop);
    connect(m_stop, &QAction::enabledChanged, stopButton, &QWidget::setEnabled);

    auto *answerBox = new QWidget(this);
    auto *answerLayout = new QVBoxLayout(answerBox);
    answerLayout->setContentsMargins(0, 0, 0, 0);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_summarizeButton);
    buttons->addWidget(stopButton);
    buttons->addStretch(1);
    answerLayout->addLayout(buttons);
    answerLayout->addWidget(m_answer, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_editor);
    splitter->addWidget(answerBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    setCentralWidget(splitter);

    statusBar()->addWidget(m_providerLabel, 1);
    statusBar()->addPermanentWidget(m_stateLabel);
    updateProviderLabel();
    connect(m_answer, &AnswerPane::answerEnded, this, &MainWindow::updateRunningState);
    connect(m_answer, &AnswerPane::firstTokenPainted, this, &MainWindow::updateRunningState);
    updateRunningState();

    setTabOrder(m_editor, m_summarizeButton);
    setTabOrder(m_summarizeButton, stopButton);
    resize(1100, 700);
}

MainWindow::~MainWindow()
{
    if (m_warmup)
        m_warmup->closeAll();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_summarizeButton && m_summarizeButton->isEnabled()) {
        switch (event->type()) {
        case QEvent::Enter:
            m_hover->pointerEntered(SummarizeAction, [this] { return summarizeRequest(); });
            break;
        case QEvent::Leave:
            m_hover->pointerLeft(SummarizeAction);
            break;
        case QEvent::MouseButtonPress:
            m_hover->pressed(SummarizeAction, [this] { return summarizeRequest(); });
            break;
        default:
            break;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

const Prefetch::CompiledPrompt &MainWindow::compiledDocument()
{
    // Compiled once per document revision: warm-up, prefetch and the real request then share
    // the encoded prefix byte for byte.
    const int revision = m_editor->document()->revision();
    if (!m_compiled || revision != m_compiledRevision || !m_compiled->isFor(m_engine->profile())) {
        auto compiled = Prefetch::documentTemplate().compile(m_engine->profile(),
                                                             Prefetch::documentValues(m_editor->toPlainText()));
        m_compiled = std::make_unique<Prefetch::CompiledPrompt>(compiled ? *compiled : Prefetch::CompiledPrompt());
        m_compiledRevision = revision;
    }
    return *m_compiled;
}

Prefetch::RenderedRequest MainWindow::summarizeRequest()
{
    auto rendered = Prefetch::renderAction(compiledDocument(), Prefetch::DocumentAction::Summarize, {});
    if (rendered)
        return *rendered;
    // Not renderable (no model configured): the plain request fails with a clear error instead.
    Prefetch::RenderedRequest fallback;
    fallback.request = Prefetch::buildActionRequest(Prefetch::DocumentAction::Summarize, m_editor->toPlainText(), {},
                                                    m_engine->profile().model);
    return fallback;
}

void MainWindow::warmUp()
{
    if (m_warmup && !m_editor->toPlainText().trimmed().isEmpty())
        m_warmup->documentOpened(m_filePath.isEmpty() ? QStringLiteral("untitled") : m_filePath, compiledDocument());
}

void MainWindow::createActions()
{
    m_open = new QAction(tr("&Open…"), this);
    m_open->setShortcut(QKeySequence::Open);
    connect(m_open, &QAction::triggered, this, &MainWindow::openFileDialog);

    m_quit = new QAction(tr("&Quit"), this);
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_quit, &QAction::triggered, qApp, &QApplication::closeAllWindows);

    m_summarize = new QAction(tr("&Summarize"), this);
    m_summarize->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    m_summarize->setToolTip(tr("Summarize the document (%1)")
                                .arg(m_summarize->shortcut().toString(QKeySequence::NativeText)));
    connect(m_summarize, &QAction::triggered, this, &MainWindow::summarize);

    m_stop = new QAction(tr("S&top"), this);
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stop->setToolTip(tr("Stop the answer (Esc)"));
    connect(m_stop, &QAction::triggered, this, &MainWindow::stop);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_open);
    file->addSeparator();
    file->addAction(m_quit);
    QMenu *ai = menuBar()->addMenu(tr("&AI"));
    ai->addAction(m_summarize);
    ai->addAction(m_stop);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->addAction(m_open);
    toolbar->addSeparator();
    toolbar->addAction(m_summarize);
    toolbar->addAction(m_stop);
}

void MainWindow::summarize()
{
    const qint64 activated = Llm::monotonicNowNs();
    const QString document = m_editor->toPlainText();
    if (document.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("The document is empty: write or open something to summarize."), 5000);
        return;
    }
    if (m_current)
        m_current->cancel();
    m_current = m_hover->activate(SummarizeAction, [this] { return summarizeRequest(); }, activated, this);
    connect(m_current, &Prefetch::ResponseStream::finished, m_current, &QObject::deleteLater);
    connect(m_current, &Prefetch::ResponseStream::failed, m_current, &QObject::deleteLater);
    m_answer->follow(m_current, m_engine->profile().displayName);
    updateRunningState();
}

void MainWindow::stop()
{
    m_engine->stopAll();
    updateRunningState();
}

void MainWindow::updateProviderLabel()
{
    const auto &p = m_engine->profile();
    m_providerLabel->setText(tr("Provider: %1 · Model: %2").arg(p.displayName, p.model));
}

void MainWindow::updateRunningState()
{
    const bool running = m_current && !m_current->isDone();
    m_stop->setEnabled(running);
    if (!running)
        m_stateLabel->setText(tr("Ready"));
    else if (m_current->firstContentNs() >= 0)
        m_stateLabel->setText(tr("Streaming"));
    else
        m_stateLabel->setText(tr("Waiting for the provider"));
}

void MainWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Document"), QFileInfo(m_filePath).path(),
                                                      tr("Text documents (*.md *.markdown *.txt);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::openFile(const QString &path)
{
    QFile file(path);
    if (file.size() > MaxDocumentBytes) {
        QMessageBox::warning(this, tr("Open Document"),
                             tr("%1 is %2 MB; Headstart opens documents up to %3 MB.")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(file.size() / (1024 * 1024))
                                 .arg(MaxDocumentBytes / (1024 * 1024)));
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, tr("Open Document"),
                             tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    m_filePath = path;
    setDocumentText(QString::fromUtf8(file.readAll()));
    setWindowTitle(tr("%1 – Headstart").arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::setDocumentText(const QString &text)
{
    m_editor->setPlainText(text);
    warmUp();
}

} // namespace Ui
