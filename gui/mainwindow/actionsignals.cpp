#include "gui/mainwindow/actionsignals.h"

#include "gui/answer/answerpane.h"
#include "gui/mainwindow/documenttab.h"
#include "gui/mainwindow/documenttabs.h"
#include "gui/mainwindow/mainwindow.h"
#include "workspace/documents/document.h"
#include "workspace/documents/documentactions.h"

#include "llm/clock.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/strategies/speculator.h"

#include <QAction>
#include <QApplication>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolButton>

namespace Gui {

using Prefetch::DocumentAction;

namespace {

// Which window's signals a speculator follows, when several windows share it: the one the user
// acts in (see ActionSignals::take()). GUI thread only, like everything here.
QHash<const Prefetch::Speculator *, QPointer<ActionSignals>> &holders()
{
    static QHash<const Prefetch::Speculator *, QPointer<ActionSignals>> map;
    return map;
}

} // namespace

ActionSignals::ActionSignals(MainWindow *window, Prefetch::Speculator *speculator)
    : QObject(window)
    , m_window(window)
    , m_speculator(speculator)
{
    DocumentTabs *tabs = m_window->tabs();
    connect(tabs, &DocumentTabs::promptReady, this, &ActionSignals::onPromptReady);
    // Widgets without mouse tracking drop the pointer's moves, but the application's event
    // filters see them first: the only place that sees the approach over every widget. The
    // buttons' enter, leave and press events pass here too, on their way to the buttons.
    qApp->installEventFilter(this);
    if (!m_speculator)
        return;
    for (int i = 0; i < tabs->count(); ++i)
        watchTab(tabs->tab(i));
    connect(tabs, &DocumentTabs::tabCreated, this, &ActionSignals::watchTab);
    connect(tabs, &QTabWidget::currentChanged, this, &ActionSignals::currentDocumentChanged);
    connect(tabs, &DocumentTabs::documentLoaded, this, [this](Document *document) {
        if (document == m_window->currentDocument())
            currentDocumentChanged();
    });
    connect(tabs, &DocumentTabs::documentEdited, this, [this](Document *document) {
        if (document == m_window->currentDocument() && holds()) {
            m_selection = {}; // the same range selected again is other text now
            contextChanged();
        }
    });
    // The newest window is the one in front: it takes the context from an older one.
    holders().insert(m_speculator, this);

    // The window ran the action (after taking its guess over) or the answer ended; Stop has
    // cancelled everything in the engine already (its own connection came first).
    connect(m_window, &MainWindow::actionStarted, this, [this](DocumentAction action) {
        m_lastAction = action;
        m_speculator->activated(action);
    });
    connect(m_window, &MainWindow::answerEnded, this, [this](bool ok) {
        // Not after Stop or an error: what the user does next is not what follows an answer.
        if (ok && m_lastAction)
            m_speculator->answerEnded(*m_lastAction);
    });
    connect(m_window->stopAction(), &QAction::triggered, m_speculator, &Prefetch::Speculator::stopped);
    currentDocumentChanged();
}

ActionSignals::~ActionSignals()
{
    if (!m_speculator || !holds())
        return; // another window's context: the builder below is not in it
    // The documents go with the window: nothing is guessed for them any more.
    m_speculator->setContext({}, false);
    m_speculator->contextChanged();
    holders().remove(m_speculator);
}

bool ActionSignals::holds() const
{
    const QPointer<ActionSignals> holder = holders().value(m_speculator);
    return !holder || holder == this;
}

void ActionSignals::take()
{
    if (holders().value(m_speculator) == this)
        return;
    holders().insert(m_speculator, this);
    // What the guesses are for is this window's document now; the other window's guesses are
    // for a context that is no longer the speculator's and go. Not a document "opened": moving
    // between windows is not reading.
    contextChanged();
}

void ActionSignals::requestsChanged()
{
    if (m_speculator && holds())
        contextChanged();
}

void ActionSignals::watchTab(DocumentTab *tab)
{
    connect(tab, &QPlainTextEdit::selectionChanged, this, [this, tab] { onSelectionChanged(tab); });
}

void ActionSignals::updateContext()
{
    DocumentTab *tab = m_window->currentTab();
    if (!tab || tab->model()->isBlank()) {
        m_speculator->setContext({}, false); // nothing to act on, as the actions say
        return;
    }
    QPointer<Document> document = tab->model();
    const QString selection = tab->selectedText();
    // Cleared from the Speculator before the window goes, unless another window held it then.
    QPointer<MainWindow> window = m_window;
    // The request the click would make (the same selection and target, hence the same
    // fingerprint), or an empty one while the document's prompt compiles: never guessed on.
    m_speculator->setContext(
        [window, document, selection](DocumentAction action) {
            return window ? window->documentActions()->request(action, document, selection)
                          : Prefetch::RenderedRequest{};
        },
        tab->textCursor().hasSelection());
}

void ActionSignals::contextChanged()
{
    updateContext();
    m_speculator->contextChanged();
}

void ActionSignals::currentDocumentChanged()
{
    if (!holds())
        return; // taken with the current document when the user turns to this window
    m_selection = {};
    contextChanged();
    m_openedWhileCompiling = nullptr;
    Document *document = m_window->currentDocument();
    if (!document || document->isBlank())
        return;
    m_speculator->documentOpened();
    // The window asked for its prompt already (warm-up): a large one compiles in the pool.
    if (document->isCompiling())
        m_openedWhileCompiling = document;
}

void ActionSignals::onSelectionChanged(DocumentTab *tab)
{
    if (tab != m_window->currentTab() || !holds())
        return;
    // The editor says so again for the same selection (at a drag's release, for the X11
    // selection clipboard): nothing changed, and the guesses on it stay.
    const QTextCursor cursor = tab->textCursor();
    const Selection now{tab, cursor.anchor(), cursor.position()};
    if (now == m_selection && cursor.hasSelection())
        return;
    m_selection = now;
    contextChanged();
    m_speculator->selectionChanged(cursor.hasSelection());
    selectionMayBeFinished();
}

void ActionSignals::selectionMayBeFinished()
{
    if (m_shiftHeld || m_mouseHeld || !holds())
        return;
    if (DocumentTab *tab = m_window->currentTab(); tab && tab->textCursor().hasSelection())
        m_speculator->selectionFinished();
}

void ActionSignals::onPromptReady(Document *document)
{
    // (The hover of a button rested on while the prompt compiled is DocumentActions' to resume.)
    if (document != m_window->currentDocument() || !m_speculator || !holds())
        return;
    updateContext();
    // Its reading guesses found no prompt to render; now there is one.
    if (m_openedWhileCompiling == document) {
        m_openedWhileCompiling = nullptr;
        m_speculator->documentOpened();
    }
}

bool ActionSignals::isInWindow(const QObject *object) const
{
    const auto *widget = qobject_cast<const QWidget *>(object);
    return widget && widget->window() == m_window;
}

std::optional<DocumentAction> ActionSignals::buttonAction(const QObject *object) const
{
    // The action panel's buttons, and the toolbar's (a tool button showing the action).
    const auto *tool = qobject_cast<const QToolButton *>(object);
    for (DocumentAction action : Prefetch::AllDocumentActions) {
        if (object == m_window->actionButton(action) || (tool && tool->defaultAction() == m_window->action(action)))
            return action;
    }
    return std::nullopt;
}

bool ActionSignals::eventFilter(QObject *watched, QEvent *event)
{
    if (m_speculator)
        forwardToSpeculator(watched, event);
    // After the Speculator: a press is a button held (above) before it is the hover's.
    forwardToHover(watched, event);
    return QObject::eventFilter(watched, event);
}

void ActionSignals::forwardToSpeculator(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::MouseMove:
        if (isInWindow(watched)) {
            take(); // the pointer heads for this window's buttons, with its document
            onPointerMoved(static_cast<const QMouseEvent *>(event));
        }
        break;
    case QEvent::Leave:
        if (watched == m_window) {
            m_pointer.reset();
            m_speculator->pointerLeft();
        }
        break;
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
        if (isInWindow(watched)) {
            // Seen once per widget the event passes through: what counts is the last state.
            const bool held = static_cast<const QMouseEvent *>(event)->buttons() != Qt::NoButton;
            if (held != m_mouseHeld) {
                m_mouseHeld = held;
                selectionMayBeFinished();
            }
        }
        break;
    case QEvent::KeyPress:
    case QEvent::KeyRelease:
        if (isInWindow(watched)) {
            take();
            onKey(static_cast<const QKeyEvent *>(event));
        }
        break;
    case QEvent::WindowActivate:
        if (watched == m_window)
            take();
        break;
    case QEvent::FocusIn:
        if (const auto action = buttonAction(watched)) {
            // The keyboard's only: a click focuses the button too, and the press is the hover's.
            const Qt::FocusReason reason = static_cast<const QFocusEvent *>(event)->reason();
            if (reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason || reason == Qt::ShortcutFocusReason) {
                m_focused = action;
                m_speculator->focusEntered(*action);
            }
        }
        break;
    case QEvent::FocusOut:
        if (m_focused && buttonAction(watched) == m_focused) {
            m_focused.reset();
            m_speculator->focusLeft();
        }
        break;
    case QEvent::WindowDeactivate:
        if (watched == m_window) {
            setModifiersHeld(false); // their release goes to the window that is active now
            m_shiftHeld = false;
            m_mouseHeld = false;
        }
        break;
    default: break;
    }
}

