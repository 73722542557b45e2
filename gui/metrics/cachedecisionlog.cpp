#include "gui/metrics/cachedecisionlog.h"

#include "prefetch/cache/responsecache.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Gui {

namespace {

enum Column { When, Fingerprint, Level, Decision, Neighbours, Saved, ColumnCount };

QString levelName(Prefetch::ResponseCache::Level level)
{
    switch (level) {
    case Prefetch::ResponseCache::Level::Exact: return CacheDecisionLog::tr("exact");
    case Prefetch::ResponseCache::Level::NearDuplicate: return CacheDecisionLog::tr("near-duplicate");
    }
    return {};
}

QString decisionName(Prefetch::ResponseCache::Decision decision)
{
    switch (decision) {
    case Prefetch::ResponseCache::Decision::Serve: return CacheDecisionLog::tr("served");
    case Prefetch::ResponseCache::Decision::Draft: return CacheDecisionLog::tr("draft");
    case Prefetch::ResponseCache::Decision::Miss: return CacheDecisionLog::tr("miss");
    }
    return {};
}

} // namespace

CacheDecisionLog::CacheDecisionLog(const Prefetch::ResponseCache *cache, QWidget *parent)
    : QDialog(parent)
    , m_cache(cache)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(0, ColumnCount, this))
{
    setObjectName(QStringLiteral("cacheDecisionLog"));
    setWindowTitle(tr("Response Cache Decisions"));
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("cacheDecisionTable"));
    m_table->setAccessibleName(tr("Response cache decisions"));
    m_table->setHorizontalHeaderLabels({tr("Time"), tr("Request"), tr("Level"), tr("Decision"),
                                        tr("Nearest answers (similarity → confidence)"), tr("Saved")});
    m_table->horizontalHeaderItem(Fingerprint)
        ->setToolTip(tr("The start of the request's fingerprint (exact) or of its context's (near-duplicate)"));
    m_table->horizontalHeaderItem(Neighbours)
        ->setToolTip(
            tr("Confidence = similarity × 0.5 + the answer's hit rate × 0.3 + freshness × 0.2; from 0.75 an answer is "
               "served, from 0.5 shown as a draft"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(Neighbours, QHeaderView::Stretch);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *refreshButton = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    connect(refreshButton, &QPushButton::clicked, this, &CacheDecisionLog::refresh);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(760, 420);
    refresh();
}

void CacheDecisionLog::refresh()
{
    const QLocale locale;
    m_table->setRowCount(0);
    if (!m_cache) {
        m_summary->setText(tr("There is no response cache in this run."));
        return;
    }
    const QList<Prefetch::ResponseCache::LogLine> log = m_cache->decisionLog();
    m_summary->setText(tr("This session's lookups, newest first: %1 shown; answers kept: %2.")
                           .arg(locale.toString(qint64(log.size())), locale.toString(m_cache->count())));
    m_table->setRowCount(int(log.size()));
    for (int row = 0; row < int(log.size()); ++row) {
        const Prefetch::ResponseCache::LogLine &line = log.at(log.size() - 1 - row);
        QStringList neighbours;
        for (const Prefetch::ResponseCache::Neighbour &n : line.neighbours) {
            neighbours << tr("#%1 %2 → %3")
                              .arg(locale.toString(n.id), locale.toString(n.similarity, 'f', 2),
                                   locale.toString(n.confidence, 'f', 2));
        }
        const QStringList cells = {
            locale.toString(line.at.toLocalTime().time(), QLocale::ShortFormat),
            QString::fromLatin1(line.fingerprint.toHex().left(12)),
            levelName(line.level),
            decisionName(line.decision),
            neighbours.join(QStringLiteral(", ")),
            line.savedMs > 0 ? tr("%1 ms").arg(locale.toString(line.savedMs)) : QString(),
        };
        for (int column = 0; column < ColumnCount; ++column)
            m_table->setItem(row, column, new QTableWidgetItem(cells.at(column)));
    }
    m_table->resizeColumnsToContents();
}

} // namespace Gui
