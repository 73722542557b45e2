#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace Gui {

// The question a cloud provider asks once, when the user first chooses it with a key (issue
// 37, item 5): may hover, typing and the early signals send it text before the user sends it?
// It says what would be sent, to whom, and what it costs at most an hour, in the window above
// the documents and without blocking anything: the user can keep writing and answer later.
// Allow or Not now (Esc, while the bar has the focus); the answer is the caller's to keep, per
// provider, and Settings, Prefetch changes it.
class ConsentBar : public QFrame
{
    Q_OBJECT

public:
    explicit ConsentBar(QWidget *parent = nullptr);

    // Shows the question for the provider `providerId`, named `providerName`. `hourlyBudget` is
    // the prefetch money budget in the provider's currency ("$1.00"), empty when none applies;
    // `continues`: the provider can continue an answer, so early guesses ask for a few words.
    void ask(const QString &providerId, const QString &providerName, const QString &hourlyBudget, bool continues);
    // Hides the question without an answer (the provider was changed, or answered elsewhere).
    void withdraw();

    QString providerId() const { return m_providerId; }
    QLabel *textLabel() const { return m_text; }
    QPushButton *allowButton() const { return m_allow; }
    QPushButton *notNowButton() const { return m_notNow; }

signals:
    void answered(const QString &providerId, bool allowed);

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void answer(bool allowed);
    void applyColors();

    QLabel *m_icon;
    QLabel *m_text;
    QPushButton *m_allow;
    QPushButton *m_notNow;
    QString m_providerId;
};

} // namespace Gui
