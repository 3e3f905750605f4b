'use strict';
/**
 * `react-dom/client` for the bundle (rollup.config.mjs points every import of it here but this file's
 * own): react-dom's start-up runs once the bundle has evaluated, not during its evaluation. See
 * `lazyReactDomClient` there for why.
 */
let client;
function load() {
  if (!client) client = require('react-dom/client');
  return client;
}

// A microtask runs once the whole bundle has evaluated, before any other task, and after the first
// requests have gone out (src/after-evaluation.ts).
const started = Promise.resolve().then(load);

/**
 * A root asked for during the evaluation: the bundle's `customElements.define` upgrades the page's
 * elements at once, and r2wc creates each one's root and renders into it then. The real root is made
 * once react-dom has started, a microtask later, and what it was asked meanwhile is done then, in order.
 */
function rootAfterStart(container, options) {
  let root;
  const calls = [];
  void started.then(() => {
    root = client.createRoot(container, options);
    for (const call of calls.splice(0)) call(root);
  });
  const later = (call) => (root ? call(root) : calls.push(call));
  return {
    render(children) {
      later((real) => real.render(children));
    },
    unmount() {
      later((real) => real.unmount());
    },
  };
}

exports.createRoot = function createRoot(container, options) {
  return client ? client.createRoot(container, options) : rootAfterStart(container, options);
};
