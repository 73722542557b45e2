#include "gui/mainwindow/answerarea.h"

#include "gui/answer/answerpane.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/widgets/flowlayout.h"
#include "gui/widgets/mnemonic.h"

#include <QAction>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace Gui {

namespace {

// After an action's name while its answer is ready behind the button (a hover prefetch).
const QString ReadyMark = QStringLiteral(" \u2022");

} // namespace

AnswerArea::AnswerArea(const QMap<Prefetch::DocumentAction, QAction *> &actions, const AnswerActions &answerActions,
                       QWidget *parent)
    : QWidget(parent)
    , m_actions(actions)
    , m_stack(new QStackedWidget(this))
    , m_noDocumentPane(new AnswerPane(this))
    , m_current(m_noDocumentPane)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(createActionPanel());
    m_stack->addWidget(m_noDocumentPane);
    connectPane(m_noDocumentPane);
    layout->addWidget(m_stack, 1);

    // Wraps in a narrow window rather than widen it (FlowLayout).
    auto *answerButtons = new FlowLayout;
    answerButtons->setContentsMargins(0, 0, 0, 0);
    m_insertButton = new QPushButton(withoutMnemonic(answerActions.insert->text()), this);
    m_replaceButton = new QPushButton(withoutMnemonic(answerActions.replace->text()), this);
    auto *copyButton = new QPushButton(withoutMnemonic(answerActions.copy->text()), this);
    auto *regenerateButton = new QPushButton(withoutMnemonic(answerActions.regenerate->text()), this);
    for (auto [button, act] : {std::pair{m_insertButton, answerActions.insert},
                               std::pair{m_replaceButton, answerActions.replace},
                               std::pair{copyButton, answerActions.copy},
                               std::pair{regenerateButton, answerActions.regenerate}}) {
        button->setToolTip(act->toolTip());
        button->setIcon(act->icon());
        connect(button, &QPushButton::clicked, act, &QAction::trigger);
        connect(act, &QAction::enabledChanged, button, &QWidget::setEnabled);
        button->setEnabled(act->isEnabled());
        answerButtons->addWidget(button);
    }
    layout->addLayout(answerButtons);
}

QWidget *AnswerArea::createActionPanel()
{
    auto *panel = new QWidget(this);
    auto *layout = new FlowLayout(panel); // wraps in a narrow window
    layout->setContentsMargins(0, 0, 0, 0);
    QWidget *previous = nullptr;
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions) {
        QAction *act = m_actions.value(a);
        auto *button = new QPushButton(withoutMnemonic(act->text()), panel);
        button->setToolTip(act->toolTip());
        button->setAccessibleName(withoutMnemonic(act->text()));
        button->setObjectName(QLatin1String(Prefetch::documentActionId(a)) + QStringLiteral("Button"));
        connect(button, &QPushButton::clicked, act, &QAction::trigger);
        connect(act, &QAction::enabledChanged, button, &QWidget::setEnabled);
        // Wide enough for the "ready" mark from the start: the mark must not move the row.
        button->setMinimumWidth(QPushButton(withoutMnemonic(act->text()) + ReadyMark).sizeHint().width());
        m_buttons.insert(a, button);
        layout->addWidget(button);
        if (previous)
            setTabOrder(previous, button);
        previous = button;
    }
    return panel;
}

void AnswerArea::addTab(DocumentTab *tab)
{
    auto *pane = new AnswerPane(m_stack);
    m_stack->addWidget(pane);
    m_panes.insert(tab, pane);
    connectPane(pane);
    // The pane goes with its tab; an answer still streaming into it is stopped first.
    connect(tab, &QObject::destroyed, pane, [this, tab, pane] {
        m_panes.remove(tab);
        m_paneActions.remove(pane);
        if (m_current == pane)
            showPaneOf(nullptr);
        pane->deleteLater();
    });
}

void AnswerArea::connectPane(AnswerPane *pane)
{
    connect(pane, &AnswerPane::answerEnded, this, &AnswerArea::answerEnded);
    connect(pane, &AnswerPane::firstTokenPainted, this, &AnswerArea::firstTokenPainted);
    // Tab from the answer goes on to the actions above it, as it did with one pane, and on
    // along them (a pane made for a new tab comes last in the chain otherwise).
    QWidget *previous = pane->view();
    for (Prefetch::DocumentAction a : Prefetch::AllDocumentActions) {
        if (QPushButton *button = m_buttons.value(a)) {
            QWidget::setTabOrder(previous, button);
            previous = button;
        }
    }
}

void AnswerArea::showPaneOf(const DocumentTab *tab)
{
    m_current = tab ? m_panes.value(tab, m_noDocumentPane) : m_noDocumentPane;
    m_stack->setCurrentWidget(m_current);
    emit currentChanged();
}

AnswerPane *AnswerArea::paneOf(const Document *document) const
{
    for (auto it = m_panes.cbegin(); it != m_panes.cend(); ++it) {
        if (it.key()->model() == document)
            return it.value();
    }
    return m_noDocumentPane;
}

QList<AnswerPane *> AnswerArea::panes() const
{
    return QList<AnswerPane *>{m_noDocumentPane} + m_panes.values();
}

void AnswerArea::setAction(AnswerPane *pane, Prefetch::DocumentAction action)
{
    m_paneActions.insert(pane, action);
    pane->setHeading(withoutMnemonic(m_actions.value(action)->text()));
}

std::optional<Prefetch::DocumentAction> AnswerArea::actionOf(const AnswerPane *pane) const
{
    if (const auto it = m_paneActions.constFind(pane); it != m_paneActions.cend())
        return *it;
    return std::nullopt;
}

void AnswerArea::setReady(Prefetch::DocumentAction action, bool ready)
{
    QPushButton *button = m_buttons.value(action);
    if (!button)
        return;
    const QString plain = withoutMnemonic(m_actions.value(action)->text());
    button->setText(ready ? plain + ReadyMark : plain);
}

} // namespace Gui
