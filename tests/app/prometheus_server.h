// A real Prometheus (Debian's prometheus 2.42) for the tests: started on a free 127.0.0.1 port
// with a temporary storage folder and a scrape config of our own, stopped by the destructor.
// Queries go through its HTTP API. Never the packaged service (scripts/install-deps.sh stops
// that one): nothing here touches port 9090 or /var/lib/prometheus.
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>

#include <optional>
#include <string>

#include "core/net/socket_util.h"
#include "tests/http/http_client.h"

class PrometheusServer {
public:
    ~PrometheusServer() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(20000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
    }

    // Starts it scraping 127.0.0.1:`targetPort` every second and waits (bounded) until it is
    // ready; false (with the reason in error()) otherwise. Retries on fresh ports when the
    // free port it picked was taken before it bound.
    bool start(quint16 targetPort, int timeoutMs = 90000) {
        QFile config(m_dir.filePath("prometheus.yml"));
        if (!config.open(QIODevice::WriteOnly))
            return fail("cannot write the scrape config");
        config.write(QStringLiteral("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                                    "scrape_configs:\n  - job_name: hitcounter\n"
                                    "    static_configs:\n      - targets: ['127.0.0.1:%1']\n")
                         .arg(targetPort)
                         .toUtf8());
        config.close();
        for (int attempt = 0; attempt < 3; ++attempt) {
            m_port = freePort();
            m_process.setProcessChannelMode(QProcess::MergedChannels);
            m_process.start(QStringLiteral("prometheus"),
                            {QStringLiteral("--config.file=") + config.fileName(),
                             QStringLiteral("--storage.tsdb.path=") + m_dir.filePath("data"),
                             QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port),
                             QStringLiteral("--log.level=warn")});
            if (!m_process.waitForStarted(30000))
                return fail("prometheus did not start (scripts/install-deps.sh installs it)");
            QElapsedTimer timer;
            timer.start();
            while (timer.elapsed() < timeoutMs && m_process.state() != QProcess::NotRunning) {
                if (hitcounter::testing::httpGet(m_port, "/-/ready").status == 200)
                    return true;
                m_process.waitForFinished(200);
            }
            m_log += m_process.readAll();
            if (m_process.state() != QProcess::NotRunning) {
                m_process.kill();
                m_process.waitForFinished(5000);
                return fail("prometheus was not ready in time");
            }
        }
        return fail("prometheus ended at start");
    }

    // The result of an instant query (the API's data.result), at `time` (unix seconds) if set.
    QJsonArray query(const QString& promql, std::optional<double> time = std::nullopt) const {
        QString path = QStringLiteral("/api/v1/query?query=") +
                       QString::fromLatin1(QUrl::toPercentEncoding(promql));
        if (time)
            path += QStringLiteral("&time=") + QString::number(*time, 'f', 3);
        const auto reply = hitcounter::testing::httpGet(m_port, path.toStdString());
        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(reply.body)).object();
        return json.value(QStringLiteral("data"))
            .toObject()
            .value(QStringLiteral("result"))
            .toArray();
    }

    // The value of a one-element instant vector, or std::nullopt.
    std::optional<double> scalar(const QString& promql,
                                 std::optional<double> time = std::nullopt) const {
        const QJsonArray result = query(promql, time);
        if (result.size() != 1)
            return std::nullopt;
        return result[0]
            .toObject()
            .value(QStringLiteral("value"))
            .toArray()[1]
            .toString()
            .toDouble();
    }

    QString error() const { return m_error + QStringLiteral("\n") + QString::fromUtf8(m_log); }

private:
    static quint16 freePort() {
        const auto socket = hitcounter::bindSocket(
            SOCK_STREAM, hitcounter::parseEndpoint("127.0.0.1:0"), "free port");
        return hitcounter::localPort(socket.get());
    }
    bool fail(const char* why) {
        m_error = QString::fromLatin1(why);
        return false;
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    QString m_error;
    QByteArray m_log;
};
