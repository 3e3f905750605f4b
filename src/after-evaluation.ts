/**
 * A promise that is already settled: `await afterEvaluation` (or `.then`) runs the rest in a microtask,
 * which, during the bundle's start-up, is right after the whole bundle has evaluated and before any
 * other task. Network requests (`fetch`, `import()`) and cookie reads wait for it.
 *
 * Why: when a script makes such a call, the browser records where it was made, and V8 then re-parses
 * every function on the stack for the source positions it skipped when it compiled them. While the
 * bundle evaluates, one of those functions is the module's whole top level, the 260 KB entry: 30–50 ms
 * of blocked main thread at 1× CPU, and 100 ms and more at 4× (test/bench/README.md). One microtask
 * later, the stack holds only the small function that makes the call.
 */
export const afterEvaluation: Promise<void> = Promise.resolve();
