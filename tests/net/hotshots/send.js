// Sends N statsd increments of one metric to 127.0.0.1:PORT over TCP with the hot-shots
// client, closes the client (which flushes), and exits 0 only if hot-shots reported no error.
// Usage: node send.js PORT N [METRIC]
'use strict';
const StatsD = require('hot-shots');

const [port, count, metric = 'hotshots.test'] = process.argv.slice(2);
const n = Number.parseInt(count, 10);
if (!(Number.parseInt(port, 10) > 0) || !(n >= 0)) {
  console.error('usage: node send.js PORT N [METRIC]');
  process.exit(2);
}

let failed = false;
const client = new StatsD({
  host: '127.0.0.1',
  port: Number.parseInt(port, 10),
  protocol: 'tcp',
  errorHandler: (error) => {
    failed = true;
    console.error(`hot-shots: ${error.message}`);
  },
});
for (let i = 0; i < n; ++i) {
  client.increment(metric);
}
client.close((error) => {
  if (error) {
    failed = true;
    console.error(`hot-shots close: ${error.message}`);
  }
  console.log(`sent ${n} increments of ${metric}`);
  process.exitCode = failed ? 1 : 0;
});
