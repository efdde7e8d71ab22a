/**
 * Preloaded (`node --import`) into every app the bench spawns: when the bench
 * itself is gone (killed with SIGKILL, or its terminal closed), the app is
 * re-parented, and this sends it SIGTERM so that it drains and leaves its
 * consumer group instead of living on. An orphaned BFF of an earlier run
 * shares the Redis read model and live adapter with the next run, under
 * another adapter key, and would take part of its pushes (a killed run's BFF
 * that lived on cost a later run live arrivals).
 * Checks the parent once a second; the timer never keeps the app alive. The
 * parent is the pid in BENCH_PARENT_PID (set by the spawner: a bench killed
 * before this preload ran is noticed too), else the parent found at start.
 */
const parent = Number(process.env.BENCH_PARENT_PID) || process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, 'SIGTERM');
}, 1000);
watch.unref();
