/**
 * Preloaded (`--import`) into the server processes the bench starts — the identity server and the bare
 * Fastify route alike, so both carry the same cost. It measures the process's event-loop delay with
 * Node's own histogram and answers the bench's `loop-delay` message over the IPC channel (then starts
 * afresh), so the server needs no bench-only route.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

if (process.send) {
  process.on('message', (message) => {
    if (message !== 'loop-delay') return;
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    process.send?.({
      loopDelay: {
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      },
    });
    histogram.reset();
  });
  // The channel must not keep a stopping server alive.
  process.channel?.unref();
}