void ActionSignals::forwardToHover(QObject *watched, const QEvent *event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::Enter && type != QEvent::Leave && type != QEvent::MouseButtonPress)
        return;
    const std::optional<DocumentAction> action = buttonAction(watched);
    // A disabled button's events are not the hover's, its Leave included: a prefetch started
    // before the button was disabled is left to the click elsewhere, Stop or the next hover.
    if (!action || !static_cast<const QWidget *>(watched)->isEnabled())
        return;
    // The document and selection of this moment: what the click would run on.
    const DocumentTab *tab = m_window->currentTab();
    Document *document = tab ? tab->model() : nullptr;
    const QString selection = tab ? tab->selectedText() : QString();
    DocumentActions *actions = m_window->documentActions();
    switch (type) {
    case QEvent::Enter: actions->pointerEntered(*action, document, selection); break;
    case QEvent::Leave: actions->pointerLeft(*action); break;
    default: // the press, ~80 ms before the click: the answer starts now if it has not yet
        actions->pressed(*action, document, selection);
        break;
    }
}

void ActionSignals::onPointerMoved(const QMouseEvent *event)
{
    // A drag (selecting text) clicks no button where it ends.
    if (event->buttons() != Qt::NoButton)
        return;
    const QPointF position = m_window->mapFromGlobal(event->globalPosition());
    // The same move again, passed on to a parent by a widget that tracks the mouse: a second
    // sample at one place would read as the pointer stopping.
    if (m_pointer == position)
        return;
    m_pointer = position;
    updateTargets();
    m_speculator->pointerMoved(position, Llm::monotonicNowNs());
}

