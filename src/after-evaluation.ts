/**
 * A promise that is already settled: `await afterEvaluation` (or `.then`) runs the rest in a microtask,
 * which, during the bundle's start-up, is right after the whole bundle has evaluated and before any
 * other task. Network requests (`fetch`, `import()`) and cookie reads wait for it.
 *
 * Why: when a script makes such a call, the browser records where it was made, and V8 then re-parses
 * every function on the stack for the source positions it skipped when it compiled them. While the
 * bundle evaluates, one of those functions is the module's whole top level, the entire entry, and the
 * page waits for its re-parse. One microtask later, the stack holds only the small function that makes
 * the call. See docs/decisions/after-evaluation.md.
 */
export const afterEvaluation: Promise<void> = Promise.resolve();
