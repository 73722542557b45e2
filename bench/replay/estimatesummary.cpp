#include "estimatesummary.h"

#include "report.h"

#include <QMap>

namespace Bench {

namespace {

QString share(double ratio)
{
    return QStringLiteral("%1%2 %").arg(ratio >= 0 ? QStringLiteral("+") : QString()).arg(ratio * 100, 0, 'f', 0);
}

} // namespace

QString estimateMarkdown(const Report &report)
{
    struct Sums {
        int runs = 0, cutting = 0;
        double billed = 0, off = 0, appBilled = 0, appWithout = 0;
    };
    QMap<QString, Sums> rows; // "kind | profile | settings", in order
    for (const RunFigures &f : report.runs) {
        const RunFigures *off = report.offFor(f);
        if (f.mode == Mode::Off || !off || off->run->billing.cost() <= 0 || f.run->appWithout <= 0)
            continue;
        Sums &s = rows[QStringLiteral("%1 | %2 | %3")
                           .arg(f.run->kind, f.preset,
                                f.run->variant.isEmpty() ? QStringLiteral("defaults") : f.run->variant)];
        ++s.runs;
        s.cutting += f.run->appCutting ? 1 : 0;
        s.billed += f.run->billing.cost();
        s.off += off->run->billing.cost();
        s.appBilled += f.run->appBilled;
        s.appWithout += f.run->appWithout;
    }
    if (rows.isEmpty())
        return {};
    QString md = QStringLiteral(
        "\n## The app's estimate of what prefetch adds (issue 40)\n\n"
        "What the early signals keep under its bound is the app's own running estimate (Prefetch::BillEstimate): "
        "everything it counted as billed against its pricing of the user's answers as if nothing had been sent "
        "early. Beside it, what the provider billed against the same traces with prefetch off, and what the app "
        "counted as billed against the provider's bill. Pooled per kind over the runs (whole runs; the app's "
        "running figure is also decayed per answer). *cutting at the end*: runs whose estimate was over its "
        "bound when they ended.\n\n"
        "| kind | profile | settings | runs | added, billed | added, the app's estimate | the app's bill ÷ the "
        "provider's | cutting at the end |\n|---|---|---|---|---|---|---|---|\n");
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        const Sums &s = it.value();
        md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 / %2 |\n")
                  .arg(it.key())
                  .arg(s.runs)
                  .arg(share(s.billed / s.off - 1), share(s.appBilled / s.appWithout - 1),
                       QString::number(s.appBilled / s.billed, 'f', 2))
                  .arg(s.cutting);
    }
    return md;
}

} // namespace Bench