void ActionSignals::updateTargets()
{
    // Read at every sample rather than on events: a resized window, a moved splitter, a dock
    // shown or a button enabled moves or changes them without an event on the button, and
    // five mapTo() calls cost less than watching all of those.
    QHash<DocumentAction, QRectF> targets;
    for (DocumentAction action : Prefetch::AllDocumentActions) {
        const QPushButton *button = m_window->actionButton(action);
        if (button && button->isEnabled() && button->isVisible())
            targets.insert(action, QRectF(QPointF(button->mapTo(m_window, QPoint(0, 0))), QSizeF(button->size())));
    }
    if (targets == m_targets)
        return;
    m_targets = targets;
    m_speculator->setTargets(m_targets);
}

void ActionSignals::onKey(const QKeyEvent *event)
{
    // Whether a modifier's own press or release already shows in modifiers() differs between
    // platforms; the key itself says.
    Qt::KeyboardModifiers modifiers = event->modifiers();
    if (event->key() == Qt::Key_Control)
        modifiers.setFlag(Qt::ControlModifier, event->type() == QEvent::KeyPress);
    else if (event->key() == Qt::Key_Alt)
        modifiers.setFlag(Qt::AltModifier, event->type() == QEvent::KeyPress);
    else if (event->key() == Qt::Key_Shift)
        modifiers.setFlag(Qt::ShiftModifier, event->type() == QEvent::KeyPress);
    // The actions' shortcuts are Ctrl+Alt+letter (MainWindow::createActions()).
    setModifiersHeld(modifiers.testFlag(Qt::ControlModifier) && modifiers.testFlag(Qt::AltModifier));
    const bool shift = modifiers.testFlag(Qt::ShiftModifier);
    if (shift != m_shiftHeld) {
        m_shiftHeld = shift;
        selectionMayBeFinished();
    }
}

void ActionSignals::setModifiersHeld(bool held)
{
    if (held == m_modifiersHeld)
        return;
    m_modifiersHeld = held;
    m_speculator->modifiersChanged(held);
}

} // namespace Gui
