#include "ui/fleet/fleet_view.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "core/fleet/redis_url.h"
#include "ui/common/theme.h"
#include "ui/plot/plot_export.h"
#include "ui/plot/plot_layout.h"
#include "ui/plot/qcp.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {

constexpr int kRefreshMs = 100;

QTableWidget* makeTable(const QString& name, const QStringList& headers) {
    auto* table = new QTableWidget(0, int(headers.size()));
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(20);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    // Names take the room; figures fit their contents (a node's address must not be cut).
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setMinimumSectionSize(48);
    return table;
}

// Sets row `row` of `table` (growing it) to `cells`; numbers are right-aligned.
void setRow(QTableWidget* table, int row, const QStringList& cells, int alignFrom = 1) {
    if (table->rowCount() <= row) {
        table->setRowCount(row + 1);
    }
    for (int c = 0; c < cells.size(); ++c) {
        QTableWidgetItem* item = table->item(row, c);
        if (item == nullptr) {
            item = new QTableWidgetItem;
            table->setItem(row, c, item);
        }
        item->setText(cells[c]);
        item->setTextAlignment(c >= alignFrom ? Qt::AlignRight | Qt::AlignVCenter
                                              : Qt::AlignLeft | Qt::AlignVCenter);
    }
}

QString seconds(double s) {
    return s < 10 ? QStringLiteral("%1 s").arg(s, 0, 'f', 2)
                  : QStringLiteral("%1 s").arg(s, 0, 'f', 0);
}

// A replica's master as ":PORT" when both are on the same host (a cluster on one machine),
// else "HOST:PORT".
QString shortAddress(const std::string& address, const std::string& beside) {
    const auto host = [](const std::string& a) { return a.substr(0, a.rfind(':')); };
    return QString::fromStdString(host(address) == host(beside) ? address.substr(address.rfind(':'))
                                                                : address);
}

}  // namespace

FleetView::FleetView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("fleetView"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("fleetStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_notice = new QLabel;
    m_notice->setObjectName(QStringLiteral("fleetNotice"));
    m_notice->setWordWrap(true);
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);  // the rebuild command
    m_notice->hide();
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("fleetSummary"));
    m_summary->setWordWrap(true);

    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("fleetPlot"));
    m_plot->setToolTip(
        tr("The fleet's hits per second in the last 5 minutes (all instances "
           "together, read from Redis) and the selected item's. Right-click to "
           "export as PNG."));
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(
        0, 0,
        new QCPTextElement(m_plot, tr("Fleet: hits per second, last 5 min"),
                           QFont(font().family(), 10, QFont::Bold)));
    m_totalGraph = m_plot->addGraph();
    m_totalGraph->setName(tr("fleet total"));
    m_itemGraph = m_plot->addGraph();
    m_itemGraph->setName(tr("selected item"));
    m_plot->yAxis->setLabel(tr("hits/s"));
    setTimeAxis(*m_plot->xAxis, TimeAxisMode::Clock);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_plot->setNotAntialiasedElements(QCP::aeFills | QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
    installExportMenu(*m_plot);

    m_top = makeTable(QStringLiteral("fleetTopTable"),
                      {tr("item"), tr("hits (5 min)"), tr("uniques ≈")});
    m_top->setToolTip(
        tr("The fleet's items with the most hits in the last 5 minutes (exact, "
           "from the per-second counts); uniques are HyperLogLog estimates over "
           "the window's minutes. Select one to plot it."));
    connect(m_top, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (QTableWidgetItem* item = m_top->item(row, 0); item && !m_updating) {
            selectItem(item->data(Qt::UserRole).toString());
        }
    });
    connect(m_top, &QTableWidget::currentCellChanged, this,
            [this](int row, int, int previous, int) {
                if (QTableWidgetItem* item = m_top->item(row, 0);
                    item && !m_updating && row != previous) {
                    selectItem(item->data(Qt::UserRole).toString());
                }
            });

    m_instances = makeTable(
        QStringLiteral("fleetInstancesTable"),
        {tr("instance"), tr("hits/s"), tr("last flush"), tr("lag"), tr("dropped"), tr("state")});
    m_instances->setToolTip(
        tr("One row per alive instance (its heartbeat key in Redis, refreshed by every flush, "
           "expires after 3 flush intervals, at least 5 s): hits per second it sent, how long "
           "ago it last flushed, its last flush's lag (oldest hit to Redis' acknowledgement) "
           "and the hits its sink dropped. While Redis is unreachable nobody can tell which "
           "are alive: the last ones known are listed, greyed, as unknown."));
    m_nodes =
        makeTable(QStringLiteral("fleetNodesTable"),
                  {tr("node"), tr("role"), tr("slots"), tr("cmd/s"), tr("memory"), tr("state")});
    m_nodes->setToolTip(
        tr("The Redis nodes (CLUSTER NODES; a single server is one node): "
           "role, hash slots held, commands per second and memory (INFO), "
           "and whether the node answers."));

    auto* instancesBox = new QWidget;
    auto* instancesLayout = new QVBoxLayout(instancesBox);
    instancesLayout->setContentsMargins(0, 0, 0, 0);
    m_instancesTitle = new QLabel(tr("<b>Instances</b> (alive)"));
    instancesLayout->addWidget(m_instancesTitle);
    instancesLayout->addWidget(m_instances);
    auto* nodesBox = new QWidget;
    auto* nodesLayout = new QVBoxLayout(nodesBox);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    nodesLayout->addWidget(new QLabel(tr("<b>Redis</b> nodes")));
    nodesLayout->addWidget(m_nodes);
    auto* topBox = new QWidget;
    auto* topLayout = new QVBoxLayout(topBox);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(new QLabel(tr("<b>Top items</b> of the fleet")));
    topLayout->addWidget(m_top);

    auto* upper = new QSplitter(Qt::Horizontal);
    upper->addWidget(m_plot);
    upper->addWidget(topBox);
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    upper->setSizes({760, 440});
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(instancesBox);
    lower->addWidget(nodesBox);
    lower->setSizes({560, 640});
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("fleetSplitter"));
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({620, 280});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_notice);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    showState(QStringLiteral("off"), tr("Not connected. Choose Fleet (Redis) in the sources dock "
                                        "or start with hitcounter --redis redis://HOST:PORT."));
    applyTheme(lightTheme());
    m_timer.setInterval(kRefreshMs);
    connect(&m_timer, &QTimer::timeout, this, &FleetView::refresh);
}

