#!/usr/bin/env bash
# A sample combined-format access log for trying the monitor and for docs screenshots:
# 40 minutes of traffic on 60 pages with a daily-looking swell, redirects, a scanner hitting
# missing pages (404 bursts) and a short backend incident (503s), gzipped.
#   scripts/sample-access-log.sh [OUT=/tmp/hitcounter-sample/access.log.gz]
# Then: build/default/app/hitcounter --replay OUT --seek 1700001720 --status-split stacked
set -euo pipefail
out="${1:-/tmp/hitcounter-sample/access.log.gz}"
mkdir -p "$(dirname "$out")"
awk 'BEGIN {
    srand(7); t0 = 1700000000
    for (s = 0; s < 2400; s++) {
        rate = 40 + 25 * sin(s / 2400 * 3.14159) + 10 * sin(s / 97)
        incident = (s >= 1560 && s < 1680)
        scanner = (s % 600 >= 300 && s % 600 < 330)
        n = int(rate + rand() * 10)
        for (i = 0; i < n; i++) {
            page = int(rand() * rand() * 60)
            status = 200
            r = rand()
            if (r < 0.12) status = 304; else if (r < 0.16) status = 301
            else if (r < 0.19) status = 404
            if (incident && rand() < 0.45) status = 503
            if (rand() < 0.004) status = 500
            t = t0 + s
            if (rand() < 0.02) t -= int(rand() * 4)  # logged when it ended: a little late
            hh = int(t % 86400 / 3600); mm = int(t % 3600 / 60); ss = t % 60
            printf "10.%d.%d.%d - - [14/Nov/2023:%02d:%02d:%02d +0000] \"GET /page/%d?ref=%d HTTP/1.1\" %d %d \"https://example.com/\" \"Mozilla/5.0 (X11; Linux x86_64)\"\n",
                int(rand() * 4), int(rand() * 250), int(rand() * 250), hh, mm, ss, page,
                int(rand() * 9), status, 200 + int(rand() * 9000)
        }
        if (scanner)
            for (i = 0; i < 25; i++) {
                hh = int((t0 + s) % 86400 / 3600); mm = int((t0 + s) % 3600 / 60); ss = (t0 + s) % 60
                printf "203.0.113.9 - - [14/Nov/2023:%02d:%02d:%02d +0000] \"GET /wp-admin/%d.php HTTP/1.1\" 404 162 \"-\" \"scanner\"\n",
                    hh, mm, ss, i
            }
    }
}' | gzip -9 > "$out"
echo "$out"
