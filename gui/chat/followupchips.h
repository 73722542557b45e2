#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QToolButton;

namespace Gui {

class FlowLayout;

// The follow-ups offered under an answer (ChatSession::followUps()) as a row of buttons after a
// muted "Suggestions:", wrapping in a narrow chat. A click, or Enter or Space with the focus on
// one, asks for it to be sent (picked()); nothing is sent otherwise. In the keyboard's Tab order.
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

signals:
    void picked(const QString &text);

private:
    FlowLayout *m_layout;
    QLabel *m_label;
    QStringList m_suggestions;
    QList<QToolButton *> m_buttons;
};

} // namespace Gui
