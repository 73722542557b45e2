#include "mainwindow.h"

#include "answerpane.h"

#include "llm/clock.h"
#include "llm/llmstream.h"
#include "prefetch/actionprompts.h"
#include "prefetch/generator.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
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
} // namespace

MainWindow::MainWindow(Prefetch::Generator *generator, QWidget *parent)
    : QMainWindow(parent)
    , m_generator(generator)
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
    connect(m_generator, &Prefetch::Generator::profileChanged, this, &MainWindow::updateProviderLabel);
    connect(m_answer, &AnswerPane::answerEnded, this, &MainWindow::updateRunningState);
    connect(m_answer, &AnswerPane::firstTokenPainted, this, &MainWindow::updateRunningState);
    updateRunningState();

    setTabOrder(m_editor, m_summarizeButton);
    setTabOrder(m_summarizeButton, stopButton);
    resize(1100, 700);
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
    const Llm::ChatRequest request = Prefetch::buildActionRequest(
        Prefetch::DocumentAction::Summarize, document, {}, m_generator->profile().model);
    m_current = m_generator->start(request, this);
    connect(m_current, &Llm::LlmStream::finished, m_current, &QObject::deleteLater);
    connect(m_current, &Llm::LlmStream::failed, m_current, &QObject::deleteLater);
    m_answer->follow(m_current, activated);
    updateRunningState();
}

void MainWindow::stop()
{
    m_generator->cancelAll();
    updateRunningState();
}

void MainWindow::updateProviderLabel()
{
    const auto &p = m_generator->profile();
    m_providerLabel->setText(tr("Provider: %1 · Model: %2").arg(p.displayName, p.model));
}

void MainWindow::updateRunningState()
{
    const bool running = m_current && !m_current->isDone();
    m_stop->setEnabled(running);
    if (!running)
        m_stateLabel->setText(tr("Ready"));
    else if (m_current->state() == Llm::LlmStream::State::Streaming)
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
    setDocumentText(QString::fromUtf8(file.readAll()));
    m_filePath = path;
    setWindowTitle(tr("%1 – Headstart").arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::setDocumentText(const QString &text)
{
    m_editor->setPlainText(text);
}

} // namespace Ui
