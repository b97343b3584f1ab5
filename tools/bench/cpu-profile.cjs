// Preloaded into the apps of a benchmark's stack with BENCH_CPU_PROF=<dir>
// (NODE_OPTIONS=--require; Node refuses --cpu-prof there): the first
// SIGUSR2 starts V8's CPU profiler, the next writes the profile to
// <dir>/<app>-<pid>-<n>.cpuprofile (open it in Chrome DevTools or
// speedscope), and so on, so the benchmark profiles exactly its measured runs.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const dir = process.env.BENCH_CPU_PROF;
const app = basename(dirname(process.argv[1] ?? 'app'));
const session = new inspector.Session();
session.connect();
let running = false;
let n = 0;
process.on('SIGUSR2', () => {
  if (!running) {
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    running = true;
    return;
  }
  running = false;
  session.post('Profiler.stop', (err, result) => {
    if (!err) writeFileSync(join(dir, `${app}-${process.pid}-${(n += 1)}.cpuprofile`), JSON.stringify(result.profile));
  });
});
