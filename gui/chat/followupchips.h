#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QTimer;
class QToolButton;

namespace Gui {

class FlowLayout;

// The follow-ups offered under an answer (ChatSession::followUps()) as a row of buttons after a
// muted "Suggestions:", wrapping in a narrow chat. A click, or Enter or Space with the focus on
// one, asks for it to be sent (picked()); nothing is sent otherwise. In the keyboard's Tab order.
// The pointer resting on one for the rest delay, or the keyboard's focus arriving on it, says it
// may be sent next (rested()), as a rest on an action button does.
// Hidden while there are none (the chat dock also hides it while a draft is typed). GUI thread.
class FollowUpChips : public QWidget
{
    Q_OBJECT

public:
    explicit FollowUpChips(QWidget *parent = nullptr);

    void setSuggestions(const QStringList &suggestions);
    const QStringList &suggestions() const { return m_suggestions; }
    // The button of the suggestion at `index`, or null; all of them in order (the Tab order).
    QToolButton *button(qsizetype index) const { return m_buttons.value(index); }
    QList<QWidget *> focusChain() const;
    void setRestDelay(int ms);

signals:
    void picked(const QString &text);
    void rested(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    FlowLayout *m_layout;
    QLabel *m_label;
    QStringList m_suggestions;
    QList<QToolButton *> m_buttons;
    QTimer *m_rest;
    QString m_pointedAt; // the suggestion under the pointer
};

} // namespace Gui