FleetView::~FleetView() {
    // Ask every poller to stop first, so they wind down together; the members' destructors join.
    if (m_poller) {
        m_poller->requestStop();
    }
    for (auto& retired : m_retired) {
        retired->requestStop();
    }
}

bool FleetView::connectTo(const QString& url, std::chrono::milliseconds interval) {
    disconnectFromRedis();
    fleet::FleetPollOptions options;
    try {
        options.url = fleet::resolveRedisUrl(url.toStdString());
    } catch (const std::exception& e) {
        showState(QStringLiteral("unreachable"), QString::fromStdString(e.what()));
        return false;
    }
    options.interval = interval;
    m_url = QString::fromStdString(fleet::redactedRedisUrl(url.toStdString()));
    m_shown.reset();
    m_poller = std::make_unique<fleet::FleetPoller>(std::move(options));
    m_sinceAnswer.start();
    showState(
        QStringLiteral("connecting"),
        tr("Connecting to %1…").arg(QString::fromStdString(m_poller->options().url.describe())));
    m_timer.start();
    return true;
}

QString FleetView::urlProblem(const QString& url) {
    try {
        fleet::parseRedisUrl(url.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void FleetView::disconnectFromRedis() {
    if (m_poller) {
        m_poller->requestStop();
        m_retired.push_back(std::move(m_poller));
    }
    reapRetired();
    if (m_retired.empty()) {
        m_timer.stop();
    }
    showState(QStringLiteral("off"),
              m_url.isEmpty() ? tr("Not connected.") : tr("Disconnected from %1.").arg(m_url));
    m_notice->hide();
}

void FleetView::reapRetired() {
    std::erase_if(m_retired, [](const auto& poller) { return poller->finished(); });
}

void FleetView::selectItem(const QString& item) {
    if (m_poller) {
        m_poller->setSelected(item.toStdString());
    }
}

void FleetView::refresh() {
    reapRetired();
    if (!m_poller) {
        if (m_retired.empty()) {
            m_timer.stop();
        }
        return;
    }
    auto latest = m_poller->latest();
    if (latest && latest != m_shown) {
        m_shown = std::move(latest);
        m_sinceAnswer.restart();
        draw(*m_shown);
        Q_EMIT snapshotShown();
        return;
    }
    // Nothing new: say how long the poller has been waiting once that is unusual.
    const double waited = double(m_sinceAnswer.elapsed()) / 1000.0;
    const double interval = double(m_poller->options().interval.count()) / 1000.0;
    if (waited > interval + 1.0) {
        const QString url = QString::fromStdString(m_poller->options().url.describe());
        showState(m_shown ? QStringLiteral("unreachable") : QStringLiteral("connecting"),
                  tr("%1: no answer for %2 s, still trying (each read gives up after 1 s).")
                      .arg(url)
                      .arg(waited, 0, 'f', 0));
        if (m_shown) {
            drawInstances(*m_shown);  // no longer known to be alive
        }
    }
}

QString FleetView::statusText() const {
    return m_status->text();
}

QString FleetView::noticeText() const {
    return m_notice->isHidden() ? QString() : m_notice->text();
}

bool FleetView::instancesKnown() const {
    return m_shown && m_shown->connected && m_shown->instancesKnown &&
           m_state != QLatin1String("unreachable") && m_state != QLatin1String("off");
}

void FleetView::showState(const QString& state, const QString& text) {
    m_state = state;
    m_status->setText(text);
    QString colors;
    if (state == QLatin1String("live")) {
        colors = boxColors(BoxTone::Good, m_dark);
    } else if (state == QLatin1String("degraded") || state == QLatin1String("connecting")) {
        colors = boxColors(BoxTone::Notice, m_dark);
    } else if (state == QLatin1String("unreachable")) {
        colors = boxColors(BoxTone::Error, m_dark);
    } else {
        colors = QStringLiteral("border: 1px solid palette(mid);");
    }
    m_status->setStyleSheet(QStringLiteral("QLabel { %1 padding: 5px; border-radius: 3px; "
                                           "font-weight: bold; }")
                                .arg(colors));
}

void FleetView::draw(const fleet::FleetSnapshot& s) {
    const QLocale locale;
    const QString url = QString::fromStdString(m_poller->options().url.describe());
    const QString at =
        QDateTime::fromSecsSinceEpoch(qint64(s.now)).toString(QStringLiteral("hh:mm:ss"));
    if (!s.connected || (s.dataStale && s.troubledNodes.empty())) {
        showState(QStringLiteral("unreachable"),
                  s.now > 0 ? tr("%1 unreachable: %2. Retrying every second; the counts below "
                                 "are from %3.")
                                  .arg(url, QString::fromStdString(s.problem), at)
                            : tr("%1 unreachable: %2. Retrying every second.")
                                  .arg(url, QString::fromStdString(s.problem)));
    } else if (!s.troubledNodes.empty()) {
        QStringList nodes;
        bool holdingSlots = !s.cluster;  // a single server holds every slot
        for (const std::string& n : s.troubledNodes) {
            nodes << QString::fromStdString(n);
            for (const fleet::FleetNode& node : s.nodes) {
                holdingSlots = holdingSlots || (node.address == n && node.slots > 0);
            }
        }
        const QString counts =
            !s.dataStale ? tr("Counts read through the other nodes.")
            : s.now > 0  ? tr("Parts not read show their last value (%1).")
                              .arg(QString::fromStdString(s.problem))
                        : tr("No counts yet (%1).").arg(QString::fromStdString(s.problem));
        showState(QStringLiteral("degraded"),
                  holdingSlots || s.dataStale
                      ? tr("Node %1 failing over / unreachable, retrying. %2")
                            .arg(nodes.join(QStringLiteral(", ")), counts)
                      : tr("Node %1 unreachable; its slots are served by the other nodes "
                           "(failover done), retrying. %2")
                            .arg(nodes.join(QStringLiteral(", ")), counts));
    } else if (!s.problem.empty()) {
        showState(QStringLiteral("degraded"),
                  tr("%1: %2; retrying.").arg(url, QString::fromStdString(s.problem)));
    } else {
        showState(QStringLiteral("live"),
                  tr("Live: %1 (%2), read at %3 in %4 ms")
                      .arg(url,
                           s.cluster ? tr("Redis Cluster, %1 nodes").arg(s.nodes.size())
                                     : tr("single server"),
                           at)
                      .arg(s.readMilliseconds, 0, 'f', 0));
    }

    const QString selected = QString::fromStdString(s.selected);
    const QString alive = instancesKnown() ? tr("%1 instance(s) alive").arg(s.instances.size())
                                           : tr("instances unknown while Redis is unreachable");
    m_summary->setText(s.now <= 0
                           ? tr("No counts read yet.")
                           : tr("Fleet: <b>%1</b> hits in the last %2 s · %3: <b>%4</b> · %5")
                                 .arg(locale.toString(qulonglong(s.totalWindow)))
                                 .arg(s.windowSeconds)
                                 .arg(selected.isEmpty() ? tr("no item") : selected.toHtmlEscaped())
                                 .arg(locale.toString(qulonglong(s.selectedWindow)))
                                 .arg(alive));

    // The window, one point per second.
    const auto fill = [&](QCPGraph* graph, const std::vector<Count>& series, Timestamp end) {
        QVector<double> keys, values;
        const double first = double(end - Timestamp(series.size()) + 1);
        for (std::size_t i = 0; i < series.size(); ++i) {
            keys.push_back(first + double(i));
            values.push_back(double(series[i]));
        }
        graph->setData(keys, values, true);
    };
    fill(m_totalGraph, s.total, s.now);
    fill(m_itemGraph, s.selectedSeries, s.selectedNow);
    m_itemGraph->setName(selected.isEmpty() ? tr("selected item") : selected);
    // Before any count was read, the axis still shows the window of the wall clock.
    const double end = s.now > 0 ? double(s.now) : std::floor(s.polledAt) - 2;
    m_plot->xAxis->setRange(end - double(s.windowSeconds) + 0.5, end + 0.5);
    drawHistory(s, end);
    bool found = false;
    const QCPRange values = m_totalGraph->getValueRange(found);
    m_plot->yAxis->setRange(0, found ? std::max(1.0, values.upper * 1.1) : 1.0);
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    const QSignalBlocker blockTop(m_top);
    m_updating = true;
    m_top->setRowCount(int(s.top.size()));
    for (std::size_t i = 0; i < s.top.size(); ++i) {
        const auto& row = s.top[i];
        const QString key = QString::fromStdString(row.key);
        setRow(m_top, int(i),
               {QStringLiteral("%1. %2").arg(i + 1).arg(key),
                locale.toString(qulonglong(row.window)), locale.toString(qulonglong(row.uniques))});
        m_top->item(int(i), 0)->setData(Qt::UserRole, key);
        if (key == selected) {
            m_top->selectRow(int(i));
        }
    }
    m_updating = false;

    drawInstances(s);

    m_nodes->setRowCount(int(s.nodes.size()));
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        const auto& n = s.nodes[i];
        const bool answered = n.state == "ok";
        setRow(m_nodes, int(i),
               {QString::fromStdString(n.address),
                n.role == "replica" && !n.masterAddress.empty()
                    ? tr("replica of %1").arg(shortAddress(n.masterAddress, n.address))
                    : QString::fromStdString(n.role),
                n.role == "master" ? locale.toString(n.slots) : QStringLiteral("–"),
                answered ? locale.toString(n.commandsPerSecond, 'f', 0) : QStringLiteral("–"),
                answered ? formatBytes(std::size_t(n.usedMemory)) : QStringLiteral("–"),
                QString::fromStdString(n.state)},
               2);
        m_nodes->item(int(i), 5)->setForeground(answered ? palette().text().color() : alarmColor());
    }
}

void FleetView::drawInstances(const fleet::FleetSnapshot& s) {
    const QLocale locale;
    const bool known = instancesKnown();
    m_instancesTitle->setText(known ? tr("<b>Instances</b> (alive)")
                                    : tr("<b>Instances</b> (last known; alive unknown while "
                                         "Redis is unreachable)"));
    const QColor unknown = palette().color(QPalette::Disabled, QPalette::Text);
    m_instances->setRowCount(int(s.instances.size()));
    for (std::size_t i = 0; i < s.instances.size(); ++i) {
        const auto& h = s.instances[i];
        setRow(m_instances, int(i),
               {QString::fromStdString(h.name), locale.toString(h.hitRate, 'f', 0),
                known ? tr("%1 ago").arg(seconds(std::max(0.0, s.polledAt - h.lastFlush)))
                      : QDateTime::fromMSecsSinceEpoch(qint64(h.lastFlush * 1000))
                            .toString(QStringLiteral("hh:mm:ss")),
                seconds(h.lagSeconds), locale.toString(qulonglong(h.droppedHits)),
                known ? tr("alive") : tr("unknown")});
        for (int c = 0; c < m_instances->columnCount(); ++c) {
            m_instances->item(int(i), c)->setForeground(known ? palette().text().color() : unknown);
        }
    }
}

void FleetView::drawHistory(const fleet::FleetSnapshot& s, double end) {
    for (QCPAbstractItem* item : m_marks) {
        m_plot->removeItem(item);
    }
    m_marks.clear();
    const QLocale locale;
    const auto clock = [](double unix) {
        return QDateTime::fromMSecsSinceEpoch(qint64(unix * 1000))
            .toString(QStringLiteral("hh:mm:ss"));
    };
    const QColor down(217, 48, 37);
    const auto label = [&](double x, const QString& text) {
        auto* item = new QCPItemText(m_plot);
        item->position->setTypeX(QCPItemPosition::ptPlotCoords);
        item->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        item->position->setCoords(x, 0.02);
        item->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        item->setText(text);
        item->setColor(down);
        item->setClipToAxisRect(true);
        m_marks << item;
    };
    const double first = end - double(s.windowSeconds) + 0.5;
    QStringList lines;
    for (const fleet::FleetOutage& o : s.outages) {
        const double to = o.to > 0 ? o.to : end + 0.5;
        if (to >= first) {  // on the timeline: a red band over the seconds it lasted
            auto* band = new QCPItemRect(m_plot);
            for (QCPItemPosition* corner : {band->topLeft, band->bottomRight}) {
                corner->setTypeX(QCPItemPosition::ptPlotCoords);
                corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
            band->topLeft->setCoords(o.from, 0);
            band->bottomRight->setCoords(std::max(to, o.from + 1), 1);
            QColor fill = down;
            fill.setAlpha(40);
            band->setBrush(fill);
            band->setPen(QPen(down, 1, Qt::DashLine));
            band->setClipToAxisRect(true);
            m_marks << band;
            label(std::max(o.from, first), o.restarted ? tr("Redis restarted") : tr("Redis down"));
        }
    }
    if (!s.outages.empty()) {
        const fleet::FleetOutage& o = s.outages.back();
        lines << (o.to > 0
                      ? tr("Redis was unreachable from %1 to %2 (%3)%4.")
                            .arg(clock(o.from), clock(o.to), seconds(std::max(0.0, o.to - o.from)),
                                 o.restarted ? tr(" and came back as a new process") : QString())
                      : tr("Redis unreachable since %1.").arg(clock(o.from)));
    }
    if (s.loss) {
        const fleet::FleetLoss& l = *s.loss;
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(l.at, 0);
        line->point2->setCoords(l.at, 1);
        line->setPen(QPen(down, 2));
        line->setClipToAxisRect(true);
        m_marks << line;
        const QString until = clock(double(l.lastShortSecond + s.windowSeconds));
        lines << tr("Redis lost its data at %1: the fleet count fell from %2 to %3 (%4 hits "
                    "of seconds read before are gone; the count is whole again at %5, when "
                    "they have left the window). %6")
                     .arg(clock(l.at).left(5), locale.toString(qulonglong(l.before)),
                          locale.toString(qulonglong(l.after)),
                          locale.toString(qulonglong(l.lostHits)), until)
                     .arg(l.logsLeft ? tr("`rebuild` restores it from the instances' logs: "
                                          "hitcounter-cli rebuild --redis %1")
                                           .arg(m_url)
                                     : tr("The instances' logs went with it, so `rebuild` cannot "
                                          "restore it: run the fleet's Redis with appendonly yes "
                                          "(docs/redis.md)."));
    }
    m_notice->setText(lines.join(QLatin1Char('\n')));
    m_notice->setVisible(!lines.isEmpty());
}

void FleetView::applyTheme(const Theme& theme) {
    m_dark = theme.dark;
    stylePlot(*m_plot, theme);
    m_totalGraph->setPen(QPen(theme.accent, 1.5));
    QColor fillColor = theme.accent;
    fillColor.setAlpha(50);
    m_totalGraph->setBrush(fillColor);
    m_itemGraph->setPen(QPen(QColor(QStringLiteral("#e8710a")), 2));
    m_notice->setStyleSheet(noticeStyleSheet(m_dark));
    showState(m_state, m_status->text());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace hitcounter::ui
